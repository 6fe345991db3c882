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
from managers.chat_log import ChatLog, LogEntry
from managers.emotion_log import EmotionLog
from persona.service import NexusService
from persona.speak_first_job import FIRST_MARK, first_messages, is_first, unseen_first_message
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


def entry(role, text, id_, first=""):
    return LogEntry(role, "Ark" if role == "AGENT" else "美帆", text, id_, NOW, {FIRST_MARK: first} if first else {})


CHAT = [entry("USER", "明日は試験なんだ。", "u1"), entry("AGENT", "がんばってね！", "a1"),
        entry("SYSTEM", "a system line", "s1")]


def test_a_message_written_first_after_what_the_page_shows_makes_one_notice_with_the_personas_name():
    long = "ねえ、" + "試験どうだった？" * 40
    entries = [*CHAT, entry("AGENT", long, "f1", first="boredom")]
    notice = unseen_first_message(entries, ["u1", "a1"])
    assert (notice.id, notice.title) == ("f1", "Ark")
    assert len(notice.body) == constants.NOTIFICATION_BODY_CHARS and notice.body.endswith("…")
    assert long.startswith(notice.body[:-1])
    short = unseen_first_message([*CHAT, entry("AGENT", "ねえ、\n元気？", "f2", first="boredom")], ["u1", "a1"])
    assert short.body == "ねえ、 元気？"  # one line, whole


def test_no_notice_for_an_ordinary_reply_a_message_already_shown_or_another_conversation():
    first = entry("AGENT", "ねえ、元気？", "f1", first="boredom")
    assert unseen_first_message([*CHAT, entry("AGENT", "ordinary", "a2")], ["u1", "a1"]) is None
    assert unseen_first_message([*CHAT, first], ["u1", "a1", "f1"]) is None
    assert unseen_first_message([*CHAT, first], ["x1", "x2"]) is None  # the page shows another persona's
    # the newest of several unseen ones, even with an ordinary message after it
    later = entry("AGENT", "まだ起きてる？", "f2", first="curiosity")
    assert unseen_first_message([*CHAT, first, later, entry("AGENT", "ordinary", "a3")], ["u1", "a1"]).id == "f2"
    assert unseen_first_message([first], []).id == "f1"  # an empty chat: everything is new


def test_the_opening_line_says_a_verb_before_desu_as_n_desu():
    assert parse_opening('{"message": "昨日の発表、うまくいったですか？"}') == "昨日の発表、うまくいったんですか？"
