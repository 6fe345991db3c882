"""The episodes bench (bench/episodes_bench.py) on a scripted model and a tiny two-day conversation,
scored by the shared scorer."""
import json

import pytest

from agent.providers.fake import ScriptedChatModel, replies
from tests.conftest import quiet_dream
from bench import episodes_bench
from bench.shared import find_shared

CONVERSATION = {
    "speaker_a": "Caroline", "speaker_b": "Melanie",
    "session_1_date_time": "1:56 pm on 8 May, 2023",
    "session_1": [{"speaker": "Caroline", "dia_id": "D1:1", "text": "I went to a support group yesterday."},
                  {"speaker": "Melanie", "dia_id": "D1:2", "text": "I painted a lake sunrise."}],
    "session_2_date_time": "1:14 pm on 25 May, 2023",
    "session_2": [{"speaker": "Melanie", "dia_id": "D2:1", "text": "I ran a charity race on Saturday."},
                  {"speaker": "Caroline", "dia_id": "D2:2", "text": "Wow, well done!"}],
    "events_session_1": {"date": "8 May, 2023", "Caroline": ["Caroline attends a support group."],
                         "Melanie": ["Melanie paints a lake sunrise."]},
    "events_session_2": {"date": "25 May, 2023", "Melanie": ["Melanie runs a charity race for mental health."]},
}


@pytest.fixture
def locomo_file(tmp_path):
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps({"conversation": CONVERSATION, "qa": []}))
    return path


# each day's user's part is asked both ways on the embedded model (constants.EPISODE_DAY_ASKS)
BOTH_DAYS_ASKED = ["Date: 2023-05-08"] * 2 + ["Date: 2023-05-25"] * 2


def nights_script(asked: list, stop_at: str = ""):
    """The nights' answers on a scripted model; the days' asks in `asked`; a KeyboardInterrupt (the
    bench stopped by hand) when the day `stop_at` is asked for."""
    def episode(system, user, schema):
        if "entities" in schema["properties"]:  # the night's entity step
            return json.dumps({"entities": []})
        if {"insight", "open"} & set(schema["properties"]):  # the night's dream
            return quiet_dream()
        if "entry" in schema["properties"]:  # the night's diary entry, after the day's episode
            return json.dumps({"entry": "A good day."})
        if stop_at and stop_at in user:
            raise KeyboardInterrupt
        asked.append(user.splitlines()[0])
        text = ("Caroline told me she went to a support group, and I painted a lake sunrise."
                if "2023-05-08" in user else "I told Caroline about my walk in the park.")
        return json.dumps({"sessions": [{"arousal": 0.5}] * user.count("## Session "), "summary": text})
    return ScriptedChatModel(replies("ok"), json_script=episode)


def needs_the_scorer():
    if find_shared(episodes_bench.SCORER) is None:
        pytest.skip("the shared folder (episode_coverage.py) is not beside the repository")


def test_each_session_day_gets_its_night_and_the_shared_scorer_reads_the_episodes(locomo_file, tmp_path, monkeypatch):
    needs_the_scorer()
    asked = []
    results = episodes_bench.run([str(locomo_file)], nights_script(asked), tmp_path / "out")
    assert asked == BOTH_DAYS_ASKED
    written = json.loads((tmp_path / "out" / "tiny.json").read_text())
    assert [e["date"] for e in written] == ["2023-05-08", "2023-05-25"]
    # The night's ratings of the day come along: `bench qa --episodes` gives them to its persona (★ at ≥ 0.6).
    assert [(e["arousal"], e["arousal_max"]) for e in written] == [(0.5, 0.5), (0.5, 0.5)]
    assert all(set(e) == {"date", "text", "arousal", "arousal_max"} for e in written)  # the nights' costs stay out
    kept = tmp_path / "out" / "tiny-memory"  # the nights' other writings, for reading
    assert "lake sunrise" in (kept / "episodic_memory.json").read_text() and (kept / "memory_main.txt").is_file()
    tiny = results["tiny"]
    assert tiny["events"] == 3 and tiny["event_coverage"] == pytest.approx(66.7)  # the race was not told
    # each night: the episode's two asks, the diary, the entities, the dream (no questions' ask: nothing said
    # lies ahead)
    assert tiny["days"] == 2 and tiny["model_calls"] == 10
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["tiny-memory", "tiny.json"]  # no work left behind


def test_a_stopped_run_goes_on_from_its_last_finished_night_with_resume(locomo_file, tmp_path):
    needs_the_scorer()
    out, first_asked, asked = tmp_path / "out", [], []
    with pytest.raises(KeyboardInterrupt):  # stopped by hand in the second night's episode
        episodes_bench.run([str(locomo_file)], nights_script(first_asked, stop_at="2023-05-25"), out)
    assert first_asked == ["Date: 2023-05-08"] * 2 and not (out / "tiny.json").exists()
    results = episodes_bench.run([str(locomo_file)], nights_script(asked), out, resume=True)
    assert asked == ["Date: 2023-05-25"] * 2  # the first night is not run again, nor the replay doubled
    written = json.loads((out / "tiny.json").read_text())
    assert [e["date"] for e in written] == ["2023-05-08", "2023-05-25"] and "lake sunrise" in written[0]["text"]
    assert results["tiny"]["event_coverage"] == pytest.approx(66.7) and results["tiny"]["nights_from_a_stopped_run"] == 1
    assert sorted(p.name for p in out.iterdir()) == ["tiny-memory", "tiny.json"]


def test_without_resume_a_stopped_runs_work_is_started_over(locomo_file, tmp_path):
    needs_the_scorer()
    out, asked = tmp_path / "out", []
    with pytest.raises(KeyboardInterrupt):
        episodes_bench.run([str(locomo_file)], nights_script([], stop_at="2023-05-25"), out)
    results = episodes_bench.run([str(locomo_file)], nights_script(asked), out)
    assert asked == BOTH_DAYS_ASKED and "nights_from_a_stopped_run" not in results["tiny"]


def test_episodes_only_writes_the_same_episodes_without_the_rest_of_the_night(locomo_file, tmp_path):
    needs_the_scorer()
    whole, alone = [], []
    full = episodes_bench.run([str(locomo_file)], nights_script(whole), tmp_path / "whole")
    only = episodes_bench.run([str(locomo_file)], nights_script(alone), tmp_path / "alone", episodes_only=True)
    assert alone == whole == BOTH_DAYS_ASKED
    assert (tmp_path / "alone" / "tiny.json").read_text() == (tmp_path / "whole" / "tiny.json").read_text()
    assert only["tiny"]["event_coverage"] == full["tiny"]["event_coverage"]
    # only the user's part of each day was asked (both ways): no diary, entities or dream
    assert only["tiny"]["model_calls"] == 4 < full["tiny"]["model_calls"] and only["tiny"]["episodes_only"]
    kept = tmp_path / "alone" / "tiny-memory"
    assert (kept / "episodic_memory.json").is_file() and not (kept / "memory_main.txt").exists()
