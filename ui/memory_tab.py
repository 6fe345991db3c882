"""Memory editors: identity (SystemPrompt.md), core memory, notepad. The persona writes core memory too
(a "please remember" in the chat): an editor not being edited is refreshed after each reply, and a save
keeps what the persona wrote since the editor was filled (managers/line_edits.py)."""
from __future__ import annotations

from dataclasses import dataclass

import gradio as gr

from persona.service import NexusService
from ui.editors import refreshed_unless_edited

EDITABLE = (
    ("system_prompt", "Identity (SystemPrompt.md)"),
    ("core_memory", "Core memory"),
    ("notepad", "Notepad"),
)


@dataclass
class MemoryTab:
    editors: dict[str, gr.Textbox]
    shown: list[gr.State]  # the text each editor was filled with

    def outputs(self) -> list:
        return [*self.editors.values(), *self.shown]


def build_memory_tab(service: NexusService, persona: gr.Dropdown) -> MemoryTab:
    editors: dict[str, gr.Textbox] = {}
    states: list[gr.State] = []
    for which, label in EDITABLE:
        with gr.Group():
            box = gr.Textbox(label=label, lines=8, max_lines=30, elem_id=f"{which}-editor")
            save = gr.Button(f"Save {label.split(' (')[0].lower()}", elem_id=f"save-{which}")
            status = gr.Markdown(elem_id=f"{which}-status")
        shown = gr.State("")

        def on_save(name, text, was, label=label, which=which):
            try:
                saved = service.save_memory(name, which, text, shown=was)
            except ValueError as exc:
                gr.Warning(str(exc))
                return gr.update(), f"⚠️ Not saved: {exc}", was
            return saved.text, saved_message(label, saved.kept_from_app), saved.text

        save.click(on_save, [persona, box, shown], [box, status, shown])
        editors[which] = box
        states.append(shown)
    with gr.Group():
        rebuild = gr.Button("Rebuild the memory index", elem_id="rebuild-index-btn")
        rebuild_status = gr.Markdown(elem_id="rebuild-index-status")

    def on_rebuild(name, progress=gr.Progress()):
        report = service.update_memory_index(name, rebuild=True, progress=lambda m, f: progress(f, desc=m))
        done = f"✅ Rebuilt: {report.items_added} memories indexed from {report.sources_seen} files."
        return " ".join((done, *(f"⚠️ {reason}" for reason in report.unreadable)))

    rebuild.click(on_rebuild, [persona], [rebuild_status])
    return MemoryTab(editors, states)


def saved_message(label: str, kept_from_app: tuple[str, ...]) -> str:
    if not kept_from_app:
        return f"✅ {label} saved."
    lines = "\n".join(f"- {line.lstrip('- ')}" for line in kept_from_app)
    return (f"✅ {label} saved, with what the persona wrote there while you were editing (kept, not lost):\n{lines}")


def memory_values(service: NexusService, name: str) -> list[str]:
    """The editors' texts, then the same as their `shown` states."""
    texts = [service.read_memory(name, which) if name else "" for which, _ in EDITABLE]
    return texts + texts


def unedited_memory_refreshed(service: NexusService, name: str, *boxes_then_shown: str) -> list:
    half = len(EDITABLE)
    if not name:
        return [gr.update()] * (2 * half)
    return refreshed_unless_edited(memory_values(service, name)[:half], boxes_then_shown[:half], boxes_then_shown[half:])
