"""Keep requests, the reply language, the reminder and the after-reply emotion: the rules that
decide what the embedded model is told and what the app keeps for it."""
from datetime import datetime, timezone

import pytest

from agent.emotion import parse_emotion
from agent.keep_requests import (
    KeepAction, is_keep_request, keep_action, keep_note, merged_line, pending_corrections,
)
from agent.language import is_question, message_language, only_asks
from agent.reply_form import asks_for_brevity
from agent.language import LANGUAGE_NAMES
from agent.reply_rules import every_retry_nudge, reply_reminder, reply_rules, retry_nudge


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
    # Asked as a question, the fact is kept as a statement.
    assert keep_note("Can you note that my dentist appointment is on Thursday at 4pm?", "Priya", now) == \
        '- 2026-03-01 Priya said: "My dentist appointment is on Thursday at 4pm"'


def test_a_correction_right_after_a_kept_note_revises_that_note():
    then, now = datetime(2026, 3, 1, 10, tzinfo=timezone.utc), datetime(2026, 3, 1, 10, 4, tzinfo=timezone.utc)
    request = "Can you note that my dentist appointment is on Thursday at 4pm?"
    earlier = [("Morning!", then), (request, then)]
    action = keep_action("Oh wait, it's been moved to Friday, same time.", earlier, "Priya", now)
    assert action == KeepAction(
        '- 2026-03-01 Priya said: "My dentist appointment is on Thursday at 4pm" → corrected 2026-03-01: '
        '"Oh wait, it\'s been moved to Friday, same time."',
        old_line=keep_note(request, "Priya", then))
    ja = keep_action("やっぱり金曜日じゃなくて土曜日だった。", [("金曜日に歯医者、メモして。", then)], "ハルカ", now)
    assert ja is not None and ja.old_line and ja.line.endswith("→ 訂正 2026-03-01:「やっぱり金曜日じゃなくて土曜日だった。」")


@pytest.mark.parametrize("text, earlier", [
    ("Actually, the weather is lovely today.", [("How are you?", None)]),  # nothing was kept
    ("Actually, the weather is lovely today.",  # kept, but too many messages ago
     [("Please remember that I'm vegetarian.", None)] + [("ok", None)] * 2),
    ("Thanks, that's all.", [("Please remember that I'm vegetarian.", None)]),  # not a correction
])
def test_other_messages_revise_nothing(text, earlier):
    now = datetime(2026, 3, 1, 10, tzinfo=timezone.utc)
    assert keep_action(text, [(t, now) for t, _ in earlier], "Priya", now) is None


def test_a_keep_request_is_a_new_note_even_after_another():
    now = datetime(2026, 3, 1, 10, tzinfo=timezone.utc)
    action = keep_action("Also, don't forget that I'm vegetarian.", [("Please remember my locker is 12.", now)],
                         "Priya", now)
    assert action == KeepAction('- 2026-03-01 Priya said: "I\'m vegetarian."')


def test_the_reminder_is_in_the_messages_language_and_names_the_persona():
    assert "English" in reply_reminder("en", "Ark", "Ken") and "Ark" in reply_reminder("en", "Ark", "Ken")
    ja = reply_reminder("ja", "Ark", "ハルカ")
    assert "日本語" in ja and "Ark" in ja
    assert reply_reminder("", "Ark", "Ken") == ""


@pytest.mark.parametrize("language, word", [
    ("en", "English"), ("ja", "日本語"), ("zh", "中文"), ("ko", "한국어"), ("es", "español"), ("fr", "français"),
    ("de", "Deutsch"), ("pt", "português"), ("it", "italiano"),
])
def test_every_language_has_its_reminder_brief_reminder_and_retry_nudge(language, word):
    for text in (reply_reminder(language, "Ark", "Ken"), reply_reminder(language, "Ark", "Ken", brief=True),
                 retry_nudge(language, "Ark", "Ken")):
        assert word in text and "Ark" in text and "Ken" in text
        assert len(text) <= 2 * len(reply_reminder("en", "Ark", "Ken")) + 20  # as short as the English one
    assert reply_reminder(language, "Ark", "Ken") != reply_reminder(language, "Ark", "Ken", brief=True)


@pytest.mark.parametrize("language, word", [
    ("en", "English"), ("ja", "日本語"), ("zh", "中文"), ("ko", "한국어"), ("es", "español"), ("fr", "français"),
    ("de", "Deutsch"), ("pt", "português"), ("it", "italiano"),
])
def test_every_retry_line_names_the_language_the_persona_and_the_user(language, word):
    nudges = every_retry_nudge(language, "Ark", "Ken")
    assert len(set(nudges)) == len(nudges) >= 5
    assert all((word in n or f"in {LANGUAGE_NAMES[language]}" in n) and "Ark" in n and "Ken" in n for n in nudges)
    assert sum(word in n for n in nudges) >= 4  # all but the last resort's line, in the language itself


def test_a_retry_of_a_message_in_no_known_language_names_none():
    assert "English" not in retry_nudge("", "Ark", "Ken") and "Ark" in retry_nudge("", "Ark", "Ken")


def test_the_rules_name_no_particular_language():
    rules = reply_rules("Ark", "Ken", inline_emotion_tag=False)
    assert "language of that message" in rules
    assert "English" not in rules and "日本語" not in rules


def test_only_remote_models_are_asked_for_the_inline_emotion_tag():
    assert "persona_emotion" in reply_rules("Ark", "Ken", inline_emotion_tag=True)
    local = reply_rules("Ark", "Ken", inline_emotion_tag=False)
    assert "persona_emotion" not in local and "You are not Ken" in local


@pytest.mark.parametrize("answer, expected", [
    ('{"category": "joy", "intensity": 0.7}', ("joy", 0.7)),
    ('{"category": "protective", "intensity": 3}', ("protective", 1.0)),
    ('{"category": "calm", "intensity": 0.4}', ("contentment", 0.4)),  # the old list's label, mapped
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


@pytest.mark.parametrize("text, question", [
    ("私の好物、覚えてる？", True), ("何味が好きなの", True), ("元気ですか", True), ("Where did I go?", True),
    ("次は6月にもう一回受けるつもり。", False), ("I went hiking.", False), ("你好吗", True),
])
def test_questions_are_told_from_statements(text, question):
    assert is_question(text) == question


@pytest.mark.parametrize("text, asks_only", [
    ("When are you opening the studio?", True), ("Wow, that looks great! What kind of yoga is it?", True),
    ("Is that your third one? [shares a photo of a notebook]", True), ("すごい！それ何？", True),
    ("I went there yesterday. Did you?", False), ("The opening night is tomorrow. Can't wait!", False),
    ("昨日は京都に行ったよ。どう思う？", False), ("Aerial yoga, it's great.", False),
])
def test_a_message_that_only_asks_is_told_from_one_that_tells(text, asks_only):
    assert only_asks(text) is asks_only


CORRECTED_EN = ('- 2026-09-14 Priya said: "My dentist appointment is on Thursday at 4pm" → corrected 2026-09-15: '
                '"Oh wait, it\'s been moved to Friday, same time."')
CORRECTED_JA = "- 2026-09-14 ハルカさんの言葉:「金曜日に歯医者がある」 → 訂正 2026-09-14:「やっぱり金曜日じゃなくて土曜日だった。」"


def test_a_corrected_note_is_put_right_with_the_words_the_model_names():
    [english] = pending_corrections("- I am Ark.\n" + CORRECTED_EN + "\n- 2026-09-14 Priya said: \"I'm vegetarian\"")
    assert english.line == CORRECTED_EN
    assert merged_line(english, '{"old": "Thursday", "new": "Friday"}') == \
        '- 2026-09-15 Priya said (corrected): "My dentist appointment is on Friday at 4pm"'
    [japanese] = pending_corrections(CORRECTED_JA)
    assert merged_line(japanese, '{"old": "金曜日", "new": "土曜日"}') == \
        "- 2026-09-14 ハルカさんの言葉（訂正後）:「土曜日に歯医者がある」"


@pytest.mark.parametrize("answer", [
    "not json", '{"old": "Thursday"}', '{"old": "Wednesday", "new": "Friday"}',  # not in the note
    '{"old": "Thursday", "new": "Saturday"}',  # not in the correction
    '{"old": "Thursday", "new": "Thursday"}', '{"old": "", "new": "Friday"}', '["Thursday", "Friday"]',
])
def test_an_answer_that_does_not_name_the_change_leaves_the_line_as_it_is(answer):
    [pending] = pending_corrections(CORRECTED_EN)
    assert merged_line(pending, answer) is None
