"""Phase B (seed 004 睡眠時処理): a resolved open question is filed, not just dropped — FACT to the
page of the entity it is about, INSIGHT to the dream diary, SKIP (nothing worth keeping) marked only —
and FACT and INSIGHT write a discovery episode (Phase G).

The kind comes from the night's reflection (the model names it beside each question it was shown);
`rule_kind` files what the model left out, from the question's resolution: no resolution is SKIP, a
resolution that names a known entity is a FACT about it, any other an INSIGHT. Each write is made
so that a night re-run after a crash adds nothing twice (an entity line the page holds, a diary
entry of the same question, a discovery of the same question are not written again); the question
is marked filed last.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Sequence

import constants
from agent.entities import names_in
from agent.goals import discovery_text
from managers.dream_diary import DreamDiary, DreamEntry
from managers.entities import EntityError, EntityStore
from managers.episodes import EpisodeStore
from managers.open_questions import FACT, INSIGHT, SKIP, OpenQuestion, OpenQuestionStore

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Filing:
    """How the reflection files a resolved question: its kind and, for a FACT, the entity it is about."""
    kind: str
    about: str = ""


def rule_kind(question: OpenQuestion, known_entities: Sequence[str]) -> Filing:
    if not question.resolution.strip():
        return Filing(SKIP)
    named = names_in(f"{question.text} {question.resolution}", known_entities)
    return Filing(FACT, named[0]) if named else Filing(INSIGHT)


def _discovered(episodes: EpisodeStore, question: OpenQuestion, now: datetime) -> bool:
    if any(e.type == "discovery" and (e.model_extra or {}).get("question_id") == question.id for e in episodes.all()):
        return False
    episodes.record_milestone("discovery", discovery_text(question.text, question.resolution), constants.DISCOVERY_AROUSAL,
                              now, {"source_question": question.text, "question_id": question.id})
    return True


def file_question(question: OpenQuestion, filing: Filing, *, questions: OpenQuestionStore, entities: EntityStore | None,
                  diary: DreamDiary, episodes: EpisodeStore, night: str, now: datetime) -> str:
    """File one resolved question; what was written, for the night's report. `now` is local (the
    entity line's and the episode's day)."""
    kind = filing.kind if filing.kind in (FACT, INSIGHT, SKIP) else INSIGHT
    if kind != SKIP and not question.resolution.strip():
        kind = SKIP
    if kind == FACT:
        about = filing.about.strip()
        if entities is None or not about:
            kind = INSIGHT
        else:
            try:
                page, _ = entities.append(about, f"- [{now.date().isoformat()}] {question.resolution}", now)
                about = page.name
            except EntityError as exc:
                log.warning("Question %s not filed on %r (%s): filed as an insight", question.id, about, exc)
                kind = INSIGHT
    if kind == INSIGHT:
        diary.append(DreamEntry(created_at=now.strftime("%Y-%m-%d %H:%M:%S"), trigger_topic=question.text,
                                insight=question.resolution, night=night, source_question=question.id))
    if kind != SKIP:
        _discovered(episodes, question, now)
    questions.mark_filed(question.id, kind, now)
    return f"question filed ({kind}{f' → {about}' if kind == FACT else ''}): {question.text[:40]}"
