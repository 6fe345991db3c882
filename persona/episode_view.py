"""The Episodes tab's viewer, shaped (issue 19): the episodes of one month, newest first, so that
years of them stay browsable; the months that have any, newest first; each episode with its ★, its
kind (a day, a compressed week, or a milestone's type) and its dates (a week as a range). The UI
only lays this out (ui/episodes_tab.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from managers.episodes import Episode

ALL_MONTHS = "All"  # the choice that shows every month at once
DAY, WEEK = "day", "week"  # the kinds besides a milestone's type (managers/episodes.MILESTONE_PREFIXES)

_MONTH = re.compile(r"\d{4}-\d{2}")


@dataclass(frozen=True)
class EpisodeRow:
    id: str
    dates: str  # "2026-11-24"; a compressed week "2026-09-01 – 2026-09-07"
    kind: str  # DAY, WEEK, or the milestone's type: achievement / discovery / bonding
    arousal: float | None  # a day's own, a week's average
    starred: bool  # ★ (Episode.starred)
    summary: str


@dataclass(frozen=True)
class EpisodeMonths:
    months: tuple[str, ...]  # "YYYY-MM" that have episodes, newest first
    month: str  # the month shown: one of `months`, ALL_MONTHS, or "" when there is no episode
    rows: tuple[EpisodeRow, ...]  # that month's episodes, newest first

    @property
    def choices(self) -> list[str]:
        return [*self.months, ALL_MONTHS] if self.month else []


def months_of(episode: Episode) -> set[str]:
    """The months an episode's days fall in: a compressed week may straddle two, and is in both
    (browsing either month shows it). A date that is not one (a hand-edited file) is in none: the
    episode is still under ALL_MONTHS."""
    return {day[:7] for day in (episode.first_day, episode.last_day) if _MONTH.match(day)}


def episode_row(episode: Episode) -> EpisodeRow:
    week = episode.compressed or "~" in episode.date
    kind = episode.type if episode.is_milestone else (WEEK if week else DAY)
    dates = f"{episode.first_day} – {episode.last_day}" if episode.first_day != episode.last_day else episode.first_day
    arousal = episode.arousal if episode.arousal is not None else episode.arousal_avg
    return EpisodeRow(episode.id, dates, kind, arousal, episode.starred, episode.summary)


def episode_months(episodes: Sequence[Episode], wanted: str | None = None) -> EpisodeMonths:
    """The viewer for `episodes` (the user's deleted ones already left out): `wanted` month while it
    has episodes (or ALL_MONTHS), else the newest month."""
    if not episodes:
        return EpisodeMonths((), "", ())
    months = tuple(sorted(set().union(*map(months_of, episodes)), reverse=True))
    month = wanted if wanted == ALL_MONTHS or wanted in months else (months[0] if months else ALL_MONTHS)
    shown = [e for e in episodes if month == ALL_MONTHS or month in months_of(e)]
    # Newest first by the last day (a week ends later than it starts); a day's milestones beside it.
    shown.sort(key=lambda e: (e.last_day, e.first_day, e.id), reverse=True)
    return EpisodeMonths(months, month, tuple(map(episode_row, shown)))
