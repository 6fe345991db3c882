"""The persona's tools: their schemas, when to offer them, and how a call is carried out.

Remote models get the tools bound natively on every turn. The small local model writes tool
calls as text and tends to "call" a tool for small talk (shared/notes/offline-stack.md), so it
is offered the tools only when the user's message asks for something to be kept.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Callable, Mapping, Protocol, Sequence

from agent.providers.base import ToolCall, ToolSpec

_EDIT_PARAMETERS = {
    "type": "object",
    "properties": {
        "content": {"type": "string", "description": "The text to write."},
        "mode": {
            "type": "string",
            "enum": ["append", "replace"],
            "description": "append (default) adds a line; replace rewrites the whole text.",
        },
    },
    "required": ["content"],
}

EDIT_CORE_MEMORY = ToolSpec(
    "edit_core_memory",
    "Update your core memory: who you are, who the user is, and lasting promises.",
    _EDIT_PARAMETERS,
)
EDIT_NOTEPAD = ToolSpec(
    "edit_notepad",
    "Write in your notepad: plans, short-term facts and reminders.",
    _EDIT_PARAMETERS,
)
MEMORY_EDIT_TOOLS: tuple[ToolSpec, ...] = (EDIT_CORE_MEMORY, EDIT_NOTEPAD)

# Words with which a user asks the persona to keep something (ja/en).
_KEEP_REQUEST = re.compile(
    r"覚えて|おぼえて|メモ|記録|忘れないで|忘れずに|書いておいて|書き留め|コアメモリ|メモ帳|"
    r"\bremember\b|\bnote\b|\bwrite (?:it |that )?down\b|\bdon'?t forget\b|\bnotepad\b|\bcore memory\b",
    re.IGNORECASE,
)


def tools_for_turn(user_text: str, native_tools: bool) -> tuple[ToolSpec, ...]:
    if native_tools or _KEEP_REQUEST.search(user_text):
        return MEMORY_EDIT_TOOLS
    return ()


def text_protocol(tools: Sequence[ToolSpec]) -> str:
    """How a model without native tool calls is told to call a tool."""
    lines = [
        "You can call a tool by writing exactly one JSON object on its own line, then stop:",
        '{"name": "<tool>", "arguments": {...}}',
        "Tools:",
    ]
    for tool in tools:
        props = ", ".join(tool.parameters.get("properties", {}))
        lines.append(f"- {tool.name}({props}): {tool.description}")
    lines.append("Only call a tool when the user asks you to remember or note something.")
    return "\n".join(lines)


class MemoryEditor(Protocol):
    def edit_core_memory(self, content: str, mode: str) -> str: ...
    def edit_notepad(self, content: str, mode: str) -> str: ...


@dataclass(frozen=True)
class ToolOutcome:
    call: ToolCall
    ok: bool
    result: str  # what the model is told
    announcement: str  # what the chat log and the user see


def run_tool(call: ToolCall, editor: MemoryEditor) -> ToolOutcome:
    handlers: Mapping[str, Callable[[str, str], str]] = {
        EDIT_CORE_MEMORY.name: editor.edit_core_memory,
        EDIT_NOTEPAD.name: editor.edit_notepad,
    }
    handler = handlers.get(call.name)
    if handler is None:
        return ToolOutcome(call, False, f"Unknown tool {call.name}.", f"🛠️ unknown tool {call.name}")
    content = call.arguments.get("content")
    mode = call.arguments.get("mode") or "append"
    if not isinstance(content, str) or not content.strip() or mode not in ("append", "replace"):
        detail = json.dumps(dict(call.arguments), ensure_ascii=False)[:200]
        return ToolOutcome(call, False, f"Invalid arguments: {detail}", f"🛠️ {call.name} failed (invalid arguments)")
    try:
        result = handler(content, mode)
    except ValueError as exc:
        return ToolOutcome(call, False, str(exc), f"🛠️ {call.name} failed: {exc}")
    return ToolOutcome(call, True, result, f"🛠️ {call.name.replace('_', ' ')} ({mode})")
