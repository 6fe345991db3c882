"""When sleep-time work is due: pure functions of `now` (the scheduler only wakes them).

Once a night: a night begins when the quiet hours do (default 00:00–07:00), and its work runs once
the user has been idle a while — inside the quiet hours, or, if the computer was off or the user
busy then, at the next idle moment after them. The state says which night was done last, so a
restart never runs a night twice and a missed night is made up.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta


@dataclass(frozen=True)
class QuietHours:
    start: time
    end: time  # may be earlier than `start`: the hours wrap past midnight (23:00–06:00)

    def contains(self, moment: time) -> bool:
        if self.start <= self.end:
            return self.start <= moment < self.end
        return moment >= self.start or moment < self.end


def parse_quiet_hours(text: str) -> QuietHours:
    """"00:00-07:00" → QuietHours (ValueError with a message a user can act on otherwise)."""
    try:
        start, end = (time.fromisoformat(part.strip()) for part in text.replace("–", "-").split("-"))
    except ValueError as exc:
        raise ValueError(f"Quiet hours should look like 00:00-07:00, not {text!r}.") from exc
    if start == end:
        raise ValueError("Quiet hours need a start and an end that differ.")
    return QuietHours(start, end)


def night_of(now: datetime, hours: QuietHours) -> date:
    """The night `now` belongs to: the date on which the latest start of the quiet hours fell."""
    today_start = datetime.combine(now.date(), hours.start, now.tzinfo)
    return now.date() if now >= today_start else now.date() - timedelta(days=1)


def due(now: datetime, hours: QuietHours, last_done_night: date | None, last_activity: datetime | None,
        idle_needed: timedelta) -> bool:
    """Whether tonight's (or a missed night's) work should start now: not done for this night, and
    the user idle for `idle_needed` (never in the way of a conversation)."""
    if last_done_night is not None and last_done_night >= night_of(now, hours):
        return False
    return last_activity is None or now - last_activity >= idle_needed


def days_to_summarise(now: datetime, days_with_talk: set[date], summarised: dict[date, str],
                      digests: dict[date, str], limit: int) -> list[date]:
    """Finished days whose episode is missing or was written from another version of the day
    (`digests`: what each day's log is now; `summarised`: the digest each episode was written
    from), newest first, at most `limit` (older ones wait for the next night)."""
    today = now.date()
    todo = [d for d in days_with_talk if d < today and summarised.get(d) != digests.get(d)]
    return sorted(todo, reverse=True)[:limit]
