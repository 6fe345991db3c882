"""The dream diary on disk: `memory/insights.json`, a JSON array in the seed's format (seed 004 §5)

    [{"created_at": "2026-01-02 04:53:57", "trigger_topic": "…", "insight": "…", "strategy": "…",
      "log_entry": "…"}]

which recall reads as it is (managers/memory_sources.py `insight_items`). An entry the app writes
also carries `night` (the night it was dreamt: a night re-run after a crash finds its entry and
writes no second one), `level` (1/2/3) and, for the insight a resolved question became (Phase B),
`source_question`. A strategy that failed its check is kept as `strategy_rejected` with an empty
`strategy`, so the previous one stays in the prompt and nothing the model wrote is lost.
Unknown fields are kept; a file that cannot be read is quarantined and reported.
"""
from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from managers.memory_sources import INSIGHTS_FILE
from managers.store import CharacterFiles, PendingFile, atomic_write_text, file_lock


class DreamEntry(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)

    created_at: str = ""
    trigger_topic: str = ""
    insight: str = ""
    strategy: str = ""
    log_entry: str = ""
    night: str = ""
    level: int | None = None
    source_question: str = ""
    strategy_rejected: str = ""


SEED_FIELDS = ("created_at", "trigger_topic", "insight", "strategy", "log_entry")


def _record(entry: DreamEntry) -> dict:
    """The seed's five fields always (in its order), then what else the entry has."""
    return {key: getattr(entry, key) for key in SEED_FIELDS} | entry.model_dump(exclude_defaults=True)


class DreamDiary:
    def __init__(self, memory_dir: Path, files: CharacterFiles):
        self.path = memory_dir / INSIGHTS_FILE
        self._files = files

    def entries(self) -> list[DreamEntry]:
        """Every entry, oldest first (as written); [] for no file or one that cannot be read (quarantined)."""
        if not self.path.exists():
            return []
        try:
            records = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(records, list):
                raise ValueError("the file should hold a JSON array")
            return [DreamEntry.model_validate(r) for r in records if isinstance(r, dict)]
        except (UnicodeDecodeError, ValueError, ValidationError) as exc:
            self._files.quarantine(self.path, f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}")
            return []

    def append(self, entry: DreamEntry) -> bool:
        """Append unless the night's dream (or the insight of the same question) is there already; False then."""
        with file_lock(self.path):
            current = self.entries()
            if any(e.source_question == entry.source_question if entry.source_question
                   else (entry.night and e.night == entry.night and not e.source_question) for e in current):
                return False
            self._files.backup(self.path)
            records = [_record(e) for e in [*current, entry]]
            atomic_write_text(self.path, json.dumps(records, ensure_ascii=False, indent=1) + "\n")
            return True

    def latest_strategy(self) -> str:
        """The newest strategy that passed its check (the seed: only the latest goes into the prompt)."""
        return next((e.strategy.strip() for e in reversed(self.entries()) if e.strategy.strip()), "")

    def has_night(self, night: str) -> bool:
        return any(e.night == night and not e.source_question for e in self.entries())


PENDING_FILE = "dream_pending.json"


class DreamPending(BaseModel):
    """The night's answer, saved before any of it is applied: a crash mid-dream applies it again on
    resume (each write skips what is there already) instead of asking the model twice."""
    model_config = ConfigDict(frozen=True)

    night: str
    level: int
    answer: str
    newest_day: str
    language: str = ""
    days_text: str = ""
    goal_ids: list[str] = []  # the goals as numbered in the ask
    question_ids: list[str] = []  # the open questions as numbered in the questions' ask
    user_texts: list[str] = []  # the user's own words of the days dreamt of: what stays the user's
    questions_answer: str = ""  # the questions' ask (agent/question_ask.py), asked after the dream
    question_messages: list[str] = []  # the user's messages as numbered in it
    question_ahead: list[int] = []  # the numbers of those that point ahead: the ones a new question may come from


class PendingDream(PendingFile[DreamPending]):
    def __init__(self, memory_dir: Path, files: CharacterFiles):
        super().__init__(memory_dir / PENDING_FILE, DreamPending, files)
