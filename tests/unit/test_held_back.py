"""When every attempt fails: what an attempt held back may still be shown, before a notice."""
import pytest

from agent.held_back import users_words_held_back
from agent.providers.fake import ScriptedChatModel, replies
from persona.service import NexusService

TARTA = ("¡Hola! Soy Lucía. Ayer hice una tarta de queso para el cumpleaños de mi padre.",
         "Tuve que ir a tres tiendas para encontrar un queso bueno.")


@pytest.mark.parametrize("held_back, language, said, user, shown", [
    (("Ayer hice una tarta de queso para el cumpleaños de mi padre.", "Responde a Lucía como Ark, en español.", "Lucía: "),
     "es", TARTA, "Lucía", "Ayer hiciste una tarta de queso para el cumpleaños de tu padre."),
    (("我今天工作特别忙，总算到周五了。",), "zh", ("今天工作特别忙，不过总算到周五了。",), "林芳", "你今天工作特别忙，总算到周五了。"),
    (("私はピアノを始めました。",), "ja", ("アーク、今日からピアノ教室に通い始めたよ。",), "ミサキ", "ミサキさんはピアノを始めました。"),
    (("I adopted a puppy yesterday! He is so cute.",), "en", ("We adopted a puppy yesterday, his name is Biscuit.",), "Maya",
     "You adopted a puppy yesterday!"),
    # nothing of the user's told as the persona's: a line of the prompt, a reaction, another language
    (("Responde a Lucía como Ark, en español.", "¡Qué bien!"), "es", TARTA, "Lucía", ""),
    (("I made a cheesecake for my father yesterday.",), "es", ("I made a cheesecake for my father yesterday.",), "Lucía", ""),
    (("Me encanta la tarta de queso.",), "es", TARTA, "Lucía", ""),
])
def test_the_users_words_told_as_the_personas_are_said_back_as_theirs(held_back, language, said, user, shown):
    assert users_words_held_back(held_back, language, said, (user, "Ark"), (user,)) == shown


def test_every_attempt_failing_ends_in_the_users_words_said_back_not_a_notice(data_dir, clock):
    model = ScriptedChatModel(replies("¡Qué bonito! ¿Le gustó a tu padre?", "¡Qué paciencia! Seguro que valió la pena.",
                                      "Ayer hice una tarta de queso para el cumpleaños de mi padre.",
                                      "Responde a Lucía como Ark, en español.", "Lucía: "))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    service.update_settings(user_name="Lucía")
    for message in TARTA:
        list(service.send("Ark", message))
    events = list(service.send("Ark", "¿Qué hice ayer para mi padre?"))
    assert not [e for e in events if e.kind == "error"]
    assert service.conversation("Ark")[-1].text == "Ayer hiciste una tarta de queso para el cumpleaños de tu padre."
