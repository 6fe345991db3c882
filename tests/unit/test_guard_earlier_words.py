"""The user's earlier messages said back word for word, as if the persona's own, are left out of a reply."""
import pytest

from agent.character_guard import SentenceGate
from tests.conftest import stream


CAFE = ("안녕, 아크! 나 민준이야. 오늘 드디어 작은 카페를 열었어.", "첫 손님이 아이스 아메리카노 두 잔이랑 크루아상을 샀어.")


@pytest.mark.parametrize("piece", [1, 4, 1000])
def test_an_earlier_message_said_back_as_the_personas_own_is_left_out(piece):
    # dev-ko-cafe, session 27: asked the café's name, the 1.5B model told the user's first messages as its own.
    gate = SentenceGate(("아크",), "내 카페 이름이 뭐였지?", "ko", user_names=("민준",), user_said=CAFE, persona_name="아크")
    shown = stream(gate, "안녕하세요! 오늘 드디어 작은 카페를 열었어. 첫 손님이 아이스 아메리카노 두 잔이랑 크루아상을 샀어. "
                         "카페 이름은 '파란 고양이'였지!", piece)
    assert shown.strip() == "안녕하세요! 카페 이름은 '파란 고양이'였지!" and gate.repaired == 2


@pytest.mark.parametrize("language, said_before, user, reply", [
    # told back to the user, by "you" or by name: a recall answer, kept
    ("en", ("I adopted a puppy called Mochi last week.",), "What's my puppy called?",
     "You adopted a puppy called Mochi last week!"),
    ("ko", CAFE, "내 카페 이름이 뭐였지?", "민준, 오늘 드디어 작은 카페를 열었어요. 이름은 '파란 고양이'예요."),
    # a greeting the user once said is no fact of theirs (the user called by their own name in it: tests/unit/test_vocatives.py)
    ("es", ("¡Buenas noches, Ark!",), "¡Hola, Ark! ¿Qué tal?", "¡Buenas noches, Ken! ¿Qué tal tu día?"),
    # a sentence of the persona's own that only shares a few of the user's words
    ("en", ("I went to my first pottery class and made a wobbly bowl.",), "Guess what I tried today?",
     "A wobbly bowl is a fine start. What did you try?"),
])
def test_what_is_not_the_users_words_as_the_personas_is_shown(language, said_before, user, reply):
    gate = SentenceGate(("Ark",), user, language, user_names=("Ken", "민준"), user_said=said_before)
    assert stream(gate, reply).strip() == reply and gate.repaired == 0


def test_in_english_the_users_words_in_the_first_person_are_still_said_back_as_theirs():
    gate = SentenceGate(("Ark",), "What did I buy?", "en", user_names=("Sam",),
                        user_said=("I bought a red bicycle at the flea market.",))
    assert "bought a red bicycle" in stream(gate, "I bought a red bicycle at the flea market.").replace("You", "you")
    assert gate.repaired == 1


@pytest.mark.parametrize("language, said_before, user, reply", [
    # a recall question answered in a few of the user's own words (bench qa, LoCoMo 41, session 31)
    ("en", ("Guess what, I took the military aptitude test again last week, my third try!",),
     "What test have I taken a few times?", "Military aptitude test"),
    ("en", ("Found a rainbow sidewalk for Pride Month in my neighborhood on my walk today.",),
     "What did I find on my walk?", "A rainbow sidewalk for Pride Month"),
    ("ja", ("昨日、駅前に「青い猫」っていう小さなカフェができたんだ。今度一緒に行きたいな。",),
     "駅前にできたカフェの名前、覚えてる？", "「青い猫」っていう小さなカフェ"),
    ("es", ("Este fin de semana preparé una tarta de queso con frambuesas para el cumpleaños de mi madre.",),
     "¿Qué preparé para mi madre?", "Una tarta de queso con frambuesas"),
])
def test_a_piece_of_an_earlier_message_as_an_answer_is_shown(language, said_before, user, reply):
    gate = SentenceGate(("Ark",), user, language, user_names=("Ken",), user_said=(*said_before, user))
    assert stream(gate, reply).strip() == reply and gate.repaired == 0


def test_most_of_an_earlier_sentence_said_back_is_still_left_out():
    # a sentence of the earlier message all but whole, in a language with no "I" to swap: left out
    said_before = ("오늘 드디어 작은 카페를 열었어. 첫 손님이 아이스 아메리카노 두 잔이랑 크루아상을 샀어.", "내 카페 어땠을까?")
    gate = SentenceGate(("아크",), said_before[-1], "ko", user_names=("민준",), user_said=said_before, persona_name="아크")
    assert "크루아상" not in stream(gate, "첫 손님이 아이스 아메리카노 두 잔이랑 크루아상을 샀어. 정말 멋져요!")
    assert gate.repaired == 1
