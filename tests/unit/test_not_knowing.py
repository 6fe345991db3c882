"""A question about what the user told, answered "I don't know": asked again, pointed at what they told."""
from datetime import date, datetime, timedelta, timezone

import pytest

from agent.character_guard import SentenceGate
from agent.not_knowing import asks_of_a_day_told, says_it_does_not_know, told_before
from agent.providers.fake import ScriptedChatModel, replies
from persona.service import NexusService
from tests.conftest import StepClock, stream


@pytest.mark.parametrize("sentence", [
    "I apologize, but I don't have the information about where your interview took place.",
    "I don't remember, sorry!", "Ich weiß nicht, wer von deiner Familie heiratet.", "Je ne sais pas, désolé.",
    "No me acuerdo, la verdad.", "Non lo so.", "Não me lembro.", "ごめんなさい、覚えていません。", "我不记得了。",
    "잘 모르겠어요.", "Desculpe, não tenho essa informação.", "I'm sorry, I don't have the exact location of your interview.",
    # not able to remember at all (dev-it-napoli, session 22, with the note kept that day)
    "Mi dispiace, ma non ho la capacità di ricordare le tue ultime interazioni.", "I'm unable to recall past chats.",
    "I don't have the ability to remember our conversations.", "Lo siento, no puedo recordar eso.",
    "Je ne peux pas me souvenir de nos conversations.", "Ich kann mich leider nicht daran erinnern.",
    "Não consigo lembrar disso.", "申し訳ありませんが、会話を記憶することができません。", "我无法记住之前的对话。", "이전 대화는 기억할 수 없어요.",
    # "any" between (dev-it-napoli, session 35: to the note kept two turns before)
    "Mi dispiace, ma non ho alcuna informazione relativa a queste operazioni.", "Non ho nessun ricordo di questo.",
    "Não tenho nenhuma informação sobre isso.",
    "Sì, mi dispiace, ma non ho la minima idea di cosa possa esserci stato in Napoli.",
    "No tengo suficientes detalles para proporcionarte una respuesta precisa.",
    # an article or an adjective before "information" (dev-it-tesi, session 36: 28 told two turns before)
    "Mi dispiace, ma non ho l'informazione necessaria per rispondere a questa domanda.",
    "I'm sorry, but I don't have the necessary information about your exam.",
    "Désolé, je n'ai pas les informations nécessaires.", "Ich habe leider nicht die nötigen Informationen dazu.",
    "Não tenho os detalhes sobre isso.",
    # no memory of it
    "Mi dispiace, ma non ho memoria di dove sei stata con tua cugina.", "I have no memory of that weekend.",
    "No tengo ningún recuerdo de eso.", "Je n'ai aucun souvenir de ce week-end.", "Ich habe keine Erinnerung daran.",
    "Não tenho nenhuma lembrança disso.",
    # in the plural (dev-es-weeks-escalada, session 37: the climbing class among the recalled lines)
    "Lo siento, pero no tengo recuerdos de conversaciones pasadas.", "Sorry, I don't have any memories of that night.",
    "Je n'ai pas de souvenirs de cette soirée.", "Ich habe keine Erinnerungen an den Abend.",
    "Non ho ricordi di quella sera.", "Não tenho memórias dessa noite.",
    # §4, session 38 (dev-it-napoli, dev-de-umzug: the note and the neighbour's name in the recalled lines)
    "Mi dispiace, ma non ho la capacità di ricordarti o gestire calendari.", "Ich habe keine Ahnung, wie sie heißt.",
    # not sure, in every language as in English (dev-de-wann, session 44: the dentist's day in the recalled lines)
    "Ich bin nicht sicher, ob ich noch mal beim Zahnarzt war.", "Ich bin mir leider nicht ganz sicher.",
    "No estoy segura de cuándo fue.", "Je ne suis pas sûr du jour.", "Non sono sicuro di quando sia stato.",
    "Não tenho certeza de quando foi.", "我不确定是哪一天。", "언제였는지 확실하지 않아요.", "いつだったか確かではありません。",
])
def test_saying_one_does_not_know_is_recognised_in_every_language(sentence):
    assert says_it_does_not_know(sentence)


@pytest.mark.parametrize("sentence", [
    "It was at the museum!", "I'd love to know more about it!", "I remember: the museum.", "Sé que fue en junio.",
    "覚えてるよ、美術館だったね。", "我记得是在博物馆。", "기억나요, 박물관이었죠.", "I have the exact same mug!",
    "I don't have the time to bake today, but you should!",
    "Ricordo bene: giovedì devi restituire tre libri.", "Ich kann mich gut an deinen Bruder Felix erinnern!",
    "Ho un ricordo bellissimo di Napoli!", "Non ho mai visto un babà così grande!", "¡Tengo los detalles de la fiesta!",
    # "not" and "information" in different clauses
    "I don't have to go anywhere today, the information desk was closed though.",
    "Ich habe keine Zeit, aber die Informationen klingen spannend.", "Je n'ai pas encore goûté ce pain, mais les détails comptent.",
    "Ho una memoria bellissima di Napoli!", "Tengo un recuerdo precioso de esa tarta.",
    "Tengo recuerdos muy bonitos de esa noche.", "I have fond memories of that café too!",
    "Ich hatte keine Ahnung, dass du so gut backst!",
    # sure, or someone else not sure
    "Ich bin sicher, es war am Montag.", "Estoy segura de que fue el sábado.", "Je suis sûr que c'était mardi.",
    "Sono sicuro che ti piacerà.", "Tenho certeza de que foi ótimo!", "我确定是星期天。", "Tu n'es pas sûre ? C'était mardi.",
])
def test_an_answer_is_not_taken_for_not_knowing(sentence):
    assert not says_it_does_not_know(sentence)


@pytest.mark.parametrize("question, said", [
    ("Where was my interview again?", "Just had my second interview at the museum and I think it went okay?"),
    ("Sag mal, weißt du noch, wer von meiner Familie im Juni heiratet?", "Merk dir bitte, dass mein Bruder Felix am 12. Juni heiratet."),
    ("前に私が落ち込んでた理由、覚えてる？", "はぁ…資格試験、落ちちゃった。"),
    ("¿Te acuerdas de qué era mi concierto?", "Ayer fui a un concierto de jazz en el parque."),
    ("我的马拉松是什么时候？", "我下个月要跑马拉松。"),
])
def test_a_question_about_what_the_user_told_is_recognised(question, said):
    assert told_before(question, [said])


@pytest.mark.parametrize("question, said, language", [
    # a short noun or name, capitalised in the question (dev-de-mitwem, session 53: "Ich weiß nicht genau…")
    ("Sag mal, wann war ich noch mal im Zoo?", "Am 14. Juni war ich mit meinem Bruder im Leipziger Zoo.", "de"),
    ("Wie hieß nochmal mein Hund? Der mit dem Fleck am Ohr.", "Mein Hund Rex hat einen Fleck am Ohr.", "de"),
    ("¿Qué me regaló Ana por mi cumpleaños?", "Ana me regaló un libro precioso.", "es"),
    ("What did Max bring to my party?", "Max brought a huge cake to my party!", "en"),
])
def test_a_short_noun_or_name_the_question_capitalises_counts(question, said, language):
    assert told_before(question, [said], language)


@pytest.mark.parametrize("question, said, language", [
    ("What day did I see the doctor?", "Long day, I saw the dentist.", "en"),  # "day": a short word, not a name
    ("Did I get a bus pass?", "I got on the bus late.", "en"),
    ("Wann war ich beim Arzt?", "Der Tag war lang, ich war im Zoo.", "de"),  # the zoo, not the doctor
    ("¿Qué hice con mi tía?", "Fui al cine con mi primo.", "es"),
])
def test_short_words_shared_by_chance_are_not(question, said, language):
    assert not told_before(question, [said], language)


def test_the_names_of_the_two_speaking_say_nothing_of_what_is_asked():
    said = ["Hallo Ark, hier ist Lena. Heute war ich beim Bäcker."]
    assert told_before("Hey Ark, wann war ich beim Bäcker?", said, "de", names=("Ark", "Lena"))
    assert not told_before("Hey Ark, wann war ich im Kino?", said, "de", names=("Ark", "Lena"))
    assert not told_before("Lena hier, was habe ich gestern gekocht?", said, "de", names=("Ark", "Lena"))


@pytest.mark.parametrize("question, said, language", [
    # the person in the verb alone (dev-it-napoli, session 22: answered "non ho la capacità di ricordare")
    ("E cosa devo fare giovedì, te lo ricordi?", "Ricordami che giovedì devo restituire tre libri alla biblioteca.", "it"),
    ("¿Qué tengo que hacer el jueves?", "Apunta que el jueves tengo cita con el veterinario.", "es"),
    ("O que tenho de fazer na quinta?", "Anota que na quinta tenho consulta no dentista.", "pt"),
])
def test_a_question_whose_verb_carries_the_person_is_about_the_user(question, said, language):
    assert told_before(question, [said], language)
    assert not told_before("E cosa fa Marco giovedì?", [said], language)  # about someone else


@pytest.mark.parametrize("question, said", [
    ("Where was my interview again?", "I love rainy mornings."),  # never told
    ("What's your favourite museum?", "Just had my interview at the museum."),  # about the persona
    ("I don't remember my interview at all.", "Just had my interview at the museum."),  # not a question
    ("Do you remember what I said again?", "I said hello again, remember?"),  # only asking words shared
    # "meiner" is the first person, not a subject
    ("Sag mal, weißt du noch, was meiner Meinung nach wichtig ist?", "Meine Kollegin sagt: das ist egal, meiner auch."),
])
def test_questions_the_user_never_answered_are_not(question, said):
    assert not told_before(question, [said])


def test_not_knowing_what_the_user_told_is_held_and_asked_for_again_but_shown_on_the_last_attempt():
    said = ("Hi there, I'm Priya. Just had my second interview at the museum and I think it went okay?",)
    reply = "I apologize, but I don't have the information about where your interview took place."
    gate = SentenceGate(("Priya", "Ark"), "Where was my interview again?", "en", user_names=("Priya",),
                        persona_name="Ark", user_said=said)
    assert stream(gate, reply) == "" and gate.blocked == reply and gate.not_knowing
    last = SentenceGate(("Priya", "Ark"), "Where was my interview again?", "en", user_names=("Priya",),
                        persona_name="Ark", user_said=said, release_fillers=True)
    assert stream(last, reply) == reply and not last.not_knowing
    never_told = SentenceGate(("Priya", "Ark"), "Where do I live?", "en", user_names=("Priya",), persona_name="Ark",
                              user_said=said)
    assert stream(never_told, reply) == reply


def test_japanese_not_knowing_is_held_when_the_user_told_it():
    gate = SentenceGate(("ユイ", "アーク"), "前に私が落ち込んでた理由、覚えてる？", "ja", user_names=("ユイ",),
                        persona_name="アーク", user_said=("はぁ…資格試験、落ちちゃった。",))
    assert stream(gate, "ごめんなさい、覚えていません。", piece=1) == "" and gate.not_knowing


def test_italian_cannot_remember_is_held_when_the_user_kept_it():
    said = ("Ricordami che giovedì devo restituire tre libri alla biblioteca del quartiere.",)
    gate = SentenceGate(("Giulia", "Ark"), "E cosa devo fare giovedì, te lo ricordi?", "it", user_names=("Giulia",),
                        persona_name="Ark", user_said=said)
    reply = "Mi dispiace, ma non ho la capacità di ricordare le tue ultime interazioni."
    assert stream(gate, reply) == "" and gate.not_knowing


def test_the_retry_after_not_knowing_points_at_what_the_user_told(data_dir, clock):
    model = ScriptedChatModel(replies("Congrats on the interview!",
                                      "Sorry, I don't remember where it was.", "It was at the museum!"))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    list(service.send("Ark", "Hi! I just had my interview at the museum."))
    list(service.send("Ark", "Where was my interview again?"))
    nudges = [messages[-1].content for messages, *_ in model.calls if messages[-1].role == "system"]
    assert len(nudges) == 1 and "told you this before" in nudges[0]
    assert service.conversation("Ark")[-1].text == "It was at the museum!"


TUESDAY, FRIDAY = date(2026, 3, 10), date(2026, 3, 13)


@pytest.mark.parametrize("question, language", [
    ("¿De qué charlamos el martes por la noche?", "es"),
    ("What did we talk about on Tuesday?", "en"),
    ("What did I tell you about on Tuesday evening?", "en"),
    ("火曜日に何話したっけ？", "ja"),
    ("Was habe ich dir am Dienstag erzählt?", "de"),
    ("Di cosa abbiamo parlato martedì?", "it"),
])
def test_a_question_about_a_day_the_user_talked_on_is_recognised(question, language):
    assert asks_of_a_day_told(question, {TUESDAY}, FRIDAY, language)


@pytest.mark.parametrize("question, language, days", [
    ("¿De qué charlamos el martes por la noche?", "es", {date(2026, 3, 9), FRIDAY}),  # nothing said that Tuesday
    ("What did we talk about on Tuesday?", "en", set()),
    ("What are we going to do next Tuesday?", "en", {TUESDAY}),  # a day to come
    ("What do I have to do on Tuesday?", "en", {TUESDAY}),  # a plan for it
    ("What did Caroline do on Tuesday?", "en", {TUESDAY}),  # someone else's day
    ("We talked on Tuesday.", "en", {TUESDAY}),  # not a question
    ("What did we talk about?", "en", {TUESDAY}),  # no day named
])
def test_questions_of_no_day_the_user_talked_on_are_not(question, language, days):
    assert not asks_of_a_day_told(question, days, FRIDAY, language)


def test_not_remembering_a_day_the_user_talked_on_is_held_though_the_question_names_nothing_told():
    said = ("Hoy empecé un curso de escalada en el rocódromo del barrio.",)
    question = "¿De qué charlamos el martes por la noche?"
    gate = SentenceGate(("Lucía", "Ark"), question, "es", user_names=("Lucía",), persona_name="Ark", user_said=said,
                        day_told=True)
    assert stream(gate, "No, no lo recuerdo.") == "" and gate.not_knowing
    other_day = SentenceGate(("Lucía", "Ark"), question, "es", user_names=("Lucía",), persona_name="Ark", user_said=said)
    assert stream(other_day, "No, no lo recuerdo.") == "No, no lo recuerdo."


def test_the_retry_after_not_remembering_a_named_day_points_at_what_the_user_told(data_dir):
    clock = StepClock(datetime(2026, 3, 10, 20, 0, tzinfo=timezone.utc))  # a Tuesday
    model = ScriptedChatModel(replies("Nice, a pottery class!", "Sorry, I don't remember that.",
                                      "You told me about your pottery class!"))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    list(service.send("Ark", "Hi! I'm Sam. I took my first pottery class tonight."))
    clock.now += timedelta(days=3)
    list(service.send("Ark", "What did we talk about on Tuesday?"))
    nudges = [messages[-1].content for messages, *_ in model.calls if messages[-1].role == "system"]
    assert len(nudges) == 1 and "told you this before" in nudges[0]
    assert service.conversation("Ark")[-1].text == "You told me about your pottery class!"
