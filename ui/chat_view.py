"""Turning log entries and turn events into what the Chatbot shows. Presentation only."""
from __future__ import annotations

import html

from persona.public import FIRST_MARK, STATUS_RECOVERED, STATUS_STOPPED, LogEntry, shortened


WHY_ITEM_CHARS = 200  # a recalled memory or document passage in the "why" panel: a glance, not the whole


def display_text(text: str) -> str:
    """Markup typed by anyone is shown as text, never rendered."""
    return html.escape(text, quote=False)


def entry_to_message(entry: LogEntry) -> dict:
    text = display_text(entry.text)
    status = entry.meta.get("status")
    if status == STATUS_RECOVERED:
        text = "↩️ *(recovered after an interruption)*\n\n" + text
    elif status == STATUS_STOPPED:
        text += " ⏹ *(stopped)*"
    if entry.meta.get(FIRST_MARK):  # written unasked (persona/speak_first_job.py)
        text = "💬 *(wrote first / 自分から)*\n\n" + text
    return {"role": "user" if entry.role == "USER" else "assistant", "content": text}


def conversation_view(entries: list[LogEntry]) -> tuple[list[dict], list[str]]:
    """Chatbot messages and, in the same order, the ids of the log entries they show."""
    dialogue = [e for e in entries if e.is_dialogue]
    return [entry_to_message(e) for e in dialogue], [e.id for e in dialogue]


def retrieval_report(result) -> str:
    if result is None:
        return "No reply yet."
    if result.skipped:
        return f"No memory search for this message: {result.reason}."
    lines = [f"What this message called to mind, most relevant first (the search read it as: {result.intent or '—'}):"]
    for item in sorted(result.items, key=lambda i: -i.score):
        lines.append(f"- {display_text(shortened(item.text, WHY_ITEM_CHARS))}  \n  <sub>{item.source} · score {item.score:.2f} · {item.why}</sub>")
    return "\n".join(lines) if result.items else "Searched, nothing relevant found."
