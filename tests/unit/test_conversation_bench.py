"""`bench conversation` end to end on the scripted model: transcript, clock, filler, notices, and
the printed numbers equal shared/bench/conversation_checks.py's on the transcripts written."""
import argparse
import json
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest

from agent.providers.base import ProviderError
from agent.providers.fake import ScriptedChatModel
from bench import conversation_bench as cb
from bench.shared import find_shared
from managers.chat_log import ChatLog
from persona.service import NexusService

SHARED = find_shared("bench/conversation_checks.py")
ZONE_BEFORE = datetime.fromisoformat("2026-05-02T12:00:00+00:00").astimezone().utcoffset()  # this machine's
HAS_FILLER = SHARED is not None and any((SHARED / "data" / "locomo").glob("*.json"))

START = "2026-05-02T09:30:00+01:00"
SCRIPT = {
    "name": "tiny",
    "user_name": "Mina",
    "start": START,
    "steps": [
        {"user": "Hi! I'm Mina. My cat is called Tama."},
        {"user": "What do you like to read?", "expect": {"mentions_any": ["book", "read"]}},
        {"filler": 6},
        {"advance_hours": 30},
        {"sleep": True},
        {"user": "What is my cat called, do you remember?", "expect": {"mentions_any": ["Tama"]}},
        {"user": "explode please"},
    ],
}
REPLIES = {  # by the end of the user's words
    "Tama.": 'Hello Mina, lovely to meet you and Tama! <persona_emotion category="joy" intensity="0.6"/>',
    "read?": "I love reading old books about the sea, especially on rainy evenings.",
    "remember?": "Your cat is called Tama, of course!",
}


def stub_filler():
    """filler.py's interface when the shared LoCoMo data is not on this machine."""
    return SimpleNamespace(messages=lambda n, seed=0: [("user" if i % 2 == 0 else "persona", f"filler {seed}.{i}")
                                                       for i in range(n)])


def scripted_model():
    def script(messages, tools):
        text = messages[-1].content
        if "explode" in text:
            return [ProviderError("The model fell over.")]
        return next((reply for key, reply in REPLIES.items() if text.endswith(key)), "Mm, tell me more about that.")

    return ScriptedChatModel(script)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """One play of SCRIPT (with a sleep-time hook that records its calls), looked at by several tests."""
    tmp_path = tmp_path_factory.mktemp("convbench")
    sleeps = []
    filler = cb.load_module(SHARED / "bench" / "filler.py", "filler") if HAS_FILLER else stub_filler()
    checks = cb.load_module(SHARED / "bench" / "conversation_checks.py", "checks") if SHARED else None
    model = scripted_model()
    with pytest.MonkeyPatch.context() as patch:
        real_sleep = NexusService.sleep_now

        def sleep_now(self, persona, progress=None, now=None):
            sleeps.append((persona, now))
            return real_sleep(self, persona, progress, now)
        patch.setattr(NexusService, "sleep_now", sleep_now)
        outcome = cb.run_bench([SCRIPT], cb.SharedModelFactory(lambda settings, secrets: model),
                               tmp_path / "transcripts", filler=filler, checks=checks, keep_data=tmp_path / "data")
    return SimpleNamespace(outcome=outcome, filler=filler, sleeps=sleeps, model=model,
                           data=tmp_path / "data" / "tiny.run1", transcripts=tmp_path / "transcripts")


def log_entries(data_dir):
    return [e for e in ChatLog(data_dir / "characters/Ark/logs", datetime.now).entries() if e.role != "SYSTEM"]


def test_transcript_has_every_user_step_in_the_scorers_format(played):
    [run] = played.outcome.runs
    written = json.loads(run.path.read_text(encoding="utf-8"))
    assert written["script"] == "tiny" and written["run"] == 1 and written["persona"] == "Ark"
    turns = written["turns"]
    assert [t["step"] for t in turns] == [0, 1, 5, 6]
    assert [t["user"] for t in turns] == [SCRIPT["steps"][i]["user"] for i in (0, 1, 5, 6)]
    for turn in turns:
        assert {"step", "user", "reply", "source", "ttft_s", "core_memory", "notepad"} <= set(turn)
        assert isinstance(turn["core_memory"], str) and isinstance(turn["notepad"], str)
    assert turns[0]["reply"] == "Hello Mina, lovely to meet you and Tama!"  # as the chat shows it: no tag
    assert turns[0]["source"] == "model" and turns[0]["ttft_s"] >= 0
    assert turns[2]["reply"] == REPLIES["remember?"]
    # the sleep step after 30 hours ran the app's own night at the next 02:00 (the filler's days summarised)
    [(persona, night)] = played.sleeps
    start = datetime.fromisoformat(START)
    assert persona == "Ark" and night.hour == 2 and start + timedelta(hours=30) <= night < start + timedelta(hours=54)
    # the seed is fixed per script and run, and reached the settings
    assert written["seed"] == cb.script_seed("tiny", 1) != cb.script_seed("tiny", 2)


def test_a_turn_ending_in_an_error_is_recorded_as_the_apps_notice(played):
    last = played.outcome.runs[0].transcript["turns"][-1]
    assert last["source"] == "notice" and last["reply"] == "The model fell over." and last["ttft_s"] is None


def test_clock_moves_two_minutes_per_turn_and_jumps_by_advance_hours(played):
    start = datetime.fromisoformat(START)
    turns = played.outcome.runs[0].transcript["turns"]
    expected = [start, start + timedelta(minutes=2), start + timedelta(minutes=4, hours=30),
                start + timedelta(minutes=6, hours=30)]
    assert [datetime.fromisoformat(t["at"]) for t in turns] == expected
    dialogue = [e for e in log_entries(played.data) if e.text in {t["user"] for t in turns}]
    assert [e.ts for e in dialogue] == expected


def test_the_prompt_tells_the_scripts_own_local_time_and_the_machines_zone_comes_back(played):
    first = json.loads((played.transcripts / "tiny.run1.json").read_text(encoding="utf-8"))["turns"][0]
    now_line = next(m for m in first["prompt_tail"] if m.startswith("[system] # Now"))
    assert now_line.endswith("09:00–10:00")  # 09:30 at +01:00, as the user's computer shows it
    assert datetime.fromisoformat("2026-05-02T12:00:00+00:00").astimezone().utcoffset() == ZONE_BEFORE


def test_the_time_zone_follows_the_offset_east_and_west():
    moment = datetime.fromisoformat("2026-02-20T13:00:00+00:00")
    with cb.machine_time_zone(timedelta(hours=9)):
        assert moment.astimezone().hour == 22
    with cb.machine_time_zone(timedelta(hours=-4, minutes=-30)):
        assert moment.astimezone().strftime("%H:%M") == "08:30"
    assert moment.astimezone().utcoffset() == ZONE_BEFORE


def test_filler_is_written_between_the_turns_with_timestamps_in_the_gap(played):
    entries = log_entries(played.data)
    second_reply = next(i for i, e in enumerate(entries) if e.text == REPLIES["read?"])
    fill = entries[second_reply + 1: second_reply + 7]
    expected = played.filler.messages(6, seed=2)
    assert [e.text for e in fill] == [text for _, text in expected]
    assert [(e.role, e.name) for e in fill] == [("USER", "Mina") if r == "user" else ("AGENT", "Ark") for r, _ in expected]
    assert entries[second_reply + 7].text == SCRIPT["steps"][5]["user"]
    start = datetime.fromisoformat(START)
    low, high = start + timedelta(minutes=4), start + timedelta(minutes=4, hours=30)
    stamps = [e.ts for e in fill]
    assert all(low < t < high for t in stamps) and stamps == sorted(stamps)
    gaps = {b - a for a, b in zip([low, *stamps], [*stamps, high])}
    assert max(gaps) - min(gaps) <= timedelta(seconds=1)  # evenly spread


def test_filler_is_indexed_so_recall_can_find_it(played):
    service = NexusService(played.data)
    assert len(service.memory_index("Ark").vectors) >= 6 + 6  # the filler and the turns


@pytest.mark.skipif(SHARED is None, reason="shared/bench/conversation_checks.py not on this machine")
def test_printed_numbers_equal_the_shared_scorer_on_the_written_transcripts(tmp_path, capsys):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "tiny.json").write_text(json.dumps(SCRIPT), encoding="utf-8")
    out = tmp_path / "out"
    model = scripted_model()
    args = argparse.Namespace(files=[str(scripts)], shared=str(SHARED), repeats=2, quick=False,
                              transcripts=str(out), json=True)
    if not HAS_FILLER:
        pytest.skip("the shared LoCoMo data the filler reads is not on this machine")
    assert cb.main(args, Path("unused.gguf"), cb.SharedModelFactory(lambda settings, secrets: model)) == 0
    printed = json.loads(capsys.readouterr().out)
    assert sorted(p.name for p in out.glob("*.json")) == ["tiny.run1.json", "tiny.run2.json"]
    reference = subprocess.run([sys.executable, str(SHARED / "bench" / "conversation_checks.py"),
                                str(out / "scripts"), str(out), "--json"], capture_output=True, text=True)
    expected = json.loads(reference.stdout)
    assert {k: printed[k] for k in expected} == expected
    assert expected["turns"] == 8 and expected["failures"]["empty"] == 2  # the two error turns
    assert "wall_s" in printed and "ms_per_prompt_token" in printed  # null: the scripted model has no counters


def test_after_a_filler_the_persona_is_ready_again_with_the_new_history(played):
    last_filler = played.filler.messages(6, seed=2)[-1][1]
    # only the warm-up after the filler ends its prefix with the filler (after-turn ones end with a reply)
    # The warmed prefix ends with the filler's last message (then only the hour, session.time_note).
    assert any(prefix and last_filler in prefix[-2].content for prefix in played.model.warmed)
