"""Keep requests, the reply language, the reminder and the after-reply emotion: the rules that
decide what the embedded model is told and what the app keeps for it."""
from datetime import datetime, timezone

import pytest

from agent.emotion import parse_emotion
from agent.keep_requests import is_keep_request, keep_note
from agent.language import message_language
from agent.reply_rules import asks_for_brevity, reply_reminder, reply_rules


@pytest.mark.parametrize("text", [
    "Please remember that my sister Yuki's birthday is March 3rd.",
    "Can you note that my dentist appointment is on Friday?",
    "Don't forget: I start my new job on Monday.",
    "Remember this, my locker code is 4411.",
    "覚えておいてほしいんだけど、私はエビのアレルギーがあるの。",
    "来週の火曜日に歯医者があるから、メモしておいて。",
    "母の誕生日は5月5日だよ、忘れないでね。",
    "请记住我下周二要去看牙医。",
])
def test_requests_to_keep_something_are_recognised(text):
    assert is_keep_request(text)


@pytest.mark.parametrize("text", [
    "What's my puppy called, do you remember?",
    "Do you remember that trip to Kyoto?",
    "私のアレルギー、覚えてる？",
    "前に私が落ち込んでた理由、覚えてる？",
    "I remember my first day at school.",
    "How are you today?",
])
def test_questions_about_memory_and_small_talk_are_not_requests(text):
    assert not is_keep_request(text)


def test_the_kept_note_says_when_who_and_what_without_the_english_lead_in():
    now = datetime(2026, 3, 1, 10, tzinfo=timezone.utc)
    assert keep_note("Please remember that my sister Yuki's birthday is March 3rd.", "Ken", now) == \
        '- 2026-03-01 Ken said: "My sister Yuki\'s birthday is March 3rd."'
    assert keep_note("覚えておいてほしいんだけど、私はエビのアレルギーがあるの。", "ハルカ", now) == \
        "- 2026-03-01 ハルカさんの言葉:「私はエビのアレルギーがあるの。」"
    assert keep_note("母の誕生日は5月5日だよ、忘れないでね。", "ハルカ", now) == \
        "- 2026-03-01 ハルカさんの言葉:「母の誕生日は5月5日だよ」"
    assert keep_note("覚えておいて", "ハルカ", now) == "- 2026-03-01 ハルカさんの言葉:「覚えておいて」"


@pytest.mark.parametrize("text, language", [
    ("Hi! I'm Ken.", "en"), ("こんばんは！ハルカです。", "ja"), ("了解", "ja"), ("OK、また明日ね", "ja"),
    ("我今天很累。", "ja"), ("123 !!", ""),
])
def test_the_language_of_a_message_by_its_script(text, language):
    assert message_language(text) == language


def test_han_only_text_follows_the_personas_languages():
    assert message_language("我今天很累。", han_only="zh") == "zh"


def test_the_reminder_is_in_the_messages_language_and_names_the_persona():
    assert "English" in reply_reminder("en", "Ark", "Ken") and "Ark" in reply_reminder("en", "Ark", "Ken")
    ja = reply_reminder("ja", "Ark", "ハルカ")
    assert "日本語" in ja and "Ark" in ja
    assert reply_reminder("", "Ark", "Ken") == ""


def test_only_remote_models_are_asked_for_the_inline_emotion_tag():
    assert "persona_emotion" in reply_rules("Ark", "Ken", inline_emotion_tag=True)
    local = reply_rules("Ark", "Ken", inline_emotion_tag=False)
    assert "persona_emotion" not in local and "You are not Ken" in local


@pytest.mark.parametrize("answer, expected", [
    ('{"category": "joy", "intensity": 0.7}', ("joy", 0.7)),
    ('{"category": "calm", "intensity": 3}', ("calm", 1.0)),
    ('{"category": "bliss", "intensity": 0.5}', None),
    ('{"category": "joy", "intensity": "high"}', None),
    ('{"category": "joy", "intensity": true}', None),
    ("not json", None),
    ("[1, 2]", None),
])
def test_the_emotion_answer_is_validated(answer, expected):
    parsed = parse_emotion(answer)
    assert (parsed and (parsed.category, parsed.intensity)) == expected if expected else parsed is None


@pytest.mark.parametrize("text, brief", [
    ("When did Maria go to the beach? (Answer in a few words.)", True), ("Briefly, what did I say?", True),
    ("一言で言うと、どうだった？", True), ("Tell me about your day in a lot of words!", False), ("元気？", False),
])
def test_a_request_for_a_short_answer_is_repeated_in_the_reminder(text, brief):
    assert asks_for_brevity(text) is brief
    reminder = reply_reminder(message_language(text), "Ark", "Ken", brief=asks_for_brevity(text))
    assert (("few words" in reminder or "短く" in reminder) is brief)
