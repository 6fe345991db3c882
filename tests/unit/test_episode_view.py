"""The Episodes viewer's data (issue 19, persona/episode_view.py): a month's episodes newest first,
the months newest first with "All", ★ at the app's one threshold, milestones with their type, a
compressed week as a date range in each month it touches; the user's deleted ones never shown."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

import constants
from managers.episodes import Episode, EpisodeStore, episode_id
from managers.store import CharacterFiles
from persona.episode_view import ALL_MONTHS, DAY, WEEK, episode_months
from persona.service import NexusService

STAR = constants.AROUSAL_STAR_THRESHOLD


def day(date: str, arousal: float = 0.3, summary: str = "") -> Episode:
    return Episode(id=episode_id(date), date=date, summary=summary or f"The day {date}.", arousal=arousal,
                   arousal_max=arousal)


def week(first: str, last: str, avg: float, peak: float) -> Episode:
    return Episode(id=episode_id(f"{first}~{last}"), date=f"{first}~{last}", summary="A week.", compressed=True,
                   arousal_avg=avg, arousal_max=peak, original_count=5)


# Oldest first, as the store gives them; two years apart so that "newest" cannot be a fluke of order.
EPISODES = [day("2024-11-30"), day("2026-10-03"), day("2026-10-21"), day("2026-11-02"), day("2026-11-20")]


def test_the_newest_month_is_shown_by_default_newest_first_and_the_months_run_newest_first():
    view = episode_months(EPISODES)
    assert view.months == ("2026-11", "2026-10", "2024-11")
    assert view.month == "2026-11" and view.choices == ["2026-11", "2026-10", "2024-11", ALL_MONTHS]
    assert [r.dates for r in view.rows] == ["2026-11-20", "2026-11-02"]


def test_a_chosen_month_shows_only_its_episodes_and_all_shows_every_one_newest_first():
    assert [r.id for r in episode_months(EPISODES, "2026-10").rows] == [episode_id("2026-10-21"), episode_id("2026-10-03")]
    assert [r.id for r in episode_months(EPISODES, "2024-11").rows] == [episode_id("2024-11-30")]
    everything = episode_months(EPISODES, ALL_MONTHS)
    assert everything.month == ALL_MONTHS
    assert [r.id for r in everything.rows] == [e.id for e in reversed(EPISODES)]


@pytest.mark.parametrize("wanted", ["2025-01", "", None, "../../etc"])
def test_a_month_without_episodes_falls_back_to_the_newest(wanted):
    assert episode_months(EPISODES, wanted).month == "2026-11"


def test_no_episodes_no_months_no_choices():
    view = episode_months([], "2026-11")
    assert (view.months, view.month, view.rows, view.choices) == ((), "", (), [])


def test_the_star_is_the_apps_threshold_on_the_peak_arousal():
    at, below = day("2026-11-01", STAR), day("2026-11-02", STAR - 0.01)
    rows = {r.id: r for r in episode_months([at, below]).rows}
    assert rows[at.id].starred and not rows[below.id].starred
    assert (rows[at.id].arousal, rows[at.id].kind) == (STAR, DAY)


def test_a_compressed_week_is_a_date_range_in_both_months_it_touches_starred_by_its_peak():
    straddling = week("2026-08-31", "2026-09-06", avg=0.4, peak=STAR + 0.1)
    episodes = [straddling, day("2026-09-10")]
    for month in ("2026-08", "2026-09"):
        [row] = [r for r in episode_months(episodes, month).rows if r.id == straddling.id]
        assert row.dates == "2026-08-31 – 2026-09-06" and row.kind == WEEK
        assert row.arousal == 0.4 and row.starred  # the week's average shown, ★ from its stirring day
    assert episode_months(episodes).months == ("2026-09", "2026-08")
    # the week ends before the 10th: below it, newest first by the last day
    assert [r.id for r in episode_months(episodes, "2026-09").rows] == [episode_id("2026-09-10"), straddling.id]


def test_a_record_whose_date_is_not_a_date_is_only_under_all():
    odd = Episode(id="episode_odd", date="someday", summary="Hand-edited.")
    view = episode_months([odd])
    assert view.months == () and view.month == ALL_MONTHS and [r.id for r in view.rows] == ["episode_odd"]


@pytest.mark.parametrize("kind", ["achievement", "discovery", "bonding"])
def test_a_milestone_shows_its_type_beside_its_days_summary(tmp_path, kind):
    store = EpisodeStore(tmp_path / "memory", CharacterFiles(tmp_path))
    store.put([day("2026-11-14")])
    moment = store.record_milestone(kind, "Something that mattered.", 0.9, datetime(2026, 11, 14, 21, 0, tzinfo=timezone.utc))
    rows = {r.id: r for r in episode_months(store.all(), "2026-11").rows}
    assert rows[moment.id].kind == kind and rows[moment.id].starred
    assert rows[episode_id("2026-11-14")].kind == DAY


def test_the_facade_leaves_out_deleted_episodes_and_a_month_emptied_by_a_deletion(data_dir):
    service = NexusService(data_dir)
    session = service.session("Ark")
    EpisodeStore(session.character.memory_dir, session.files).put(EPISODES)
    assert service.episode_months("Ark", "2024-11").month == "2024-11"
    service.delete_episode("Ark", episode_id("2024-11-30"))
    view = service.episode_months("Ark", "2024-11")
    assert "2024-11" not in view.months and view.month == "2026-11"
    assert episode_id("2024-11-30") not in [r.id for r in service.episode_months("Ark", ALL_MONTHS).rows]
    service.save_episode("Ark", episode_id("2026-11-20"), "Edited by the user.")
    assert service.episode_months("Ark").rows[0].summary == "Edited by the user."
