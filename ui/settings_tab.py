"""Settings: provider, models, temperature; local servers (one click); API keys (write-only, shown masked)."""
from __future__ import annotations

from dataclasses import dataclass

import gradio as gr
from pydantic import ValidationError

from persona.service import NexusService
from ui.local_servers import ServerPicker, build_picker, switch_to


@dataclass
class SettingsTab:
    provider: gr.Radio
    base_url: gr.Textbox
    openai_model: gr.Textbox
    picker: ServerPicker
    user_name: gr.Textbox

    @property
    def provider_fields(self) -> list:
        return [self.provider, self.base_url, self.openai_model]

    @staticmethod
    def provider_values(service: NexusService) -> list:
        s = service.settings
        return [s.provider, s.openai_base_url, s.openai_model]


def build_settings_tab(service: NexusService) -> SettingsTab:
    s = service.settings
    provider = gr.Radio(
        [("Embedded local model", "local"), ("Gemini", "gemini"), ("OpenAI-compatible server", "openai")],
        value=s.provider, label="Provider", elem_id="provider",
    )
    local_path = gr.Textbox(s.local_model_path, label="Local GGUF path (empty: the packaged model)")
    gemini_model = gr.Textbox(s.gemini_model, label="Gemini model")
    base_url = gr.Textbox(s.openai_base_url, label="OpenAI-compatible base URL (Ollama, LM Studio, …)")
    openai_model = gr.Textbox(s.openai_model, label="OpenAI-compatible model")
    native_tools = gr.Checkbox(s.openai_native_tools, elem_id="openai-native-tools",
                               label="The server's model calls tools itself (uncheck for a small model: "
                                     "the app then keeps \"please remember\" requests itself)")
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
    with gr.Row():
        speak_first = gr.Checkbox(s.speak_first, elem_id="speak-first", scale=3,
                                  label="Let the persona write first now and then (outside the quiet hours, at most "
                                        "twice a day) / ペルソナから話しかける")
        allow = gr.Button("Allow browser notifications / ブラウザ通知を許可", elem_id="allow-notifications", scale=1)
    notifications = gr.Markdown("A message written first also shows as a notification while this tab is hidden, "
                                "if you allow it. / 許可すると、タブが隠れている間は通知でも届きます。",
                                elem_id="notifications-status")
    speak_first.input(lambda on: service.update_settings(speak_first=on) and None, [speak_first], None)
    # Browser-side only (ui/chat_tab.NOTIFICATIONS_JS): the browser asks the user, on this click.
    allow.click(None, None, [notifications], js="() => window.nexusAllowNotifications()", api_name=False)
    with gr.Group():
        gr.Markdown("**Sleep time** — once a night, while you are away, the persona writes the day's episode, its diary "
                    "and its dream. / 睡眠時処理：毎晩、あなたがいない間にその日のエピソード・日記・夢を書きます。")
        with gr.Row():
            sleep_on = gr.Checkbox(s.sleep_enabled, label="Each night / 毎晩", elem_id="sleep-enabled")
            quiet = gr.Textbox(s.quiet_hours, label="Quiet hours (HH:MM-HH:MM) / 静かな時間帯", elem_id="quiet-hours")
            idle = gr.Number(s.sleep_idle_minutes, precision=0, label="After you have been idle (minutes) / 無操作（分）",
                             elem_id="sleep-idle")
        save_sleep = gr.Button("Save sleep-time settings / 保存", elem_id="save-sleep")
        sleep_status = gr.Markdown(elem_id="sleep-status")
    with gr.Group():
        gr.Markdown("**Models on this computer** — Ollama, LM Studio or llama.cpp's server on 127.0.0.1 "
                    "(no API key needed). / このパソコンのモデル（API キー不要）")
        picker = build_picker("settings-servers")
        with gr.Row():
            look = gr.Button("Look for local servers / ローカルサーバーを探す", elem_id="look-for-servers")
            back = gr.Button("Back to the embedded model / 内蔵モデルに戻す", elem_id="use-embedded")
        switch_status = gr.Markdown(elem_id="server-switch-status")
    with gr.Group():
        keys = service.masked_keys()
        gemini_key = gr.Textbox(label=f"Gemini API key — {keys['gemini_api_key']}", type="password")
        openai_key = gr.Textbox(label=f"OpenAI-compatible API key — {keys['openai_api_key']}", type="password")
        save_keys = gr.Button("Save keys")
        key_status = gr.Markdown()

    def on_save(*values):
        fields = ("provider", "local_model_path", "gemini_model", "openai_base_url", "openai_model",
                  "openai_native_tools", "temperature", "user_name", "auto_retrieval", "query_planner")
        try:
            reloads = service.update_settings_reloads(**dict(zip(fields, values)), provider_chosen=True)
        except ValidationError as exc:
            return f"⚠️ Not saved: {exc.errors()[0]['msg']}"
        service.start_background_warmup()
        return "✅ Settings saved." + (" The model reloads on the next message." if reloads else "")

    def on_save_sleep(on, hours, minutes):
        try:
            service.update_sleep_settings(on, hours, minutes)
        except ValidationError as exc:
            return f"⚠️ Not saved: {exc.errors()[0]['msg']}"
        except ValueError as exc:
            return f"⚠️ Not saved: {exc}"
        return "✅ Sleep-time settings saved. / 保存しました。"

    def on_save_keys(gemini, openai):
        results = []
        for which, value in (("gemini_api_key", gemini), ("openai_api_key", openai)):
            if value.strip():
                results.append(f"{which}: {service.set_api_key(which, value)}")
        message = "✅ " + "; ".join(results) if results else "Nothing to save: type a key first."
        return message, "", ""

    tab = SettingsTab(provider, base_url, openai_model, picker, user_name)

    def on_look():
        service.discover_local_servers()
        return picker.updates(service)

    def on_use(choice):
        return [switch_to(service, choice)] + tab.provider_values(service)

    def on_back():
        service.use_embedded_model()
        service.start_background_warmup()
        return ["✅ Back to the embedded model. / 内蔵モデルに戻しました。"] + tab.provider_values(service)

    look.click(on_look, [], picker.outputs)
    picker.use.click(on_use, [picker.models], [switch_status] + tab.provider_fields)
    back.click(on_back, [], [switch_status] + tab.provider_fields)
    save.click(on_save, [provider, local_path, gemini_model, base_url, openai_model, native_tools, temperature, user_name,
                         auto_retrieval, query_planner], [status])
    save_sleep.click(on_save_sleep, [sleep_on, quiet, idle], [sleep_status])
    save_keys.click(on_save_keys, [gemini_key, openai_key], [key_status, gemini_key, openai_key])
    return tab
