"""The persona's episodes on disk: `memory/episodic_memory.json`, a JSON array in the seed's format
(seed 004 §3) — daily records {"id", "date", "summary", "compressed": false, "arousal",
"arousal_max", "created_at"} and weekly compressed ones {"date": "first~last", "compressed": true,
"original_count", "arousal_avg", "arousal_max", ...}. Recall reads the same file
(managers/memory_sources.py).

Every record has a stable id (`episode_YYYY-MM-DD_001`; a week: `episode_FIRST~LAST_001`), and a
record is replaced by id, never appended twice: re-running the night, a crash half-way or two runs
at once leave one record per day (the original app had to dedupe 809 episodes down to 230). A file
that cannot be read is quarantined and reported; records written by the original app (no id) get
their id from their date when read. Unknown fields are kept.
"""
from __future__ import annotations

import hashlib
import json
import logging
from datetime import datetime
from pathlib import Path
from typing import Any, Iterable, Mapping

from pydantic import BaseModel, ConfigDict, ValidationError

import constants
from managers.store import CharacterFiles, PendingFile, atomic_write_text, file_lock


def is_starred(arousal: float | None) -> bool:
    """★ (seed 004 §3: "★ for arousal ≥ 0.6 kept in detail"): the one rule for an episode, a session
    of a day and a recalled memory alike. None (not rated) is not ★."""
    return (arousal or 0.0) >= constants.AROUSAL_STAR_THRESHOLD

log = logging.getLogger(__name__)

EPISODES_FILE = "episodic_memory.json"
# A long day's parts asked so far (issue 19: a day longer than the model's context is told in parts,
# then merged): removed when the day's episode is written.
PARTS_PENDING_FILE = "episode_parts_pending.json"
DAILY = "daily"
# Milestone episodes (seed 004: Phase E 達成, Phase G 発見, Phase F 絆確認): their `type` and the
# prefix their summary opens with, so recall shows what kind of moment it was.
MILESTONE_PREFIXES = {"achievement": "【達成】", "discovery": "【発見】", "bonding": "【絆確認】"}


class Episode(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)

    id: str = ""
    date: str  # "YYYY-MM-DD", or "first~last" for a compressed week
    summary: str
    compressed: bool = False
    arousal: float | None = None
    arousal_max: float | None = None
    arousal_avg: float | None = None
    original_count: int | None = None
    created_at: str = ""
    source_digest: str = ""  # what the day's log was when it was summarised: a changed day is redone
    user_edited: bool = False  # the user's words: never rewritten by the night's work
    deleted: bool = False  # deleted by the user: kept as a mark (no text) so the day is not written again
    type: str = DAILY  # a day's (or week's) summary, or a milestone's kind (MILESTONE_PREFIXES)

    @property
    def is_milestone(self) -> bool:
        """A moment recorded when it happened, not a day's summary: the night's work leaves it be."""
        return self.type != DAILY

    @property
    def starred(self) -> bool:
        """★: a stirring day (or a week with one), by its peak arousal (seed 004 §3)."""
        return is_starred(self.arousal_max)

    @property
    def is_daily(self) -> bool:
        return not self.is_milestone and not self.compressed and "~" not in self.date

    @property
    def first_day(self) -> str:
        return self.date.split("~")[0]

    @property
    def last_day(self) -> str:
        return self.date.split("~")[-1]


class PendingDay(BaseModel):
    """The answers a long day's parts got, by part (`agent.episodes.part_key`)."""
    model_config = ConfigDict(frozen=True)

    digest: str  # the day's log when they were asked: a day that changed since asks its parts again
    answers: dict[str, str] = {}


class PendingParts(BaseModel):
    model_config = ConfigDict(frozen=True)

    days: dict[str, PendingDay] = {}  # by "YYYY-MM-DD"


def episode_id(date: str, number: int = 1) -> str:
    return f"episode_{date}_{number:03d}"


def daily_episode(day: str, summary: str, now: datetime, *, arousal: float | None = None,
                  arousal_max: float | None = None, source_digest: str = "") -> Episode:
    """A day's episode as the night writes it: the day's stable id, and the night's time as its
    `created_at` (`now`). `source_digest`: the day's log it was told from (a changed day is redone)."""
    return Episode(id=episode_id(day), date=day, summary=summary, arousal=arousal, arousal_max=arousal_max,
                   created_at=now.isoformat(timespec="seconds"), source_digest=source_digest)


def milestone_id(kind: str, date: str, summary: str) -> str:
    """Stable for the same moment: recording it again (a job resumed after a crash) replaces it."""
    return f"episode_{date}_{kind}_{hashlib.sha256(summary.encode('utf-8')).hexdigest()[:8]}"


def _with_id(episode: Episode) -> Episode:
    """A record of the original app's (no id) gets one from what it is."""
    if episode.id:
        return episode
    new_id = milestone_id(episode.type, episode.date, episode.summary) if episode.is_milestone else episode_id(episode.date)
    return episode.model_copy(update={"id": new_id})


class EpisodeStore:
    """One persona's episodes. Reads see the file as it is; writes hold its lock and replace the
    file atomically, with the previous version kept in backups."""

    def __init__(self, memory_dir: Path, files: CharacterFiles):
        self.path = memory_dir / EPISODES_FILE
        self._files = files

    def all(self) -> list[Episode]:
        """Every episode, oldest first; [] for no file, and for one that cannot be read (it is quarantined)."""
        if not self.path.exists():
            return []
        try:
            records = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(records, list):
                raise ValueError("the file should hold a JSON array")
            episodes = [Episode.model_validate(r) for r in records]
        except (UnicodeDecodeError, ValueError, ValidationError) as exc:
            self._files.quarantine(self.path, f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}")
            return []
        return sorted(map(_with_id, episodes), key=lambda e: (e.first_day, e.id))

    def pending_parts(self) -> PendingFile[PendingParts]:
        """The parts' answers of long days whose episode is not written yet, beside the episodes."""
        return PendingFile(self.path.parent / PARTS_PENDING_FILE, PendingParts, self._files)

    def get(self, episode_id_: str) -> Episode | None:
        return next((e for e in self.all() if e.id == episode_id_), None)

    def put(self, episodes: Iterable[Episode], remove_ids: Iterable[str] = ()) -> None:
        """Add or replace `episodes` by id, and drop `remove_ids` (the days a compressed week now
        holds), in one atomic rewrite."""
        new = {e.id: e for e in episodes}
        gone = set(remove_ids)
        with file_lock(self.path):
            kept = [e for e in self.all() if e.id not in new and e.id not in gone]
            merged = sorted([*kept, *new.values()], key=lambda e: (e.first_day, e.id))
            self._files.backup(self.path)
            text = json.dumps([e.model_dump(exclude_none=True) for e in merged], ensure_ascii=False, indent=1)
            atomic_write_text(self.path, text + "\n")

    def record_milestone(self, kind: str, text: str, arousal: float, now: datetime,
                         details: Mapping[str, Any] | None = None) -> Episode:
        """A milestone episode of `now`'s day (the caller's local time): an achievement (【達成】), a
        discovery (【発見】) or a bond confirmed (【絆確認】), with its arousal and `type`, and any
        `details` the seed gives it (`goal_id`, `source_question`, `emotion_change`). The same moment
        recorded twice is one episode."""
        if kind not in MILESTONE_PREFIXES:
            raise ValueError(f"A milestone is one of {', '.join(MILESTONE_PREFIXES)}, not {kind!r}.")
        prefix, body = MILESTONE_PREFIXES[kind], text.strip()
        if not body.removeprefix(prefix).strip():
            raise ValueError("A milestone needs some text.")
        summary = body if body.startswith(prefix) else prefix + body
        day, level = now.date().isoformat(), round(min(1.0, max(0.0, float(arousal))), 3)
        episode = Episode.model_validate({**(details or {}), "id": milestone_id(kind, day, summary), "date": day,
                                          "summary": summary, "arousal": level, "arousal_max": level, "type": kind,
                                          "created_at": now.isoformat(timespec="seconds")})
        self.put([episode])
        return episode
