"""The diaries: the persona's main diary (written each night, recalled in conversation) and its
secret diary (private thoughts, never recalled), to read and edit. Every save is atomic, with the
old file backed up; a save over an entry written since the diary was shown is refused."""
from __future__ import annotations

from dataclasses import dataclass

import gradio as gr

from persona.public import DIARY_FILES, MAIN_DIARY, SECRET_DIARY, DiaryEditRefused
from persona.service import NexusService
from ui.editors import refreshed_unless_edited

SECRET_NOTE = ("**Secret diary** — the persona's private diary: its own thoughts, which it reads only when it "
               "chooses to and which are never put into its replies by recall. It is shown here because it is "
               "your data.")
DIARIES = ((MAIN_DIARY, "Diary"), (SECRET_DIARY, "Secret diary"))


@dataclass
class DiaryTab:
    boxes: list[gr.Textbox]
    shown: list[gr.State]  # the text each box was filled with: a save over a newer file is refused

    def outputs(self) -> list:
        return [*self.boxes, *self.shown]


def diary_values(service: NexusService, name: str) -> list[str]:
    texts = [service.read_diary(name, which) if name else "" for which, _ in DIARIES]
    return texts + texts


def unedited_refreshed(service: NexusService, name: str, *boxes_then_shown: str) -> list:
    """The diaries read afresh where the file changed since the box was filled and the box holds what
    it was filled with; a box being edited is left. An unchanged file sends nothing, so a refresh that
    arrives after the user started typing cannot put the old text back."""
    half = len(DIARIES)
    return refreshed_unless_edited(diary_values(service, name)[:half], boxes_then_shown[:half], boxes_then_shown[half:])


def _editor(service: NexusService, persona: gr.Dropdown, which: str, label: str) -> tuple[gr.Textbox, gr.State]:
    with gr.Group():
        box = gr.Textbox(label=f"{label} ({DIARY_FILES[which]})", lines=14, max_lines=40, elem_id=f"{which}-diary-editor")
        save = gr.Button(f"Save {label.lower()}", elem_id=f"save-{which}-diary")
        status = gr.Markdown(elem_id=f"{which}-diary-status")
    shown = gr.State("")

    def on_save(name, text, was):
        try:
            now = service.save_diary(name, which, text, shown=was)
        except DiaryEditRefused as exc:
            return f"⚠️ Not saved: {exc}", was
        return f"✅ {label} saved (the previous version is in backups).", now

    save.click(on_save, [persona, box, shown], [status, shown])
    return box, shown


def build_diary_tab(service: NexusService, persona: gr.Dropdown) -> DiaryTab:
    gr.Markdown("The persona writes its **diary** each night from the day's episode, and may add to it in "
                "conversation; it is recalled when you talk. You can correct it here.")
    main, main_shown = _editor(service, persona, MAIN_DIARY, "Diary")
    gr.Markdown(SECRET_NOTE)
    secret, secret_shown = _editor(service, persona, SECRET_DIARY, "Secret diary")
    tab = DiaryTab([main, secret], [main_shown, secret_shown])
    reload = gr.Button("Reload both", elem_id="reload-diaries", scale=0)
    reload.click(lambda name: diary_values(service, name), [persona], tab.outputs())
    return tab
