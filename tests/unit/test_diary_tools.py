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


def edit_service(data_dir, clock, tool_call, edit):
    """A remote-like model that calls `tool_call`, answers the second step with `edit`, then replies."""
    steps = iter([[tool_call], "Done."])
    asked = []

    def second_step(system, user, schema):  # other asks (the planner, the emotion) get it too, and ignore it
        if "action" in schema["properties"]:
            asked.append((system, user, schema))
        return edit
    model = ScriptedChatModel(lambda m, t: next(steps), budget_family="remote", native_tools=True,
                              json_script=second_step)
    return NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model), model, asked


def test_an_intent_becomes_an_appended_entry_of_the_users_day(data_dir, clock):
    intent = "Remember that Mina's cat is called Sora; she told me today and I was happy."
    service, model, asked = edit_service(
        data_dir, clock, ToolCall("plan_diary_edit", {"diary": "main", "intent": intent}, "c1"),
        '```json\n{"action": "append", "old": "", "new": "## heading\\nMina told me her cat is Sora. I smiled."}\n```')
    diaries_of(service).add_entry(MAIN_DIARY, date(2026, 3, 1), "An older day.")
    events = list(service.send("Ark", "My cat is Sora!"))
    [(system, user, schema)] = asked
    assert intent in system and "An older day." in user and schema["required"] == ["action", "old", "new"]
    assert [e.text for e in events if e.kind == "tool"] == ["🛠️ wrote in the diary"]
    text = diaries_of(service).read(MAIN_DIARY)
    today = clock.now.astimezone().date().isoformat()
    assert text.index("An older day.") < text.index(f"## {today}\nMina told me her cat is Sora. I smiled.")
    assert "## heading" not in text  # the app's dated heading only
    assert "Sora. I smiled" in model.calls[1][0][-1].content  # the persona is told what was written
    [backup] = (data_dir / "characters/Ark/backups/memory").glob("memory_main.txt.*.bak")
    assert "Sora" not in backup.read_text(encoding="utf-8")


def test_a_replacement_of_a_passage_that_is_not_in_the_diary_is_refused_and_nothing_is_written(data_dir, clock):
    service, model, asked = edit_service(
        data_dir, clock, ToolCall("plan_diary_edit", {"diary": "secret", "intent": "Correct the cat's name."}, "c1"),
        '{"action": "replace_passage", "old": "Her cat is Kumo.", "new": "Her cat is Sora."}')
    diaries_of(service).add_entry(SECRET_DIARY, date(2026, 3, 1), "Her cat is Cumo, I think.")
    before = diaries_of(service).read(SECRET_DIARY)
    events = list(service.send("Ark", "No, Sora!"))
    [tool] = [e.text for e in events if e.kind == "tool"]
    assert "failed" in tool and "not in the diary" in tool
    assert diaries_of(service).read(SECRET_DIARY) == before
    assert not (data_dir / "characters/Ark/backups/memory").exists()
    assert "not in the diary" in model.calls[1][0][-1].content


def test_a_passage_that_is_there_is_replaced_and_an_unreadable_answer_changes_nothing(data_dir, clock):
    service, model, asked = edit_service(
        data_dir, clock, ToolCall("plan_diary_edit", {"diary": "secret", "intent": "Fix the name."}, "c1"),
        '{"action": "replace_passage", "old": "Her cat is Cumo", "new": "Her cat is Sora"}')
    diaries_of(service).add_entry(SECRET_DIARY, date(2026, 3, 1), "Her cat is Cumo, I think.")
    list(service.send("Ark", "It's Sora."))
    assert "Her cat is Sora, I think." in diaries_of(service).read(SECRET_DIARY)
    from persona.tool_host import PersonaTools
    for answer in ('{"action": "delete", "old": "x", "new": ""}', "I'd rather not.", '{"action": "append", "new": " "}'):
        model.json_script = lambda s, u, sc, answer=answer: answer
        tools = PersonaTools(service.session("Ark"), None, None, clock, model=lambda: model)
        outcome = run_tool(ToolCall("plan_diary_edit", {"diary": "secret", "intent": "Anything."}), tools)
        assert not outcome.ok and "nothing was changed" in outcome.result
    assert not run_tool(ToolCall("plan_diary_edit", {"diary": "../x", "intent": "Anything."}), tools).ok
    assert "Her cat is Sora, I think." in diaries_of(service).read(SECRET_DIARY)


def test_showing_the_diary_tab_again_replaces_only_an_unedited_box_whose_file_changed(data_dir, clock):
    import gradio as gr

    from ui.diary_tab import unedited_refreshed

    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: ScriptedChatModel(lambda m, t: "Hi"))
    diaries_of(service).add_entry(MAIN_DIARY, date(2026, 3, 14), "Rain.")
    main = service.read_diary("Ark", MAIN_DIARY)
    # Nothing changed on disk: nothing is sent, so a late answer cannot undo what the user has typed since.
    assert [u == gr.update() for u in unedited_refreshed(service, "Ark", main, "", main, "")] == [True] * 4
    diaries_of(service).add_entry(MAIN_DIARY, date(2026, 3, 15), "Sun.")
    fresh = service.read_diary("Ark", MAIN_DIARY)
    assert unedited_refreshed(service, "Ark", main, "", main, "")[0] == fresh  # the night's entry shown
    assert unedited_refreshed(service, "Ark", main + "my edit", "", main, "")[0] == gr.update()  # an edit kept
