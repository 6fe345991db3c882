"""The diaries' jobs (agent/diary.py asks, managers/diaries.py stores): an edit in two steps, asked
for by the persona's `plan_diary_edit` tool call.

The persona states its intent (free text: what to add or change, and why); a second call, which
sees the diary's recent part, answers with the edit as JSON; the app applies it after a backup, and
refuses a passage to replace that is not in the file. A refusal is a DiaryEditRefused (a
ValueError, which the tool reports to the model): nothing is written then.
"""
from __future__ import annotations

import logging
from datetime import datetime
from typing import Callable

import constants
from agent.diary import APPEND, EDIT_SCHEMA, edit_prompt, parse_edit
from agent.providers.base import CallStopped, ChatModel, ProviderError
from managers.diaries import SECRET_DIARY, DiaryEditRefused, DiaryStore, recent_part

log = logging.getLogger(__name__)


def diary_name(which: str) -> str:
    return "secret diary" if which == SECRET_DIARY else "diary"


def apply_intent(store: DiaryStore, which: str, intent: str, model: ChatModel, persona: str, now: datetime,
                 should_stop: Callable[[], bool] | None = None) -> str:
    """Ask the model for the edit `intent` describes and apply it; what was done, for the model.
    `now` is the user's local time (an append goes to that day's entry)."""
    store.path(which)  # an unknown diary is refused before any call
    if not intent.strip():
        raise DiaryEditRefused("Say what to add or change, and why.")
    name, today = diary_name(which), now.date()
    recent, _ = recent_part(store.read(which), constants.DIARY_EDIT_CONTEXT_CHARS)
    system, user = edit_prompt(persona, name, recent, intent, today)
    try:
        answer = model.complete_json(system, user, EDIT_SCHEMA, constants.DIARY_EDIT_MAX_TOKENS, should_stop)
    except (ProviderError, CallStopped) as exc:
        reason = exc.user_message if isinstance(exc, ProviderError) else "a reply needed the model"
        raise DiaryEditRefused(f"The edit could not be written ({reason}); nothing was changed.") from exc
    edit = parse_edit(answer)
    if edit is None:
        log.warning("No usable diary edit for %r: %r", intent[:200], answer[:300])
        raise DiaryEditRefused("The edit could not be read from the answer; nothing was changed.")
    if edit.action == APPEND:
        store.add_entry(which, today, edit.new)
        return f"Added to your {name}'s entry of {today.isoformat()}: {edit.new}"
    store.replace_passage(which, edit.old, edit.new)
    return f"Changed in your {name}: {edit.old!r} is now {edit.new!r}."
