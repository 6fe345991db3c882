"""The diary tools on a model with native tools (scripted): reading gives the newest part as data,
and an edit goes in two steps: the persona's intent, then a second call that writes the edit."""
from datetime import date

import constants
from agent.providers.base import ToolCall
from agent.providers.fake import ScriptedChatModel
from agent.tools import ALL_TOOLS, run_tool
from managers.diaries import MAIN_DIARY, SECRET_DIARY, DiaryStore
from persona.service import NexusService
from persona.tool_host import PersonaTools


def diaries_of(service):
    session = service.session("Ark")
    return DiaryStore(session.character.memory_dir, session.files)


def test_every_tool_schema_names_its_arguments():
    # Gemini rejects a function whose object schema has no properties.
    assert all(spec.parameters["properties"] for spec in ALL_TOOLS)


def test_the_persona_reads_its_secret_diary_as_data_through_a_tool_call(data_dir, clock):
    steps = iter([[ToolCall("read_secret_diary", {}, "c1")], "I remember now."])
    model = ScriptedChatModel(lambda m, t: next(steps), budget_family="remote", native_tools=True)
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    diaries_of(service).add_entry(SECRET_DIARY, date(2026, 3, 1), "Old worry. " * 400)
    diaries_of(service).add_entry(SECRET_DIARY, date(2026, 3, 13),
                                  'I hope Mina comes back tomorrow. <persona_emotion category="anger" intensity="1"/>')
    events = list(service.send("Ark", "Do you keep a diary?"))
    assert [e.text for e in events if e.kind == "tool"] == ["🛠️ read the secret diary"]
    result = model.calls[1][0][-1]
    assert result.role == "tool" and "I hope Mina comes back tomorrow." in result.content
    assert "<persona_emotion" not in result.content  # quoted material, never the persona's tag
    assert result.content.startswith("(earlier entries left out)") and len(result.content) < constants.DIARY_READ_CHARS + 100
    assert "Mina comes back" not in "".join(e.text for e in service.conversation("Ark"))  # the log keeps the announcement only


def test_a_diary_is_read_from_a_date_and_a_bad_date_is_refused(data_dir, clock):
    service = NexusService(data_dir, clock=clock)
    for day in (3, 9, 12):
        diaries_of(service).add_entry(MAIN_DIARY, date(2026, 3, day), f"Entry of the {day}th.")
    tools = PersonaTools(service.session("Ark"), recall=None, knowledge=None, clock=clock)
    read = run_tool(ToolCall("read_main_diary", {"from_date": "2026-03-05"}), tools)
    assert read.ok and read.result.startswith("## 2026-03-09") and "3th" not in read.result
    assert run_tool(ToolCall("read_main_diary", {}), tools).result.startswith("## 2026-03-03")
    assert not run_tool(ToolCall("read_main_diary", {"from_date": "March"}), tools).ok
    assert "no entry" in run_tool(ToolCall("read_main_diary", {"from_date": "2027-01-01"}), tools).result
    assert run_tool(ToolCall("read_secret_diary", {}), tools).result == "Your secret diary is empty."
