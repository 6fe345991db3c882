"""A reply of greetings, fillers and names alone says nothing."""
import pytest

from agent.engagement import says_nothing


@pytest.mark.parametrize("reply", ["Hello!", "こんにちは！", "Sure, Ken!", "うん、そうだね。", "Bonsoir Camille !", "好的！",
                                   "Oh wow!", "네, 좋아요!", "¡Hola!"])
def test_greetings_and_fillers_say_nothing(reply):
    assert says_nothing(reply, ("Ken", "Camille", "Ark"))


@pytest.mark.parametrize("reply", ["Hello! How was the hike?", "ハナ。", "Blue.", "317!", "It's Ark!", "杭州。",
                                   "お疲れさま、緊張したね。", "Sure, it's on Friday."])
def test_an_answer_however_short_says_something(reply):
    assert not says_nothing(reply, ("Ken",))  # asked for a name, the names are the answer


@pytest.mark.parametrize("reply", ["I'm Ark!", "Bonjour Camille ! Je suis Ark.", "アークです！", "Hi Ken, it's Ark."])
def test_the_persona_saying_who_it_is_says_nothing(reply):
    assert says_nothing(reply, ("Ken", "Camille", "Ark", "アーク"))


@pytest.mark.parametrize("reply", ["I'm here.", "Je suis fatiguée.", "アークは元気だよ。", "It's on Friday."])
def test_but_anything_more_is_something(reply):
    assert not says_nothing(reply, ("Ken", "Ark", "アーク"))
