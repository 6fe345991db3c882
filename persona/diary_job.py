"""The diaries' jobs (agent/diary.py asks, managers/diaries.py stores): an edit in two steps, asked
for by the persona's `plan_diary_edit` tool call, and the night's main-diary entries.

The persona states its intent (free text: what to add or change, and why); a second call, which
sees the diary's recent part, answers with the edit as JSON; the app applies it after a backup, and
refuses a passage to replace that is not in the file. A refusal is a DiaryEditRefused (a
ValueError, which the tool reports to the model): nothing is written then.

The night's entries are the embedded model's way to a diary (it calls no tools): one call per day
from that day's episode (cheaper than the log, and its user's part already the user's), in the
persona's voice and the day's language; the user's doings are said back as the user's once more.
"""
from __future__ import annotations

import logging
from datetime import date, datetime, timedelta
from typing import Callable, Sequence

import constants
from agent.diary import APPEND, EDIT_SCHEMA, ENTRY_SCHEMA, edit_prompt, entry_prompt, parse_edit, parse_entry
from agent.episodes import within
from agent.providers.base import CallStopped, ChatModel, ProviderError
from managers.chat_log import LogEntry
from managers.diaries import MAIN_DIARY, SECRET_DIARY, DiaryEditRefused, DiaryStore, entry_days, recent_part
from managers.episodes import EpisodeStore
from persona.episodes_job import JobTally, ask_tallied, day_language, days_of, users_part_kept

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


def write_diary_entries(entries: Sequence[LogEntry], episodes: EpisodeStore, diaries: DiaryStore, model: ChatModel, *,
                        persona: str, user_name: str, identity: str, language_hint: str, now: datetime,
                        should_stop: Callable[[], bool], tally: JobTally) -> bool:
    """The night's main-diary entries (no tools: the app writes them), one call per day that has a
    daily episode within DIARY_LOOKBACK_DAYS and no entry yet (a day already written, by the night or
    by the persona's own edit, is never written twice), newest first; False when stopped (each day
    is saved as it is written, so the rest resumes next time)."""
    written = set(entry_days(diaries.read(MAIN_DIARY)))
    since = now.date() - timedelta(days=constants.DIARY_LOOKBACK_DAYS)
    days = sorted((e for e in episodes.all() if e.is_daily and not e.deleted and e.summary.strip()
                   and since <= date.fromisoformat(e.date) < now.date() and e.date not in written),
                  key=lambda e: e.date, reverse=True)[:constants.DIARY_DAYS_PER_RUN]
    by_day = days_of(entries, now) if days else {}
    for episode in days:
        if should_stop():
            return False
        day = date.fromisoformat(episode.date)
        user_texts = [e.text for e in by_day.get(day, []) if e.role == "USER"]
        language = day_language(user_texts or [episode.summary], language_hint)
        system, user = entry_prompt(persona, user_name, identity[:constants.DIARY_IDENTITY_CHARS], day,
                                    episode.summary, language, constants.DIARY_ENTRY_CHARS)
        try:
            answer = ask_tallied(model, system, user, ENTRY_SCHEMA, constants.DIARY_ENTRY_MAX_TOKENS, should_stop, tally,
                                 f"diary {day}")
        except CallStopped:
            return False
        if answer is None:
            continue
        # a model asked for DIARY_ENTRY_CHARS sometimes writes more: twice the most is kept, in whole sentences
        entry = within(users_part_kept(parse_entry(answer), user_texts, user_name, language, persona=persona),
                       constants.DIARY_ENTRY_CHARS[1] * 2)
        if not entry:
            tally.problems.append(f"diary {day}: the model's answer was not a usable entry")
            log.warning("No usable diary entry for %s: %r", day, answer[:300])
            continue
        diaries.add_entry(MAIN_DIARY, day, entry)
        tally.written.append(f"diary {day}")
    return True
