"""The guard in Japanese and Chinese: what follows a short lead clause (「最近は、」「今天，」) is judged as an
opening, so service talk after one is left out whatever the chunk size, and the reply's own words after
one are shown."""
import pytest

from agent.character_guard import SentenceGate
from tests.unit.test_character_guard import stream


@pytest.mark.parametrize("piece", [1, 2, 5])
@pytest.mark.parametrize("language, user, reply, shown", [
    ("ja", "最近なにか考えてたことある？", "最近は、何かお手伝いできることがありますか？でも、スピーチのことを考えてたよ。",
     "スピーチのことを考えてたよ。"),  # the "でも" answered the line left out
    ("ja", "週末は何してた？", "そうですね、お手伝いできることがあれば言ってください。", ""),
    ("zh", "你最近在想什么？", "最近，有什么可以帮你的吗？", ""),
])
def test_service_talk_after_a_short_lead_clause_is_left_out_whatever_the_chunk_size(piece, language, user, reply, shown):
    gate = SentenceGate(("Ark",), user, language, persona_name="Ark")
    assert stream(gate, reply, piece) == shown


@pytest.mark.parametrize("piece", [1, 4])
@pytest.mark.parametrize("language, user, reply", [
    ("ja", "最近なにか考えてたことある？", "最近は、星の話を考えてたよ。"),
    ("ja", "何食べた？", "カレーを食べたよ！おいしかった。"),
    ("zh", "你今天吃了什么？", "今天，吃了一碗牛肉面。"),
    ("ja", "明日どうする？", "明日は、何か新しいことに挑戦したいな。"),  # 何か opens no service talk here
])
def test_a_short_lead_clause_before_the_replys_own_words_is_shown(piece, language, user, reply):
    gate = SentenceGate(("Ark",), user, language, persona_name="Ark")
    assert stream(gate, reply, piece) == reply
