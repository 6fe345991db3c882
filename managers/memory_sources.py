"""Memory sources other than the chat logs, read into recall items (seed 004, RAG検索システム):

- `memory/episodic_memory.json` — daily (and compressed weekly) episode summaries, an array of
  {"date", "summary", "arousal" | "arousal_max" | "arousal_avg", ...};
- `memory/insights.json` — the dream diary, an array of
  {"created_at", "trigger_topic", "insight", "strategy", "log_entry"};
- `memory/memory*.txt` — the persona's diaries (`memory_main.txt`, `memory_archived_*.txt`),
  split into the seed's 300/50-character chunks.

The formats are the original app's, so its users' files are recalled as they are. An item's key
carries a hash of its text: an edited episode becomes a new item and the old one leaves.
Episodes and insights carry their dates; a diary chunk carries the time it was first indexed.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from managers.documents import chunk_text
from managers.episodes import EPISODES_FILE
from managers.memory_db import Item

MEMORY_SOURCE_PREFIX = "memory/"  # the items' `source` is the file's path in the character folder
INSIGHTS_FILE = "insights.json"
DIARY_PATTERN = "memory*.txt"
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class SourceUnreadable(ValueError):
    """A memory source that cannot be read as its format says (the reason is safe to show)."""


@dataclass(frozen=True)
class MemorySource:
    name: str  # the items' `source`: the path under the character folder
    path: Path
    parse: Callable[[bytes, str, str], list[Item]]  # (content, source name, time now as ISO) -> items

    def read(self, raw: bytes, now: str) -> list[Item]:
        """Every item the file holds now (raises SourceUnreadable)."""
        return self.parse(raw, self.name, now)


def memory_sources(character_root: Path) -> list[MemorySource]:
    """The memory sources present in a character folder."""
    folder = character_root / "memory"
    found = []
    for file_name, read in ((EPISODES_FILE, episode_items), (INSIGHTS_FILE, insight_items)):
        if (folder / file_name).is_file():
            found.append(MemorySource(MEMORY_SOURCE_PREFIX + file_name, folder / file_name, read))
    found += [MemorySource(MEMORY_SOURCE_PREFIX + p.name, p, diary_items) for p in sorted(folder.glob(DIARY_PATTERN)) if p.is_file()]
    return found


def find_passage(character_root: Path, needle: str, max_chars: int) -> str | None:
    """The whole episode or dream-diary entry containing `needle`, or the diary passage from the
    paragraph where it occurs, at most `max_chars` (read_memory_context); None if no source holds it."""
    for source in memory_sources(character_root):
        try:
            raw = source.path.read_bytes()
            if source.parse is diary_items:
                text = raw.decode("utf-8", errors="replace")
                at = text.find(needle)
                if at >= 0:
                    start = text.rfind("\n\n", 0, at) + 1  # the paragraph's start (0 if none)
                    return f"Diary ({source.path.name}): {text[start:start + max_chars].strip()}"
                continue
            for item in source.read(raw, ""):
                if needle in item.text:
                    return item.text[:max_chars]
        except (OSError, SourceUnreadable):
            continue
    return None


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _records(raw: bytes, name: str) -> list[dict]:
    try:
        records = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise SourceUnreadable(f"{name} is not valid JSON ({exc}); it was left as it is and not indexed.") from exc
    if not isinstance(records, list):
        raise SourceUnreadable(f"{name} should hold a JSON array; it was left as it is and not indexed.")
    return [r for r in records if isinstance(r, dict)]


def _text(record: dict, field: str) -> str:
    value = record.get(field)
    return value.strip() if isinstance(value, str) else ""


def _day(text: str) -> str:
    """The last date in a text ("2025-11-04~2025-11-10" is as old as its last day), as an ISO time."""
    dates = _DATE.findall(text)
    return f"{dates[-1]}T00:00:00+00:00" if dates else ""


def _arousal(record: dict) -> float:
    for field in ("arousal", "arousal_max", "arousal_avg"):
        value = record.get(field)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return min(1.0, max(0.0, float(value)))
    return 0.0


def _standalone(key: str, kind: str, source: str, text: str, ts: str, arousal: float, body: str) -> Item:
    # Its own session: the ±2-message window of a chat message does not apply to a summary.
    return Item(key, kind, source, text, "", (), ts, arousal, body, key, 0)


def episode_items(raw: bytes, source: str, now: str = "") -> list[Item]:
    items = []
    for record in _records(raw, source):
        date, summary = _text(record, "date"), _text(record, "summary")
        if summary:
            heading = f"[{date}] Episode" if date else "Episode"
            items.append(_standalone(f"episode:{date}:{_digest(summary)}", "episodic_memory", source,
                                     f"{heading}: {summary}", _day(date), _arousal(record), summary))
    return items


def insight_items(raw: bytes, source: str, now: str = "") -> list[Item]:
    items = []
    for record in _records(raw, source):
        created, topic = _text(record, "created_at"), _text(record, "trigger_topic")
        parts = [_text(record, "insight"), _text(record, "strategy") and f"Strategy: {_text(record, 'strategy')}",
                 _text(record, "log_entry")]
        body = " ".join(p for p in parts if p)
        if body:
            heading = f"[{created[:10]}] Dream diary" if created else "Dream diary"
            heading += f" ({topic})" if topic else ""
            items.append(_standalone(f"insight:{created}:{_digest(body)}", "dream_insight", source,
                                     f"{heading}: {body}", _day(created), 0.0, body))
    return items


def _with_headings_joined(chunks: list[str]) -> list[str]:
    """A chunk that is only a heading ("## 2026-01-14", a diary entry's date) goes with the chunk
    after it: alone it was recalled as a memory that says nothing (§4, session 13)."""
    joined: list[str] = []
    pending = ""
    for chunk in chunks:
        if re.fullmatch(r"#{1,6} [^\n]*", chunk.strip()):
            pending = f"{pending}{chunk.strip()}\n"
            continue
        joined.append(pending + chunk)
        pending = ""
    return joined + ([pending.strip()] if pending else [])


def diary_items(raw: bytes, source: str, now: str = "") -> list[Item]:
    """Chunks of a diary; a new chunk is dated `now` (a chunk already indexed keeps its item)."""
    text = raw.decode("utf-8", errors="replace")
    items: dict[str, Item] = {}
    for position, chunk in enumerate(_with_headings_joined(chunk_text(text))):
        key = f"diary:{source}:{_digest(chunk)}"
        # One session per diary file: a chunk's window is the chunks around it.
        items.setdefault(key, Item(key, "diary", source, f"Diary ({Path(source).name}): {chunk}", "", (),
                                   now, 0.0, chunk, source, position))
    return list(items.values())

