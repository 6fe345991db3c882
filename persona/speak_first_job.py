"""Speaking first, as a job of the scheduler's tick: when agent/speak_first.should_speak_first says so,
the model writes a short opening line in the persona's language, and it is appended to the chat
log as the persona's message marked `first=<drive>`. An open page shows it on its next refresh; a
closed one finds it there, unread, when opened.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Callable, Sequence

from agent.language import message_language
from agent.providers.base import CallStopped, ChatModel, ProviderError
from agent.sleep_schedule import QuietHours
from agent.speak_first import OPENING_SCHEMA, SpeakDecision, opening_prompt, parse_opening, should_speak_first
import constants
from managers.chat_log import LogEntry, spoken_text
from persona.session import CharacterSession

log = logging.getLogger(__name__)

FIRST_MARK = "first"  # the log entry's meta key: the drive that made the persona write first


def is_first(entry: LogEntry) -> bool:
    return entry.role == "AGENT" and bool(entry.meta.get(FIRST_MARK))


@dataclass(frozen=True)
class FirstNotice:
    """A browser notification of a message the persona wrote first (issue 20)."""
    id: str  # the log entry's: the browser shows one notification per message
    title: str  # the persona's name
    body: str  # the message's start


def unseen_first_message(entries: Sequence[LogEntry], shown_ids: Sequence[str]) -> FirstNotice | None:
    """The newest message the persona wrote first among the dialogue after the last one the page
    shows (`shown_ids`); None when there is none, or when the page shows another conversation (its
    last message is not in this one: the persona was switched, nothing there is new). Ordinary
    replies never make a notice."""
    dialogue = [e for e in entries if e.is_dialogue]
    ids = [e.id for e in dialogue]
    if shown_ids and shown_ids[-1] not in ids:
        return None
    after = ids.index(shown_ids[-1]) + 1 if shown_ids else 0
    entry = next((e for e in reversed(dialogue[after:]) if is_first(e)), None)
    if entry is None:
        return None
    text = " ".join(entry.text.split())
    cut = constants.NOTIFICATION_BODY_CHARS
    return FirstNotice(entry.id, entry.name, text if len(text) <= cut else text[:cut - 1].rstrip() + "…")


@dataclass(frozen=True)
class FirstMessages:
    """What the chat log says about speaking first, as of `now`."""
    last_user_at: datetime | None
    last_first_at: datetime | None
    unanswered: bool  # a first message after the user's last one
    sent_today: int  # on the user's local day


def first_messages(recent: Sequence[LogEntry], now: datetime) -> FirstMessages:
    last_user = next((e for e in reversed(recent) if e.role == "USER"), None)
    firsts = [e for e in recent if is_first(e) and e.ts is not None]
    today = now.astimezone().date()
    unanswered = bool(firsts) and (last_user is None or last_user.ts is None or firsts[-1].ts > last_user.ts)
    return FirstMessages(last_user.ts if last_user else None, firsts[-1].ts if firsts else None, unanswered,
                         sum(1 for e in firsts if e.ts.astimezone().date() == today))


def speak_first(session: CharacterSession, model: ChatModel, now: datetime, quiet_hours: QuietHours, enabled: bool,
                user_name: str, should_stop: Callable[[], bool] = lambda: False) -> LogEntry | None:
    """Write first if it is time to (`now` in the user's local time); the message written, or None."""
    if not enabled:
        return None
    recent = session.chat_log.recent(constants.EMOTION_RECENT_ENTRIES)
    seen = first_messages(recent, now)
    drives = session.drives(now=now)
    decision: SpeakDecision = should_speak_first(now, drives, seen.last_user_at, seen.last_first_at, seen.unanswered,
                                                 seen.sent_today, quiet_hours, enabled)
    if not decision.speak:
        log.debug("%s does not write first: %s", session.character.name, decision.reason)
        return None
    if not session.turn_lock.acquire(blocking=False):
        return None  # a reply is being written: the user is here
    try:
        users = [e.text for e in recent if e.role == "USER"]
        language = message_language(" ".join(users[-3:]), users, session.language_hint()) or "en"
        turns = [(e.name, spoken_text(e.text)) for e in recent if e.is_dialogue][-constants.SPEAK_FIRST_CONTEXT_TURNS:]
        system, user = opening_prompt(session.character.name, user_name, session.read("system_prompt"), drives,
                                      decision.drive, language, turns)
        try:
            answer = model.complete_json(system, user, OPENING_SCHEMA, constants.SPEAK_FIRST_MAX_TOKENS, should_stop)
        except CallStopped:
            return None
        except ProviderError as exc:
            log.warning("%s could not write first: %s", session.character.name, exc.user_message)
            return None
        text = parse_opening(answer)
        if text and (written := message_language(text)) and written != language:
            log.info("The opening line was in %s, not %s: not sent", written, language)
            text = ""
        if not text:
            log.info("No usable opening line: %r", answer[:200])
            return None
        entry = session.chat_log.append("AGENT", session.character.name, text, **{FIRST_MARK: decision.drive})
        log.info("%s wrote first (%s)", session.character.name, decision.reason)
        return entry
    finally:
        session.turn_lock.release()
