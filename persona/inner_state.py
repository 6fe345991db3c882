"""The persona's drives now (agent/drives.py), from its files: the user's last message in the chat
log, the latest emotion in the emotion log, and — when their stores are wired in — the open
questions and the top goal, handed in as plain values.
"""
from __future__ import annotations

from datetime import datetime
from typing import Callable, Sequence

from agent.drives import DriveInputs, Drives, Question, compute_drives
from managers.chat_log import LogEntry
from managers.emotion_log import EmotionLog

QuestionSource = Callable[[], Sequence[Question]]
GoalSource = Callable[[], "tuple[float, str] | None"]  # (priority 0..1, text) of the top active goal


def last_user_message_at(recent: Sequence[LogEntry], before_id: str = "") -> datetime | None:
    """When the user last wrote, before the message `before_id` when given (the turn's own)."""
    seen_current = not before_id
    for entry in reversed(recent):
        if not seen_current:
            seen_current = entry.id == before_id
            continue
        if entry.role == "USER" and entry.ts is not None:
            return entry.ts
    return None


def drives_now(now: datetime, recent: Sequence[LogEntry], emotions: EmotionLog, questions: QuestionSource,
               goal: GoalSource, before_id: str = "") -> Drives:
    latest = emotions.recent(1)
    top_goal = goal()
    return compute_drives(now, DriveInputs(
        last_user_at=last_user_message_at(recent, before_id),
        questions=tuple(questions()),
        goal_priority=top_goal[0] if top_goal else None, goal=top_goal[1] if top_goal else "",
        emotion=latest[-1].category if latest else None, intensity=latest[-1].intensity if latest else 0.0,
        emotion_at=latest[-1].at if latest else None))
