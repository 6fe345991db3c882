"""The persona's diaries (seed 004, 記憶関連ツール: plan_main_memory_edit / plan_secret_diary_edit):
the asks — prompts, schemas and the answers' checks. Pure: the jobs in persona/diary_job.py read
and write the diaries (managers/diaries.py).

Two asks:
- an **edit in two steps**: the persona states its intent in a tool call (what to add or change, and
  why); a second call, which sees the diary's recent part, answers with the edit itself as JSON
  (`append` new text, or `replace_passage` old → new), and the app applies it after a backup,
  refusing an `old` passage that is not in the file;
- the **night's entry**: one call per day writes the main diary's entry from that day's episode (the
  episode is shorter than the day's log and already keeps who did what), in the persona's voice,
  first person, in the day's language.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date

from agent.episodes import completed_answer
from agent.language import LANGUAGE_NAMES

APPEND = "append"
REPLACE_PASSAGE = "replace_passage"

EDIT_SCHEMA = {
    "type": "object",
    "properties": {
        "action": {"type": "string", "enum": [APPEND, REPLACE_PASSAGE]},
        "old": {"type": "string"},
        "new": {"type": "string"},
    },
    "required": ["action", "old", "new"],
}

ENTRY_SCHEMA = {"type": "object", "properties": {"entry": {"type": "string"}}, "required": ["entry"]}


@dataclass(frozen=True)
class DiaryEdit:
    """One edit, as the second call answered it (checked for shape, not yet against the file)."""
    action: str  # APPEND or REPLACE_PASSAGE
    old: str  # the passage to replace, copied exactly ("" for an append)
    new: str  # the text added, or what replaces `old`


def _json_object(answer: str) -> dict | None:
    """The answer's JSON object (a remote model may wrap it in a code fence or a sentence)."""
    try:
        data = json.loads(answer[answer.index("{"): answer.rindex("}") + 1])
    except ValueError:  # no braces, or no JSON between them
        return None
    return data if isinstance(data, dict) else None


def _without_headings(text: str) -> str:
    """The text without Markdown heading lines: a dated heading is the diary's own (one a day)."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")).strip()


def edit_prompt(persona: str, diary_name: str, recent: str, intent: str, today: date) -> tuple[str, str]:
    """(system, user) of the second step; `recent`: the diary's recent part, `intent`: the persona's
    own words of what to change and why."""
    system = (
        f"You are {persona}, editing your {diary_name}. You decided: {intent.strip()}\n"
        f"Write that edit as JSON. To add text: action \"{APPEND}\", old \"\", new = the text to add to "
        f"today's ({today.isoformat()}) entry, in the first person as {persona}, in the language the diary is "
        f"written in. To change something already written: action \"{REPLACE_PASSAGE}\", old = the passage "
        f"copied exactly, character for character, from the diary below, new = what replaces it. "
        f"Change only what you decided; keep the rest as it is.")
    user = f"Your {diary_name} (its most recent part):\n\n{recent.strip() or '(empty)'}"
    return system, user


def parse_edit(answer: str) -> DiaryEdit | None:
    """The edit, or None when the answer is no JSON of the schema's shape, an append adds nothing,
    or a replacement names no passage."""
    data = _json_object(answer)
    if data is None:
        return None
    action, old, new = data.get("action"), data.get("old", ""), data.get("new", "")
    if action not in (APPEND, REPLACE_PASSAGE) or not isinstance(old, str) or not isinstance(new, str):
        return None
    if action == APPEND:
        return DiaryEdit(APPEND, "", _without_headings(new)) if _without_headings(new) else None
    return DiaryEdit(REPLACE_PASSAGE, old, new) if old.strip() and old != new else None


def entry_prompt(persona: str, user_name: str, identity: str, day: date, episode: str, language: str,
                 length: tuple[int, int]) -> tuple[str, str]:
    """(system, user) of the night's diary entry for `day`, from that day's `episode`; `identity`:
    the start of the persona's system prompt, for its voice ("" for none)."""
    written = LANGUAGE_NAMES.get(language, "the language of the memory")
    low, high = length
    who = f"{identity.strip()}\n\n" if identity.strip() else ""
    system = (
        f"{who}You are {persona}. Write your diary entry for {day.isoformat()}, in {written}, in the first person "
        f"as {persona}: what happened that day with {user_name}, and what you felt and thought about it. "
        f"What {user_name} did, felt or told about their life is {user_name}'s: write it as {user_name}'s, never "
        f"as yours. Only what your memory of the day says; about {low}-{high} characters. No heading, no date.")
    user = f"Your memory of {day.isoformat()}:\n{episode.strip()}"
    return system, user


def parse_entry(answer: str) -> str:
    """The entry's text, or "" when the answer has none; one cut off by the answer's room keeps its
    whole sentences (8 of file 41's 32 nights lost their entry so: bench episodes, session 22)."""
    data = _json_object(answer) or completed_answer(answer, "entry")
    entry = data.get("entry") if data else None
    return _without_headings(entry) if isinstance(entry, str) else ""
