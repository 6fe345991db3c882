"""The chat tab: conversation, send / stop / regenerate, edit or delete a message."""
from __future__ import annotations

import time
from dataclasses import dataclass

import gradio as gr

import constants
from persona.service import NexusService
from ui.chat_view import conversation_view, display_text, retrieval_report

# Enter sends, Shift+Enter starts a new line, in the chat input. Enter does what a click on Send
# does (it clicks it), so the Send handler stays the one send path. The Enter that confirms an
# IME conversion (Japanese kana -> kanji) belongs to the IME: browsers flag it with isComposing,
# Safari only with keyCode 229. Gradio's own textbox handler (on keypress) would make Shift+Enter
# submit on a multi-line box, so Enter keypresses in the chat input never reach it. The listeners
# sit on the document in the capture phase: they run first and survive Gradio re-rendering.
# A held-down Enter sends once (key repeats are swallowed).
PLACEHOLDER = "Message… / メッセージ…  (Enter: send · Shift+Enter: new line / 改行)"
# What a new user sees in an empty chat: what to do, and where what the persona keeps can be seen.
EMPTY_CHAT = ("**Say hello** — introduce yourself and tell the persona about your day. It remembers what you tell it "
              "(ask it to: \"please remember…\"), and all it keeps is yours to see and edit in the Memory, Episodes and "
              "Entities tabs.\n\n**話しかけてみましょう** — 自己紹介や今日のできごとを。話したことを覚えていて"
              "（「覚えておいて」と頼むこともできます）、覚えたことはすべて Memory・Episodes・Entities タブで見て直せます。")
LONG_MESSAGE_WAIT = "… (reading your long message / 長いメッセージを読んでいます)"
ENTER_SENDS_JS = """() => {
    if (window.__nexusEnterSends) return;
    window.__nexusEnterSends = true;
    const inChatInput = (event) =>
        event.target instanceof HTMLTextAreaElement && event.target.closest('#chat-input') !== null;
    document.addEventListener('keydown', (event) => {
        if (event.key !== 'Enter' || !inChatInput(event)) return;
        if (event.isComposing || event.keyCode === 229 || event.shiftKey) return;
        event.preventDefault();
        if (!event.repeat) document.querySelector('#send-btn')?.click();
    }, true);
    document.addEventListener('keypress', (event) => {
        if (event.key === 'Enter' && inChatInput(event)) event.stopPropagation();
    }, true);
}"""

# Browser notifications of a message the persona wrote first (issue 20), browser-side only:
# `nexusAllowNotifications` asks the browser's permission (Settings' button: browsers ask only on a
# user's click) and says the answer; `nexusNotify` shows the page's notice (persona/speak_first_job.
# FirstNotice) only while the page is hidden and the user allowed it — an open page shows the message.
# Gradio's timers stop while the page is hidden, so then (and only when notifications are allowed) the
# page looks for new messages itself, with the hidden #check-new-messages button.
NOTIFICATIONS_JS = """() => {
    if (window.nexusNotify) return;
    window.nexusAllowNotifications = async () => {
        if (!('Notification' in window)) return 'This browser has no notifications. / 通知に対応していません';
        const answer = await Notification.requestPermission();
        return answer === 'granted' ? '✅ Notifications allowed. / 通知を許可しました'
            : '⚠️ Notifications are blocked: allow them in the site settings of your browser. / 通知はブロックされています';
    };
    window.nexusNotify = (notice) => {
        if (!notice || !notice.title || !('Notification' in window)) return false;
        if (document.visibilityState === 'visible' || Notification.permission !== 'granted') return false;
        new Notification(notice.title, {body: notice.body, tag: notice.id});
        return true;
    };
    setInterval(() => {
        if (document.visibilityState !== 'visible' && window.Notification?.permission === 'granted')
            document.querySelector('#check-new-messages')?.click();
    }, REFRESH_MS);
}""".replace("REFRESH_MS", str(round(constants.UI_INNER_REFRESH_S * 1000)))


@dataclass
class ChatTab:
    chatbot: gr.Chatbot
    ids: gr.State
    textbox: gr.Textbox
    send: gr.Button
    stop: gr.Button
    regenerate: gr.Button
    why: gr.Markdown
    sent: object  # the send's event chain: the app refreshes what a reply may have changed after it


def stream_turn(service: NexusService, persona: str, events, history: list[dict], waiting: str = "…"):
    """Yield (chatbot, ids, why) while a turn streams; ends with the log's own view. `waiting`: what
    the reply's place shows before its first words."""
    history = history + [{"role": "assistant", "content": ""}]
    streamed, error, why = "", "", gr.update()
    last_yield, shown_any = 0.0, False
    for event in events:
        if event.kind == "token":
            streamed += event.text
        elif event.kind == "tool":
            streamed += f"\n*{event.text}*\n"
        elif event.kind == "retrieval":
            why = retrieval_report(event.retrieval)
        elif event.kind == "error":
            error = event.text
            gr.Warning(error)
        # Every token reaches the page, but in batches: re-sending the chat per token costs the
        # CPU the local model needs (two cores are shared). The first token is never held back.
        now = time.monotonic()
        if event.kind == "token" and shown_any and now - last_yield < constants.UI_STREAM_INTERVAL_S:
            continue
        shown_any = shown_any or (event.kind == "token" and bool(streamed.strip()))
        last_yield = now
        shown = display_text(streamed.strip()) + (f"\n\n⚠️ {display_text(error)}" if error else "")
        if shown and not shown_any and not error:  # a kept note's line is shown; the reply is still to come
            shown += f"\n\n{waiting}"
        history[-1] = {"role": "assistant", "content": shown or waiting}
        yield history, gr.update(), why
    messages, ids = conversation_view(service.conversation(persona))
    if error:  # an error is shown, not logged as the persona's words
        messages.append({"role": "assistant", "content": f"⚠️ {display_text(error)}"})
    yield messages, ids, why


def build_chat_tab(service: NexusService, persona: gr.Dropdown) -> ChatTab:
    chatbot = gr.Chatbot(label="Chat", height=520, elem_id="chatbot", placeholder=EMPTY_CHAT)
    ids = gr.State([])
    with gr.Row():
        textbox = gr.Textbox(placeholder=PLACEHOLDER, show_label=False, scale=8, elem_id="chat-input",
                             lines=2, max_lines=12)
        send = gr.Button("Send", variant="primary", scale=1, elem_id="send-btn")
    with gr.Row():
        stop = gr.Button("Stop", elem_id="stop-btn")
        regenerate = gr.Button("Regenerate last reply", elem_id="regen-btn")
    with gr.Row(visible=False, elem_id="name-offer") as offer_row:
        offer_text = gr.Markdown()
        offer_save = gr.Button("Save my name / 保存", elem_id="name-offer-save", scale=0)
        offer_no = gr.Button("No thanks / いいえ", elem_id="name-offer-no", scale=0)
    offered = gr.State("")
    with gr.Accordion("Edit or delete a message (click it in the chat first)", open=False, elem_id="edit-panel") as edit_panel:
        selected = gr.State("")
        edit_box = gr.Textbox(label="Selected message", lines=3, elem_id="edit-box")
        with gr.Row():
            save_edit = gr.Button("Save edit", elem_id="save-edit-btn")
            delete = gr.Button("Delete message", variant="stop", elem_id="delete-msg-btn")
        edit_status = gr.Markdown()
    with gr.Accordion("Why did the persona remember that?", open=False):
        why = gr.Markdown("No reply yet.", elem_id="why")

    def on_send(name, text, history):
        if not text.strip():
            yield history, gr.update(), gr.update(), text
            return
        pending = history + [{"role": "user", "content": display_text(text)}]
        waiting = LONG_MESSAGE_WAIT if len(text) > constants.UI_LONG_MESSAGE_CHARS else "…"
        for chat, new_ids, why_text in stream_turn(service, name, service.send(name, text), pending, waiting):
            yield chat, new_ids, why_text, ""

    def on_regenerate(name, history):
        trimmed = history[:-1] if history and history[-1]["role"] == "assistant" else history
        for chat, new_ids, why_text in stream_turn(service, name, service.regenerate(name), trimmed):
            yield chat, new_ids, why_text

    def on_select(name, id_list, event: gr.SelectData):
        index = event.index if isinstance(event.index, int) else event.index[0]
        if not (0 <= index < len(id_list)):
            return "", "", gr.update()
        entry = service.find_message(name, id_list[index])
        return id_list[index], entry.text if entry else "", gr.update(open=True)  # the click shows what it chose

    def on_save_edit(name, entry_id, text):
        if not entry_id:
            return gr.update(), gr.update(), "Click a message in the chat first."
        service.edit_message(name, entry_id, text)
        chat, new_ids = conversation_view(service.conversation(name))
        return chat, new_ids, "Saved. The original is kept in the log."

    def on_delete(name, entry_id):
        if not entry_id:
            return gr.update(), gr.update(), "Click a message in the chat first.", ""
        service.delete_message(name, entry_id)
        chat, new_ids = conversation_view(service.conversation(name))
        return chat, new_ids, "Deleted from the conversation (the log keeps a record).", ""

    def refresh_offer(name):
        offer = service.name_offer(name)
        text = (f"You introduced yourself as **{offer}**. Save it as your name in Settings? · "
                f"「{offer}」をあなたの名前として保存しますか？") if offer else ""
        return gr.update(visible=bool(offer)), text, offer

    def on_offer_answer(name, save):
        if name:
            service.answer_name_offer(name, save)
            if save:
                gr.Info(f"Saved: you are {name} now (Settings) · 「{name}」を保存しました")
        return gr.update(visible=False), "", ""

    send_inputs = [persona, textbox, chatbot]
    send_outputs = [chatbot, ids, why, textbox]
    sent = send.click(on_send, send_inputs, send_outputs, api_name="send").then(
        refresh_offer, [persona], [offer_row, offer_text, offered], api_name=False)
    offer_save.click(lambda name: on_offer_answer(name, True), [offered], [offer_row, offer_text, offered])
    offer_no.click(lambda name: on_offer_answer(name, False), [offered], [offer_row, offer_text, offered])
    stop.click(lambda name: service.stop(name), [persona], None)
    regenerate.click(on_regenerate, [persona, chatbot], [chatbot, ids, why])
    chatbot.select(on_select, [persona, ids], [selected, edit_box, edit_panel])
    save_edit.click(on_save_edit, [persona, selected, edit_box], [chatbot, ids, edit_status])
    delete.click(on_delete, [persona, selected], [chatbot, ids, edit_status, selected])
    return ChatTab(chatbot, ids, textbox, send, stop, regenerate, why, sent)
