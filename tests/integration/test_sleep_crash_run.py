"""A short real run of the crash bench (bench/sleep_crash_bench.py): two SIGKILLs inside a scripted
night's work, then the night finishes with every file readable and every day's episode there once."""
import pytest

from bench.sleep_crash_bench import run

pytestmark = pytest.mark.crash


def test_two_kills_inside_a_night_leave_every_file_readable_and_every_day_once(tmp_path):
    result = run(kills=2, days=2, model_kind="scripted", seed=1, work=tmp_path)
    assert result["failures"] == []
    assert result["kills_inside_the_work"] == 2 and result["days_with_conversation"] >= 2
    assert result["episodes_at_end"] == result["days_with_conversation"]
