"""The chat log: append-only monthly Markdown files in the original app's format.

A file `logs/YYYY-MM.txt` holds entries like::

    ## USER:Mina
    <!-- nexus id=20261122T054012-3f9a1c ts=2026-11-22T05:40:12+00:00 -->
    こんにちは

A header line `## USER:name`, `## AGENT:name` or `## SYSTEM:tag`, then the body, as in the
original Nexus Ark, so its parser still reads these files; the comment line right after the
header carries a stable id and a timestamp. Nothing is ever rewritten: an edit is a
`## SYSTEM:edit` entry naming its target, a deletion a `## SYSTEM:delete` entry, a regenerated
reply an AGENT entry with `replaces=`; `fold_view` applies them for display and prompts.
"""
from __future__ import annotations

import hashlib
import re
import secrets
import threading
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable, Mapping

from managers.store import append_durably, file_lock

ROLES = ("USER", "AGENT", "SYSTEM")
_HEADER = re.compile(r"^## (USER|AGENT|SYSTEM):(.*)$")
_ESCAPED_HEADER = re.compile(r"^(\\*)## (USER|AGENT|SYSTEM):")
_META = re.compile(r"^<!-- nexus (.*) -->$")
_META_PAIR = re.compile(r"(\w+)=(\S+)")
_LOG_NAME = re.compile(r"^\d{4}-\d{2}\.txt$")

EDIT_TAG = "edit"
DELETE_TAG = "delete"
STATUS_RECOVERED = "recovered"
STATUS_STOPPED = "stopped"
# Starts every line the chat log keeps about a tool the persona used; such lines are the app's, not
# words anyone said, so memory and the history leave them out (`spoken_text`).
ANNOUNCEMENT_MARK = "🛠️ "


@dataclass(frozen=True)
class LogEntry:
    role: str  # USER / AGENT / SYSTEM
    name: str  # speaker name, or the SYSTEM tag
    text: str
    id: str
    ts: datetime | None
    meta: Mapping[str, str] = field(default_factory=dict)
    source: str = ""  # file name, for provenance

    @property
    def is_dialogue(self) -> bool:
        return self.role in ("USER", "AGENT")


def spoken_text(text: str) -> str:
    """A logged message without the app's tool announcement lines."""
    if ANNOUNCEMENT_MARK not in text:
        return text
    return "\n".join(line for line in text.split("\n") if not line.startswith(ANNOUNCEMENT_MARK)).strip()


def escape_body(text: str) -> str:
    """Keep a body line that looks like a header from being read as one."""
    return "\n".join(
        "\\" + line if _ESCAPED_HEADER.match(line) else line for line in text.split("\n")
    )


def unescape_body(text: str) -> str:
    lines = []
    for line in text.split("\n"):
        match = _ESCAPED_HEADER.match(line)
        lines.append(line[1:] if match and match.group(1) else line)
    return "\n".join(lines)


def format_entry(entry: LogEntry) -> str:
    meta = {"id": entry.id}
    if entry.ts is not None:
        meta["ts"] = entry.ts.isoformat(timespec="seconds")
    meta.update({k: v for k, v in entry.meta.items() if k not in ("id", "ts")})
    meta_text = " ".join(f"{k}={_meta_value(v)}" for k, v in meta.items())
    body = escape_body(entry.text.replace("\r\n", "\n").rstrip("\n"))
    return f"## {entry.role}:{entry.name}\n<!-- nexus {meta_text} -->\n{body}\n\n"


def _meta_value(value: str) -> str:
    cleaned = re.sub(r"\s+", "_", str(value)).replace("-->", "")
    return cleaned or "_"


def parse_log_text(text: str, source: str = "") -> list[LogEntry]:
    """Parse one log file. Entries without our meta line (imported logs) get a derived id."""
    entries: list[LogEntry] = []
    current: tuple[str, str] | None = None
    body: list[str] = []

    def close() -> None:
        if current is None:
            return
        role, name = current
        meta: dict[str, str] = {}
        lines = body
        if lines and (match := _META.match(lines[0])):
            meta = dict(_META_PAIR.findall(match.group(1)))
            lines = lines[1:]
        text_body = unescape_body("\n".join(lines).strip("\n"))
        entry_id = meta.pop("id", "") or _derived_id(source, len(entries), role, text_body)
        ts = parse_timestamp(meta.pop("ts", ""))
        entries.append(LogEntry(role, name.strip(), text_body, entry_id, ts, meta, source))

    for line in text.split("\n"):
        header = _HEADER.match(line)
        if header:
            close()
            current, body = (header.group(1), header.group(2)), []
        elif current is not None:
            body.append(line)
    close()
    return entries


def _derived_id(source: str, index: int, role: str, text: str) -> str:
    digest = hashlib.sha1(f"{source}|{index}|{role}|{text}".encode("utf-8")).hexdigest()
    return f"imported-{digest[:12]}"


def parse_timestamp(value: str) -> datetime | None:
    """A stored ISO timestamp; one without an offset (a hand-edited or imported log) is taken as
    UTC, the app's own, so it can be compared with the clock. None if empty or malformed."""
    try:
        parsed = datetime.fromisoformat(value) if value else None
    except ValueError:
        return None
    return parsed.replace(tzinfo=timezone.utc) if parsed and parsed.tzinfo is None else parsed


def fold_view(entries: Iterable[LogEntry]) -> list[LogEntry]:
    """The conversation as the user sees it: edits applied, deletions and replaced replies gone."""
    dialogue: dict[str, LogEntry] = {}
    for entry in entries:
        if entry.is_dialogue:
            dialogue[entry.id] = entry
            replaced = entry.meta.get("replaces")
            if replaced and replaced in dialogue:
                del dialogue[replaced]
        elif entry.name == EDIT_TAG and entry.meta.get("target") in dialogue:
            target = entry.meta["target"]
            dialogue[target] = replace(dialogue[target], text=entry.text)
        elif entry.name == DELETE_TAG:
            dialogue.pop(entry.meta.get("target", ""), None)
    return list(dialogue.values())


class ChatLog:
    """One character's log folder. Appends are durable (fsync) before they return."""

    def __init__(self, logs_dir: Path, clock: Callable[[], datetime]):
        self.logs_dir = logs_dir
        self._clock = clock
        self._lock = threading.RLock()
        self._entries: list[LogEntry] | None = None
        self._view: list[LogEntry] | None = None
        self._by_id: dict[str, LogEntry] = {}
        # Moves on with every change; each move either appends one message to the folded conversation or
        # is an edit, deletion or reload (the revision then noted in `_refolded_at`).
        self._revision = 0
        self._refolded_at = 0

    def appended_since(self, revision: int) -> tuple[int, list[LogEntry] | None]:
        """(the revision now, the folded conversation's messages appended since `revision`), or None
        for them when the log changed otherwise since then: what was read of it must be read again."""
        with self._lock:
            if revision < self._refolded_at:
                return self._revision, None
            view = self._folded()
            return self._revision, view[len(view) - (self._revision - revision):]

    def files(self) -> list[Path]:
        if not self.logs_dir.exists():
            return []
        return sorted(p for p in self.logs_dir.iterdir() if _LOG_NAME.match(p.name))

    def entries(self) -> list[LogEntry]:
        """Every entry in file order (the cached list itself: read it, never mutate it)."""
        with self._lock:
            if self._entries is None:
                loaded: list[LogEntry] = []
                for path in self.files():
                    text = path.read_text(encoding="utf-8", errors="replace")
                    loaded.extend(parse_log_text(text, source=path.name))
                self._entries = loaded
            return self._entries

    def _folded(self) -> list[LogEntry]:
        """The folded conversation, kept up to date as entries are appended (no re-fold per turn);
        the caller holds the lock and does not change it."""
        if self._view is None:
            self._view = fold_view(self.entries())
            self._by_id = {e.id: e for e in self._view}
        return self._view

    def view(self) -> list[LogEntry]:
        """The whole folded conversation (a copy: ~1 ms per call at 100k messages)."""
        with self._lock:
            return list(self._folded())

    def recent(self, count: int) -> list[LogEntry]:
        """The newest `count` entries of the folded conversation: what a turn needs, at a cost
        that does not grow with the history."""
        with self._lock:
            return self._folded()[-count:] if count > 0 else []

    def find(self, entry_id: str) -> LogEntry | None:
        with self._lock:
            self._folded()
            return self._by_id.get(entry_id)

    def new_id(self, now: datetime) -> str:
        return f"{now.strftime('%Y%m%dT%H%M%S')}-{secrets.token_hex(3)}"

    def append(self, role: str, name: str, text: str, **meta: str) -> LogEntry:
        if role not in ROLES:
            raise ValueError(f"unknown role {role!r}")
        now = self._clock()
        with self._lock:
            self.entries()
            entry = LogEntry(role, name, text, self.new_id(now), now, dict(meta))
            path = self.logs_dir / f"{now.astimezone().strftime('%Y-%m')}.txt"
            entry = replace(entry, source=path.name)
            with file_lock(path):
                append_durably(path, format_entry(entry))
            self._entries.append(entry)
            self._revision += 1
            if self._view is not None and entry.is_dialogue and "replaces" not in entry.meta:
                self._view.append(entry)
                self._by_id[entry.id] = entry
            else:
                self._view = None  # an edit, deletion or replacement: fold again on next read
                self._refolded_at = self._revision
            return entry

    def record_edit(self, target_id: str, new_text: str) -> LogEntry:
        if self.find(target_id) is None:
            raise KeyError(target_id)
        return self.append("SYSTEM", EDIT_TAG, new_text, target=target_id)

    def record_delete(self, target_id: str) -> LogEntry:
        if self.find(target_id) is None:
            raise KeyError(target_id)
        return self.append("SYSTEM", DELETE_TAG, "", target=target_id)

    def invalidate(self) -> None:
        with self._lock:
            self._entries = None
            self._view = None
            self._revision += 1
            self._refolded_at = self._revision
