"""Settings: provider, models, temperature; API keys (write-only, shown masked)."""
from __future__ import annotations

import gradio as gr
from pydantic import ValidationError

from managers.service import NexusService


def build_settings_tab(service: NexusService) -> None:
    s = service.settings
    provider = gr.Radio(
        [("Embedded local model", "local"), ("Gemini", "gemini"), ("OpenAI-compatible server", "openai")],
        value=s.provider, label="Provider", elem_id="provider",
    )
    local_path = gr.Textbox(s.local_model_path, label="Local GGUF path (empty: the packaged model)")
    gemini_model = gr.Textbox(s.gemini_model, label="Gemini model")
    base_url = gr.Textbox(s.openai_base_url, label="OpenAI-compatible base URL (Ollama, LM Studio, …)")
    openai_model = gr.Textbox(s.openai_model, label="OpenAI-compatible model")
    temperature = gr.Slider(0.0, 2.0, value=s.temperature, step=0.05, label="Temperature")
    user_name = gr.Textbox(s.user_name, label="Your name")
    auto_retrieval = gr.Checkbox(s.auto_retrieval, label="Automatic memory recall before each reply")
    query_planner = gr.Radio(
        [("Automatic (the LLM on Gemini / servers, rules on the embedded model)", "auto"),
         ("LLM: one planner call before each reply (slower on the embedded model)", "llm"),
         ("Rules only (no extra call)", "rules")],
        value=s.query_planner, label="Who plans the memory search", elem_id="query-planner",
    )
    save = gr.Button("Save settings", elem_id="save-settings")
    status = gr.Markdown()
    with gr.Group():
        keys = service.masked_keys()
        gemini_key = gr.Textbox(label=f"Gemini API key — {keys['gemini_api_key']}", type="password")
        openai_key = gr.Textbox(label=f"OpenAI-compatible API key — {keys['openai_api_key']}", type="password")
        save_keys = gr.Button("Save keys")
        key_status = gr.Markdown()

    def on_save(*values):
        fields = ("provider", "local_model_path", "gemini_model", "openai_base_url", "openai_model",
                  "temperature", "user_name", "auto_retrieval", "query_planner")
        try:
            service.update_settings(**dict(zip(fields, values)))
        except ValidationError as exc:
            return f"⚠️ Not saved: {exc.errors()[0]['msg']}"
        service.start_background_warmup()
        return "✅ Settings saved. The model reloads on the next message."

    def on_save_keys(gemini, openai):
        results = []
        for which, value in (("gemini_api_key", gemini), ("openai_api_key", openai)):
            if value.strip():
                results.append(f"{which}: {service.set_api_key(which, value)}")
        message = "✅ " + "; ".join(results) if results else "Nothing to save: type a key first."
        return message, "", ""

    save.click(on_save, [provider, local_path, gemini_model, base_url, openai_model, temperature, user_name,
                         auto_retrieval, query_planner], [status])
    save_keys.click(on_save_keys, [gemini_key, openai_key], [key_status, gemini_key, openai_key])
