"""What counts as the user's message said back (agent/echoes.py)."""
import pytest

from agent.echoes import echoes, told_openings


@pytest.mark.parametrize("message, openings", [
    # each sentence that tells something, from its first word on, without the "Oh, " before it
    ("We adopted a puppy yesterday, his name is Max.", ("We adopted a puppy yesterday, his name is Max.",)),
    ("Oh, ich war heute im Büro. Es war lang.", ("ich war heute im Büro.", "Es war lang.")),
    ("今日仕事が早く終わったよ。", ("今日仕事が早く終わったよ。",)),
    ("Le premier client a acheté trois croissants et une baguette !",
     ("Le premier client a acheté trois croissants et une baguette !",)),
    # a greeting is said back as a greeting, and a question's words are its answer's
    ("Hey Ken! I'm back home! Guess where I've just been?", ("I'm back home!",)),
    ("おやすみ！明日も早いんだ。", ("明日も早いんだ。",)),
    ("Do you remember my sister's name?", ()),
    ("私の名前、覚えてる？", ()),
    ("Hi!", ()),
    ("ㅋㅋㅋ", ()),
])
def test_a_reply_may_not_open_with_what_the_user_told(message, openings):
    assert told_openings(message, ("Ken",)) == openings


def test_a_sentence_told_twice_is_one_opening():
    assert told_openings("Ich bin müde. Ich bin müde.") == ("Ich bin müde.",)


@pytest.mark.parametrize("reply, message, said_back", [
    # the user's question asked back in the second person is no answer
    ("¿Qué tienes que hacer el jueves?", "Oye, ¿qué tengo que hacer el jueves?", True),
    ("¡Hola! ¿Qué tienes que hacer el jueves?", "Oye, ¿qué tengo que hacer el jueves?", True),
    ("What did you cook for your sister on Sunday?", "What did I cook for my sister on Sunday?", True),
    ("Cosa hai comprato al mercato?", "Cosa ho comprato al mercato?", True),
    ("¡Hola Diego! ¿Qué compraste el otro día?", "Oye, ¿qué fue lo que me compré el otro día?", True),  # fewer words
    ("What do you feel like cooking for dinner tonight?", "What should I cook for dinner tonight?", False),
    # an answer in the second person, a question of its own, and a question to something told are not
    ("You have to take the car to the garage on Thursday.", "What do I have to do on Thursday?", False),
    ("Do you mean this Thursday or next week?", "What do I have to do on Thursday?", False),
    ("¿Te refieres al jueves que viene?", "Oye, ¿qué tengo que hacer el jueves?", False),
    ("What did you cook for your sister on Sunday?", "I cooked a curry for my sister on Sunday.", False),
    ("You cooked a curry for your sister on Sunday.", "What did I cook for my sister on Sunday?", False),
])
def test_the_users_question_asked_back_is_an_echo(reply, message, said_back):
    assert echoes(reply, message) is said_back
