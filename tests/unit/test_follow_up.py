"""A follow-up question ("¿Y con quién fui?") searched with the user's question before it."""
import random
from datetime import datetime, timedelta, timezone

import pytest

from agent.follow_up import follow_up_search, names_something, question_before
from agent.retrieval import retrieve
from managers.chat_log import ChatLog, LogEntry
from managers.embeddings import create_embedder
from managers.rag import MemoryIndexer
from persona.recall import MemoryRecall

NOW = datetime(2026, 4, 17, 19, 0, tzinfo=timezone.utc)


def entry(role: str, text: str, minutes_ago: float) -> LogEntry:
    return LogEntry(id=f"{role}-{minutes_ago}", role=role, name="Marta" if role == "USER" else "Ark", text=text,
                    ts=NOW - timedelta(minutes=minutes_ago))


def test_the_question_before_is_the_users_last_message_when_it_asked_in_the_same_sitting():
    before = [entry("USER", "¿Cuándo fui al concierto de Rosalía?", 3), entry("AGENT", "El sábado 11 de abril.", 2)]
    assert question_before(before, NOW) == "¿Cuándo fui al concierto de Rosalía?"
    told = [entry("USER", "Fui al concierto de Rosalía.", 3), entry("AGENT", "¡Qué bien!", 2)]
    assert question_before(told, NOW) == ""  # told, not asked: what follows is about the window
    yesterday = [entry("USER", "¿Cuándo fui al concierto de Rosalía?", 60 * 20), entry("AGENT", "El sábado.", 60 * 20)]
    assert question_before(yesterday, NOW) == ""  # another sitting
    assert question_before([entry("AGENT", "¿Qué tal tu día?", 1)], NOW) == ""


@pytest.mark.parametrize("message", [
    "¿Y con quién fui?", "Und mit wem?", "Et avec qui ?", "Who was with me?", "누구랑 갔었지?", "E con chi?",
])
def test_a_question_that_names_nothing_is_searched_with_the_question_before_it(message):
    earlier = "When did I go to the concert?"
    assert follow_up_search(message, earlier, []) == f"{earlier} {message}"
    unrelated = ["[2026-04-02] Marta: The weather was lovely today."]
    assert follow_up_search(message, earlier, unrelated) == f"{earlier} {message}"


def test_a_message_searched_by_itself_when_it_names_what_it_found_or_asks_nothing_or_follows_no_question():
    found = ["[2026-04-12] Marta: Am Sonntag war ich mit Jonas im Zoo in Leipzig."]
    assert names_something("Und wann war ich in Leipzig?", found)
    assert follow_up_search("Und wann war ich in Leipzig?", "Wann war ich im Zoo?", found) == ""
    assert follow_up_search("Fue increíble, gracias.", "¿Cuándo fui al concierto?", []) == ""  # no question
    assert follow_up_search("¿Y con quién fui?", "", []) == ""  # nothing asked before it
    assert not names_something("Who was with me?", found)  # nothing of its own to share


FACTS = [
    "El sábado pasado fui al concierto de Rosalía en Madrid con mi prima Elena.",
    "Am Sonntag war ich mit meinem Bruder Jonas im Zoo in Leipzig.",
    "지난 주말에 친구 민수랑 부산에 갔어.",
    "I went kayaking on Lake Tahoe with my coworker Priya last weekend.",
]
FILLER = [
    "Work was long today, lots of meetings.", "Did you sleep well?", "I made pasta for dinner.",
    "The weather is getting warmer.", "I should call my mother this week.", "My plants need more light.",
]


@pytest.fixture(scope="module")
def recall(tmp_path_factory):
    root = tmp_path_factory.mktemp("follow") / "Ark"
    moments = iter(NOW - timedelta(days=5) + timedelta(minutes=9 * i) for i in range(100))
    log = ChatLog(root / "logs", lambda: next(moments))
    for i, text in enumerate(FILLER * 3 + FACTS + FILLER * 3):
        log.append("USER" if i % 2 == 0 or text in FACTS else "AGENT", "Marta" if i % 2 == 0 else "Ark", text)
    indexer = MemoryIndexer(root, create_embedder())
    indexer.update()
    return MemoryRecall(indexer, random.Random(0), user_name=lambda: "Marta", persona_name="Ark")


@pytest.mark.parametrize("earlier, message, told", [
    ("Oye, ¿cuándo fui al concierto de Rosalía?", "¿Y con quién fui?", "Elena"),
    ("Wann war ich im Zoo?", "Und mit wem?", "Jonas"),
    ("내가 부산에 언제 갔지?", "누구랑 갔었지?", "민수"),
])
def test_the_follow_up_recalls_what_the_question_before_it_found(recall, earlier, message, told):
    alone = retrieve(message, NOW, recall, True)
    followed = retrieve(message, NOW, recall, True, earlier_question=earlier)
    assert told in followed.items[0].text
    assert "with the question before it" in followed.reason
    assert not alone.items or told not in alone.items[0].text  # what the search by itself missed


def test_a_question_of_its_own_right_after_another_keeps_its_own_memory_first(recall):
    result = retrieve("¿Y con quién fui a Leipzig?", NOW, recall, True, earlier_question="¿Cuándo fui al concierto?")
    assert "Leipzig" in result.items[0].text
    assert "question before it" not in result.reason


def test_a_follow_up_in_the_app_shows_the_memory_the_question_before_it_found(data_dir, clock):
    from agent.providers.fake import ScriptedChatModel, replies
    from persona.service import NexusService
    from tests.conftest import turn_context

    model = ScriptedChatModel(replies("Fuiste el sábado."))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    log = ChatLog(service.personas.get("Ark").root / "logs", clock)
    for i, text in enumerate(FILLER * 6 + FACTS[:1] + FILLER * 40):  # the concert far out of the window
        log.append("USER" if i % 2 == 0 else "AGENT", "Marta" if i % 2 == 0 else "Ark", text)
    service.update_memory_index("Ark")
    list(service.send("Ark", "Oye, ¿cuándo fui al concierto de Rosalía?"))
    assert "Elena" in turn_context(model.calls[-1][0])
    list(service.send("Ark", "¿Y con quién fui?"))
    assert "Elena" in turn_context(model.calls[-1][0])


def test_a_question_with_words_enough_of_its_own_asks_anew_even_when_memory_has_nothing_on_it():
    assert follow_up_search("Any tips for a good night's sleep?", "Where was my interview again?", []) == ""
    assert follow_up_search("Combien de temps dure un semi-marathon en moyenne ?", "C'était quel jour ?", []) == ""


@pytest.mark.parametrize("message", ["Et j'avais mis combien de temps ?", "E a que horas tive que acordar?",
                                     "And how long did the whole trip take us?", "그리고 몇 시에 출발했지?"])
def test_a_question_opened_by_and_follows_up_however_many_words_it_has(message):
    assert follow_up_search(message, "When did I go?", []) == f"When did I go? {message}"


@pytest.mark.parametrize("message", ["I went kayaking where exactly?", "En qué año empezó mi curso de cerámica?"])
def test_an_i_or_an_en_is_no_and(message):
    assert follow_up_search(message, "When did I go?", []) == ""
