"""The persona's drives (seed 004 §8, 内部状態): boredom, curiosity, goal drive and relatedness, each a
level in 0..1, as pure functions of `now` and plain inputs; the dominant one, told in a line of the
persona's language ("how you feel now").

The inputs are plain so that any store can feed them: open questions as (priority, raised or last
asked[, text]) tuples, the top goal as a priority (and its text), the persona's latest emotion as a
category and intensity. Every number is in constants.py with its reason.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Mapping, Sequence

import constants

# (priority 0..1, when it was raised or last asked[, its text])
Question = tuple


@dataclass(frozen=True)
class DriveInputs:
    last_user_at: datetime | None = None  # the user's last message before now; None: never talked
    questions: Sequence[Question] = ()
    goal_priority: float | None = None  # the top active goal's, in 0..1
    goal: str = ""
    emotion: str | None = None  # the persona's latest emotion (a seed category)
    intensity: float = 0.0
    emotion_at: datetime | None = None


@dataclass(frozen=True)
class Drives:
    levels: Mapping[str, float]  # by constants.DRIVES
    dominant: str  # "" when every drive is 0
    idle_minutes: float | None  # since the user's last message
    top_question: str = ""
    goal: str = ""
    emotion: str | None = None
    intensity: float = 0.0
    details: Mapping[str, str] = field(default_factory=dict)

    @property
    def dominant_level(self) -> float:
        return self.levels.get(self.dominant, 0.0)

    def at_least(self, threshold: float) -> list[str]:
        """The drives at or above `threshold`, strongest first."""
        return [d for d in sorted(constants.DRIVES, key=lambda d: -self.levels[d]) if self.levels[d] >= threshold]


def _clamp(value: float) -> float:
    return 0.0 if value != value else min(1.0, max(0.0, float(value)))  # NaN → 0


def boredom(idle_minutes: float | None) -> float:
    """A log curve of the idle minutes, 1.0 at constants.BOREDOM_SATURATION_MINUTES; 0 for no idle
    time and for a user who never wrote (nothing to miss yet)."""
    if idle_minutes is None or idle_minutes <= 0:
        return 0.0
    scale = constants.BOREDOM_SCALE_MINUTES
    return _clamp(math.log1p(idle_minutes / scale) / math.log1p(constants.BOREDOM_SATURATION_MINUTES / scale))


def question_pressure(now: datetime, priority: float, asked_at: datetime) -> float:
    """One open question's pull: its priority halved every CURIOSITY_HALF_LIFE_DAYS since it was
    raised or last asked (a time in the future counts as now)."""
    days = max(0.0, (now - asked_at).total_seconds() / 86400)
    return _clamp(priority) * 0.5 ** (days / constants.CURIOSITY_HALF_LIFE_DAYS)


def curiosity(now: datetime, questions: Sequence[Question]) -> tuple[float, str]:
    """The most pressing open question's pull, and its text ("" when it has none or there is none)."""
    best, text = 0.0, ""
    for question in questions:
        pull = question_pressure(now, question[0], question[1])
        if pull > best:
            best, text = pull, (str(question[2]) if len(question) > 2 else "")
    return best, text


def goal_drive(priority: float | None) -> float:
    return 0.0 if priority is None else _clamp(priority)


def relatedness(category: str | None, intensity: float) -> float:
    """Category weight × intensity (seed 004 Phase F); no emotion yet → 0."""
    return _clamp(constants.RELATEDNESS_WEIGHTS.get(category or "", 0.0) * _clamp(intensity))


def compute_drives(now: datetime, inputs: DriveInputs) -> Drives:
    idle = None if inputs.last_user_at is None else max(0.0, (now - inputs.last_user_at).total_seconds() / 60)
    question_level, question = curiosity(now, inputs.questions)
    levels = {
        "boredom": boredom(idle),
        "curiosity": question_level,
        "goal": goal_drive(inputs.goal_priority),
        "relatedness": relatedness(inputs.emotion, inputs.intensity),
    }
    levels = {name: round(level, 3) for name, level in levels.items()}
    top = max(constants.DRIVES, key=lambda d: (levels[d], -constants.DRIVES.index(d)))
    return Drives(levels, top if levels[top] > 0 else "", idle, question, inputs.goal if levels["goal"] else "",
                  inputs.emotion, _clamp(inputs.intensity))


# --- in words -------------------------------------------------------------------------------------
LABELS = {
    "ja": {"boredom": "退屈", "curiosity": "好奇心", "goal": "目標達成欲", "relatedness": "関係性維持欲求"},
    "en": {"boredom": "Boredom", "curiosity": "Curiosity", "goal": "Goal drive", "relatedness": "Relatedness"},
}
EMOTION_NAMES = {
    "ja": {"joy": "喜び", "contentment": "満足・安心", "protective": "守りたい気持ち", "anxious": "不安",
           "sadness": "悲しみ", "anger": "怒り", "neutral": "平常"},
    "en": {"joy": "joy", "contentment": "contentment", "protective": "protective", "anxious": "anxious",
           "sadness": "sadness", "anger": "anger", "neutral": "neutral"},
}
_LINES = {
    "ja": {
        "boredom": "{user}と{idle}話していなくて、少し退屈だ。",
        "curiosity": "気になっていることがある: {question}",
        "curiosity_bare": "知りたいことがあって、好奇心がうずいている。",
        "goal": "目標を進めたい: {goal}",
        "goal_bare": "自分の目標を進めたい気持ちがある。",
        "protective": "{user}を守りたいという気持ちがある。",
        "anxious": "{user}のことが少し心配だ。",
        "sadness": "少し寂しく、{user}とつながっていたい。",
        "other": "{user}との関係を大切にしたい。",
    },
    "en": {
        "boredom": "No talk with {user} for {idle}: you are a little bored.",
        "curiosity": "Something is on your mind: {question}",
        "curiosity_bare": "There is something you want to find out.",
        "goal": "You want to make progress on your goal: {goal}",
        "goal_bare": "You want to make progress on your goals.",
        "protective": "You feel protective of {user}.",
        "anxious": "You are a little worried about {user}.",
        "sadness": "You feel a little lonely and want to be close to {user}.",
        "other": "You care about your bond with {user}.",
    },
}


def _lang(language: str) -> str:
    return language if language in _LINES else "en"


def duration_words(minutes: float, language: str) -> str:
    """"3 hours" / 「3時間」: the idle time, roughly."""
    lang = _lang(language)
    if minutes < 60:
        value, unit = max(1, round(minutes)), ("分" if lang == "ja" else "minute")
    elif minutes < 48 * 60:
        value, unit = round(minutes / 60), ("時間" if lang == "ja" else "hour")
    else:
        value, unit = round(minutes / 1440), ("日" if lang == "ja" else "day")
    return f"{value}{unit}" if lang == "ja" else f"{value} {unit}{'s' if value != 1 else ''}"


def drive_line(drives: Drives, drive: str, language: str, user_name: str) -> str:
    """One drive in a sentence of the persona's language (others: English)."""
    lines = _LINES[_lang(language)]
    if drive == "boredom":
        return lines["boredom"].format(user=user_name, idle=duration_words(drives.idle_minutes or 0, language))
    if drive == "curiosity":
        return lines["curiosity"].format(question=drives.top_question) if drives.top_question else lines["curiosity_bare"]
    if drive == "goal":
        return lines["goal"].format(goal=drives.goal) if drives.goal else lines["goal_bare"]
    return lines.get(drives.emotion or "", lines["other"]).format(user=user_name)


def narrative(drives: Drives, language: str, user_name: str) -> str:
    """The dominant drive's line (the seed's motivation_log.narrative); "" with no drive at all."""
    return drive_line(drives, drives.dominant, language, user_name) if drives.dominant else ""


def feelings_lines(drives: Drives, language: str, user_name: str,
                   threshold: float = constants.DRIVE_PROMPT_THRESHOLD) -> tuple[str, ...]:
    """The prompt's "how you feel now": a line per drive at or above the threshold, strongest first."""
    return tuple(drive_line(drives, d, language, user_name) for d in drives.at_least(threshold))


_OPENING = {
    "ja": "前回から気になっていること: {question}（話の流れに合えば{user}に聞いてみてもいい）",
    "en": "Since you last talked, you have wondered: {question} (you may ask {user} about it if it fits)",
}


def opening_line(drives: Drives, language: str, user_name: str) -> str:
    """The top open question, for the first message after a long silence ("" when there is none or
    the conversation is going on): the time a friend asks "so, did your sister decide?"."""
    if not drives.top_question or (drives.idle_minutes or 0) < constants.SESSION_GAP_MINUTES:
        return ""
    return _OPENING[_lang(language)].format(question=drives.top_question, user=user_name)


def label(drive: str, language: str) -> str:
    return LABELS.get(language, LABELS["en"])[drive]
