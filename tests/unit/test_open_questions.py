"""Open questions (seed 004 §8) and Phase B: a question is added once, resolved only by the persona's
tool (or the user, or the reflection), and a resolved one is filed as FACT (its entity's page), INSIGHT
(the dream diary) or SKIP; FACT and INSIGHT write a discovery episode (Phase G), once even when
the filing is redone after a crash."""
from datetime import datetime, timedelta, timezone

import constants
from agent.providers.base import ToolCall
from agent.providers.fake import ScriptedChatModel, replies
from agent.tools import run_tool
from managers.open_questions import BY_USER, FACT, INSIGHT, SKIP
from persona.questions_job import Filing, file_question, rule_kind
from persona.service import NexusService
from persona.tool_host import PersonaTools
from tests.conftest import StepClock

NOW = datetime(2026, 4, 20, 3, 0, tzinfo=timezone.utc)


def make(data_dir):
    clock = StepClock(NOW)
    model = ScriptedChatModel(replies("ok"), native_tools=True, budget_family="remote")
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    return service, service.session("Ark"), clock


def test_a_question_is_added_once_the_list_is_capped_and_a_deleted_one_is_not_asked_again(data_dir):
    service, session, _ = make(data_dir)
    store = session.questions()
    added = store.add([("What does Mina's cat like to eat?", "she mentioned a fussy cat", 0.8),
                       ("what does mina's cat like to eat", "", 0.3)], NOW, "2026-04-19")
    assert [q.text for q in added] == ["What does Mina's cat like to eat?"]
    store.add([(f"Question {i}", "", i / 100) for i in range(constants.OPEN_QUESTIONS_KEPT + 5)], NOW)
    unresolved = service.open_questions("Ark")
    assert len(unresolved) == constants.OPEN_QUESTIONS_KEPT and unresolved[0].priority == 0.8
    assert "Question 0" not in [q.text for q in unresolved]  # the lowest priorities left
    top = service.top_open_question("Ark")
    service.delete_open_question("Ark", top.id)
    assert service.top_open_question("Ark").id != top.id
    assert store.add([("What does Mina's cat like to eat?", "", 0.9)], NOW) == []  # deleted: not asked again


def test_the_persona_resolves_a_question_by_tool_and_the_user_in_the_dashboard(data_dir):
    service, session, clock = make(data_dir)
    session.questions().add([("What does Mina's cat like to eat?", "", 0.8), ("Where did Mina grow up?", "", 0.5)], NOW)
    host = PersonaTools(session, lambda: None, lambda: None, clock)
    done = run_tool(ToolCall("resolve_open_question", {"question": "cat like to eat",
                                                       "answer": "Mina's cat loves chicken-flavoured kibble."}), host)
    assert done.ok and "Resolved" in done.result
    [resolved] = service.open_questions("Ark", resolved=True)
    assert resolved.resolved_by == "persona" and resolved.resolution == "Mina's cat loves chicken-flavoured kibble."
    assert "No open question" in run_tool(ToolCall("resolve_open_question", {"question": "cat like to eat",
                                                                             "answer": "again"}), host).result
    other = service.top_open_question("Ark")
    assert service.resolve_open_question("Ark", other.id).resolved_by == BY_USER
    assert service.open_questions("Ark") == []


def test_resolved_questions_are_filed_as_fact_insight_or_skip_with_discovery_episodes(data_dir):
    service, session, _ = make(data_dir)
    session.entities.append("Tama", "- Mina's cat.", NOW, "thing")
    store = session.questions()
    store.add([("What does Tama like to eat?", "", 0.8), ("Why does Mina write at night?", "", 0.6),
               ("What was that noise?", "", 0.2)], NOW)
    by_text = {q.text: q for q in store.all()}
    store.resolve(by_text["What does Tama like to eat?"].id, "Tama loves chicken-flavoured kibble.", "persona", NOW)
    store.resolve(by_text["Why does Mina write at night?"].id, "Mina finds the quiet hours make her braver.", "persona", NOW)
    store.resolve(by_text["What was that noise?"].id, "", "user", NOW)
    to_file = store.to_file()
    assert [rule_kind(q, ["Tama"]).kind for q in to_file] == [FACT, INSIGHT, SKIP]
    stores = dict(questions=store, entities=session.entities, diary=session.dream_diary(), episodes=service.session("Ark").episodes())
    written = [file_question(q, rule_kind(q, ["Tama"]), night="2026-04-20", now=NOW, **stores) for q in to_file]
    assert written[0].startswith("question filed (FACT → Tama)")
    assert session.entities.find("Tama").body.endswith("- [2026-04-20] Tama loves chicken-flavoured kibble.")
    [entry] = service.dream_diary("Ark")
    assert entry.trigger_topic == "Why does Mina write at night?" and entry.insight.startswith("Mina finds")
    episodes = service.episodes("Ark")
    assert [e.type for e in episodes] == ["discovery", "discovery"]
    assert {e.arousal for e in episodes} == {constants.DISCOVERY_AROUSAL}
    assert any(e.summary == "【発見】A new discovery about \u201cWhat does Tama like to eat?\u201d: Tama loves "
               "chicken-flavoured kibble." for e in episodes)
    assert [q.filed for q in store.all()] == [FACT, INSIGHT, SKIP] and store.to_file() == []


def test_a_filing_redone_after_a_crash_writes_nothing_twice(data_dir):
    service, session, _ = make(data_dir)
    session.entities.append("Tama", "- Mina's cat.", NOW, "thing")
    store = session.questions()
    store.add([("What does Tama like?", "", 0.8), ("Why is Mina shy?", "", 0.5)], NOW)
    for q in store.all():
        store.resolve(q.id, f"Answer to {q.text}", "persona", NOW)
    stores = dict(questions=store, entities=session.entities, diary=session.dream_diary(), episodes=session.episodes())
    fact, insight = store.to_file()

    class Crash(Exception):
        pass

    original = store.mark_filed
    store.mark_filed = lambda *a: (_ for _ in ()).throw(Crash())  # everything written, the mark not
    for q, filing in ((fact, Filing(FACT, "Tama")), (insight, Filing(INSIGHT))):
        try:
            file_question(q, filing, night="2026-04-20", now=NOW, **stores)
        except Crash:
            pass
    store.mark_filed = original
    later = NOW + timedelta(days=1)
    for q, filing in zip(store.to_file(), (Filing(FACT, "Tama"), Filing(INSIGHT))):
        file_question(q, filing, night="2026-04-21", now=later, **stores)
    assert session.entities.find("Tama").body.count("Answer to What does Tama like?") == 1
    assert len(service.dream_diary("Ark")) == 1
    assert len([e for e in service.episodes("Ark") if e.type == "discovery"]) == 2
