"""What the introspection dashboard shows (seed 004, 内省ダッシュボード), gathered into one frozen value:
the drives and the dominant one's details, the emotion log over time, the last and next sleep-time
run, and — when their stores give them — goals, open questions and the dream diary. Times are the
user's local time. The UI only lays it out (ui/dashboard_tab.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Sequence

import constants
from agent.drives import EMOTION_NAMES, Drives, label, narrative
from agent.sleep_schedule import QuietHours, night_of
from managers.emotion_log import EmotionEntry
from managers.sleep_state import SleepState
from persona.inner_life import dreams_newest_first
from persona.session import CharacterSession


@dataclass(frozen=True)
class EmotionPoint:
    at: datetime  # local time
    category: str
    intensity: float
    original: str = ""  # the label as logged before issue 20, when it was mapped


@dataclass(frozen=True)
class InnerLifeView:
    language: str  # "ja" or "en": the labels' language
    levels: tuple[tuple[str, str, float], ...]  # (drive, label, level) in constants.DRIVES order
    dominant: str
    dominant_label: str
    narrative: str
    idle_minutes: float | None
    emotion: str | None
    emotion_label: str
    intensity: float
    top_question: str
    top_goal: str
    emotions: tuple[EmotionPoint, ...]
    last_run: str  # "" never
    next_run: str
    goals: tuple[str, ...] | None  # None: no goal store yet ("none yet")
    questions: tuple[str, ...] | None
    dreams: tuple[str, ...] | None

    @property
    def emotions_stamp(self) -> str:
        """Changes when the graph's points do (the page redraws the graph only then)."""
        last = self.emotions[-1] if self.emotions else None
        return f"{len(self.emotions)}|{last.at.isoformat() if last else ''}"


def next_run_text(now: datetime, hours: QuietHours, state: SleepState, enabled: bool, idle_minutes: int) -> str:
    """When the next sleep-time run may start (`now` local)."""
    if not enabled:
        return "off (Settings)"
    done = date.fromisoformat(state.last_done_night) if state.last_done_night else None
    tonight = night_of(now, hours)
    if done is None or done < tonight:
        return f"as soon as you have been idle {idle_minutes} min" + (
            "" if hours.contains(now.time()) else f" (tonight's from {hours.start:%H:%M})")
    start = datetime.combine(now.date(), hours.start, now.tzinfo)
    if start <= now:
        start += timedelta(days=1)
    return f"{start:%Y-%m-%d %H:%M}, after {idle_minutes} idle minutes"


def last_run_text(state: SleepState) -> str:
    if not state.reports:
        return ""
    last = state.reports[-1]
    try:
        started = datetime.fromisoformat(last.started_at).astimezone()
    except ValueError:
        return last.started_at
    what = ", ".join(last.written) if last.written else "nothing new"
    return f"{started:%Y-%m-%d %H:%M} · {last.wall_s:.0f} s · {what}" + (" · stopped for a reply" if last.stopped else "")


def inner_life_view(drives: Drives, emotions: Sequence[EmotionEntry], language: str, user_name: str, last_run: str,
                    next_run: str, goals: Sequence[str] | None = None, questions: Sequence[str] | None = None,
                    dreams: Sequence[str] | None = None) -> InnerLifeView:
    lang = "ja" if language == "ja" else "en"

    def both(drive: str) -> str:  # Japanese labels with the English beside them: readable to either reader
        return label(drive, "en") if lang == "en" else f"{label(drive, 'ja')} · {label(drive, 'en')}"
    return InnerLifeView(
        language=lang,
        levels=tuple((d, both(d), drives.levels[d]) for d in constants.DRIVES),
        dominant=drives.dominant, dominant_label=both(drives.dominant) if drives.dominant else "",
        narrative=narrative(drives, lang, user_name), idle_minutes=drives.idle_minutes,
        emotion=drives.emotion, emotion_label=EMOTION_NAMES[lang].get(drives.emotion or "", ""),
        intensity=drives.intensity, top_question=drives.top_question, top_goal=drives.goal,
        emotions=tuple(EmotionPoint(e.at.astimezone(), e.category, e.intensity, e.original) for e in emotions),
        last_run=last_run, next_run=next_run,
        goals=None if goals is None else tuple(goals), questions=None if questions is None else tuple(questions),
        dreams=None if dreams is None else tuple(dreams))


def dashboard_of(session: CharacterSession, now: datetime, state: SleepState, hours: QuietHours, user_name: str,
                 sleep_enabled: bool, idle_minutes: int, goals: Sequence[str] | None = None,
                 questions: Sequence[str] | None = None, dreams: Sequence[str] | None = None) -> InnerLifeView:
    """The dashboard's data for `session`'s persona at `now` (local). `goals`, `questions`, `dreams`:
    lines from their stores when there are any (None shows "none yet"); each defaults to what the
    session's stores hold (open questions: the session's source of them)."""
    if questions is None and (asked := tuple(session.open_questions())):
        questions = [str(q[2]) for q in asked if len(q) > 2]
    if goals is None and (active := session.goals().load().active()):
        goals = [f"[{g.term}] {g.goal}" for g in active]
    if dreams is None and (entries := dreams_newest_first(session)):
        dreams = [f"{e.created_at[:10]} — {e.insight or e.log_entry}" for e in entries if e.insight or e.log_entry]
    # the user's language, not the persona's hint: a Spanish user of the sample persona read its drives in Japanese
    return inner_life_view(session.drives(now=now), session.emotion_log().entries(), session.user_language(), user_name,
                           last_run_text(state), next_run_text(now, hours, state, sleep_enabled, idle_minutes),
                           goals, questions, dreams)
