"""A verb's plain form before です is said as 〜んです; nouns, adjectives and correct Japanese are left alone,
however the model's stream is cut."""
import itertools

import pytest

from agent.plain_desu import PlainDesuMender, mend_plain_desu
from agent.providers.fake import ScriptedChatModel, replies
from persona.service import NexusService

MENDED = [
    ("傘を忘れたです。", "傘を忘れたんです。"),
    ("もう決めたですか？", "もう決めたんですか？"),
    ("映画を見たですね", "映画を見たんですね"),
    ("図書館で本を読んだです", "図書館で本を読んだんです"),
    ("週末は海で泳ぐです", "週末は海で泳ぐんです"),
    ("弟は京都に住むです", "弟は京都に住むんです"),
    ("明日は友達に会うです", "明日は友達に会うんです"),
    ("猫が二匹いるです。", "猫が二匹いるんです。"),
    ("それは違うです", "それは違うんです"),
    ("毎朝公園で遊ぶです", "毎朝公園で遊ぶんです"),
]

LEFT_ALONE = [
    "あなたです。", "まだです。", "そうですね。", "どうですか？", "美味しかったです。", "楽しいです。",
    "行くはずです。", "いくつですか？", "駅の近くです。", "三つです。", "そうでした。", "ハルです。",
    "絵がへたです。", "本当にあるんです。", "作ったんですね。", "今日は休みです。", "ぶどうです。",
    "明日は雨です。", "日曜日です。", "行きました。", "I walked to the station です?", "我今天很累。",
]


@pytest.mark.parametrize("said, meant", MENDED)
def test_a_verbs_plain_form_before_desu_takes_n(said, meant):
    assert mend_plain_desu(said) == meant


@pytest.mark.parametrize("text", LEFT_ALONE)
def test_nouns_adjectives_and_correct_japanese_are_left_alone(text):
    assert mend_plain_desu(text) == text


@pytest.mark.parametrize("text", [said for said, _ in MENDED] + LEFT_ALONE[:8])
def test_a_stream_is_mended_as_the_whole_text_however_it_is_cut(text):
    for cuts in itertools.combinations(range(1, len(text)), 2):
        pieces = [text[a:b] for a, b in zip((0, *cuts), (*cuts, len(text)))]
        mender = PlainDesuMender()
        streamed = "".join(mender.feed(piece) for piece in pieces) + mender.flush()
        assert streamed == mend_plain_desu(text), pieces


def test_the_stream_holds_at_most_the_verb_ending_and_de():
    mender = PlainDesuMender()
    assert mender.feed("家に猫がいる") == "家に猫がい"
    assert mender.feed("で") == ""
    assert mender.feed("す。") == "るんです。"


def test_the_reply_shown_and_logged_has_the_mended_japanese(data_dir, clock):
    model = ScriptedChatModel(replies("ハルカさんはエビのアレルギーがあるです。覚えていますよ。"))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    events = list(service.send("Ark", "私のアレルギー、覚えてる？"))
    shown = "".join(e.text for e in events if e.kind == "token")
    assert "あるんです。" in shown and "あるです" not in shown
    assert service.conversation("Ark")[-1].text == shown.strip()
