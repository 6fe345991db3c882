"""Memory editors: identity (SystemPrompt.md), core memory, notepad."""
from __future__ import annotations

from dataclasses import dataclass

import gradio as gr

from persona.service import NexusService

EDITABLE = (
    ("system_prompt", "Identity (SystemPrompt.md)"),
    ("core_memory", "Core memory"),
    ("notepad", "Notepad"),
)


@dataclass
class MemoryTab:
    editors: dict[str, gr.Textbox]


def build_memory_tab(service: NexusService, persona: gr.Dropdown) -> MemoryTab:
    editors: dict[str, gr.Textbox] = {}
    for which, label in EDITABLE:
        with gr.Group():
            box = gr.Textbox(label=label, lines=8, max_lines=30, elem_id=f"{which}-editor")
            save = gr.Button(f"Save {label.split(' (')[0].lower()}", elem_id=f"save-{which}")
            status = gr.Markdown(elem_id=f"{which}-status")

        def on_save(name, text, which=which, label=label):
            try:
                service.save_memory(name, which, text)
            except ValueError as exc:
                gr.Warning(str(exc))
                return f"⚠️ Not saved: {exc}"
            return f"✅ {label} saved."

        save.click(on_save, [persona, box], [status])
        editors[which] = box
    with gr.Group():
        rebuild = gr.Button("Rebuild the memory index", elem_id="rebuild-index-btn")
        rebuild_status = gr.Markdown(elem_id="rebuild-index-status")

    def on_rebuild(name, progress=gr.Progress()):
        report = service.update_memory_index(name, rebuild=True, progress=lambda m, f: progress(f, desc=m))
        done = f"✅ Rebuilt: {report.items_added} memories indexed from {report.sources_seen} files."
        return " ".join((done, *(f"⚠️ {reason}" for reason in report.unreadable)))

    rebuild.click(on_rebuild, [persona], [rebuild_status])
    return MemoryTab(editors)


def memory_values(service: NexusService, name: str) -> list[str]:
    return [service.read_memory(name, which) for which, _ in EDITABLE]
