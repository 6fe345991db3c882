"""Rolling conversation compression (seed 003 §4.8, 会話記憶): when a long sitting no longer fits
the history window, the turns that fell out of it are folded into a running summary, shown before
the window, so the evening's start is not lost while its last turns stay verbatim. The ask — the
prompt, its schema and the answer's check. Pure.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Sequence

import constants
from agent.episodes import parse_week
from agent.language import LANGUAGE_NAMES
from managers.chat_log import LogEntry

SUMMARY_SCHEMA = {"type": "object", "properties": {"summary": {"type": "string"}}, "required": ["summary"]}


def live_session(entries: Sequence[LogEntry], now: datetime,
                 gap: timedelta = timedelta(minutes=constants.EPISODE_SESSION_GAP_MINUTES)) -> list[LogEntry]:
    """The dialogue of the sitting in progress at `now`: back from the newest entry to the last
    pause longer than `gap`; none once `now` is more than `gap` past its newest entry (the next
    message starts a sitting of its own, so a prompt prepared meanwhile already leaves it out).
    Read from the newest entry back, so the cost is the sitting's, not the history's (a filter of
    the whole 24,000-entry scan was most of a turn's growth from 1k to 100k messages: `bench scale`,
    session 54)."""
    sitting: list[LogEntry] = []
    for entry in reversed(entries):
        if not entry.is_dialogue or entry.ts is None:
            continue
        if sitting and sitting[-1].ts - entry.ts > gap:
            break
        if not sitting and now - entry.ts > gap:
            return []
        sitting.append(entry)
    sitting.reverse()
    return sitting


def fold_prompt(persona: str, user_name: str, summary_so_far: str, lines: Sequence[str], language: str) -> tuple[str, str]:
    """(system, user) of one fold: the summary so far and the turns to add to it."""
    written = LANGUAGE_NAMES.get(language, "the language of the conversation")
    system = (f"You are {persona}, keeping notes of your conversation with {user_name} so far. Add the new turns "
              f"to the notes: who said what, facts, plans, feelings, open questions. In {written}, short and "
              f"factual, at most {constants.CONVERSATION_SUMMARY_CHARS} characters; what {user_name} told about "
              f"their life is {user_name}'s.")
    user = (f"Notes so far:\n{summary_so_far or '(none)'}\n\nNew turns:\n" + "\n".join(lines))
    return system, user


def parse_fold(answer: str) -> str:
    """The running summary in the model's answer, or "" (the same answer shape as a week's)."""
    return parse_week(answer)
