"""Entity memory: the persona's pages about people, places and things (read, write, delete), and the
night's proposals for them (seed 004 §4), which the user may dismiss before they are applied."""
from __future__ import annotations

from dataclasses import dataclass

import gradio as gr

from persona.public import PersonaError
from persona.service import NexusService

COLUMNS = ["Name", "Kind", "Page"]
PROPOSAL_COLUMNS = ["Proposal", "Day", "Entity", "Facts", "Status"]
PREVIEW_CHARS = 160
KINDS = ["", "person", "place", "thing"]


@dataclass
class EntitiesTab:
    table: gr.Dataframe
    choice: gr.Dropdown
    proposals: gr.Dataframe
    proposal_choice: gr.Dropdown

    def outputs(self) -> list:
        return [self.table, self.choice, self.proposals, self.proposal_choice]


def _preview(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= PREVIEW_CHARS else text[:PREVIEW_CHARS] + "…"


def entities_values(service: NexusService, name: str) -> list:
    if not name:
        return [[], gr.update(choices=[], value=None), [], gr.update(choices=[], value=None)]
    pages = service.entity_pages(name)
    proposals = service.entity_proposals(name)
    return [[[p.name, p.kind, _preview(p.body)] for p in pages], gr.update(choices=[p.name for p in pages], value=None),
            [[p.id, p.day, p.name, " / ".join(p.facts), p.status] for p in proposals],
            gr.update(choices=[p.id for p in proposals], value=None)]


def build_entities_tab(service: NexusService, persona: gr.Dropdown) -> EntitiesTab:
    gr.Markdown("The persona keeps a page about each person, place and thing that matters; only their names go "
                "into its prompt, and a page is read when it is needed. Sleep-time work proposes new facts, "
                "told to the persona once and added the next night unless you dismiss them below.")
    table = gr.Dataframe(headers=COLUMNS, interactive=False, wrap=True, elem_id="entities-table")
    with gr.Group():
        choice = gr.Dropdown([], label="Page to edit", elem_id="entity-choice")
        with gr.Row():
            page_name = gr.Textbox(label="Name (a new name makes a new page)", elem_id="entity-name")
            kind = gr.Dropdown(KINDS, value="", label="Kind (optional)", elem_id="entity-kind")
        body = gr.Textbox(label="Page", lines=8, elem_id="entity-editor")
        with gr.Row():
            save = gr.Button("Save page", elem_id="save-entity")
            delete = gr.Button("Delete page…", variant="stop", elem_id="delete-entity")
            confirm = gr.Button("Yes, delete it", variant="stop", visible=False, elem_id="confirm-delete-entity")
        status = gr.Markdown(elem_id="entity-status")
    gr.Markdown("**Proposals from sleep-time work**")
    proposals = gr.Dataframe(headers=PROPOSAL_COLUMNS, interactive=False, wrap=True, elem_id="entity-proposals")
    with gr.Row():
        proposal_choice = gr.Dropdown([], label="Proposal", elem_id="proposal-choice")
        dismiss = gr.Button("Dismiss proposal", elem_id="dismiss-proposal", scale=0)
    tab = EntitiesTab(table, choice, proposals, proposal_choice)

    def on_choose(name, entity):
        page = next((p for p in service.entity_pages(name) if p.name == entity), None) if entity else None
        return (page.name, page.kind, page.body) if page else (gr.update(), gr.update(), gr.update())

    def on_save(name, entity, entity_kind, text):
        existed = any(p.name == entity for p in service.entity_pages(name))
        try:
            service.save_entity_page(name, entity, text, entity_kind or "")
        except PersonaError as exc:
            return f"⚠️ Not saved: {exc}", *entities_values(service, name)
        done = "✅ Page saved (the previous version is in backups)." if existed else "✅ Page created."
        return done, *entities_values(service, name)

    def on_confirm(name, entity):
        try:
            service.delete_entity_page(name, entity)
        except PersonaError as exc:
            return f"⚠️ Not deleted: {exc}", gr.update(visible=False), *entities_values(service, name)
        return "🗑️ Page deleted (a copy stays in backups).", gr.update(visible=False), *entities_values(service, name)

    def on_dismiss(name, proposal_id):
        try:
            service.reject_entity_proposal(name, proposal_id or "")
        except PersonaError as exc:
            gr.Warning(str(exc))
        return entities_values(service, name)

    choice.change(on_choose, [persona, choice], [page_name, kind, body])
    save.click(on_save, [persona, page_name, kind, body], [status, *tab.outputs()])
    delete.click(lambda: gr.update(visible=True), None, [confirm])
    confirm.click(on_confirm, [persona, page_name], [status, confirm, *tab.outputs()])
    dismiss.click(on_dismiss, [persona, proposal_choice], tab.outputs())
    persona.change(lambda name: entities_values(service, name), [persona], tab.outputs())
    return tab
