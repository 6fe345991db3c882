"""Local servers (Ollama, LM Studio, llama.cpp's server) in the page: the first-run note and the
picker in Settings. The look-up and the switch are the service's; this only lays them out."""
from __future__ import annotations

import json
from dataclasses import dataclass

import gradio as gr

from persona.public import LocalServer, NotLoopback
from persona.service import NexusService

NOTE_TEXT = (
    "**The built-in model is small**: its replies are simple and its Japanese is stilted. For natural "
    "Japanese and better replies, run **Ollama** or **LM Studio** on this computer and switch to it "
    "here or in Settings.\n\n"
    "**内蔵モデルは小さなモデルです**。返事は簡単で、日本語も不自然になりがちです。自然な日本語とより良い返事には、"
    "このパソコンで **Ollama** か **LM Studio** を動かし、ここか設定タブで切り替えてください。"
)
LOOKING = "Looking for local servers… / ローカルサーバーを探しています…"
NONE_FOUND = ("No server found on this computer (Ollama 11434, LM Studio 1234, llama.cpp 8080). "
              "/ このパソコンにサーバーは見つかりませんでした。")


def model_choices(servers: tuple[LocalServer, ...]) -> list[tuple[str, str]]:
    """One dropdown entry per model: shown as "Ollama · llama3.1", the value says where it is."""
    return [(f"{s.label} · {m}", json.dumps([s.base_url, m])) for s in servers for m in s.models]


def found_text(service: NexusService) -> str:
    scan = service.local_servers
    if scan.state == "looking":
        return LOOKING
    if scan.state != "done":
        return ""
    usable = [s for s in scan.servers if s.models]
    if not usable:
        empty = [s.label for s in scan.servers]
        return (f"{', '.join(empty)} answered but lists no chat model: load one there, then look again."
                if empty else NONE_FOUND)
    listed = "; ".join(f"{s.label} at {s.base_url} ({len(s.models)} models)" for s in usable)
    return f"Found on this computer / このパソコンで見つかりました: {listed}"


@dataclass
class ServerPicker:
    found: gr.Markdown
    models: gr.Dropdown
    use: gr.Button

    def updates(self, service: NexusService) -> list:
        """found, models, use: the latest look-up, laid out."""
        choices = model_choices(service.local_servers.servers)
        return [found_text(service),
                gr.update(choices=choices, value=choices[0][1] if choices else None, visible=bool(choices)),
                gr.update(visible=bool(choices))]

    @property
    def outputs(self) -> list:
        return [self.found, self.models, self.use]


def build_picker(elem_prefix: str) -> ServerPicker:
    found = gr.Markdown(elem_id=f"{elem_prefix}-found")
    with gr.Row():
        models = gr.Dropdown(choices=[], label="Model on this computer / このパソコンのモデル", visible=False,
                             elem_id=f"{elem_prefix}-models", scale=3)
        use = gr.Button("Use this model / このモデルを使う", visible=False, elem_id=f"{elem_prefix}-use", scale=1)
    return ServerPicker(found, models, use)


def switch_to(service: NexusService, choice: str | None) -> str:
    """Switch to the chosen server's model; the message says what happened."""
    if not choice:
        return "Choose a model first. / モデルを選んでください。"
    try:
        base_url, model = json.loads(choice)
        service.use_local_server(base_url, model)
    except (NotLoopback, ValueError, TypeError) as exc:
        return f"⚠️ Not switched: {exc}"
    service.start_background_warmup()
    return f"✅ Now using {model} at {base_url}. / {model} に切り替えました。"


@dataclass
class FirstRunNote:
    box: gr.Group
    picker: ServerPicker
    dismiss: gr.Button
    message: gr.Markdown


def build_first_run_note(service: NexusService) -> FirstRunNote:
    """A note above the tabs on the first run, never in the way of chatting: the embedded model is
    small, a server on this computer is the way to natural Japanese; the switch when one is found."""
    with gr.Group(visible=service.shows_first_run_note(), elem_id="first-run-note") as box:
        gr.Markdown(NOTE_TEXT)
        picker = build_picker("first-run")
        with gr.Row():
            message = gr.Markdown()
            dismiss = gr.Button("Keep the built-in model / 内蔵モデルのまま", size="sm", elem_id="first-run-dismiss")
    note = FirstRunNote(box, picker, dismiss, message)

    def on_use(choice):
        text = switch_to(service, choice)
        return text, gr.update(visible=service.shows_first_run_note())

    def on_dismiss():
        service.dismiss_first_run_note()
        return gr.update(visible=False)

    picker.use.click(on_use, [picker.models], [message, box])
    dismiss.click(on_dismiss, [], [box])
    return note
