"""The persona's inner life as the facade offers it (seed 004 §5 夢日記, §6 目標, §8 未解決の問い):
goals, open questions and the dream diary, read and edited by the user through `InnerLifeMethods`
(NexusService inherits it), and the changes the persona's tools and the night share — a completed
goal writes its achievement episode (Phase E), a filed question its discovery (Phase G).

The user's edits are marked (`user_edited`): the night's reflection leaves such a goal as it is.
"""
from __future__ import annotations

from datetime import datetime
from typing import Callable

import constants
from agent.goals import achievement_text
from managers.dream_diary import DreamEntry
from managers.episodes import EpisodeStore
from managers.goals import (SHORT, Goal, GoalError, Goals, GoalStats, GoalStore, abandon_goal, add_goal, complete_goal, statistics,
                            update_goal)
from managers.open_questions import BY_USER, OpenQuestion, QuestionError
from managers.personas import PersonaError
from persona.session import CharacterSession


def episodes_of(session: CharacterSession) -> EpisodeStore:
    return EpisodeStore(session.character.memory_dir, session.files)


def dreams_newest_first(session: CharacterSession) -> list[DreamEntry]:
    return list(reversed(session.dream_diary().entries()))


def record_achievement(episodes: EpisodeStore, goal: Goal, now: datetime) -> None:
    """Phase E: the completed goal as a high-arousal episode (the same one again replaces itself)."""
    episodes.record_milestone("achievement", achievement_text(goal.goal, goal.completion_note),
                              constants.ACHIEVEMENT_AROUSAL, now, {"goal_id": goal.id})


def complete_recorded(store: GoalStore, episodes: EpisodeStore, goal_id: str, note: str, now: datetime,
                      by_user: bool) -> Goal:
    """Complete the goal and write its achievement episode (`now` local: the episode's day)."""
    goal = store.change(lambda goals: complete_goal(goals, goal_id, note, now, by_user))
    record_achievement(episodes, goal, now)
    return goal


def complete_and_record(session: CharacterSession, goal_id: str, note: str, now: datetime, by_user: bool) -> Goal:
    return complete_recorded(session.goals(), episodes_of(session), goal_id, note, now, by_user)


class InnerLifeMethods:
    """Facade methods for goals, open questions and the dream diary (mixed into NexusService)."""

    clock: Callable[[], datetime]
    session: Callable[[str], CharacterSession]

    def _local_now(self) -> datetime:
        return self.clock().astimezone()

    # --- goals (seed 004 §6) -----------------------------------------------------------
    def goals(self, persona: str) -> Goals:
        """The whole goals file: active short- and long-term goals, completed, abandoned, meta."""
        return self.session(persona).goals().load()

    def goal_statistics(self, persona: str) -> GoalStats:
        return statistics(self.goals(persona))

    def top_active_goal(self, persona: str) -> Goal | None:
        """The active goal of the highest priority (1), the oldest first among equals; None with none."""
        active = self.goals(persona).active()
        return active[0] if active else None

    def _goal_change(self, persona: str, how) -> Goal:
        try:
            return self.session(persona).goals().change(how)
        except GoalError as exc:
            raise PersonaError(str(exc)) from exc

    def add_goal(self, persona: str, text: str, term: str = SHORT, priority: int = 3) -> Goal:
        """The user's new goal (the night leaves it as written)."""
        now = self._local_now()
        return self._goal_change(persona, lambda goals: add_goal(goals, text, term, priority, now, by_user=True))

    def edit_goal(self, persona: str, goal_id: str, text: str | None = None, priority: int | None = None) -> Goal:
        now = self._local_now()
        return self._goal_change(persona, lambda goals: update_goal(goals, goal_id, now, text=text, priority=priority,
                                                                    by_user=True))

    def complete_goal(self, persona: str, goal_id: str, note: str = "") -> Goal:
        try:
            return complete_and_record(self.session(persona), goal_id, note, self._local_now(), by_user=True)
        except GoalError as exc:
            raise PersonaError(str(exc)) from exc

    def abandon_goal(self, persona: str, goal_id: str, reason: str) -> Goal:
        now = self._local_now()
        return self._goal_change(persona, lambda goals: abandon_goal(goals, goal_id, reason, now, by_user=True))

    # --- open questions (seed 004 §8, Phase B) -------------------------------------------
    def open_questions(self, persona: str, resolved: bool = False) -> list[OpenQuestion]:
        """The unresolved questions, the highest priority first; with `resolved`, the resolved ones
        (newest first) instead, with how each was filed."""
        store = self.session(persona).questions()
        if not resolved:
            return store.unresolved()
        return sorted((q for q in store.all() if q.resolved and not q.deleted), key=lambda q: q.resolved_at, reverse=True)

    def top_open_question(self, persona: str) -> OpenQuestion | None:
        """What's on the persona's mind (seed: 最強の問い): the unresolved question of the highest priority."""
        return self.session(persona).questions().top()

    def resolve_open_question(self, persona: str, question_id: str, resolution: str = "") -> OpenQuestion:
        """The user marks a question answered; it is filed at night (no answer: SKIP)."""
        try:
            return self.session(persona).questions().resolve(question_id, resolution, BY_USER, self._local_now())
        except QuestionError as exc:
            raise PersonaError(str(exc)) from exc

    def delete_open_question(self, persona: str, question_id: str) -> None:
        try:
            self.session(persona).questions().delete(question_id)
        except QuestionError as exc:
            raise PersonaError(str(exc)) from exc

    def mark_question_asked(self, persona: str, question_id: str) -> OpenQuestion:
        """The persona brought the question up (for the drives' decay)."""
        try:
            return self.session(persona).questions().mark_asked(question_id, self._local_now())
        except QuestionError as exc:
            raise PersonaError(str(exc)) from exc

    # --- the dream diary (seed 004 §5) ---------------------------------------------------
    def dream_diary(self, persona: str) -> list[DreamEntry]:
        """The dream diary's entries, newest first."""
        return dreams_newest_first(self.session(persona))

    def latest_strategy(self, persona: str) -> str:
        return self.session(persona).dream_diary().latest_strategy()
