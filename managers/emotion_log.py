"""The persona's emotion log on disk: `memory/emotion_log.jsonl`, one JSON object a line, appended
and fsynced (seed 004 §9; JSON Lines rather than the seed's one array, so a reply's entry is one
durable append, never a rewrite of the whole history).

A line in the seed's shape: {"timestamp", "type": "persona", "category", "intensity", "message_id"}.
Lines written before issue 20 ({"ts", "message_id", "category", "intensity"}, in a twelve-label
list) are read as they are: their label is mapped to the seed's seven by
`constants.LEGACY_EMOTION_MAP` and kept beside it (`original`), so no entry is lost or rewritten.
A line that cannot be read is skipped and logged, the file left as it is.
"""
from __future__ import annotations

import json
import logging
import math
from collections import deque
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import constants
from managers.chat_log import parse_timestamp
from managers.store import append_durably

log = logging.getLogger(__name__)

EMOTION_LOG_FILE = "emotion_log.jsonl"


def seed_category(label: str) -> str | None:
    """The seed's category for a label: itself, its mapping from the old list, or None."""
    label = (label or "").strip().lower()
    if label in constants.EMOTION_CATEGORIES:
        return label
    return constants.LEGACY_EMOTION_MAP.get(label)


@dataclass(frozen=True)
class EmotionEntry:
    at: datetime  # aware
    category: str  # one of constants.EMOTION_CATEGORIES
    intensity: float  # 0..1
    message_id: str = ""
    original: str = ""  # the label as logged, when it was not one of the seed's seven
    kind: str = "persona"  # the seed's "type": the persona's own emotion (Phase F)


def entry_from_record(record: object) -> EmotionEntry | None:
    """One logged line, in either format; None for a line that is not an emotion entry."""
    if not isinstance(record, dict):
        return None
    at = parse_timestamp(str(record.get("timestamp") or record.get("ts") or ""))
    label = str(record.get("category") or record.get("emotion") or "").strip().lower()
    if at is None or not label:
        return None
    mapped = seed_category(label)
    category = mapped or constants.UNKNOWN_EMOTION_CATEGORY
    original = str(record.get("original") or "") or ("" if label == category else label)
    raw = record.get("intensity", 0.5)
    try:
        intensity = float(raw)
    except (TypeError, ValueError):
        intensity = 0.5
    if math.isnan(intensity):
        intensity = 0.5
    intensity = min(constants.EMOTION_INTENSITY_MAX, max(constants.EMOTION_INTENSITY_MIN, intensity))
    return EmotionEntry(at, category, intensity, str(record.get("message_id") or ""), original,
                        str(record.get("type") or "persona"))


class EmotionLog:
    def __init__(self, memory_dir: Path):
        self.path = memory_dir / EMOTION_LOG_FILE

    def append(self, at: datetime, category: str, intensity: float, message_id: str = "") -> EmotionEntry:
        """Log the persona's emotion (a seed category, or an old label, mapped and kept)."""
        mapped = seed_category(category)
        if mapped is None:
            raise ValueError(f"An emotion is one of {', '.join(constants.EMOTION_CATEGORIES)}, not {category!r}.")
        level = min(constants.EMOTION_INTENSITY_MAX, max(constants.EMOTION_INTENSITY_MIN, float(intensity)))
        record = {"timestamp": at.isoformat(timespec="seconds"), "type": "persona", "category": mapped,
                  "intensity": round(level, 3), "message_id": message_id}
        if mapped != category.strip().lower():
            record["original"] = category.strip().lower()
        append_durably(self.path, json.dumps(record, ensure_ascii=False) + "\n")
        return entry_from_record(record)

    def entries(self, since: datetime | None = None) -> list[EmotionEntry]:
        """Every readable entry (at or after `since`), oldest first."""
        return [e for e in self._read(None) if since is None or e.at >= since]

    def recent(self, count: int = constants.EMOTION_RECENT_ENTRIES) -> list[EmotionEntry]:
        """The newest `count` entries, oldest first."""
        return self._read(count)

    def _read(self, count: int | None) -> list[EmotionEntry]:
        if not self.path.exists():
            return []
        lines = deque(maxlen=count) if count else []
        skipped = 0
        with open(self.path, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if not line.strip():
                    continue
                try:
                    entry = entry_from_record(json.loads(line))
                except json.JSONDecodeError:
                    entry = None
                if entry is None:
                    skipped += 1
                    continue
                lines.append(entry)
        if skipped:
            log.warning("%s: %d line(s) could not be read and were skipped (the file is left as it is)",
                        self.path, skipped)
        return sorted(lines, key=lambda e: e.at)
