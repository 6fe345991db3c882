"""Asked about what they told, the user gets it back as theirs: the question asked back is no answer,
the retry after it is pointed at what the user told, and their recalled line copied word for word is said
back in the second person rather than held back as a copy of the prompt (dev-es-taller, session 40)."""
import pytest

from agent.character_guard import SentenceGate
from agent.providers.fake import ScriptedChatModel, replies
from agent.role import as_users, takes_users_part
from persona.service import NexusService
from tests.unit.test_guard_earlier_words import stream

TOLD = "¡Hola! Te cuento: el jueves tengo que llevar el coche al taller a las nueve de la mañana."
CONTEXT = f"# Memories\n[7 March 2026]\n- Lucía: {TOLD}\n- Lucía: Hoy he limpiado toda la casa y estoy agotada."


def gate_for(question: str, context: str = CONTEXT, told: str = TOLD, language: str = "es") -> SentenceGate:
    return SentenceGate(("Lucía", "Ark"), question, language, context, user_names=("Lucía",),
                        user_said=(told, question), greet_early=True, persona_name="Ark")


@pytest.mark.parametrize("piece", [1, 3, 1000])
@pytest.mark.parametrize("reply, shown", [
    ("El jueves tengo que llevar el coche al taller a las nueve de la mañana.",
     "El jueves tienes que llevar el coche al taller a las nueve de la mañana."),
    ("¡Hola! Te cuento: el jueves tengo que llevar el coche al taller a las nueve de la mañana.",
     "¡Hola! Te cuento: el jueves tienes que llevar el coche al taller a las nueve de la mañana."),
])
def test_the_users_recalled_line_copied_is_said_back_as_theirs_when_asked_about(reply, shown, piece):
    gate = gate_for("Oye, ¿qué tengo que hacer el jueves?")
    assert stream(gate, reply, piece) == shown and not gate.blocked


def test_in_english_too():
    told = "On Thursday I have to take the car to the garage at nine in the morning."
    gate = gate_for("What do I have to do on Thursday?", f"# Memories\n- Lucía: {told}\n", told, "en")
    assert stream(gate, told) == "On Thursday you have to take the car to the garage at nine in the morning."


@pytest.mark.parametrize("question", ["¿Qué tal tu día, Ark?", "Hoy he limpiado toda la casa."])
def test_the_users_line_copied_when_not_asked_about_is_still_held_back(question):
    gate = gate_for(question)
    assert stream(gate, "El jueves tengo que llevar el coche al taller a las nueve de la mañana.") == ""
    assert gate.blocked


@pytest.mark.parametrize("sentence, language, said_back", [
    ("Tengo que llevar el coche al taller.", "es", "Tienes que llevar el coche al taller."),  # a duty, not a stance
    ("Sé que tengo que llevar el coche.", "es", "Sé que tienes que llevar el coche."),
    ("Creo que compré pan.", "es", "Creo que compraste pan."),  # the stance before "que" stays the persona's
    ("Ich weiß, dass mein Bruder im Juni heiratet.", "de", "Ich weiß, dass dein Bruder im Juni heiratet."),
    # "we talked" is the persona's and the user's together (session 53)
    ("Hablamos sobre mi monitor de escalada.", "es", "Hablamos sobre tu monitor de escalada."),
    ("Conversamos sobre o meu curso.", "pt", "Conversamos sobre o seu curso."),
])
def test_a_duty_with_que_is_the_users_all_through(sentence, language, said_back):
    assert as_users(sentence, language, "Lucía") == said_back


def test_after_the_question_asked_back_the_retry_is_pointed_at_what_the_user_told(data_dir, clock):
    model = ScriptedChatModel(replies("¡Qué bien! ¿Es una revisión?", "¿Qué tienes que hacer el jueves?",
                                      "Tienes que llevar el coche al taller."))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    service.update_settings(user_name="Lucía")
    list(service.send("Ark", "El jueves tengo que llevar el coche al taller a las nueve."))
    list(service.send("Ark", "Oye, ¿qué tengo que hacer el jueves?"))
    assert "ya te lo contó" in model.calls[-1][0][-1].content
    assert service.conversation("Ark")[-1].text == "Tienes que llevar el coche al taller."


BROTHER = "Merk dir bitte, dass mein Bruder Felix am 12. Juni heiratet, das ist mir wichtig."


@pytest.mark.parametrize("piece", [1, 4, 1000])
@pytest.mark.parametrize("reply, shown", [
    ("Dein Bruder Felix heiratet am 12. Juni, das ist mir wichtig.",
     "Dein Bruder Felix heiratet am 12. Juni, das ist dir wichtig."),
    ("Verstanden. Dein Bruder Felix heiratet am 12. Juni, das ist mir wichtig.",
     "Verstanden. Dein Bruder Felix heiratet am 12. Juni, das ist dir wichtig."),
    # the persona's own words beside the user's stay as they are
    ("Dein Bruder Felix heiratet am 12. Juni, ich freue mich für dich.",
     "Dein Bruder Felix heiratet am 12. Juni, ich freue mich für dich."),
])
def test_the_users_own_words_copied_beside_a_you_are_said_back_as_theirs(reply, shown, piece):
    gate = SentenceGate(("Jonas", "Ark"), BROTHER, "de", "", user_names=("Jonas",), user_said=(BROTHER,),
                        persona_name="Ark")
    assert stream(gate, reply, piece) == shown


@pytest.mark.parametrize("reply, told", [
    ("Great, I love it, you have good taste.", "I love it!"),  # too few words to be theirs alone
    ('You said, "that is so important to me", and I agree.', "That is so important to me."),  # a quote
    ("Es muy importante para mí, tu hermano se casa.", "Mi hermano se casa, es muy importante para mí."),  # no swap
])
def test_what_is_not_the_users_words_to_say_back(reply, told):
    from agent.echoes import users_words_said_back
    language = "es" if "hermano" in reply else "en"
    assert users_words_said_back(reply, [told], language, "Jonas") == reply


@pytest.mark.parametrize("piece", [1, 5, 1000])
def test_an_answer_is_not_taken_back_by_a_later_i_dont_know(piece):
    told = "J'ai fait 60 km à vélo aujourd'hui le long de la Loire."
    question = "Je t'ai dit que j'avais roulé le long de quel fleuve ?"
    gate = SentenceGate(("Julien", "Ark"), question, "fr", "", user_names=("Julien",), user_said=(told, question),
                        persona_name="Ark")
    shown = stream(gate, "Tu as dit que tu avais roulé le long de la Loire. Je suis désolé, mais je n'ai pas "
                         "d'information sur quel fleuve exactement tu as utilisé.", piece)
    assert shown.strip() == "Tu as dit que tu avais roulé le long de la Loire."


def test_a_later_i_dont_know_stays_when_nothing_told_was_asked_about():
    question = "Tu connais un bon restaurant libanais à Lyon ?"
    gate = SentenceGate(("Julien", "Ark"), question, "fr", "", user_names=("Julien",), user_said=(question,),
                        persona_name="Ark")
    reply = "Il y en a sûrement de très bons près de la gare. Je suis désolé, je ne les connais pas tous."
    assert stream(gate, reply) == reply


@pytest.mark.parametrize("piece", [1, 1000])
def test_the_users_words_copied_with_their_me_are_said_back_with_a_you(piece):
    told = "Bonsoir Ark, c'est Camille. Je me souviens encore de quand mon grand-père m'emmenait pêcher au lac d'Annecy."
    question = "Coucou ! Tu te rappelles où mon grand-père m'emmenait pêcher ?"
    gate = SentenceGate(("Camille", "Ark"), question, "fr", "", user_names=("Camille",), user_said=(told, question),
                        persona_name="Ark")
    shown = stream(gate, "Oui, je me souviens. Ton grand-père m'emmenait pêcher au lac d'Annecy il y a bien longtemps.", piece)
    assert shown == "Oui, je me souviens. Ton grand-père t'emmenait pêcher au lac d'Annecy il y a bien longtemps."


@pytest.mark.parametrize("sentence, told, language, taken", [
    ('My bakery is called "Blue Oven".', "Remember: my bakery is called Blue Oven.", "en", True),
    ('Mi panadería se llama "El Horno Azul".', "Recuerda: mi panadería se llama El Horno Azul.", "es", True),
    # the persona's own, or a thing the user did not call theirs
    ("私の好きな曲は『エリーゼのために』です。", "最初の曲は「エリーゼのために」なんだ。", "ja", False),
    ('My favorite song is "Für Elise" too!', "My first piece is Für Elise.", "en", False),
    ('I love the name "Blue Oven"!', "Remember: my bakery is called Blue Oven.", "en", False),
])
def test_a_quoted_name_counts_only_beside_a_thing_the_user_called_theirs(sentence, told, language, taken):
    assert takes_users_part(sentence, [told], [], language) is taken


@pytest.mark.parametrize("sentence, told, taken", [
    # the user's own thing called the persona's, with a "not" or without
    ("Ich habe noch nicht mehr in meinem Brot drin.", "Was war nochmal in meinem Brot drin, weißt du das noch?", True),
    ("I haven't planted more tomatoes in my garden yet.", "My garden is full of tomatoes and basil.", True),
    # the persona's own lack, sharing one word at most
    ("I don't have my own garden, but I love hearing about yours.", "My garden is full of tomatoes and basil.", False),
    ("Ich habe heute kein Brot gebacken.", "Heute habe ich zum ersten Mal Brot gebacken.", False),
])
def test_a_not_does_not_excuse_calling_the_users_thing_the_personas(sentence, told, taken):
    assert takes_users_part(sentence, [told], [], "") is taken


@pytest.mark.parametrize("piece", [1, 4, 1000])
@pytest.mark.parametrize("user, language, told, question, reply, shown", [
    # the bakery's name in quotes, which the role check leaves out as someone's words: "Ma boulangerie" alone
    # shared one word with the message (every full §4 run since session 38)
    ("Camille", "fr", "Souviens-toi : ma boulangerie s'appelle « Le Fournil Bleu ».",
     "Comment s'appelle ma boulangerie, déjà ?",
     'Ma boulangerie est appelée "Le Fournil Bleu".', 'Ta boulangerie est appelée "Le Fournil Bleu".'),
    # "Tú " streamed before the "me", the rest was swapped alone: "Tú te dijiste que tu bici…" (§4, session 42)
    ("Diego", "es", "¡Hola! Soy Diego. Hoy me compré una bicicleta de segunda mano, una roja preciosa.",
     "Por cierto, ¿de qué color te dije que era mi bici?",
     "Tú me dijiste que mi bici era roja preciosa.", "Tú me dijiste que tu bici era roja preciosa."),
])
def test_the_users_own_thing_is_said_back_as_theirs_and_the_personas_me_stays(user, language, told, question, reply,
                                                                             shown, piece):
    gate = SentenceGate((user, "Ark"), question, language, "", user_names=(user,), user_said=(told, question),
                        greet_early=True, persona_name="Ark")
    assert stream(gate, reply, piece) == shown and not gate.blocked


@pytest.mark.parametrize("rest, language, said_back", [
    ("me dijiste que mi bici era roja.", "es", "me dijiste que tu bici era roja."),
    ("mi hai detto che il mio esame è andato bene.", "it", "mi hai detto che il tuo esame è andato bene."),
    ("m'as dit que mon chat dort sur mon lit.", "fr", "m'as dit que ton chat dort sur ton lit."),
    ("mi abuelo me enseñó a nadar.", "es", "tu abuelo te enseñó a nadar."),  # not said to the user: swapped
])
def test_the_rest_of_a_sentence_begun_keeps_a_me_told_by_the_user(rest, language, said_back):
    assert as_users(rest, language, "Diego", opens_sentence=False) == said_back


@pytest.mark.parametrize("sentence, language", [
    ("Fuimos al rocódromo con mi monitor.", "es"),  # "we went" is the user's outing: no plain swap
    ("Hablamos y luego me acuerdo de mi monitor.", "es"),  # a first person left over
])
def test_a_we_that_is_not_talking_together_is_still_no_plain_swap(sentence, language):
    assert as_users(sentence, language, "Lucía") is None
