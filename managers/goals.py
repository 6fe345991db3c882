"""The persona's goals on disk: `memory/goals.json` in the seed's format (seed 004 §6):

    {"short_term": [{"id": "sh_abc123", "goal": "…", "created_at": "…", "status": "active",
                     "progress_notes": [], "priority": 1}],
     "long_term": [...], "completed": [...], "abandoned": [...],
     "meta": {"last_reflection_level": 3, "last_level2_date": "…", "last_level3_date": "…"}}

A goal moved to `completed` or `abandoned` keeps its record and says when and why. Priority 1 is
the highest. A goal the user wrote or edited (`user_edited`) is the user's: the night's reflection
and its clean-ups leave it as it is. Unknown fields are kept.

The pure functions take the goals and `now` and return new goals (Phase D: `stale_cleanup`,
`enforce_limit`; `statistics`); `GoalStore` loads and saves the file atomically, a backup first.
"""
from __future__ import annotations

import hashlib
import unicodedata
from datetime import date, datetime, timedelta
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

import constants
from managers.store import CharacterFiles, file_lock

GOALS_FILE = "goals.json"
SHORT, LONG = "short_term", "long_term"
TERMS = (SHORT, LONG)
ACTIVE, COMPLETED, ABANDONED = "active", "completed", "abandoned"
STALE_REASON = "自動整理: 30日以上進展なし"  # the seed's own words (Phase D)
LIMIT_REASON = "自動整理: 短期目標の上限超過"


class GoalError(ValueError):
    """A goal operation that cannot be done (the message is safe to show)."""


class Goal(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)

    id: str
    goal: str
    created_at: str = ""
    status: str = ACTIVE
    progress_notes: list[str] = Field(default_factory=list)
    priority: int = 3
    term: str = SHORT  # where it was while active (kept in completed/abandoned, for statistics)
    updated_at: str = ""
    completed_at: str = ""
    completion_note: str = ""
    abandoned_at: str = ""
    reason: str = ""
    user_edited: bool = False  # written or changed by the user: the night leaves it


class GoalsMeta(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)

    last_reflection_level: int = 0
    last_level2_date: str = ""
    last_level3_date: str = ""
    first_dream_date: str = ""  # levels 2/3 count from here until they have a date of their own
    last_dream_night: str = ""  # the night the last dream was written (a re-run skips it)
    last_dream_day: str = ""  # the newest day that dream reflected on (a night with no newer day dreams not)


class Goals(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)

    short_term: list[Goal] = Field(default_factory=list)
    long_term: list[Goal] = Field(default_factory=list)
    completed: list[Goal] = Field(default_factory=list)
    abandoned: list[Goal] = Field(default_factory=list)
    meta: GoalsMeta = Field(default_factory=GoalsMeta)

    def active(self, term: str | None = None) -> list[Goal]:
        """Active goals, the highest priority (1) first, then the oldest."""
        found = [g for t in TERMS if term in (None, t) for g in getattr(self, t)]
        return sorted(found, key=lambda g: (g.priority, g.created_at))

    def find(self, goal_id: str) -> Goal | None:
        return next((g for t in (*TERMS, COMPLETED, ABANDONED) for g in getattr(self, t) if g.id == goal_id), None)


class GoalStats(BaseModel):
    model_config = ConfigDict(frozen=True)

    active_short: int
    active_long: int
    completed: int
    abandoned: int
    abandoned_automatically: int
    completion_rate: float  # completed / (completed + abandoned); 0 with none closed


def _stamp(now: datetime) -> str:
    return now.isoformat(timespec="seconds")


def goal_key(text: str) -> str:
    """Two goals are the same goal when their text is, ignoring case, width and spacing."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def new_goal_id(term: str, text: str, now: datetime) -> str:
    digest = hashlib.sha256(f"{goal_key(text)}|{_stamp(now)}".encode("utf-8")).hexdigest()[:6]
    return f"{'sh' if term == SHORT else 'lg'}_{digest}"


def clamp_priority(priority: int) -> int:
    low, high = constants.GOAL_PRIORITY_RANGE
    return min(high, max(low, int(priority)))


def priority_weight(priority: int) -> float:
    """A priority as 0–1 (1 → 1.0, the lowest → 1/5), for the goal drive."""
    low, high = constants.GOAL_PRIORITY_RANGE
    return round((high - clamp_priority(priority) + 1) / (high - low + 1), 3)


def _clean_text(text: str) -> str:
    text = " ".join(str(text).split())
    if not text:
        raise GoalError("A goal needs some text.")
    return text[: constants.GOAL_MAX_CHARS]


def add_goal(goals: Goals, text: str, term: str, priority: int, now: datetime, by_user: bool = False) -> tuple[Goals, Goal]:
    """A new active goal; the same text as an active, completed or abandoned goal is not added again
    (that goal is returned: a night re-run, or a goal the user let go of, is not revived)."""
    if term not in TERMS:
        raise GoalError(f"A goal is {SHORT} or {LONG}, not {term!r}.")
    text = _clean_text(text)
    for existing in (g for t in (*TERMS, COMPLETED, ABANDONED) for g in getattr(goals, t)):
        if goal_key(existing.goal) == goal_key(text):
            return goals, existing
    goal = Goal(id=new_goal_id(term, text, now), goal=text, created_at=_stamp(now), priority=clamp_priority(priority),
                term=term, user_edited=by_user, updated_at=_stamp(now))
    return goals.model_copy(update={term: [*getattr(goals, term), goal]}), goal


def _active_or_error(goals: Goals, goal_id: str) -> Goal:
    goal = next((g for g in goals.active() if g.id == goal_id), None)
    if goal is None:
        raise GoalError(f"There is no active goal {goal_id!r}.")
    return goal


def _without(goals: Goals, goal: Goal) -> dict:
    return {goal.term: [g for g in getattr(goals, goal.term) if g.id != goal.id]}


def complete_goal(goals: Goals, goal_id: str, note: str, now: datetime, by_user: bool = False) -> tuple[Goals, Goal]:
    goal = _active_or_error(goals, goal_id)
    done = goal.model_copy(update={"status": COMPLETED, "completed_at": _stamp(now), "completion_note": note.strip(),
                                   "updated_at": _stamp(now), "user_edited": goal.user_edited or by_user})
    return goals.model_copy(update={**_without(goals, goal), COMPLETED: [*goals.completed, done]}), done


def abandon_goal(goals: Goals, goal_id: str, reason: str, now: datetime, by_user: bool = False) -> tuple[Goals, Goal]:
    goal = _active_or_error(goals, goal_id)
    if not reason.strip():
        raise GoalError("Say why the goal is abandoned.")
    gone = goal.model_copy(update={"status": ABANDONED, "abandoned_at": _stamp(now), "reason": reason.strip(),
                                   "updated_at": _stamp(now), "user_edited": goal.user_edited or by_user})
    return goals.model_copy(update={**_without(goals, goal), ABANDONED: [*goals.abandoned, gone]}), gone


def update_goal(goals: Goals, goal_id: str, now: datetime, *, text: str | None = None, priority: int | None = None,
                note: str = "", by_user: bool = False) -> tuple[Goals, Goal]:
    """A new text, priority or progress note for an active goal."""
    goal = _active_or_error(goals, goal_id)
    changes: dict = {"updated_at": _stamp(now), "user_edited": goal.user_edited or by_user}
    if text is not None:
        changes["goal"] = _clean_text(text)
    if priority is not None:
        changes["priority"] = clamp_priority(priority)
    if note.strip():
        changes["progress_notes"] = [*goal.progress_notes, f"[{now.date().isoformat()}] {note.strip()}"]
    changed = goal.model_copy(update=changes)
    return goals.model_copy(update={goal.term: [changed if g.id == goal.id else g for g in getattr(goals, goal.term)]}), changed


def _last_progress(goal: Goal, now: datetime) -> datetime | None:
    """When the goal last moved (written, edited, a progress note), in `now`'s zone (a naive stamp of
    the original app's is taken as local to `now`)."""
    try:
        when = datetime.fromisoformat((goal.updated_at or goal.created_at).replace(" ", "T"))
    except ValueError:
        return None
    return when.replace(tzinfo=now.tzinfo) if when.tzinfo is None else when


def stale_cleanup(goals: Goals, now: datetime, days: int = constants.GOAL_STALE_DAYS) -> tuple[Goals, list[Goal]]:
    """Phase D `auto_cleanup_stale_goals`: short-term goals with no progress for `days` are abandoned
    (the user's own goals are left as they are)."""
    gone = []
    for goal in goals.short_term:
        last = _last_progress(goal, now)
        if not goal.user_edited and last is not None and now - last >= timedelta(days=days):
            gone.append(goal)
    for goal in gone:
        goals, _ = abandon_goal(goals, goal.id, STALE_REASON, now)
    return goals, gone


def enforce_limit(goals: Goals, now: datetime, max_short: int = constants.GOAL_MAX_SHORT) -> tuple[Goals, list[Goal]]:
    """Phase D `enforce_goal_limit`: past `max_short` active short-term goals, the lowest priority and
    then the oldest are abandoned; the user's own count but are never the ones let go."""
    excess = len(goals.short_term) - max_short
    if excess <= 0:
        return goals, []
    candidates = sorted((g for g in goals.short_term if not g.user_edited),
                        key=lambda g: (-g.priority, g.created_at))[:excess]
    for goal in candidates:
        goals, _ = abandon_goal(goals, goal.id, LIMIT_REASON, now)
    return goals, candidates


def statistics(goals: Goals) -> GoalStats:
    closed = len(goals.completed) + len(goals.abandoned)
    return GoalStats(active_short=len(goals.short_term), active_long=len(goals.long_term),
                     completed=len(goals.completed), abandoned=len(goals.abandoned),
                     abandoned_automatically=sum(1 for g in goals.abandoned if g.reason in (STALE_REASON, LIMIT_REASON)),
                     completion_rate=round(len(goals.completed) / closed, 3) if closed else 0.0)


def shown_in_prompt(goals: Goals) -> list[Goal]:
    """The goals the prompt shows (seed: 3 short-term, 2 long-term), the highest priority first."""
    return [*goals.active(SHORT)[: constants.GOALS_IN_PROMPT_SHORT], *goals.active(LONG)[: constants.GOALS_IN_PROMPT_LONG]]


def find_active(goals: Goals, ref: str) -> Goal | None:
    """An active goal by its id, its text, or (one only) a goal whose text holds `ref`."""
    ref_key = goal_key(ref)
    active = goals.active()
    exact = next((g for g in active if g.id == ref.strip() or goal_key(g.goal) == ref_key), None)
    if exact is not None or not ref_key:
        return exact
    holding = [g for g in active if ref_key in goal_key(g.goal) or goal_key(g.goal) in ref_key]
    return holding[0] if len(holding) == 1 else None


def days_since(day: str, today: date) -> int | None:
    try:
        return (today - date.fromisoformat(day[:10])).days
    except ValueError:
        return None


class GoalStore:
    def __init__(self, memory_dir: Path, files: CharacterFiles):
        self.path = memory_dir / GOALS_FILE
        self._files = files

    def load(self) -> Goals:
        return self._files.load_json_model(self.path, Goals, Goals)

    def save(self, goals: Goals) -> None:
        self._files.save_json_model(self.path, goals)

    def change(self, how) -> object:
        """Load, apply `how(goals) -> (goals, result)` and save under the file's lock; the result."""
        with file_lock(self.path.with_name(self.path.name + ".edit")):
            goals, result = how(self.load())
            self.save(goals)
            return result

