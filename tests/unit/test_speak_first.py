"""Speaking first (issue 20): the switch, the quiet hours, the cooldown, never a second while the
first is unanswered, a daily maximum; the job writes a short line in the persona's language,
marked in the chat log, where a page opened later finds it."""
from __future__ import annotations

import json
from datetime import datetime, time, timedelta, timezone

import pytest

import constants
from agent.drives import DriveInputs, compute_drives
from agent.providers.fake import ScriptedChatModel
from agent.sleep_schedule import QuietHours
from agent.speak_first import parse_opening, should_speak_first
from managers.chat_log import ChatLog
from managers.emotion_log import EmotionLog
from persona.service import NexusService
from persona.speak_first_job import FIRST_MARK, first_messages, is_first
from tests.conftest import StepClock

NOW = datetime(2026, 1, 15, 15, 0, tzinfo=timezone.utc)
QUIET = QuietHours(time(0, 0), time(7, 0))
STRONG = compute_drives(NOW, DriveInputs(last_user_at=NOW - timedelta(hours=5)))  # boredom ≈ 0.69
WEAK = compute_drives(NOW, DriveInputs(last_user_at=NOW - timedelta(hours=1)))  # boredom ≈ 0.39


def decide(now=NOW, drives=STRONG, last_user=NOW - timedelta(hours=5), last_first=None, unanswered=False, sent=0,
           enabled=True):
    return should_speak_first(now, drives, last_user, last_first, unanswered, sent, QUIET, enabled)


def test_a_strong_drive_outside_the_quiet_hours_speaks():
    decision = decide()
    assert decision.speak and decision.drive == "boredom"
    assert STRONG.levels["boredom"] >= constants.SPEAK_FIRST_THRESHOLD > WEAK.levels["boredom"]


@pytest.mark.parametrize("changes, reason", [
    ({"enabled": False}, "switched off"),
    ({"now": NOW.replace(hour=3)}, "quiet hours"),
    ({"now": NOW.replace(hour=0)}, "quiet hours"),  # the start is inside
    ({"unanswered": True}, "the last first message is unanswered"),
    ({"sent": constants.SPEAK_FIRST_DAILY_MAX}, "the day's maximum is reached"),
    ({"last_first": NOW - timedelta(hours=constants.SPEAK_FIRST_COOLDOWN_HOURS) + timedelta(minutes=1)}, "cooldown"),
    ({"last_user": None}, "the user has not written yet"),
    ({"last_user": NOW - timedelta(minutes=constants.SPEAK_FIRST_MIN_IDLE_MINUTES - 1)}, "a conversation is going on"),
    ({"drives": WEAK}, "no drive is strong enough"),
])
def test_it_does_not_speak(changes, reason):
    decision = decide(**changes)
    assert not decision.speak and decision.reason == reason


def test_the_boundaries_let_it_speak():
    assert decide(now=NOW.replace(hour=7), last_user=NOW.replace(hour=1)).speak  # the quiet hours' end is outside
    assert decide(last_first=NOW - timedelta(hours=constants.SPEAK_FIRST_COOLDOWN_HOURS)).speak
    assert decide(sent=constants.SPEAK_FIRST_DAILY_MAX - 1).speak
    assert decide(last_user=NOW - timedelta(minutes=constants.SPEAK_FIRST_MIN_IDLE_MINUTES), drives=STRONG).speak


def test_the_opening_line_is_read_from_the_answer():
    assert parse_opening('{"message": "「ねえ、元気？」<persona_emotion category=\\"joy\\"/>"}') == "ねえ、元気？"
    assert parse_opening("no json") == "" and parse_opening('{"message": 3}') == ""
    assert len(parse_opening(json.dumps({"message": "a" * 500}))) == constants.SPEAK_FIRST_MAX_CHARS


@pytest.fixture(autouse=True)
def utc_local_time(monkeypatch):
    """The facade reads the quiet hours in the computer's local time: these tests fix it to UTC."""
    import time as time_module
    monkeypatch.setenv("TZ", "UTC")
    time_module.tzset()
    yield
    monkeypatch.undo()
    time_module.tzset()


def make_service(data_dir, clock, answer='{"message": "ねえ美帆、試験どうだった？"}', enabled=True):
    asked = []

    def json_script(system, user, schema):
        asked.append((system, user))
        return answer

    model = ScriptedChatModel(lambda messages, tools: "うん。", json_script=json_script)
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model, after_turn_work=False)
    service.update_settings(user_name="美帆", speak_first=enabled)
    service.warm_up()
    return service, asked


def test_the_tick_writes_first_once_then_waits_for_an_answer(data_dir):
    clock = StepClock(NOW - timedelta(hours=6))
    service, asked = make_service(data_dir, clock)
    session = service.session("Ark")
    session.chat_log.append("USER", "美帆", "明日は試験なんだ。")
    session.chat_log.append("AGENT", "Ark", "がんばってね！")
    EmotionLog(session.character.memory_dir).append(clock.now, "anxious", 0.9)
    clock.now = NOW
    entry = service.speak_first_tick(NOW)
    assert entry is not None and entry.text == "ねえ美帆、試験どうだった？" and entry.meta[FIRST_MARK] == "relatedness"
    assert "Japanese" in asked[0][0] and "明日は試験なんだ。" in asked[0][1]
    # a page opened later finds it in the conversation, marked
    reopened = ChatLog(session.character.logs, clock)
    assert is_first(reopened.view()[-1]) and reopened.view()[-1].text == entry.text
    clock.now = NOW + timedelta(hours=constants.SPEAK_FIRST_COOLDOWN_HOURS + 1)
    assert service.speak_first_tick(clock.now) is None  # unanswered: never a second one
    assert len(asked) == 1
    session.chat_log.append("USER", "美帆", "受かったよ！")
    seen = first_messages(session.chat_log.recent(20), clock.now)
    assert not seen.unanswered and seen.sent_today == 1


def test_the_switch_is_off_by_default_and_the_tick_respects_it(data_dir):
    clock = StepClock(NOW - timedelta(hours=6))
    service, asked = make_service(data_dir, clock, enabled=False)
    assert NexusService(data_dir / "other", clock=clock).settings.speak_first is False
    service.session("Ark").chat_log.append("USER", "美帆", "またね")
    clock.now = NOW
    service.sleep_tick(NOW)
    assert asked == [] and not any(is_first(e) for e in service.conversation("Ark"))


def test_a_line_in_another_language_or_empty_is_not_sent(data_dir):
    clock = StepClock(NOW - timedelta(hours=6))
    service, asked = make_service(data_dir, clock, answer='{"message": "Hey, how did your exam go today?"}')
    service.session("Ark").chat_log.append("USER", "美帆", "明日は試験なんだ。")
    clock.now = NOW
    assert service.speak_first_tick(NOW) is None and len(asked) == 1
    assert not any(is_first(e) for e in service.conversation("Ark"))
