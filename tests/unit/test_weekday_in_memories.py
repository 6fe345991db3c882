"""Asked by a day of the week gone by, the recalled days are told with their weekday ("[Thursday, 5 March 2026]"):
the 1.5B model did not work the weekday out of the date, and answered "no tengo la información sobre el jueves
pasado" with that Thursday's dinner in front of it (§4 dev-es-taller, session 40). Asked otherwise, the dates
stay as they were, so every other prompt keeps its tokens."""
from datetime import datetime, timezone

import pytest

from agent.memory_lines import grouped_by_date
from agent.providers.fake import ScriptedChatModel, replies
from agent.relative_time import with_weekday
from agent.time_period import names_a_past_weekday
from persona.service import NexusService
from tests.conftest import StepClock, turn_context

FILLER = "Hoy he estado regando las plantas del balcón y ordenando libros viejos de la estantería del salón. " * 3


def memories_when_asked(data_dir, question: str) -> str:
    clock = StepClock(datetime(2026, 3, 5, 20, 0, tzinfo=timezone.utc))  # a Thursday
    model = ScriptedChatModel(replies("¡Qué rico!"))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    list(service.send("Ark", "Esta noche cené ceviche con mi amiga Ana en un restaurante peruano."))
    for _ in range(14):  # the dinner leaves the history window: only recall brings it back
        list(service.send("Ark", FILLER))
    service.wait_for_background_work("Ark")
    clock.now = datetime(2026, 3, 9, 12, 0, tzinfo=timezone.utc)  # the Monday after
    list(service.send("Ark", question))
    return turn_context(model.calls[-1][0])


def test_asked_by_weekday_the_recalled_day_is_told_with_its_weekday(data_dir):
    context = memories_when_asked(data_dir, "¿Y qué cené el jueves pasado?")
    assert "[Thursday, 5 March 2026]\n- User: El 5 de marzo de 2026 cené ceviche" in context


def test_asked_otherwise_the_date_is_as_before(data_dir):
    context = memories_when_asked(data_dir, "¿Y qué cené con Ana el otro día?")
    assert "[5 March 2026]\n- User: El 5 de marzo de 2026 cené ceviche" in context and "Thursday" not in context


@pytest.mark.parametrize("text, names", [
    ("¿Y qué cené el jueves pasado?", True), ("What did we chat about last Tuesday night?", True),
    ("Was war am Dienstagabend?", True), ("木曜日に何を食べたっけ？", True), ("上周三我们聊了什么？", True),
    ("화요일에 뭐 했지?", True), ("Dove sono andata sabato?", True),
    ("Domingo vino a cenar.", False), ("我每周一次去游泳。", False), ("What did I eat the other day?", False),
    # a day still to come, or a plan for one: the recalled lines' days are when it was told, not the day asked
    ("来週の土曜日、私に何の予定があるって言ったっけ？", False), ("Oye, ¿qué tengo que hacer el jueves?", False),
    ("What's on next Friday?", False), ("E cosa devo fare giovedì, te lo ricordi?", False),
])
def test_a_day_of_the_week_gone_by_is_named(text, names):
    assert names_a_past_weekday(text) is names


def test_only_a_spelled_out_day_gets_a_weekday():
    assert with_weekday("5 March 2026") == "Thursday, 5 March 2026"
    assert with_weekday("31 February 2026") == "31 February 2026" and with_weekday("2026-03-05") == "2026-03-05"
    assert grouped_by_date(["- [5 March 2026] Ken: hi", "- [5 March 2026] Ken: again", "a document line"],
                           weekdays=True) == "[Thursday, 5 March 2026]\n- Ken: hi\n- Ken: again\na document line"
