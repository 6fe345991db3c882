"""Streaming journal: a write-ahead log for the reply being streamed (seed 000).

`open` → `write_text`… → `finalize` (file removed). If the process dies in between, the file
stays; on the next start `recover` returns what was streamed so it can be logged as a
recovered reply. Text is flushed (and fsync'd) every second or every 500 characters, so a
hard crash loses at most about a second of text. A torn last line is skipped.
"""
from __future__ import annotations

import json
import logging
import os
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable

import constants
from managers.store import fsync_dir

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class JournalRecovery:
    text: str
    reply_to: str
    speaker: str
    started_at: str
    completed: bool
    tool_calls: tuple[str, ...]


class StreamingJournal:
    def __init__(
        self,
        path: Path,
        clock: Callable[[], datetime],
        monotonic: Callable[[], float] = time.monotonic,
    ):
        self.path = path
        self._clock = clock
        self._monotonic = monotonic
        self._handle = None
        self._buffer: list[str] = []
        self._buffered_chars = 0
        self._last_flush = 0.0

    def has_orphan(self) -> bool:
        return self.path.exists() and self._handle is None

    def open(self, reply_to: str, speaker: str) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._handle = open(self.path, "w", encoding="utf-8")
        self._last_flush = self._monotonic()
        started = self._clock().isoformat(timespec="seconds")
        self._write_event({"event": "start", "reply_to": reply_to, "speaker": speaker, "ts": started})
        fsync_dir(self.path.parent)

    def write_text(self, fragment: str) -> None:
        if self._handle is None or not fragment:
            return
        self._buffer.append(fragment)
        self._buffered_chars += len(fragment)
        interval_due = self._monotonic() - self._last_flush >= constants.JOURNAL_FLUSH_INTERVAL_S
        if interval_due or self._buffered_chars >= constants.JOURNAL_FLUSH_SIZE_CHARS:
            self.flush()

    def write_tool(self, name: str) -> None:
        if self._handle is not None:
            self.flush()
            self._write_event({"event": "tool", "name": name})

    def flush(self) -> None:
        if self._handle is None or not self._buffer:
            return
        self._write_event({"event": "text", "text": "".join(self._buffer)})
        self._buffer, self._buffered_chars = [], 0
        self._last_flush = self._monotonic()

    def finalize(self) -> None:
        """The reply is safely in the chat log: the journal is no longer needed."""
        if self._handle is None:
            return
        self._buffer.clear()
        self._handle.close()
        self._handle = None
        self.path.unlink(missing_ok=True)
        fsync_dir(self.path.parent)

    def recover(self) -> JournalRecovery | None:
        """Read an orphaned journal (from a crash) and remove it. None if there is none."""
        if not self.path.exists():
            return None
        text_parts: list[str] = []
        start: dict = {}
        tools: list[str] = []
        completed = False
        for line in self.path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                log.warning("Skipping a torn journal line in %s", self.path)
                continue
            kind = event.get("event")
            if kind == "start":
                start = event
            elif kind == "text":
                text_parts.append(str(event.get("text", "")))
            elif kind == "tool":
                tools.append(str(event.get("name", "")))
            elif kind == "done":
                completed = True
        return JournalRecovery(
            text="".join(text_parts),
            reply_to=str(start.get("reply_to", "")),
            speaker=str(start.get("speaker", "")),
            started_at=str(start.get("ts", "")),
            completed=completed,
            tool_calls=tuple(tools),
        )

    def discard(self) -> None:
        self.path.unlink(missing_ok=True)

    def _write_event(self, event: dict) -> None:
        assert self._handle is not None
        self._handle.write(json.dumps(event, ensure_ascii=False) + "\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())
