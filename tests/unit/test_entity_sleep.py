"""Entity memory v2 at night, on a scripted model: the day's talk proposes facts (one grammar-forced
call a day), the next conversation is told them exactly once, the next night applies what was not
rejected, and a night stopped half-way resumes without asking a day twice."""
import json
from datetime import datetime, timedelta, timezone

import constants

from agent.providers.base import ToolCall
from agent.providers.fake import ScriptedChatModel, replies
from agent.tools import run_tool
from managers.entities import APPLIED, OFFERED, PENDING, REJECTED
from persona.service import NexusService
from persona.tool_host import PersonaTools
from tests.conftest import StepClock, quiet_dream

DAY = datetime(2026, 3, 14, 20, 0, tzinfo=timezone.utc)
NIGHT = DAY + timedelta(days=1, hours=6)  # 02:00 on the 16th: the 14th and the 15th are over


def scripted(entity_answers: dict[str, list], asked: list):
    """Episodes for every day; for the entity call, the answer given for the day's date."""
    def script(system, user, schema):
        day = user.splitlines()[0].removeprefix("Date: ")
        if "entities" in schema["properties"]:
            asked.append(day)
            return json.dumps({"entities": entity_answers.get(day, [])})
        if "entry" in schema["properties"]:  # the night's diary entry
            return json.dumps({"entry": "A calm day with Mina."})
        if {"insight", "open"} & set(schema["properties"]):  # the night's dream (tests/unit/test_dream.py)
            return quiet_dream()
        return json.dumps({"sessions": [{"arousal": 0.4}] * user.count("## Session "), "summary": f"A day. {day}"})
    return script


def make(data_dir, answers, asked, reply="Sounds lovely!", **model_kind):
    """`model_kind`: budget_family="remote", native_tools=True for a model that is told proposals."""
    clock = StepClock(DAY)
    model = ScriptedChatModel(replies(reply), json_script=scripted(answers, asked), **model_kind)
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    service.update_settings(user_name="Mina")
    return service, model, clock


def talk(service, clock, when, *texts):
    clock.now = when
    log = service.session("Ark").chat_log
    for i, text in enumerate(texts):
        log.append("USER" if i % 2 == 0 else "AGENT", "Mina" if i % 2 == 0 else "Ark", text)


MOCHI = {"name": "Mochi", "kind": "thing", "facts": ["Mina adopted a shiba puppy named Mochi."]}
ENOSHIMA = {"name": "Enoshima", "kind": "place", "facts": ["Mina walks Mochi on the beach at Enoshima."]}


def tails(model, start=0):
    """The turn's own context message of each reply call since `start` (the prompt's tail)."""
    return [call[0][-2].content for call in model.calls[start:]]


def test_a_proposal_is_told_once_in_the_next_conversation_and_applied_the_next_night(data_dir):
    asked = []
    service, model, clock = make(data_dir, {"2026-03-14": [MOCHI]}, asked, budget_family="remote", native_tools=True)
    talk(service, clock, DAY, "I adopted a shiba puppy! His name is Mochi.", "Congratulations!")
    report = service.sleep_now("Ark", now=NIGHT - timedelta(days=1))  # 02:00 on the 15th
    assert "entity proposals 2026-03-14: Mochi" in report.written and asked == ["2026-03-14"]
    [proposal] = service.entity_proposals("Ark")
    assert proposal.status == PENDING and proposal.facts == ("Mina adopted a shiba puppy named Mochi.",)
    assert proposal.memories == ("[2026-03-14] Mina: I adopted a shiba puppy! His name is Mochi.",)
    assert service.entity_pages("Ark") == []  # nothing written before the persona was told

    clock.now = DAY + timedelta(hours=14)  # 10:00 on the 15th
    list(service.send("Ark", "Good morning! Guess what I did?"))
    first = [t for t in tails(model) if "Notes from your sleep" in t]
    assert len(first) == 1 and "- Mochi (thing): Mina adopted a shiba puppy named Mochi." in first[0]
    assert service.entity_proposals("Ark")[0].status == OFFERED
    calls = len(model.calls)
    list(service.send("Ark", "Anything else new?"))
    assert not any("Notes from your sleep" in t for t in tails(model, calls))  # told once only

    report = service.sleep_now("Ark", now=NIGHT)
    assert "entity Mochi" in report.written
    [page] = service.entity_pages("Ark")
    assert page.name == "Mochi" and page.kind == "thing"
    assert page.body == "- [2026-03-14] Mina adopted a shiba puppy named Mochi."
    assert service.entity_proposals("Ark") == []
    assert [p.status for p in service.session("Ark").entity_proposals.load().proposals] == [APPLIED]
    assert asked == ["2026-03-14", "2026-03-15"]  # the 14th was not asked again; the 15th was new


def test_the_embedded_model_is_not_told_proposals_they_are_applied_the_next_night(data_dir):
    asked = []
    service, model, clock = make(data_dir, {"2026-03-14": [MOCHI]}, asked)
    talk(service, clock, DAY, "I adopted a shiba puppy! His name is Mochi.", "Congratulations!")
    service.sleep_now("Ark", now=NIGHT - timedelta(days=1))
    clock.now = DAY + timedelta(hours=14)
    list(service.send("Ark", "Good morning! Guess what I did?"))
    assert not any("Notes from your sleep" in t for t in tails(model))  # no tool to reject one with
    assert service.entity_proposals("Ark")[0].status == PENDING
    assert "entity Mochi" in service.sleep_now("Ark", now=NIGHT).written
    calls = len(model.calls)
    list(service.send("Ark", "How is Mochi doing?"))  # no tool to read it by: the page comes with its name
    assert "# Your notes on what the message names\nMochi (thing):\n- [2026-03-14] Mina adopted" in tails(model, calls)[0]


def test_a_rejected_proposal_is_never_applied_and_an_unoffered_one_waits(data_dir):
    asked = []
    service, model, clock = make(data_dir, {"2026-03-14": [MOCHI, ENOSHIMA]}, asked, budget_family="remote", native_tools=True)
    talk(service, clock, DAY, "I adopted Mochi and we went to Enoshima beach.", "How fun!")
    service.sleep_now("Ark", now=NIGHT - timedelta(days=1))
    mochi, enoshima = sorted(service.entity_proposals("Ark"), key=lambda p: p.name, reverse=True)
    service.reject_entity_proposal("Ark", enoshima.id)
    service.sleep_now("Ark", now=NIGHT)  # no conversation in between: nothing told, nothing applied
    assert service.entity_pages("Ark") == [] and [p.name for p in service.entity_proposals("Ark")] == ["Mochi"]
    clock.now = DAY + timedelta(days=1, hours=14)  # 10:00 on the 16th
    list(service.send("Ark", "Hi again, any thoughts?"))
    assert not any("Enoshima" in t for t in tails(model))
    service.sleep_now("Ark", now=NIGHT + timedelta(days=1))
    assert [p.name for p in service.entity_pages("Ark")] == ["Mochi"]
    statuses = {p.name: p.status for p in service.session("Ark").entity_proposals.load().proposals}
    assert statuses == {"Mochi": APPLIED, "Enoshima": REJECTED}


def test_a_page_the_persona_wrote_itself_after_the_note_is_not_appended_again(data_dir):
    asked = []
    service, model, clock = make(data_dir, {"2026-03-14": [MOCHI]}, asked, budget_family="remote", native_tools=True)
    talk(service, clock, DAY, "I adopted Mochi!", "Yay!")
    service.sleep_now("Ark", now=NIGHT - timedelta(days=1))
    clock.now = DAY + timedelta(hours=14)
    list(service.send("Ark", "Morning, what's up?"))
    host = PersonaTools(service.session("Ark"), lambda: None, lambda: None, clock)
    assert run_tool(ToolCall("write_entity_memory", {"name": "mochi", "content": "- Mina's puppy, a shiba."}), host).ok
    service.sleep_now("Ark", now=NIGHT)
    assert service.entity_pages("Ark")[0].body == "- Mina's puppy, a shiba."


def test_facts_that_tell_the_users_life_as_the_personas_are_left_out(data_dir):
    told_as_mine = {"name": "Mochi", "kind": "thing", "facts": ["I adopted a shiba puppy named Mochi.",
                                                                 "Mochi is a shiba puppy."]}
    asked = []
    service, model, clock = make(data_dir, {"2026-03-14": [told_as_mine]}, asked)
    talk(service, clock, DAY, "I adopted a shiba puppy named Mochi today!", "Wonderful!")
    service.sleep_now("Ark", now=NIGHT - timedelta(days=1))
    facts = [f for p in service.entity_proposals("Ark") for f in p.facts]
    assert "Mochi is a shiba puppy." in facts and not any(f.startswith("I ") for f in facts)


def test_a_night_stopped_in_the_entity_step_resumes_without_asking_a_day_twice(data_dir):
    asked = []
    answers = {f"2026-03-{14 + d}": [{"name": f"Friend{d}", "kind": "person", "facts": [f"Mina met Friend{d}."]}]
               for d in range(3)}
    service, model, clock = make(data_dir, answers, asked)
    for d in range(3):
        talk(service, clock, DAY + timedelta(days=d), f"I met Friend{d} today.", "Nice!")
    original = model.json_script

    def reply_arrives_after_first_entity_call(system, user, schema):
        answer = original(system, user, schema)
        if "entities" in schema["properties"]:
            service._replying = 1  # a reply needs the model: the night stops at the next check
        return answer
    model.json_script = reply_arrives_after_first_entity_call
    first = service.sleep_now("Ark", now=NIGHT + timedelta(days=1))
    assert first.stopped and asked == ["2026-03-16"]
    state = service.sleep_state("Ark")
    assert {"episodes", "weeks"} <= set(state.steps_done) and "entities" not in state.steps_done
    service._replying = 0
    model.json_script = original
    rest = service.sleep_now("Ark", now=NIGHT + timedelta(days=1))
    assert not rest.stopped and asked == ["2026-03-16", "2026-03-15", "2026-03-14"]
    assert not any(w.startswith("episode ") for w in rest.written)  # the episodes were not redone
    assert sorted(p.name for p in service.entity_proposals("Ark")) == ["Friend0", "Friend1", "Friend2"]
    assert service.sleep_now("Ark", now=NIGHT + timedelta(days=2)).model_calls == 0  # nothing left to ask


def test_a_known_name_the_day_never_said_gets_no_proposal(data_dir):
    # the model is shown the known names; it gave Yui's brother, absent that day, the day's 部長 (bench nights)
    asked = []
    kenta_the_boss = {"name": "Kenta", "kind": "person", "facts": ["Kenta is Mina's department head."]}
    answers = {"2026-03-14": [MOCHI], "2026-03-15": [kenta_the_boss, ENOSHIMA]}
    service, model, clock = make(data_dir, answers, asked)
    talk(service, clock, DAY, "I adopted a shiba puppy! His name is Mochi.", "Congratulations!",
         "My brother Kenta came to see him.", "How nice.")
    talk(service, clock, DAY + timedelta(days=1), "My department head praised my slides. Then a walk at Enoshima.",
         "Well done!")
    service.sleep_now("Ark", now=NIGHT)
    assert sorted(asked) == ["2026-03-14", "2026-03-15"]
    assert sorted((p.day, p.name) for p in service.entity_proposals("Ark")) == [("2026-03-14", "Mochi"),
                                                                                ("2026-03-15", "Enoshima")]
