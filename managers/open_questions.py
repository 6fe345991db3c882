"""The persona's open questions on disk: `memory/open_questions.json` (seed 004 §8 好奇心 and Phase B).

    {"questions": [{"id": "q_…", "text": "初詣での雪の冷たさ", "context": "…", "priority": 0.8,
                    "created_at": "…", "source_date": "2026-01-02", "last_asked": "",
                    "resolved": false, "resolution": "", "resolved_at": "", "resolved_by": "",
                    "filed": "", "filed_at": ""}]}

Questions come from the night's reflection; a question is resolved only by the persona's tool, by
the reflection, or by the user in the dashboard (never guessed from a message: the seed dropped
that in 2026-01-14). A resolved question is filed once at night (Phase B): FACT, INSIGHT or SKIP.
Priority is 0–1, the highest first. Written atomically, a backup first; unknown fields kept.
"""
from __future__ import annotations

import hashlib
import unicodedata
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

import constants
from managers.store import CharacterFiles, file_lock

QUESTIONS_FILE = "open_questions.json"
FACT, INSIGHT, SKIP = "FACT", "INSIGHT", "SKIP"
FILED_KINDS = (FACT, INSIGHT, SKIP)
BY_PERSONA, BY_REFLECTION, BY_USER = "persona", "reflection", "user"


class QuestionError(ValueError):
    """An operation on a question that cannot be done (the message is safe to show)."""


class OpenQuestion(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)

    id: str
    text: str
    context: str = ""
    priority: float = constants.OPEN_QUESTION_DEFAULT_PRIORITY
    created_at: str = ""
    source_date: str = ""
    last_asked: str = ""
    resolved: bool = False
    resolution: str = ""
    resolved_at: str = ""
    resolved_by: str = ""
    filed: str = ""  # Phase B: FACT / INSIGHT / SKIP once filed
    filed_at: str = ""
    deleted: bool = False  # deleted by the user: kept as a mark so the night does not ask it again


class QuestionsFile(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)

    questions: list[OpenQuestion] = Field(default_factory=list)


def question_key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split()).rstrip("?？")


def question_id(text: str) -> str:
    return "q_" + hashlib.sha256(question_key(text).encode("utf-8")).hexdigest()[:8]


def by_priority(questions: list[OpenQuestion]) -> list[OpenQuestion]:
    """The highest priority first, then the newest."""
    return sorted(sorted(questions, key=lambda q: q.created_at, reverse=True), key=lambda q: -q.priority)


class OpenQuestionStore:
    def __init__(self, memory_dir: Path, files: CharacterFiles):
        self.path = memory_dir / QUESTIONS_FILE
        self._files = files

    def all(self) -> list[OpenQuestion]:
        return list(self._files.load_json_model(self.path, QuestionsFile, QuestionsFile).questions)

    def unresolved(self) -> list[OpenQuestion]:
        return by_priority([q for q in self.all() if not q.resolved and not q.deleted])

    def top(self) -> OpenQuestion | None:
        """The question the prompt names as "what's on your mind" (seed: 最強の問い)."""
        found = self.unresolved()
        return found[0] if found else None

    def to_file(self) -> list[OpenQuestion]:
        """Resolved and not yet filed (Phase B), oldest resolution first."""
        return sorted((q for q in self.all() if q.resolved and not q.filed and not q.deleted), key=lambda q: q.resolved_at)

    def find(self, ref: str) -> OpenQuestion | None:
        """By id, by text, or the one unresolved question whose text holds `ref`."""
        key, questions = question_key(ref), [q for q in self.all() if not q.deleted]
        exact = next((q for q in questions if q.id == ref.strip() or question_key(q.text) == key), None)
        if exact is not None or not key:
            return exact
        holding = [q for q in questions if not q.resolved and (key in question_key(q.text) or question_key(q.text) in key)]
        return holding[0] if len(holding) == 1 else None

    def _rewrite(self, how) -> object:
        with file_lock(self.path.with_name(self.path.name + ".edit")):
            questions, result = how(self.all())
            self._files.save_json_model(self.path, QuestionsFile(questions=questions))
            return result

    def add(self, new: list[tuple[str, str, float]], now: datetime, source_date: str = "") -> list[OpenQuestion]:
        """(text, context, priority) each; a question asked before (resolved or not) is not added again.
        Past OPEN_QUESTIONS_KEPT unresolved, the lowest priority (then the oldest) are dropped."""
        def how(questions: list[OpenQuestion]):
            known = {question_key(q.text) for q in questions}
            added = []
            for text, context, priority in new:
                text = " ".join(text.split())[: constants.OPEN_QUESTION_MAX_CHARS]
                if not text or question_key(text) in known:
                    continue
                known.add(question_key(text))
                added.append(OpenQuestion(id=question_id(text), text=text, context=" ".join(context.split()),
                                          priority=round(min(1.0, max(0.0, float(priority))), 3),
                                          created_at=now.isoformat(timespec="seconds"), source_date=source_date))
            merged = questions + added
            open_ = by_priority([q for q in merged if not q.resolved and not q.deleted])
            dropped = {q.id for q in open_[constants.OPEN_QUESTIONS_KEPT:]}
            return [q for q in merged if q.id not in dropped], [q for q in added if q.id not in dropped]
        return self._rewrite(how)

    def _update(self, question_id_: str, changes: dict, only_unresolved: bool = False) -> OpenQuestion:
        def how(questions: list[OpenQuestion]):
            found = next((q for q in questions if q.id == question_id_), None)
            if found is None:
                raise QuestionError(f"There is no question {question_id_!r} any more.")
            if only_unresolved and found.resolved:
                raise QuestionError(f"The question {found.text!r} is resolved already.")
            changed = found.model_copy(update=changes)
            return [changed if q.id == found.id else q for q in questions], changed
        return self._rewrite(how)

    def resolve(self, question_id_: str, resolution: str, by: str, now: datetime) -> OpenQuestion:
        return self._update(question_id_, {"resolved": True, "resolution": " ".join(resolution.split()),
                                           "resolved_at": now.isoformat(timespec="seconds"), "resolved_by": by},
                            only_unresolved=True)

    def mark_asked(self, question_id_: str, now: datetime) -> OpenQuestion:
        """The persona brought the question up (the drives' decay counts from here)."""
        return self._update(question_id_, {"last_asked": now.isoformat(timespec="seconds")})

    def mark_filed(self, question_id_: str, kind: str, now: datetime) -> OpenQuestion:
        if kind not in FILED_KINDS:
            raise QuestionError(f"A question is filed as {', '.join(FILED_KINDS)}, not {kind!r}.")
        return self._update(question_id_, {"filed": kind, "filed_at": now.isoformat(timespec="seconds")})

    def delete(self, question_id_: str) -> None:
        """The user deletes a question: it leaves every list, and a mark stays so that the night's
        reflection does not ask it again (a backup keeps the file as it was)."""
        self._update(question_id_, {"deleted": True})
