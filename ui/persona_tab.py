"""The current persona's display name, languages and days of episodes shown; create, rename and delete personas (delete asks for
confirmation and goes to trash)."""
from __future__ import annotations

import gradio as gr

from persona.public import PersonaError
from persona.service import NexusService


def build_persona_tab(service: NexusService, persona: gr.Dropdown) -> None:
    status = gr.Markdown(elem_id="persona-status")

    def values_of(name) -> tuple[str, str, int | None]:
        settings = service.persona_settings(name) if name else None
        return ((settings.display_name, settings.language_hint, settings.episode_memory_lookback_days) if settings
                else ("", "", None))

    shown_name, shown_languages, shown_days = values_of(persona.value)
    with gr.Group():
        display_name = gr.Textbox(shown_name, label="Display name",
                                  info="Other names in brackets or after '/', as in Ark (アーク)",
                                  elem_id="persona-display-name")
        languages = gr.Textbox(shown_languages, label="Languages",
                               info="Codes, the usual one first, as in ja/en: a message too short to tell "
                                    "(\"ok\", an emoji) is answered in the first", elem_id="persona-languages")
        lookback = gr.Number(shown_days, label="Days of episodes before the conversation", precision=0,
                             info="The persona's episodes of these days before the oldest message it sees are "
                                  "shown with the conversation (0: none)", elem_id="persona-lookback-days")
        save = gr.Button("Save", elem_id="save-persona-settings-btn")
    with gr.Group():
        new_name = gr.Textbox(label="New persona name", elem_id="new-persona-name")
        template = gr.Dropdown([(template_label(t), t) for t in service.personas.templates()], value="_template",
                               label="Start from", elem_id="new-persona-template")
        create = gr.Button("Create persona", elem_id="create-persona-btn")
    with gr.Group():
        rename_to = gr.Textbox(label="Rename the current persona to", elem_id="rename-to")
        rename = gr.Button("Rename", elem_id="rename-btn")
    with gr.Group():
        delete = gr.Button("Delete the current persona…", variant="stop", elem_id="delete-persona-btn")
        confirm = gr.Button("Yes, move it to trash", variant="stop", visible=False, elem_id="confirm-delete-btn")
        cancel = gr.Button("Cancel", visible=False)

    def refreshed(selected: str, message: str):
        return gr.update(choices=service.persona_names(), value=selected), message

    def on_create(name, template_name):
        try:
            created = service.create_persona(name, template_name)
        except PersonaError as exc:
            return gr.update(), f"⚠️ {exc}", gr.update()
        return *refreshed(created, f"✅ Created {created}."), ""

    def on_rename(current, new):
        try:
            renamed = service.rename_persona(current, new)
        except PersonaError as exc:
            return gr.update(), f"⚠️ {exc}"
        return refreshed(renamed, f"✅ Renamed to {renamed}.")

    def on_confirm(current):
        try:
            where = service.delete_persona(current)
        except PersonaError as exc:
            return gr.update(), f"⚠️ {exc}", gr.update(visible=False), gr.update(visible=False)
        names = service.persona_names()
        if not names:
            service.personas.ensure_sample()
            names = service.persona_names()
        hidden = gr.update(visible=False)
        return (gr.update(choices=names, value=names[0]),
                f"🗑️ {current} moved to trash ({where.name}); it can be restored from there.", hidden, hidden)

    def on_save(name, display, hint, days):
        try:
            saved = service.update_persona_settings(name, display, hint, days)
        except PersonaError as exc:
            return gr.update(), gr.update(), gr.update(), f"⚠️ {exc}"
        return (saved.display_name, saved.language_hint, saved.episode_memory_lookback_days,
                f"✅ Saved {name}'s display name, languages and days of episodes.")

    persona.change(values_of, [persona], [display_name, languages, lookback], api_name=False)
    save.click(on_save, [persona, display_name, languages, lookback], [display_name, languages, lookback, status],
               api_name=False)
    create.click(on_create, [new_name, template], [persona, status, new_name])
    rename.click(on_rename, [persona, rename_to], [persona, status])
    delete.click(lambda: (gr.update(visible=True), gr.update(visible=True)), None, [confirm, cancel])
    cancel.click(lambda: (gr.update(visible=False), gr.update(visible=False)), None, [confirm, cancel])
    confirm.click(on_confirm, [persona], [persona, status, confirm, cancel])


def template_label(folder: str) -> str:
    """A bundled persona folder as a new user reads it: the blank template, or a copy of a sample persona."""
    return "A blank persona" if folder == "_template" else f"A copy of the sample persona {folder}"
