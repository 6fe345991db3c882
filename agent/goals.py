"""Goals (seed 004 §6) as the prompt and the milestone episodes say them: the pure parts. The file
is managers/goals.py; the tool's and the night's changes are persona/inner_life.py and
persona/dream_job.py."""
from __future__ import annotations

from typing import Sequence

from agent.language import message_language
from managers.goals import LONG, Goal


def goal_lines(goals: Sequence[Goal], with_ids: bool) -> tuple[str, ...]:
    """One line a goal; with its id where the model may change it by tool (manage_goals)."""
    lines = []
    for goal in goals:
        term = "long-term" if goal.term == LONG else "short-term"
        label = f"{term} · {goal.id}" if with_ids else term
        lines.append(f"- ({label}) {goal.goal}")
    return tuple(lines)


def goals_hint(with_tools: bool) -> str:
    return ("Goals you set yourself; work toward them in conversation, and mark one done or let it go with "
            "manage_goals when it is:" if with_tools else "Goals you set yourself; work toward them in conversation:")


def _japanese(*texts: str) -> bool:
    return message_language(" ".join(texts)) in ("ja", "zh")


def achievement_text(goal: str, note: str = "") -> str:
    """Phase E: 「【達成】目標「…」を達成した。」 (the seed's words), or in English for an English goal."""
    if _japanese(goal):
        return f"目標「{goal}」を達成した。" + (f" {note.strip()}" if note.strip() else "")
    return f"I achieved my goal \u201c{goal}\u201d." + (f" {note.strip()}" if note.strip() else "")


def discovery_text(topic: str, content: str) -> str:
    """Phase G: 「【発見】「…」について新たな発見: …」, or in English for an English question."""
    if _japanese(topic, content):
        return f"「{topic}」について新たな発見: {content}"
    return f"A new discovery about \u201c{topic}\u201d: {content}"
