"""When sleep-time work is due, set by `now`."""
from datetime import date, datetime, time, timedelta, timezone

import pytest

from agent.sleep_schedule import QuietHours, days_to_summarise, due, night_of, parse_quiet_hours

TZ = timezone(timedelta(hours=9))
NIGHT = QuietHours(time(0), time(7))
LATE = QuietHours(time(23), time(6))
IDLE = timedelta(minutes=30)


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 11, day, hour, minute, tzinfo=TZ)


def test_a_night_begins_with_the_quiet_hours():
    assert night_of(at(25, 3), NIGHT) == date(2026, 11, 25)
    assert night_of(at(25, 23, 30), LATE) == date(2026, 11, 25)
    assert night_of(at(26, 2), LATE) == date(2026, 11, 25)
    assert night_of(at(25, 22), LATE) == date(2026, 11, 24)
    assert LATE.contains(time(2)) and LATE.contains(time(23, 30)) and not LATE.contains(time(12))


def test_once_a_night_when_the_user_is_idle_and_a_missed_night_is_made_up():
    assert due(at(25, 2), NIGHT, date(2026, 11, 24), at(25, 1), IDLE)
    assert not due(at(25, 2), NIGHT, date(2026, 11, 24), at(25, 1, 45), IDLE)  # still talking
    assert not due(at(25, 5), NIGHT, date(2026, 11, 25), at(24, 20), IDLE)  # done tonight
    assert due(at(25, 14), NIGHT, date(2026, 11, 23), at(25, 13), IDLE)  # off last night: made up by day
    assert not due(at(25, 14), NIGHT, date(2026, 11, 25), at(25, 13), IDLE)
    assert due(at(25, 14), NIGHT, None, None, IDLE)  # never run, nobody talked


@pytest.mark.parametrize("text, start, end", [("00:00-07:00", time(0), time(7)), ("23:30 – 06:00", time(23, 30), time(6))])
def test_quiet_hours_are_read_from_settings(text, start, end):
    assert parse_quiet_hours(text) == QuietHours(start, end)


@pytest.mark.parametrize("text", ["midnight", "07:00-07:00", "25:00-07:00"])
def test_unreadable_quiet_hours_say_what_is_expected(text):
    with pytest.raises(ValueError, match="Quiet hours"):
        parse_quiet_hours(text)


def test_finished_days_missing_or_changed_are_done_newest_first_a_few_a_night():
    days = {date(2026, 11, d) for d in (20, 21, 22, 23, 25)}
    digests = {d: f"v{d.day}" for d in days}
    summarised = {date(2026, 11, 21): "v21", date(2026, 11, 22): "old"}
    assert days_to_summarise(at(25, 2), days, summarised, digests, limit=2) == [date(2026, 11, 23), date(2026, 11, 22)]
    assert days_to_summarise(at(25, 2), days, summarised, digests, limit=9) == [date(2026, 11, 23), date(2026, 11, 22),
                                                                                 date(2026, 11, 20)]
