"""Speaking first (issue 20): whether the persona writes to the user unasked now — a pure function of
`now` — and the ask for its opening line (prompt, schema, check). The job that runs it is
persona/speak_first_job.py; the scheduler's tick wakes it (seed 003 §8.2, heartbeat).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Sequence

import constants
from agent.drives import Drives, drive_line
from agent.language import LANGUAGE_NAMES
from agent.plain_desu import mend_plain_desu
from agent.reply_tags import parse_reply
from agent.sleep_schedule import QuietHours

OPENING_SCHEMA = {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]}


@dataclass(frozen=True)
class SpeakDecision:
    speak: bool
    drive: str = ""  # the drive that crossed its threshold
    reason: str = ""  # why not (or why), for the log


def should_speak_first(now: datetime, drives: Drives, last_user_at: datetime | None,
                       last_persona_first_at: datetime | None, unanswered: bool, sent_today: int,
                       quiet_hours: QuietHours, enabled: bool) -> SpeakDecision:
    """Whether to write first now (`now` in the user's local time): the switch is on, outside the
    quiet hours, no first message waits unanswered, fewer than the day's maximum sent, the cooldown
    since the last one passed, the user away a while (never into a conversation, never to a user who
    has not written yet), and a drive at or above constants.SPEAK_FIRST_THRESHOLD."""
    if not enabled:
        return SpeakDecision(False, reason="switched off")
    if quiet_hours.contains(now.time()):
        return SpeakDecision(False, reason="quiet hours")
    if unanswered:
        return SpeakDecision(False, reason="the last first message is unanswered")
    if sent_today >= constants.SPEAK_FIRST_DAILY_MAX:
        return SpeakDecision(False, reason="the day's maximum is reached")
    if last_persona_first_at is not None and now - last_persona_first_at < timedelta(
            hours=constants.SPEAK_FIRST_COOLDOWN_HOURS):
        return SpeakDecision(False, reason="cooldown")
    if last_user_at is None:
        return SpeakDecision(False, reason="the user has not written yet")
    if now - last_user_at < timedelta(minutes=constants.SPEAK_FIRST_MIN_IDLE_MINUTES):
        return SpeakDecision(False, reason="a conversation is going on")
    crossing = drives.at_least(constants.SPEAK_FIRST_THRESHOLD)
    if not crossing:
        return SpeakDecision(False, reason="no drive is strong enough")
    return SpeakDecision(True, crossing[0], f"{crossing[0]} {drives.levels[crossing[0]]:.2f}")


def opening_prompt(persona: str, user_name: str, identity: str, drives: Drives, drive: str, language: str,
                   recent: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """(system, user) of the ask: who the persona is, why it writes, the last few lines of the talk."""
    written = LANGUAGE_NAMES.get(language, "English")
    feeling = drive_line(drives, drive, "en", user_name)
    system = (f"{identity.strip()[:constants.DIARY_IDENTITY_CHARS]}\n\n"
              f"You are {persona}. {user_name} has not written for a while, and you write to {user_name} first. "
              f"How you feel now: {feeling}\n"
              f"Write the opening message: one or two short, warm sentences in {written}, in your own voice, "
              f"addressed to {user_name}. Plain text, no quotes. Answer with JSON: {{\"message\": \"...\"}}.")
    lines = [f"{name}: {text[:constants.SPEAK_FIRST_CONTEXT_CHARS]}" for name, text in recent]
    user = ("The conversation so far ended with:\n" + "\n".join(lines)) if lines else "You have not talked much yet."
    return system, user


def parse_opening(answer: str) -> str:
    """The message in the answer, without tags or wrapping quotes; "" when there is none usable."""
    try:
        data = json.loads(answer[answer.index("{"): answer.rindex("}") + 1])
    except ValueError:
        return ""
    message = data.get("message") if isinstance(data, dict) else None
    if not isinstance(message, str):
        return ""
    text = " ".join(parse_reply(message).visible_text.split()).strip().strip('"「」')
    return mend_plain_desu(text[:constants.SPEAK_FIRST_MAX_CHARS].strip())
