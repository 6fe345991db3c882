"""The persona's emotions (seed 004 §9, Phase F): the seed's seven categories, the entries logged
before issue 20 mapped (their label kept, none lost), and the bonding episode when worry turns to
ease, at most one a day."""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

import constants
from agent.emotion import bonding_shift, parse_emotion
from agent.providers.fake import ScriptedChatModel, replies
from agent.reply_tags import EmotionTag
from managers.emotion_log import EmotionEntry, EmotionLog
from persona.after_turn import AfterTurnDeps, after_turn
from persona.service import NexusService
from tests.conftest import StepClock

NOW = datetime(2026, 1, 15, 10, 30, tzinfo=timezone.utc)


def entry(category: str, intensity: float, minutes_ago: float) -> EmotionEntry:
    return EmotionEntry(NOW - timedelta(minutes=minutes_ago), category, intensity)


def test_the_categories_are_exactly_the_seeds_seven_and_its_own_example_is_accepted():
    assert constants.EMOTION_CATEGORIES == ("joy", "contentment", "protective", "anxious", "sadness", "anger", "neutral")
    assert parse_emotion('{"category": "protective", "intensity": 0.9}') == EmotionTag("protective", 0.9)
    assert set(constants.LEGACY_EMOTION_MAP.values()) <= set(constants.EMOTION_CATEGORIES)


def test_an_old_format_file_is_read_whole_with_each_label_mapped_and_kept(tmp_path):
    old = ["joy", "sadness", "anger", "fear", "surprise", "love", "calm", "curiosity", "anxiety", "gratitude",
           "loneliness", "neutral"]
    lines = [json.dumps({"ts": f"2026-01-0{1 + i % 9}T12:{i:02d}:00+00:00", "message_id": f"m{i}", "category": label,
                         "intensity": 0.5}) for i, label in enumerate(old)]
    lines += [json.dumps({"ts": "2026-01-10T09:00:00", "message_id": "hand", "category": "excited", "intensity": 2}),
              "{not json", ""]
    path = tmp_path / "emotion_log.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = path.read_bytes()

    read = EmotionLog(tmp_path).entries()
    by_id = {e.message_id: e for e in read}
    assert len(read) == len(old) + 1  # every entry; only the line that is not JSON is skipped
    assert path.read_bytes() == before  # nothing rewritten
    assert all(e.category in constants.EMOTION_CATEGORIES for e in read)
    assert (by_id["m3"].category, by_id["m3"].original) == ("anxious", "fear")
    assert (by_id["m5"].category, by_id["m5"].original) == ("protective", "love")
    assert (by_id["m6"].category, by_id["m6"].original) == ("contentment", "calm")
    assert (by_id["m0"].category, by_id["m0"].original) == ("joy", "")  # already one of the seven
    assert (by_id["hand"].category, by_id["hand"].original, by_id["hand"].intensity) == ("neutral", "excited", 1.0)
    assert by_id["hand"].at.tzinfo is not None
    assert [e.at for e in read] == sorted(e.at for e in read)


def test_a_new_entry_is_written_in_the_seeds_shape_and_an_old_label_keeps_its_own(tmp_path):
    log = EmotionLog(tmp_path)
    log.append(NOW, "protective", 0.9, "m1")
    log.append(NOW, "calm", 0.3, "m2")
    with pytest.raises(ValueError):
        log.append(NOW, "bliss", 0.3)
    first, second = [json.loads(line) for line in log.path.read_text().splitlines()]
    assert first == {"timestamp": "2026-01-15T10:30:00+00:00", "type": "persona", "category": "protective",
                     "intensity": 0.9, "message_id": "m1"}
    assert (second["category"], second["original"]) == ("contentment", "calm")
    assert [e.category for e in log.recent(1)] == ["contentment"]


@pytest.mark.parametrize("before, after", [("anxious", "contentment"), ("protective", "joy"), ("anxious", "joy")])
def test_worry_turning_to_ease_is_a_bond(before, after):
    shift = bonding_shift(NOW, [entry("neutral", 0.5, 90), entry(before, 0.8, 30), entry(after, 0.7, 0)])
    assert shift is not None and shift.change == f"{before}→{after}"
    assert "絆を確認した" in shift.text("ja") and "bond" in shift.text("en") and shift.text("fr") == shift.text("en")


@pytest.mark.parametrize("recent, bonded, why", [
    ([entry("anxious", 0.8, 30), entry("contentment", 0.7, 0)], ["2026-01-15"], "a bond today already"),
    ([entry("sadness", 0.8, 30), entry("contentment", 0.7, 0)], [], "not from worry"),
    ([entry("anxious", 0.8, 30), entry("neutral", 0.7, 0)], [], "not to ease"),
    ([entry("contentment", 0.7, 30), entry("anxious", 0.8, 0)], [], "the other way round"),
    ([entry("anxious", 0.49, 30), entry("joy", 0.7, 0)], [], "a faint worry (the noisy reading)"),
    ([entry("anxious", 0.8, 6 * 60 + 1), entry("joy", 0.7, 0)], [], "worry of another conversation"),
    ([entry("anxious", 0.8, 8 * 60), entry("joy", 0.7, 7 * 60)], [], "an old shift read back later"),
    ([entry("joy", 0.7, 0)], [], "nothing before"),
])
def test_no_bond(recent, bonded, why):
    assert bonding_shift(NOW, recent, bonded) is None, why


def test_the_boundaries_are_inclusive():
    assert bonding_shift(NOW, [entry("anxious", 0.5, 6 * 60), entry("joy", 0.7, 0)]) is not None
    assert bonding_shift(NOW, [entry("anxious", 0.5, 60), entry("joy", 0.7, 0)], ["2026-01-14"]) is not None


def test_after_replies_the_shift_writes_one_bonding_episode_a_day(data_dir):
    clock = StepClock(datetime(2026, 1, 15, 10, 0, tzinfo=timezone.utc))
    readings = iter(['{"category": "anxious", "intensity": 0.9}', '{"category": "contentment", "intensity": 0.6}',
                     '{"category": "protective", "intensity": 0.8}', '{"category": "joy", "intensity": 0.9}'])
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: None, after_turn_work=False)
    session = service.session("Ark")
    model = ScriptedChatModel(replies(), json_script=lambda system, user, schema: next(readings))
    deps = AfterTurnDeps(index=None, is_latest=lambda: True, user_name=lambda: "Mina")
    for text in ("試験が怖い…", "受かった！", "また不安になってきた", "でも大丈夫だね"):
        session.chat_log.append("USER", "Mina", text)
        reply = session.chat_log.append("AGENT", "Ark", "うん。")
        after_turn(session, model, text, reply, deps)
    bonds = [e for e in service.episodes("Ark") if e.type == "bonding"]
    assert len(bonds) == 1  # the second shift the same day is not another
    [bond] = bonds
    assert bond.summary == "【絆確認】不安から安心へ。関係性が安定し、絆を確認した。"
    assert bond.arousal == constants.BONDING_AROUSAL and bond.model_extra["emotion_change"] == "anxious→contentment"
    assert [e.category for e in EmotionLog(session.character.memory_dir).entries()] == [
        "anxious", "contentment", "protective", "joy"]
