"""The persona's tools: their schemas, when to offer them, and how a call is carried out.

Remote models get the tools bound natively on every turn. The small local model is offered
none (see `tools_for_turn`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

from agent.providers.base import ToolCall, ToolSpec
from managers.chat_log import ANNOUNCEMENT_MARK

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


def _query_tool(name: str, description: str, arg: str = "query", arg_help: str = "What to look for.") -> ToolSpec:
    return ToolSpec(name, description, {"type": "object", "properties": {arg: {"type": "string", "description": arg_help}},
                                        "required": [arg]})


RECALL_MEMORIES = _query_tool(
    "recall_memories", "Recall past experiences, conversations and memories by meaning (semantic search).")
SEARCH_PAST_CONVERSATIONS = _query_tool(
    "search_past_conversations", "Find past messages containing exact words or names (last resort).",
    "keywords", "1-3 proper nouns or exact phrases, separated by spaces.")
READ_MEMORY_CONTEXT = _query_tool(
    "read_memory_context", "Read the full text of a past message that a search result cut off.",
    "snippet", "A piece of the cut-off text, copied exactly.")
SEARCH_KNOWLEDGE_BASE = _query_tool(
    "search_knowledge_base", "Look things up in the documents the user uploaded (manuals, notes, references).")
MEMORY_SEARCH_TOOLS: tuple[ToolSpec, ...] = (
    RECALL_MEMORIES, SEARCH_PAST_CONVERSATIONS, READ_MEMORY_CONTEXT, SEARCH_KNOWLEDGE_BASE)

# Entity memory v2 (seed 004 §4): the prompt holds only the index of names; pages are read by tool.
READ_ENTITY_MEMORY = _query_tool(
    "read_entity_memory", "Read your page about a person, place or thing named in your entity index.",
    "name", "The entity's name, as in the index.")
SEARCH_ENTITY_MEMORY = _query_tool(
    "search_entity_memory", "Search your entity pages by words; pages matching more of the words come first.")
LIST_ENTITY_MEMORIES = ToolSpec(
    "list_entity_memories", "List the people, places and things you keep pages about.",
    {"type": "object", "properties": {"kind": {
        "type": "string", "enum": ["person", "place", "thing"],
        "description": "Optional: only this kind (all kinds when left out)."}}, "required": []})
WRITE_ENTITY_MEMORY = ToolSpec(
    "write_entity_memory",
    "Write on your page about a person, place or thing (a new name makes a new page). append adds facts as "
    "lines; consolidate rewrites the whole page as the content (merge and tidy it; the old page is backed up).",
    {"type": "object", "properties": {
        "name": {"type": "string", "description": "The entity's name."},
        "content": {"type": "string", "description": "Short factual lines; who did what kept."},
        "mode": {"type": "string", "enum": ["append", "consolidate"], "description": "append (default) or consolidate."},
        "kind": {"type": "string", "enum": ["person", "place", "thing"], "description": "For a new page."},
    }, "required": ["name", "content"]})
ENTITY_TOOLS: tuple[ToolSpec, ...] = (READ_ENTITY_MEMORY, WRITE_ENTITY_MEMORY, LIST_ENTITY_MEMORIES, SEARCH_ENTITY_MEMORY)
# The diaries (seed 004, 読み取り・編集ツール): the main one is also recalled; the secret one only
# these tools read (managers/diaries.py). The optional date also keeps the schema's properties
# non-empty: Gemini rejects a tool whose object schema has none.
_DIARY_READ_PARAMETERS = {"type": "object", "properties": {"from_date": {
    "type": "string", "description": "Optional YYYY-MM-DD: read from that day's entry on (default: the most recent part)."}},
    "required": []}
READ_MAIN_DIARY = ToolSpec(
    "read_main_diary", "Read the most recent part of your diary: your own account of your days.", _DIARY_READ_PARAMETERS)
READ_SECRET_DIARY = ToolSpec(
    "read_secret_diary", "Read the most recent part of your secret diary: thoughts you keep to yourself.",
    _DIARY_READ_PARAMETERS)
# An edit in two steps: the persona says what it wants changed and why; a second call writes the
# edit, which the app applies after a backup (agent/diary.py).
PLAN_DIARY_EDIT = ToolSpec(
    "plan_diary_edit",
    "Add to or change your diary or secret diary: say what and why; the edit is then written and saved.",
    {"type": "object", "properties": {
        "diary": {"type": "string", "enum": ["main", "secret"], "description": "main, or secret (only you read it)."},
        "intent": {"type": "string", "description": "What to add or change, and why, in your own words."}},
     "required": ["diary", "intent"]})
DIARY_TOOLS: tuple[ToolSpec, ...] = (READ_MAIN_DIARY, READ_SECRET_DIARY, PLAN_DIARY_EDIT)
# Goals (seed 004 §6): the persona sets, completes, abandons (with a reason) and reprioritises its own.
GOAL_ACTIONS = ("add", "complete", "abandon", "priority")
MANAGE_GOALS = ToolSpec(
    "manage_goals",
    "Manage your own goals: add one, mark one completed when you have done it, abandon one (say why), or "
    "change its priority (1 highest … 5).",
    {"type": "object", "properties": {
        "action": {"type": "string", "enum": list(GOAL_ACTIONS), "description": "add, complete, abandon or priority."},
        "goal": {"type": "string", "description": "The new goal's text; for the others the goal's id or its text."},
        "term": {"type": "string", "enum": ["short_term", "long_term"], "description": "For add (default short_term)."},
        "priority": {"type": "integer", "description": "1 (highest) to 5; for add and priority."},
        "reason": {"type": "string", "description": "Why it is abandoned (required), or a note on its completion."},
    }, "required": ["action", "goal"]})
# Open questions (seed 004 §8): resolved only by this tool or in the night's reflection, never guessed.
RESOLVE_OPEN_QUESTION = ToolSpec(
    "resolve_open_question",
    "Mark one of your open questions answered, with what you learned (it is filed in your memory at night).",
    {"type": "object", "properties": {
        "question": {"type": "string", "description": "The question's id or its text."},
        "answer": {"type": "string", "description": "What you learned: the answer, in a sentence or two."}},
     "required": ["question", "answer"]})
GOAL_TOOLS: tuple[ToolSpec, ...] = (MANAGE_GOALS, RESOLVE_OPEN_QUESTION)
ALL_TOOLS = MEMORY_EDIT_TOOLS + MEMORY_SEARCH_TOOLS + ENTITY_TOOLS + DIARY_TOOLS + GOAL_TOOLS

def tools_for_turn(user_text: str, native_tools: bool) -> tuple[ToolSpec, ...]:
    """Remote models get every tool. The embedded model gets none: it wrote tool JSON for small
    talk and did not call the edit tools when asked to remember (issue 12); the app keeps such
    requests itself (agent/keep_requests.py) and recalls memory before every reply."""
    return ALL_TOOLS if native_tools else ()


class ToolHost(Protocol):
    """What the tools act on; the service provides one per turn."""

    def edit_core_memory(self, content: str, mode: str) -> str: ...
    def revise_core_memory_line(self, old_line: str, new_line: str) -> bool: ...
    def edit_notepad(self, content: str, mode: str) -> str: ...
    def recall_memories(self, query: str) -> str: ...
    def search_past_conversations(self, keywords: str) -> str: ...
    def read_memory_context(self, snippet: str) -> str: ...
    def search_knowledge_base(self, query: str) -> str: ...
    def read_entity_memory(self, name: str) -> str: ...
    def write_entity_memory(self, name: str, content: str, mode: str, kind: str) -> str: ...
    def list_entity_memories(self, kind: str = "") -> str: ...
    def search_entity_memory(self, query: str) -> str: ...
    def read_main_diary(self, from_date: str = "") -> str: ...
    def read_secret_diary(self, from_date: str = "") -> str: ...
    def plan_diary_edit(self, diary: str, intent: str) -> str: ...
    def resolve_open_question(self, question: str, answer: str) -> str: ...
    def manage_goals(self, action: str, goal: str, term: str = "", priority: int | None = None, reason: str = "") -> str: ...


MemoryEditor = ToolHost  # the name the graph's dependencies use


@dataclass(frozen=True)
class ToolOutcome:
    call: ToolCall
    ok: bool
    result: str  # what the model is told
    announcement: str  # what the chat log and the user see (never the raw results)


# What the chat shows when the app keeps a "please remember" note itself, in the language of the
# user's message: an app line, not the persona's words (a Chinese user read "edit core memory (append)").
_KEPT = {
    "en": ("Kept in core memory", "Core-memory note corrected"),
    "ja": ("コアメモリに記録しました", "コアメモリのメモを訂正しました"),
    "zh": ("已记入核心记忆", "已更正核心记忆中的记录"),
    "ko": ("핵심 기억에 기록했어요", "핵심 기억의 기록을 고쳤어요"),
    "es": ("Guardado en la memoria central", "Nota de la memoria central corregida"),
    "fr": ("Noté dans la mémoire centrale", "Note de la mémoire centrale corrigée"),
    "de": ("Im Kernspeicher notiert", "Notiz im Kernspeicher korrigiert"),
    "pt": ("Guardado na memória central", "Nota da memória central corrigida"),
    "it": ("Salvato nella memoria centrale", "Nota della memoria centrale corretta"),
}


def kept_announcement(language: str, corrected: bool = False) -> str:
    """The app line for a note the app kept (or corrected) for the user, in their language."""
    return ANNOUNCEMENT_MARK + _KEPT.get(language, _KEPT["en"])[1 if corrected else 0]


_ANNOUNCEMENTS = {
    "recall_memories": f"{ANNOUNCEMENT_MARK}searched memories",
    "search_past_conversations": f"{ANNOUNCEMENT_MARK}searched past conversations",
    "read_memory_context": f"{ANNOUNCEMENT_MARK}read a past message in full",
    "search_knowledge_base": f"{ANNOUNCEMENT_MARK}searched the knowledge base",
    "read_entity_memory": f"{ANNOUNCEMENT_MARK}read an entity page",
    "list_entity_memories": f"{ANNOUNCEMENT_MARK}listed entity pages",
    "search_entity_memory": f"{ANNOUNCEMENT_MARK}searched entity pages",
    "read_main_diary": f"{ANNOUNCEMENT_MARK}read the diary",
    "read_secret_diary": f"{ANNOUNCEMENT_MARK}read the secret diary",
    "plan_diary_edit": f"{ANNOUNCEMENT_MARK}wrote in the diary",
    "resolve_open_question": f"{ANNOUNCEMENT_MARK}resolved an open question",
}


def run_tool(call: ToolCall, host: ToolHost) -> ToolOutcome:
    spec = next((t for t in ALL_TOOLS if t.name == call.name), None)
    if spec is None:
        return ToolOutcome(call, False, f"Unknown tool {call.name}.", f"{ANNOUNCEMENT_MARK}unknown tool {call.name}")
    if spec in MEMORY_EDIT_TOOLS:
        return _run_edit(call, host)
    if spec is WRITE_ENTITY_MEMORY:
        return _run_entity_write(call, host)
    if spec is MANAGE_GOALS:
        return _run_manage_goals(call, host)
    values = []
    for arg in spec.parameters["required"]:  # every argument a tool takes is a required string
        value = call.arguments.get(arg)
        if not isinstance(value, str) or not value.strip():
            return ToolOutcome(call, False, f"{arg} is required.", f"{ANNOUNCEMENT_MARK}{call.name} failed (invalid arguments)")
        values.append(value.strip())
    optional = {arg: value.strip() for arg, value in call.arguments.items()
                if arg in spec.parameters["properties"] and arg not in spec.parameters["required"]
                and isinstance(value, str) and value.strip()}
    try:
        result = getattr(host, call.name)(*values, **optional)
    except ValueError as exc:
        return ToolOutcome(call, False, str(exc), f"{ANNOUNCEMENT_MARK}{call.name} failed: {exc}")
    return ToolOutcome(call, True, result, _ANNOUNCEMENTS[call.name])


def _run_edit(call: ToolCall, host: ToolHost) -> ToolOutcome:
    handler: Callable[[str, str], str] = getattr(host, call.name)
    content = call.arguments.get("content")
    mode = call.arguments.get("mode") or "append"
    if not isinstance(content, str) or not content.strip() or mode not in ("append", "replace"):
        detail = json.dumps(dict(call.arguments), ensure_ascii=False)[:200]
        return ToolOutcome(call, False, f"Invalid arguments: {detail}", f"{ANNOUNCEMENT_MARK}{call.name} failed (invalid arguments)")
    try:
        result = handler(content, mode)
    except ValueError as exc:
        return ToolOutcome(call, False, str(exc), f"{ANNOUNCEMENT_MARK}{call.name} failed: {exc}")
    return ToolOutcome(call, True, result, f"{ANNOUNCEMENT_MARK}{call.name.replace('_', ' ')} ({mode})")


def _run_entity_write(call: ToolCall, host: ToolHost) -> ToolOutcome:
    name, content = call.arguments.get("name"), call.arguments.get("content")
    mode, kind = call.arguments.get("mode") or "append", call.arguments.get("kind") or ""
    if (not isinstance(name, str) or not name.strip() or not isinstance(content, str) or not content.strip()
            or mode not in ("append", "consolidate") or kind not in ("", "person", "place", "thing")):
        detail = json.dumps(dict(call.arguments), ensure_ascii=False)[:200]
        return ToolOutcome(call, False, f"Invalid arguments: {detail}", f"{ANNOUNCEMENT_MARK}{call.name} failed (invalid arguments)")
    try:
        result = host.write_entity_memory(name.strip(), content, mode, kind)
    except ValueError as exc:
        return ToolOutcome(call, False, str(exc), f"{ANNOUNCEMENT_MARK}{call.name} failed: {exc}")
    return ToolOutcome(call, True, result, f"{ANNOUNCEMENT_MARK}entity page {name.strip()} ({mode})")


def _run_manage_goals(call: ToolCall, host: ToolHost) -> ToolOutcome:
    args = call.arguments
    action, goal = args.get("action"), args.get("goal")
    term, reason, priority = args.get("term") or "", args.get("reason") or "", args.get("priority")
    if isinstance(priority, str) and priority.strip().isdigit():
        priority = int(priority)
    if (action not in GOAL_ACTIONS or not isinstance(goal, str) or not goal.strip()
            or term not in ("", "short_term", "long_term") or not isinstance(reason, str)
            or not (priority is None or (isinstance(priority, int) and not isinstance(priority, bool)))
            or (action == "priority" and priority is None) or (action == "abandon" and not reason.strip())):
        detail = json.dumps(dict(args), ensure_ascii=False)[:200]
        return ToolOutcome(call, False, f"Invalid arguments: {detail}", f"{ANNOUNCEMENT_MARK}{call.name} failed (invalid arguments)")
    try:
        result = host.manage_goals(action, goal.strip(), term, priority, reason.strip())
    except ValueError as exc:
        return ToolOutcome(call, False, str(exc), f"{ANNOUNCEMENT_MARK}{call.name} failed: {exc}")
    return ToolOutcome(call, True, result, f"{ANNOUNCEMENT_MARK}goal {action}: {goal.strip()[:60]}")
