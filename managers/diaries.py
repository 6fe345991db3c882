"""The persona's two diaries on disk (seed 004, 記憶関連ツール): the main diary
`memory/memory_main.txt` and the secret diary `memory/secret_diary.txt`, plain text a person can
read and edit.

An entry is a dated Markdown heading (`## 2026-03-14`) and the text below it; entries stand in date
order, and a day has at most one heading (the night's work and the persona's own notes of a day go
under the same one). Text before the first dated heading (a user's own notes, the original app's
file as it was) is left where it is.

Recall: `memory_main.txt` matches the diary pattern recall indexes (managers/memory_sources.py,
`memory*.txt`), so the main diary is recalled in conversation as the seed says. The secret diary's
name is outside that pattern on purpose: it is the persona's private thoughts, read by the persona
only when it chooses to (the `read_secret_diary` tool), never put into a reply's prompt by recall.
The user can still read and edit it in the Diary tab: it is the user's data.

Every rewrite backs the old file up first (CharacterFiles.backup, `backups/memory/…TIMESTAMP.bak`)
and replaces the file atomically, under its lock.
"""
from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from managers.store import CharacterFiles, atomic_write_text, file_lock

MAIN_DIARY = "main"
SECRET_DIARY = "secret"
DIARY_FILES = {MAIN_DIARY: "memory_main.txt", SECRET_DIARY: "secret_diary.txt"}

_HEADING = re.compile(r"^#{1,6}[ \t]*(\d{4}-\d{2}-\d{2})\b.*$", re.M)


class DiaryEditRefused(ValueError):
    """An edit that was not applied; the message says why and is safe to show (and to tell the model)."""


def entry_heading(day: date) -> str:
    return f"## {day.isoformat()}"


def entry_days(text: str) -> list[str]:
    """The ISO dates of the dated headings, in the order they stand."""
    return _HEADING.findall(text)


def entries_by_day(text: str) -> dict[str, str]:
    """Each dated heading's entry (ISO date -> its text up to the next dated heading); two headings
    of one day are joined."""
    headings = list(_HEADING.finditer(text))
    found: dict[str, str] = {}
    for number, heading in enumerate(headings):
        end = headings[number + 1].start() if number + 1 < len(headings) else len(text)
        body = text[heading.end():end].strip()
        found[heading.group(1)] = f"{found[heading.group(1)]}\n\n{body}".strip() if heading.group(1) in found else body
    return found


def with_entry(text: str, day: date, body: str) -> str:
    """`text` with `body` added to `day`'s entry: under its heading (at the end of that day's
    section) if it has one, else as a new entry before the first later-dated one (at the end when
    none is later)."""
    body = body.strip()
    headings = list(_HEADING.finditer(text))
    iso = day.isoformat()
    for number, heading in enumerate(headings):
        if heading.group(1) == iso:
            end = headings[number + 1].start() if number + 1 < len(headings) else len(text)
            section = text[:end].rstrip()
            return f"{section}\n\n{body}\n" + (f"\n{text[end:]}" if end < len(text) else "")
    entry = f"{entry_heading(day)}\n{body}\n"
    later = next((h for h in headings if h.group(1) > iso), None)
    if later is None:
        return f"{text.rstrip()}\n\n{entry}" if text.strip() else entry
    before, after = text[:later.start()].rstrip(), text[later.start():]
    return f"{before}\n\n{entry}\n{after}" if before else f"{entry}\n{after}"


def with_passage_replaced(text: str, old: str, new: str) -> str:
    """`text` with the one occurrence of `old` replaced by `new`; DiaryEditRefused if `old` is
    empty, not in the text, or there more than once (which one was meant is not known)."""
    if not old.strip():
        raise DiaryEditRefused("The passage to replace is empty.")
    count = text.count(old)
    if count == 0:
        raise DiaryEditRefused("That passage is not in the diary (it must be copied exactly); nothing was changed.")
    if count > 1:
        raise DiaryEditRefused("That passage is in the diary more than once; quote more of it. Nothing was changed.")
    return text.replace(old, new, 1)


def recent_part(text: str, max_chars: int) -> tuple[str, bool]:
    """The end of `text` within `max_chars`, starting at an entry's heading or a paragraph where one
    falls inside the room, and whether anything earlier was left out."""
    text = text.strip()
    if len(text) <= max_chars:
        return text, False
    tail = text[-max_chars:]
    heading = _HEADING.search(tail)
    if heading is not None:
        return tail[heading.start():].strip(), True
    paragraph = tail.find("\n\n")
    return (tail[paragraph:] if paragraph >= 0 else tail).strip(), True


def part_from(text: str, day: str, max_chars: int) -> tuple[str, bool]:
    """The entries from the first one dated `day` (ISO) or later, within `max_chars` (whole
    paragraphs where they fit), and whether later text was left out; ("", False) when no entry is
    that late."""
    start = next((h.start() for h in _HEADING.finditer(text) if h.group(1) >= day), None)
    if start is None:
        return "", False
    part = text[start:].strip()
    if len(part) <= max_chars:
        return part, False
    head = part[:max_chars]
    paragraph = head.rfind("\n\n")
    return (head[:paragraph] if paragraph > 0 else head).strip(), True


class DiaryStore:
    """One persona's diaries."""

    def __init__(self, memory_dir: Path, files: CharacterFiles):
        self._dir = memory_dir
        self._files = files

    def path(self, which: str) -> Path:
        if which not in DIARY_FILES:
            raise DiaryEditRefused(f"There is no diary {which!r}; the diaries are {', '.join(DIARY_FILES)}.")
        return self._dir / DIARY_FILES[which]

    def read(self, which: str) -> str:
        path = self.path(which)
        return path.read_text(encoding="utf-8") if path.exists() else ""

    def has_entry(self, which: str, day: date) -> bool:
        return day.isoformat() in entry_days(self.read(which))

    def add_entry(self, which: str, day: date, body: str) -> None:
        """Add `body` to `day`'s entry (a new dated entry if the day has none)."""
        if not body.strip():
            raise DiaryEditRefused("An entry needs some text.")
        path = self.path(which)
        with file_lock(path):
            self._write(path, with_entry(self.read(which), day, body))

    def replace_passage(self, which: str, old: str, new: str) -> None:
        """Replace the one occurrence of `old` (DiaryEditRefused, nothing written, if there is none)."""
        path = self.path(which)
        with file_lock(path):
            self._write(path, with_passage_replaced(self.read(which), old, new))

    def replace_all(self, which: str, text: str, expected: str | None = None) -> None:
        """The whole diary as given (the user's edit); with `expected` (the text the edit started
        from), DiaryEditRefused if the file changed since (the night wrote an entry meanwhile)."""
        path = self.path(which)
        with file_lock(path):
            if expected is not None and self.read(which) != expected:
                raise DiaryEditRefused("The diary changed since it was shown (a new entry was written). Copy your "
                                       "text, reload the diary and make the change again; nothing was saved.")
            self._write(path, text.rstrip() + "\n" if text.strip() else "")

    def _write(self, path: Path, text: str) -> None:
        self._files.backup(path)
        atomic_write_text(path, text)
