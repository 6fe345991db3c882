"""What counts as the user's message said back (agent/echoes.py)."""
import pytest

from agent.echoes import told_openings


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
