"""A choice the user has not made yet, told with no date, is a thing left open (agent/undecided.py), in
each language; not knowing what was meant, questions put to the persona and choices made are not."""
import pytest

from agent.question_ask import ahead_of
from agent.undecided import undecided


@pytest.mark.parametrize("text", [
    "The job offer pays more but I honestly don't know yet.",
    "Not sure whether I should sell the car or keep it.",
    "I haven't decided about the puppy.",
    "I can't decide between the blue sofa and the green one.",
    "Still torn about moving in with Jo.",
    "I'm torn between law school and a gap year.",
    "We're on the fence about the wedding venue.",
    "dunno if I'll renew the gym membership",
    "I have to choose between two flats.",
    "留学するかどうか、まだ迷ってる。",
    "バイトを辞めるか悩んでいる。",
    "引っ越し先はまだ決めてない。",
    "我还没决定要不要换工作。",
    "我在犹豫要不要买那台相机。",
    "이직할지 말지 아직 고민 중이야.",
    "아직 결정 못 했어요.",
    "No sé si aceptar el trabajo en Valencia.",
    "Todavía no he decidido qué estudiar.",
    "J'hésite entre deux appartements.",
    "Je ne sais pas encore si je vais au mariage.",
    "Ich weiß noch nicht, ob ich umziehe.",
    "Ich bin unentschlossen wegen des neuen Jobs.",
    "Non so se accettare l'offerta.",
    "Ainda não decidi se vou mudar de cidade.",
])
def test_a_choice_not_made_yet_is_left_open(text):
    assert undecided(text)


@pytest.mark.parametrize("text", [
    "I don't know what you mean.",
    "I'm not sure I follow.",
    "I decided to keep the puppy!",
    "My jeans are torn again.",
    "Do you know if the bakery opens on Sunday?",
    "Can you decide for me?",  # asked of the persona: still no choice of the user's told
    "知らないよ。",
    "迷子の猫を見つけた。",
    "你要不要喝茶？",
    "한국 음식을 좋아해요.",
    "Ya lo decidí: me mudo.",
    "J'ai choisi le rouge.",
    "Ich habe mich entschieden.",
    "Ho deciso di restare.",
    "Já decidi tudo.",
    "I knew it would rain.",
])
def test_what_is_no_choice_left_open_is_not(text):
    assert not undecided(text)


def test_an_undecided_message_with_no_date_may_give_a_question():
    messages = ["We had pizza.", "I can't decide whether to take the flat by the park.", "Exam on Friday."]
    assert ahead_of(messages) == [2, 3]
