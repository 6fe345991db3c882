"""The page's line for the last sleep-time run: how long, what it wrote, and each step's time."""
from types import SimpleNamespace

from managers.sleep_state import SleepReport, SleepState
from ui.episodes_tab import report_text


def test_the_last_runs_line_shows_each_steps_time_in_the_order_run():
    report = SleepReport(night="2026-03-16", started_at="2026-03-16T02:00:00+00:00", wall_s=100.4, model_calls=7,
                         step_seconds={"episodes": 18.6, "diary": 8.2, "dream": 57.0}, written=["episode 2026-03-15"])
    service = SimpleNamespace(sleep_state=lambda name: SleepState(reports=[report]))
    text = report_text(service, "Ark")
    assert "100 s · 7 model calls" in text and "Wrote: episode 2026-03-15" in text
    assert "Steps: episodes 19 s · diary 8 s · dream 57 s" in text


def test_a_report_without_step_times_shows_no_steps_line():
    report = SleepReport(night="2026-03-16", started_at="2026-03-16T02:00:00+00:00")
    assert "Steps:" not in report_text(SimpleNamespace(sleep_state=lambda name: SleepState(reports=[report])), "Ark")
