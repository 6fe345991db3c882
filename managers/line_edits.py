"""A user's edit of a line file (core memory, notepad) merged with what the app wrote meanwhile.

The Memory tab shows core memory when the page opens; a "please remember" during the chat appends a
line to the file, and the tab's text did not have it. Saved as it stood, the user's edit silently
dropped the note just kept (found by a new user's test, session 47). The merge is by lines, as the
app writes them: the edit as the user made it, less the lines the app took out since it was shown
(a kept note revised), plus the lines the app added since (appended at the end).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MergedEdit:
    text: str
    kept_from_app: tuple[str, ...]  # lines the app wrote after the editor was filled, kept beside the edit


def merged_edit(shown: str, edited: str, current: str) -> MergedEdit:
    """`edited` (the user's text, started from `shown`) with the app's changes to the file since
    (`shown` → `current`) applied to it; the edit wins where both touched a line."""
    if current.rstrip() == shown.rstrip():
        return MergedEdit(edited, ())
    shown_lines, current_lines = _lines(shown), _lines(current)
    taken_out = set(shown_lines) - set(current_lines)
    lines = [line for line in edited.rstrip().split("\n") if line.strip() not in taken_out]
    present = {line.strip() for line in lines}
    added = tuple(line for line in current_lines if line not in shown_lines and line not in present)
    return MergedEdit("\n".join(lines + list(added)).strip("\n"), added)


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n") if line.strip()]
