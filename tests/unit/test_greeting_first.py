"""An opening greeting is shown at once; when what follows it fails, the reply goes on from it.

The 1.5B model opens most first replies with a greeting, and the guard held it until the next
sentence was whole and checked: the user waited for both (bench conversation, session 19).
"""
import pytest

import constants

from agent.character_guard import SentenceGate
from agent.engagement import only_greets
from agent.providers.fake import ScriptedChatModel, replies
from persona.service import NexusService


def feed_until_shown(gate: SentenceGate, text: str) -> tuple[str, str]:
    """(what was shown, what had been fed by then), feeding one character at a time."""
    for end in range(1, len(text) + 1):
        shown = gate.feed(text[end - 1])
        if shown.strip():
            return shown, text[:end]
    return gate.flush(), text


@pytest.mark.parametrize("language, user, names, reply, greeting", [
    ("es", "¡Hola! Soy Diego. Hoy me compré una bicicleta roja.", ("Diego",),
     "¡Hola, Diego! ¿De qué año es la bicicleta?", "¡Hola, Diego!"),
    ("pt", "Oi! Eu sou a Ana. Passei o dia na praia.", ("Ana",), "Olá! Que dia gostoso na praia!", "Olá!"),
    ("ja", "こんにちは！ハルカです。今日カレーを作ったよ。", ("ハルカ",), "こんにちは、ハルカさん！カレー、いいね。",
     "こんにちは、ハルカさん！"),
    ("ko", "안녕! 나 지수야. 아침에 한강에서 뛰었어.", ("지수",), "안녕하세요, 지수님! 한강 달리기 좋았겠어요.",
     "안녕하세요, 지수님!"),
    ("zh", "你好！我是小林。今天考完科目二了。", ("小林",), "你好，小林！恭喜你通过了。", "你好，小林！"),
    ("en", "Hi! I'm Ken. Just back from a hike.", ("Ken",), "Hi there! How was the hike?", "Hi there!"),
    ("de", "Hallo! Ich bin Jonas. Heute habe ich Brot gebacken.", ("Jonas",), "Hallo Jonas! Wie war das Brot?",
     "Hallo Jonas!"),
    ("fr", "Coucou, moi c'est Chloé ! J'ai adopté un chaton.", ("Chloé",), "Coucou Chloé ! Quel âge a-t-il ?",
     "Coucou Chloé !"),
    ("it", "Ciao! Sono Giulia. Ho finito un esame.", ("Giulia",), "Ciao Giulia! Com'è andato?", "Ciao Giulia!"),
])
def test_a_greeting_is_shown_before_the_next_sentence_is_written(language, user, names, reply, greeting):
    gate = SentenceGate((*names, "Ark"), user, language, user_names=names, persona_name="Ark", greet_early=True)
    shown, fed = feed_until_shown(gate, reply)
    assert shown == greeting
    assert len(fed) <= len(greeting) + 2  # the sentence's end, and at most one character to tell it ended


@pytest.mark.parametrize("language, user, reply", [
    ("es", "¡Hola! Soy Diego. Hoy me compré una bicicleta.", "¡Hola Lucía! ¿Qué tal la bici?"),  # a name not the user's
    ("en", "Good evening! I'm Theo.", "Good night, Theo! Sleep well."),  # a farewell, maybe the whole reply
    ("en", "Can you remember my sister's birthday?", "Sure! It is on March 3rd."),  # not a greeting
    ("ja", "こんにちは！今日は暑かった。", "Hello! 暑かったね。"),  # another script than the message's
    # another language than the message's, in its script: held, judged with what follows
    ("de", "Nabend! Heute war im Büro viel los, ich bin müde.", "Good evening! Wie war dein Tag?"),
    ("es", "¡Hola! Soy Diego. Hoy me compré una bicicleta.", "Bonjour Diego ! ¿De qué color es?"),
    ("en", "Hi! I'm Theo. Just back from a hike.", "¡Hola, Theo! How was the hike?"),
])
def test_what_is_not_a_greeting_in_the_users_language_is_not_shown_early(language, user, reply):
    gate = SentenceGate(("Diego", "Theo", "Ark"), user, language, user_names=("Diego", "Theo"), persona_name="Ark",
                        greet_early=True)
    feed_until_shown(gate, reply)
    assert gate.greeting == ""


@pytest.mark.parametrize("text, names, greets", [
    ("Hello!", (), True), ("Good morning, Maya!", ("Maya",), True), ("Bom dia!", (), True),
    ("안녕하세요, 지수님!", ("지수",), True), ("Hi! I am Ken.", (), False), ("Good!", (), False),
    ("Hey, Ark!", ("Ken",), False), ("Oh, hello, what a day!", (), False),
])
def test_only_salutations_and_the_users_names_make_a_greeting(text, names, greets):
    assert only_greets(text, names) is greets


def test_after_a_greeting_shown_before_the_retry_leaves_its_own_out_and_goes_on():
    gate = SentenceGate(("Diego", "Ark"), "¡Hola! Soy Diego. Hoy me compré una bicicleta.", "es",
                        user_names=("Diego",), persona_name="Ark", greet_early=True, greeted="¡Hola, Diego!")
    shown = gate.feed("¡Hola Diego! ¿De qué color es la bicicleta?") + gate.flush()
    assert shown == " ¿De qué color es la bicicleta?"
    ja = SentenceGate(("ハルカ", "Ark"), "こんにちは！今日カレーを作ったよ。", "ja", user_names=("ハルカ",),
                      persona_name="Ark", greet_early=True, greeted="こんにちは！")
    assert ja.feed("こんにちは！カレー、いいね。") + ja.flush() == "カレー、いいね。"  # no space after 「！」


DIEGO = "¡Hola! Soy Diego. Hoy me compré una bicicleta de segunda mano, una roja preciosa."


def send(data_dir, clock, user_name: str, message: str, *attempts: str):
    """The user's message sent to a persona whose model writes `attempts` in turn: (model, events, reply)."""
    model = ScriptedChatModel(replies(*attempts))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    service.update_settings(user_name=user_name)
    events = list(service.send("Ark", message))
    return model, events, service.conversation("Ark")[-1].text


def test_when_the_sentence_after_the_greeting_fails_the_retry_goes_on_from_the_greeting(data_dir, clock):
    model, events, reply = send(data_dir, clock, "Diego", DIEGO,
                                "¡Hola, Diego! Hoy me compré una bicicleta de segunda mano, una roja preciosa.",
                                "¡Hola! ¿De qué año es la bicicleta?")
    assert [e.text for e in events if e.kind == "token"][0] == "¡Hola, Diego!"  # shown before the echo was written
    assert reply == "¡Hola, Diego! ¿De qué año es la bicicleta?"
    assert model.prefixes == ["", "¡Hola, Diego!"]  # the retry is asked to go on from the greeting


def test_a_retry_that_goes_on_from_the_greeting_may_not_end_right_after_it(data_dir, clock):
    # The 1.5B model ended at once after "Ciao Giulia!", twice, and the greeting was the whole reply.
    model, _, reply = send(data_dir, clock, "Giulia",
                           "Ciao Ark! Sono Giulia. Sono appena tornata da un weekend a Napoli con mia cugina.",
                           "Ciao Giulia! Sono Ark.", "Che bello! Cosa avete mangiato di buono?")
    assert model.prefixes == ["", "Ciao Giulia!"]
    assert model.least_tokens == [0, constants.MIN_REPLY_TOKENS_AFTER_GREETING]
    assert reply == "Ciao Giulia! Che bello! Cosa avete mangiato di buono?"


def test_service_talk_left_out_after_the_greeting_is_not_opened_with_again(data_dir, clock):
    # After "Ciao Giulia!" the 1.5B model wrote "Come posso aiutarti oggi?" three attempts running: left
    # out each time, the greeting was the whole reply (bench conversation, session 22).
    model, _, reply = send(data_dir, clock, "Giulia",
                           "Ciao Ark! Sono Giulia. Sono appena tornata da un weekend a Napoli con mia cugina.",
                           "Ciao Giulia! Come posso aiutarti oggi?", "Che bello! Cosa avete mangiato di buono?")
    assert "Come posso aiutarti oggi?" not in model.avoided[0] and "Come posso aiutarti oggi?" in model.avoided[1]
    assert reply == "Ciao Giulia! Che bello! Cosa avete mangiato di buono?"


def test_a_greeting_the_users_message_opens_with_is_not_gone_on_from(data_dir, clock):
    model, _, reply = send(data_dir, clock, "Diego", DIEGO,
                           "¡Hola! Hoy me compré una bicicleta de segunda mano, una roja preciosa.",
                           "¡Hola! ¿De qué año es la bicicleta?")
    # going on from "¡Hola!" the model went on with the message it opens: the retry is written afresh
    assert model.prefixes == ["", ""]
    assert reply == "¡Hola! ¿De qué año es la bicicleta?"


def test_when_every_attempt_after_the_greeting_fails_the_greeting_is_the_reply(data_dir, clock):
    message = "Oi! Eu sou a Ana. Passei o dia na praia com minhas primas e tomei um sol gostoso."
    model, events, reply = send(data_dir, clock, "Ana", message,
                                "Olá, Ana! Passei o dia na praia com minhas primas e tomei um sol gostoso.",
                                "Olá!", "Olá! Como posso te ajudar hoje?")
    assert not [e for e in events if e.kind == "error"]
    assert reply == "Olá, Ana!"
    assert len(model.calls) == 3


@pytest.mark.parametrize("message, first, told", [
    (DIEGO, "¡Hola! ¿En qué puedo ayudarte hoy?", True),  # service talk to something told
    ("Ciao Ark! Sono Giulia. Sono appena tornata da un weekend a Napoli.", "Ciao Giulia! Come posso aiutarti oggi?", True),
    ("¿Qué tal tu día, Ark?", "¡Hola! ¿En qué puedo ayudarte hoy?", False)])  # asked, not told: the usual line
def test_a_retry_after_only_a_greeting_or_service_talk_is_told_to_react_to_what_was_told(data_dir, clock, message,
                                                                                           first, told):
    model, _, reply = send(data_dir, clock, "Diego", message, first, "¡Qué bien! ¿Cómo fue?")
    nudge = model.calls[1][0][-1].content
    assert model.calls[0][0][-1].role == "user" and model.calls[1][0][-1].role == "system"
    assert (("acaba de contar" in nudge or "appena raccontato" in nudge) is told)


@pytest.mark.parametrize("language, user, reply, reaction", [
    ("es", "Hoy terminé mi primera carrera de 10K, en 58 minutos.",
     "¡Qué bien! Terminar tu primera carrera de 10K es un gran logro, ¿cómo te sentiste al cruzar la meta?", "¡Qué bien!"),
    ("fr", "J'ai adopté un chaton aujourd'hui, il est tout gris.", "Super ! Comment s'appelle ton chaton ?", "Super !"),
    ("en", "I baked bread today for the first time, a sourdough loaf.",
     "That's great, Diego! What kind of flour did you use?", "That's great, Diego!"),
    ("ja", "今日は仕事で大きなプレゼンがあって、すごく緊張したよ。", "お疲れ様！どんなプレゼンだったの？", "お疲れ様！"),
])
def test_a_reaction_to_something_told_is_shown_before_the_next_sentence_is_written(language, user, reply, reaction):
    gate = SentenceGate(("Diego", "Ark"), user, language, user_names=("Diego",), persona_name="Ark", greet_early=True)
    shown, fed = feed_until_shown(gate, reply)
    assert shown == reaction
    assert len(fed) <= len(reaction) + 2
    assert shown + gate.feed(reply[len(fed):]) + gate.flush() == reply  # the rest as it was written


@pytest.mark.parametrize("language, user, reply", [
    ("en", "Can you remember my sister's birthday?", "Sure! It is on March 3rd."),  # an answer comes with it
    ("en", "Finally finished the thesis draft tonight, all 80 pages.", "Good night, Diego! Sleep well."),  # a farewell
    ("es", "Hoy me compré una bicicleta roja de segunda mano.", "¡Genial, Lucía! ¿De qué año es?"),  # not the user's name
    ("es", "Hoy me compré una bicicleta roja de segunda mano.", "Great! What year is it?"),  # another language
])
def test_what_is_not_a_reaction_to_something_told_waits_for_what_follows(language, user, reply):
    gate = SentenceGate(("Diego", "Ark"), user, language, user_names=("Diego",), persona_name="Ark", greet_early=True)
    shown, fed = feed_until_shown(gate, reply)
    assert gate.greeting == ""
    assert not shown.strip() or len(fed) > reply.index("!") + 2


def test_when_the_sentence_after_a_reaction_fails_the_retry_goes_on_from_the_reaction(data_dir, clock):
    message = "Today I finally finished my first 10K run, in 58 minutes, after months of training!"
    model, events, reply = send(data_dir, clock, "Diego", message,
                                "Wow! Today I finally finished my first 10K run, in 58 minutes!",
                                "How did you feel when you crossed the line?")
    assert [e.text for e in events if e.kind == "token"][0] == "Wow!"  # shown before the echo was written
    assert model.prefixes == ["", "Wow!"]
    assert reply == "Wow! How did you feel when you crossed the line?"


def test_what_follows_a_reaction_shown_is_judged_with_it_as_one_opening():
    # Held together, "¡Qué pena! ¿Cómo estás?" said enough to a long message; with the reaction shown first,
    # "¿Cómo estás?" alone was too little and the reply was asked for again (bench conversation, session 34).
    message = "¡Buenas! Hoy llovió todo el día y me quedé en casa leyendo."
    gate = SentenceGate(("Diego", "Ark"), message, "es", user_names=("Diego",), persona_name="Ark", greet_early=True)
    shown = "".join(gate.feed(c) for c in "¡Qué pena! ¿Cómo estás?") + gate.flush()
    assert (shown, gate.greeting, gate.blocked) == ("¡Qué pena! ¿Cómo estás?", "¡Qué pena!", "")
    retry = SentenceGate(("Diego", "Ark"), message, "es", user_names=("Diego",), persona_name="Ark", greet_early=True,
                         greeted="¡Qué pena!")
    assert "".join(retry.feed(c) for c in "¿Cómo estás?") + retry.flush() == " ¿Cómo estás?"



def test_no_attempt_may_open_with_what_the_user_told(data_dir, clock):
    # The model's commonest echo opened with the message's own first words ("Le premier client a acheté…"
    # to that message): every attempt is asked not to, the first one too (bench conversation, session 36).
    told = "Le premier client a acheté trois croissants et une baguette !"
    model, _, reply = send(data_dir, clock, "Camille", f"Bonjour Ark ! {told}",
                           told, "Trois croissants et une baguette, quel beau début !")
    assert all(told in avoided for avoided in model.avoided)  # the echo the scripted model wrote was not allowed
    assert "Bonjour Ark !" not in model.avoided[0]  # a greeting is said back as a greeting
    assert reply == "Trois croissants et une baguette, quel beau début !"


def test_an_interjection_a_left_out_claim_leaves_alone_is_gone_on_from(data_dir, clock):
    # 「はい、」 was shown, the user's planting told as the persona's after it was left out, and 「はい、」 alone was the
    # reply (§4 dev-ja-veranda, session 43): asked again, going on from it as from a greeting.
    model, events, reply = send(data_dir, clock, "リョウ", "今日ベランダにミニトマトの苗を植えたんだ。何を植えたか覚えてる？",
                                "はい、私たちはベランダにミニトマトの苗を植えたんです。", "ミニトマトの苗だよね！")
    assert [e.text for e in events if e.kind == "token"][0] == "はい、"
    assert model.prefixes == ["", "はい、"]
    assert reply == "はい、ミニトマトの苗だよね！"


def test_a_greeting_streamed_as_an_answers_opening_is_gone_on_from_when_the_rest_fails(data_dir, clock):
    # "Hey, John!" is no greeting to show early (John is not the user), so it opened the answer, addressed as
    # "Hey, Sam!"; "I'm back home." (the user's words) was held back, and the greeting alone was the reply
    # (§4 en-trip, session 44)
    model, _, reply = send(data_dir, clock, "Sam", "I'm back home! Guess where I've just been?",
                           "Sam, guess where I've just been?", "Hey, John! I'm back home.",
                           "Was it Lisbon? How was the design conference?")
    assert model.prefixes == ["", "", "Hey, Sam!"]
    assert reply == "Hey, Sam! Was it Lisbon? How was the design conference?"
