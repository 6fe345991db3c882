"""The whole UI, assembled in one place from one module per tab."""
from __future__ import annotations

from dataclasses import asdict

import gradio as gr

import constants

from persona.service import NexusService
from ui.chat_tab import ENTER_SENDS_JS, NOTIFICATIONS_JS, build_chat_tab
from ui.chat_view import conversation_view
from ui.entities_tab import build_entities_tab, entities_values
from ui.dashboard_tab import build_dashboard_tab, dashboard_values
from ui.diary_tab import build_diary_tab, diary_values, unedited_refreshed
from ui.episodes_tab import build_episodes_tab, episodes_values
from ui.goals_tab import build_goals_tab, goals_values
from ui.knowledge_tab import build_knowledge_tab
from ui.local_servers import build_first_run_note
from ui.memory_tab import build_memory_tab, memory_values, unedited_memory_refreshed
from ui.persona_tab import build_persona_tab
from ui.settings_tab import build_settings_tab

THEME = gr.themes.Soft()  # built-in themes use bundled fonts: nothing is fetched


def build_app(service: NexusService) -> gr.Blocks:
    with gr.Blocks(title="Nexus Ark") as demo:
        with gr.Row():
            persona = gr.Dropdown(service.persona_names(), value=service.current_persona(), label="Persona",
                                  elem_id="persona-select", scale=2)
            status = gr.Markdown(elem_id="model-status")
        notices = gr.Markdown(elem_id="notices")
        note = build_first_run_note(service)
        with gr.Tab("Chat"):
            chat = build_chat_tab(service, persona)
        with gr.Tab("Memory") as memory_page:
            memory = build_memory_tab(service, persona)
        # The persona keeps notes in core memory as it talks: shown afresh after each reply and when the tab is.
        refresh_memory = (lambda name, *values: unedited_memory_refreshed(service, name, *values),
                          [persona, *memory.outputs()], memory.outputs())
        chat.sent.then(*refresh_memory, api_name=False)
        memory_page.select(*refresh_memory, api_name=False)
        with gr.Tab("Episodes"):
            episodes = build_episodes_tab(service, persona)
        with gr.Tab("Entities") as entities_page:
            entities = build_entities_tab(service, persona)
        entities_page.select(lambda name: entities_values(service, name), [persona], entities.outputs(), api_name=False)
        with gr.Tab("Diary") as diary_page:
            diary = build_diary_tab(service, persona)
        with gr.Tab("Goals") as goals_page:
            goals = build_goals_tab(service, persona)
        goals_page.select(lambda name: goals_values(service, name), [persona], goals.outputs(), api_name=False)
        with gr.Tab("Inner life / 内省") as dashboard_page:
            dashboard = build_dashboard_tab(service, persona)
        dashboard_page.select(lambda name: dashboard_values(service, name), [persona], dashboard.outputs(),
                              api_name=False)
        with gr.Tab("Personas"):
            build_persona_tab(service, persona)
        with gr.Tab("Knowledge"):
            build_knowledge_tab(service, persona)
        with gr.Tab("Settings") as settings_page:
            settings = build_settings_tab(service)
        # The name saved from the chat's offer ("I'm Ken") shows in Settings: a later "Save settings"
        # must not write the old one back.
        settings_page.select(lambda: service.settings.user_name, [], settings.user_name, api_name=False)
        demo.load(lambda: service.settings.user_name, [], settings.user_name, api_name=False)
        # A switch from the first-run note shows in Settings too.
        note.picker.use.click(lambda: settings.provider_values(service), [], settings.provider_fields)

        def on_persona(name):
            if not name:
                return [gr.update(), []] + [gr.update()] * (len(memory.outputs()) + len(episodes.outputs())
                                                             + len(diary.outputs()))
            service.select_persona(name)
            messages, ids = conversation_view(service.conversation(name))
            return ([messages, ids] + memory_values(service, name) + episodes_values(service, name)
                    + diary_values(service, name))

        outputs = [chat.chatbot, chat.ids] + memory.outputs() + episodes.outputs() + diary.outputs()
        persona.change(on_persona, [persona], outputs)
        # The night may have written an entry since the page was opened: shown afresh when the tab is.
        diary_page.select(lambda name, *values: unedited_refreshed(service, name, *values), [persona, *diary.outputs()],
                          diary.outputs(), api_name=False)
        demo.load(on_persona, [persona], outputs)
        persona.change(lambda name: dashboard_values(service, name), [persona], dashboard.outputs(), api_name=False)
        demo.load(lambda name: dashboard_values(service, name), [persona], dashboard.outputs(), api_name=False)

        # The notice of a message the persona wrote first: the browser shows it (NOTIFICATIONS_JS) when it changes.
        first_notice = gr.JSON(visible="hidden", elem_id="first-notice")

        def on_new_messages(name, shown_ids):
            """A message the persona wrote first (or any written while this page was not looking)."""
            if not name or service.is_replying():
                return gr.update(), gr.update(), gr.update()
            messages, ids = conversation_view(service.conversation(name))
            if ids == shown_ids:
                return gr.update(), gr.update(), gr.update()
            notice = service.first_message_notice(name, shown_ids)
            return messages, ids, asdict(notice) if notice else gr.update()

        new_messages = ([persona, chat.ids], [chat.chatbot, chat.ids, first_notice])
        gr.Timer(constants.UI_INNER_REFRESH_S).tick(on_new_messages, *new_messages, api_name=False)
        # Clicked by NOTIFICATIONS_JS while the page is hidden (Gradio's timers wait for it to be shown).
        check = gr.Button(visible="hidden", elem_id="check-new-messages")
        check.click(on_new_messages, *new_messages, show_progress="hidden", api_name=False)
        first_notice.change(None, [first_notice], None, js="(notice) => { window.nexusNotify?.(notice); }",
                            api_name=False)

        servers_seen = gr.State(-1)  # the look-up this page shows (LocalServerScan.version)
        pickers = [note.picker, settings.picker]

        def on_tick(name, seen):
            text = f"**Model:** {service.model_status.text()}"
            if service.index_status.get(name):
                text += f" · **Memory:** {service.index_status[name]}"
            found = service.pop_notices()
            version = service.local_servers.version
            lists = ([u for p in pickers for u in p.updates(service)] if version != seen
                     else [gr.update()] * (3 * len(pickers)))
            return [text, ("\n\n".join(f"⚠️ {n}" for n in found) if found else gr.update()), version, *lists]

        tick_outputs = [status, notices, servers_seen] + [o for p in pickers for o in p.outputs]
        gr.Timer(1.0).tick(on_tick, [persona, servers_seen], tick_outputs, api_name="status")
        demo.load(on_tick, [persona, servers_seen], tick_outputs, api_name=False)
        demo.load(lambda: gr.update(visible=service.shows_first_run_note()), [], [note.box], api_name=False)
        demo.load(None, js=ENTER_SENDS_JS, api_name=False)  # browser-side only: Enter in the chat input
        demo.load(None, js=NOTIFICATIONS_JS, api_name=False)
    return demo
