"""Milestone episodes (seed 004 Phase E/G/F): the hooks the dreaming and goals work calls. They are
moments, not a day's summary: the night's work neither redoes the day for them nor folds them into
a week."""
import json
from datetime import datetime, timedelta, timezone

import pytest

from agent.providers.fake import ScriptedChatModel, replies
from managers.episodes import Episode, EpisodeStore, episode_id
from managers.store import CharacterFiles
from persona.service import NexusService
from tests.conftest import StepClock, quiet_dream

NOW = datetime(2026, 1, 14, 22, 0, tzinfo=timezone.utc)


def store(tmp_path):
    return EpisodeStore(tmp_path / "memory", CharacterFiles(tmp_path))


@pytest.mark.parametrize("kind, prefix", [("achievement", "【達成】"), ("discovery", "【発見】"), ("bonding", "【絆確認】")])
def test_a_milestone_is_written_with_its_prefix_type_and_arousal_once(tmp_path, kind, prefix):
    episodes = store(tmp_path)
    episodes.put([Episode(id=episode_id("2026-01-14"), date="2026-01-14", summary="The day.", arousal=0.3)])
    first = episodes.record_milestone(kind, "目標「創作ノートで詩を書く」を達成した。", 1.4, NOW, {"goal_id": "sh_abc123"})
    again = episodes.record_milestone(kind, f"{prefix}目標「創作ノートで詩を書く」を達成した。", 1.4, NOW + timedelta(minutes=5),
                                      {"goal_id": "sh_abc123"})  # a job resumed after a crash records it again
    assert first.id == again.id and first.id.startswith("episode_2026-01-14_")
    assert [e.type for e in episodes.all()] == ["daily", kind]  # the day's summary kept, the moment once
    saved = json.loads((tmp_path / "memory/episodic_memory.json").read_text(encoding="utf-8"))[1]
    assert saved["summary"] == f"{prefix}目標「創作ノートで詩を書く」を達成した。"
    assert (saved["type"], saved["arousal"], saved["arousal_max"], saved["date"]) == (kind, 1.0, 1.0, "2026-01-14")
    assert saved["goal_id"] == "sh_abc123" and saved["created_at"].startswith("2026-01-14T22:0")


def test_an_unknown_kind_or_empty_text_is_refused(tmp_path):
    with pytest.raises(ValueError):
        store(tmp_path).record_milestone("victory", "won", 0.8, NOW)
    with pytest.raises(ValueError):
        store(tmp_path).record_milestone("discovery", "【発見】 ", 0.6, NOW)
    assert store(tmp_path).all() == []


def test_the_original_apps_milestones_load_beside_the_day_with_their_own_id(tmp_path):
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "episodic_memory.json").write_text(json.dumps([
        {"date": "2026-01-15", "summary": "普通の日。", "arousal": 0.2},
        {"date": "2026-01-15", "summary": "【絆確認】不安から安心へ。", "arousal": 0.7, "type": "bonding",
         "emotion_change": "anxious→contentment", "created_at": "2026-01-15 10:30:00"}], ensure_ascii=False))
    day, bond = store(tmp_path).all()
    assert (day.type, day.id) == ("daily", "episode_2026-01-15_001") and not day.is_milestone
    assert bond.is_milestone and bond.id != day.id and bond.model_extra["emotion_change"] == "anxious→contentment"


def test_the_night_neither_redoes_a_day_for_its_milestone_nor_folds_the_milestone_into_a_week(data_dir):
    clock, asked = StepClock(NOW), []

    def script(system, user, schema):
        asked.append(user)
        if "sessions" in schema["properties"]:
            return json.dumps({"sessions": [{"arousal": 0.3}] * user.count("## Session "), "summary": "A day with Mina."})
        if {"insight", "open"} & set(schema["properties"]):  # the night's dream (tests/unit/test_dream.py)
            return quiet_dream()
        return json.dumps({"summary": "A calm week.", "entry": "A calm day."})
    model = ScriptedChatModel(replies("ok"), json_script=script)
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    monday = datetime(2026, 3, 16, 20, 0, tzinfo=timezone.utc)
    log = service.session("Ark").chat_log
    for day in (0, 1):
        clock.now = monday + timedelta(days=day)
        log.append("USER", "Mina", f"Evening {day}.")
        log.append("AGENT", "Ark", "Nice.")
    service.sleep_now("Ark", now=monday + timedelta(days=2, hours=6))
    session = service.session("Ark")
    EpisodeStore(session.character.memory_dir, session.files).record_milestone(
        "discovery", "Mina's cat likes chicken.", 0.6, monday + timedelta(hours=1))
    calls = len(asked)
    assert service.sleep_now("Ark", now=monday + timedelta(days=3, hours=6)).written == []
    assert len(asked) == calls  # the day with a milestone is not summarised again
    service.sleep_now("Ark", now=monday + timedelta(days=70))
    kinds = sorted((e.type, e.compressed) for e in service.episodes("Ark"))
    assert kinds == [("daily", True), ("discovery", False)]
