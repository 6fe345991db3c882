"""Entity memory v2 in a turn: the tools on a model that calls them, the index in the cached prefix,
and on the embedded model the page of an entity the message names beside the recalled memories."""
import json
import math

import pytest

import constants
from agent.entities import extraction_schema, names_in, parse_extraction
from agent.providers.base import ToolCall
from agent.providers.fake import ScriptedChatModel, replies
from agent.tools import ALL_TOOLS, ENTITY_TOOLS, run_tool
from persona.service import NexusService
from persona.tool_host import PersonaTools


def make(data_dir, clock, model):
    return NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)


def tools_of(service, clock, persona="Ark"):
    session = service.session(persona)
    return PersonaTools(session, lambda: None, lambda: None, clock), session


def test_a_message_names_an_entity_by_its_exact_name_whole_words_for_latin():
    names = ["Ken", "モチ", "モチ太郎", "Café Lumière", "東京"]
    assert names_in("I saw ken yesterday", names) == ["Ken"]
    assert names_in("Kenta came over", names) == []  # not inside a longer Latin word
    assert names_in("モチが走った", names) == ["モチ"]
    assert names_in("モチ太郎と遊んだ", names) == ["モチ太郎"]  # the longer name, not the one inside it
    assert names_in("coffee at CAFÉ LUMIÈRE!", names) == ["Café Lumière"]
    assert names_in("東京タワーに行った", names) == ["東京"]  # CJK needs no word boundary
    assert names_in("nothing here", names) == []


def test_the_persona_writes_reads_lists_and_searches_its_pages_by_tool(data_dir, clock):
    service = make(data_dir, clock, ScriptedChatModel(replies("ok"), budget_family="remote", native_tools=True))
    host, session = tools_of(service, clock)
    wrote = run_tool(ToolCall("write_entity_memory", {"name": "Mochi", "content": "- Mina's shiba puppy.",
                                                       "kind": "thing"}), host)
    assert wrote.ok and "1 new line" in wrote.result and "entity page Mochi (append)" in wrote.announcement
    again = run_tool(ToolCall("write_entity_memory", {"name": "mochi", "content": "- Mina's shiba puppy."}), host)
    assert again.ok and "nothing new" in again.result
    read = run_tool(ToolCall("read_entity_memory", {"name": "MOCHI"}), host)
    assert read.ok and read.result == "# Mochi (thing)\n- Mina's shiba puppy."
    assert "no entity page for 'Kenta'" in run_tool(ToolCall("read_entity_memory", {"name": "Kenta"}), host).result
    listed = run_tool(ToolCall("list_entity_memories", {}), host)
    assert listed.ok and listed.result == "- Mochi (thing)"
    assert "no place pages" in run_tool(ToolCall("list_entity_memories", {"kind": "place"}), host).result
    found = run_tool(ToolCall("search_entity_memory", {"query": "shiba dog"}), host)
    assert found.ok and found.result.startswith("- Mochi: ")
    tidy = run_tool(ToolCall("write_entity_memory", {"name": "Mochi", "content": "- A shiba puppy; Mina's.",
                                                      "mode": "consolidate"}), host)
    assert tidy.ok and "backed up" in tidy.result
    assert session.entities.find("Mochi").body == "- A shiba puppy; Mina's."
    backups = list((data_dir / "characters/Ark/backups/memory/entities").glob("Mochi.md.*.bak"))
    assert any("- Mina's shiba puppy." in b.read_text(encoding="utf-8") for b in backups)


def test_bad_entity_tool_calls_fail_with_a_reason_and_write_nothing(data_dir, clock):
    service = make(data_dir, clock, ScriptedChatModel(replies("ok")))
    host, session = tools_of(service, clock)
    for arguments in ({"name": "Mochi", "content": "x", "mode": "delete"}, {"name": "", "content": "x"},
                      {"name": "Mochi"}, {"name": "Mochi", "content": "x", "kind": "animal"}):
        assert not run_tool(ToolCall("write_entity_memory", arguments), host).ok
    traversal = run_tool(ToolCall("write_entity_memory", {"name": "../../secrets", "content": "- x"}), host)
    assert traversal.ok  # a name is only a name: its file stays inside memory/entities
    assert [p.parent for p in (data_dir / "characters/Ark/memory/entities").rglob("*.md")] == [session.entities.dir]
    assert not run_tool(ToolCall("write_entity_memory", {"name": "a\nb", "content": "- x"}), host).ok
    assert not run_tool(ToolCall("read_entity_memory", {}), host).ok
    assert session.entities.names() == ["../../secrets"]


def test_a_model_with_tools_is_offered_the_entity_tools_and_reads_a_page(data_dir, clock):
    steps = iter([[ToolCall("read_entity_memory", {"name": "Mochi"}, "c1")], "Mochi is your shiba!"])
    model = ScriptedChatModel(lambda m, t: next(steps), budget_family="remote", native_tools=True)
    service = make(data_dir, clock, model)
    service.session("Ark").entities.append("Mochi", "- Mina's shiba puppy.", clock())
    list(service.send("Ark", "What do you remember about Mochi?"))
    assert {t.name for t in model.calls[0][1]} >= {t.name for t in ENTITY_TOOLS}
    system = model.calls[0][0][0].content
    assert "# People, places and things you know" in system and "Mochi" in system
    assert "shiba" not in system and "shiba" not in model.calls[0][0][-2].content  # the page only by tool
    assert model.calls[1][0][-1].role == "tool" and "shiba puppy" in model.calls[1][0][-1].content


def test_on_the_embedded_model_the_named_entitys_page_joins_the_tail_within_its_budget(data_dir, clock):
    model = ScriptedChatModel(replies("Mochi loves the beach!"))
    service = make(data_dir, clock, model)
    entities = service.session("Ark").entities
    entities.append("Mochi", "- Mina's shiba puppy.\n- Loves the beach at Enoshima.", clock(), "thing")
    entities.append("Kenta", "- Mina's brother, a chef.", clock(), "person")
    entities.append("モチ太郎", "- " + "とても長いメモ。" * 400, clock())
    list(service.send("Ark", "Should I take mochi to the sea?"))
    messages = model.calls[-1][0]
    prefix, tail = messages[0].content, messages[-2].content
    assert "Kenta" in prefix and "Mochi" in prefix and "chef" not in prefix  # the index: names only
    assert "# Your notes on what the message names\nMochi (thing):\n- Mina's shiba puppy." in tail
    assert "chef" not in tail  # a page the message does not name stays out
    model.script = replies("モチ太郎は元気だよ！")
    asked = len(model.calls)
    list(service.send("Ark", "モチ太郎はどう？"))
    tail = model.calls[asked][0][-2].content
    page = tail.split("# Your notes on what the message names\n")[1].split("\n\n")[0]
    assert page.startswith("モチ太郎:\n- とても長いメモ。") and page.endswith("…")  # a long line cut to its share
    assert model.count_tokens("# Your notes on what the message names\n" + page) \
        <= constants.PROMPT_BUDGETS["local"]["entity_page"]


def test_the_index_keeps_to_its_budget_with_hundreds_of_entities(data_dir, clock):
    model = ScriptedChatModel(replies("ok"))
    service = make(data_dir, clock, model)
    entities = service.session("Ark").entities
    for number in range(500):
        entities.append(f"Entity number {number:03d}", "- a fact.", clock())
    prompt = service.session("Ark").warm_prompt(model, "Mina")
    assert 0 < prompt.section_tokens["entity_index"] <= constants.PROMPT_BUDGETS["local"]["entity_index"]
    system = prompt.messages[0].content
    assert "Entity number 499" in system and "Entity number 000" not in system  # the pages written last


def test_the_extraction_answer_is_checked():
    answer = json.dumps({"entities": [
        {"name": " Mochi ", "kind": "thing", "facts": ["Mina adopted Mochi.", "mina adopted mochi.", "x" * 500]},
        {"name": "Ark", "kind": "person", "facts": ["Ark is the persona."]},
        {"name": "", "kind": "place", "facts": ["nowhere"]},
        {"name": "Enoshima", "kind": "volcano", "facts": ["Mina goes there in August."]},
        {"name": "Kenta", "kind": "person", "facts": []}]})
    proposed = parse_extraction(answer, "Ark")
    assert [(p.name, p.kind) for p in proposed] == [("Mochi", "thing"), ("Enoshima", "")]
    assert proposed[0].facts[0] == "Mina adopted Mochi." and len(proposed[0].facts) == 2
    assert len(proposed[0].facts[1]) <= constants.ENTITY_FACT_MAX_CHARS + 1
    assert parse_extraction("not json", "Ark") == [] and parse_extraction('{"entities": 3}', "Ark") == []
    schema = extraction_schema()["properties"]["entities"]
    assert schema["maxItems"] == constants.ENTITY_PROPOSALS_PER_DAY


def test_every_tool_has_a_host_method():
    assert all(callable(getattr(PersonaTools, tool.name, None)) for tool in ALL_TOOLS)
