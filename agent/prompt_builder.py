"""Builds the prompt from named sections, each within its token budget.

Order matters for speed: the static sections (identity, core memory, notepad, instructions)
come first, then the conversation history, then what changes every turn (time, retrieved
memories, tool hints) right before the user's message. llama.cpp then reuses the evaluated
prefix between turns. History is windowed in blocks (see `select_history`) so the start of the
window, and with it the cached prefix, stays put for many turns.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

import constants
from agent.providers.base import ChatMessage
from managers.chat_log import ANNOUNCEMENT_MARK, LogEntry

CountTokens = Callable[[str], int]
TRUNCATION_MARK = "\n…(truncated)"
# The end of a user's message too long for the model's context: the model is told it read only the start.
MESSAGE_CUT_MARK = "\n…(the rest of this message was too long to read)"


@dataclass(frozen=True)
class PromptSection:
    name: str  # a key of constants.PROMPT_BUDGETS[...]
    title: str
    text: str
    # A list section (recalled memories): whole lines are kept in order of importance while they
    # fit, so no memory is cut in the middle (a single line longer than the room is cut and
    # marked), then shown in the order of `line_order`'s keys when given.
    lines: tuple[str, ...] = ()
    line_order: tuple[str, ...] = ()
    # Cuts a line to a number of tokens (agent/memory_lines.focused_line about the user's message):
    # no line takes more than 1/PROMPT_LINES_AT_LEAST of the section's room.
    shorten: Callable[[str, int], str] | None = None
    # Joins the kept lines in their order (memories: each date said once above its lines); "\n" when None.
    join: Callable[[Sequence[str]], str] | None = None
    # A static section that grows at its end (core memory: kept notes are appended): when it does not
    # fit, its newest lines are kept and the oldest left out (`fit_newest_lines`), never the other way.
    newest_first: bool = False


def fit_lines(lines: Sequence[str], budget: int, count: CountTokens, order: Sequence[str] = (),
              shorten: Callable[[str, int], str] | None = None,
              join: Callable[[Sequence[str]], str] | None = None) -> str:
    """The lines, in their order of importance, that fit in `budget` tokens together: one that
    does not fit is passed over for the next (the first one cut if none fits), sorted by `order`
    (stable; one key per line) when given, and joined by `join` (one per line when None), as
    they are counted. With `shorten`, a line longer than the budget's 1/PROMPT_LINES_AT_LEAST
    share is first cut to that share."""
    share = budget // constants.PROMPT_LINES_AT_LEAST
    if shorten:
        lines = [shorten(line, share) if count(line) > share else line for line in lines]
    joined = join or "\n".join

    def shown(indices: list[int]) -> str:
        return joined([lines[k] for k in (sorted(indices, key=lambda k: order[k]) if order else indices)])

    kept: list[int] = []
    for index, line in enumerate(lines):
        if line and count(shown(kept + [index])) <= budget:
            kept.append(index)
    if not kept and lines:
        return fit_to_budget(lines[0], budget, count)
    return shown(kept)


def fit_newest_lines(text: str, budget: int, count: CountTokens) -> tuple[str, int]:
    """The newest lines of `text` (its end) that fit in `budget` tokens, in their order, and how many
    older lines were left out. Cut from its head, a core memory that outgrew its budget kept its
    oldest notes and silently dropped the ones the user had just asked to keep (issue 18)."""
    text = text.strip()
    if not text or count(text) <= budget:
        return text, 0
    lines = text.split("\n")
    kept: list[str] = []
    for line in reversed(lines):
        if count("\n".join([line] + kept)) > budget:
            break
        kept.insert(0, line)
    if not kept:
        return fit_to_budget(lines[-1], budget, count), len(lines) - 1
    return "\n".join(kept), len(lines) - len(kept)


@dataclass(frozen=True)
class HistoryWindow:
    entries: tuple[LogEntry, ...]
    anchor_id: str  # the first entry of the window; kept between turns


@dataclass(frozen=True)
class BuiltPrompt:
    messages: tuple[ChatMessage, ...]
    prefix_len: int  # messages[:prefix_len] are static sections + history: what `warm` evaluates
    section_tokens: Mapping[str, int] = field(default_factory=dict)
    history: HistoryWindow = HistoryWindow((), "")
    context: str = ""  # the turn's own context message (time, memories, reminder): never to be said back
    left_out: Mapping[str, int] = field(default_factory=dict)  # section → lines that did not fit (newest_first)
    language: str = ""  # the language the reply is to be in (agent/language.py), worked out once per turn
    message_kept: int | None = None  # the user's message was cut to this many characters to fit the context
    reminder: str = ""  # the reply's instruction line, the context's last (agent/reply_rules.py)
    thought: str = ""  # what the prompt says is on the persona's mind, when it is there (agent/on_mind.py)

    @property
    def prefix(self) -> tuple[ChatMessage, ...]:
        return self.messages[: self.prefix_len]


def long_message_note(kept: int, total: int) -> str:
    """The app's line in the chat when the user's message was cut to fit the model's context."""
    return (f"{ANNOUNCEMENT_MARK}Your message was too long for this model: it read the first {kept:,} of its {total:,} "
            "characters. The whole message is kept in the chat log.")


def fit_to_budget(text: str, budget: int, count: CountTokens, mark: str = TRUNCATION_MARK) -> str:
    """`text` if it fits in `budget` tokens, else its head cut to fit, ending in `mark`; "" if
    not even the mark fits."""
    text = text.strip()
    if not text or count(text) <= budget:
        return text
    low, high = 0, len(text)
    while low < high:  # binary search on characters: token counts are monotone enough
        mid = (low + high + 1) // 2
        if count(text[:mid].rstrip() + mark) <= budget:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + mark if low else ""


def index_from_end(entries: Sequence[LogEntry], entry_id: str, missing: int | None = None) -> int | None:
    """Where the entry is, searched from the newest end (what a turn looks for is nearly always
    recent); `missing` if it is not there."""
    return next((i for i in range(len(entries) - 1, -1, -1) if entries[i].id == entry_id), missing)


def select_history(
    entries: Sequence[LogEntry], anchor_id: str, budget: int, count: CountTokens,
    render: Callable[[LogEntry], str] = lambda e: e.text,
) -> HistoryWindow:
    """The history to show: from the kept anchor if it still fits, else a fresh, shorter window.

    Walking back from the newest entry is bounded by the budget, so the cost does not grow
    with the length of the whole history.
    """
    if anchor_id:
        start = index_from_end(entries, anchor_id)
        if start is not None:
            window = entries[start:]
            if sum(count(render(e)) for e in window) <= budget:
                return HistoryWindow(tuple(window), anchor_id)
    target = int(budget * constants.HISTORY_KEEP_FRACTION_ON_TRIM)
    total, start = 0, len(entries)
    while start > 0:
        cost = count(render(entries[start - 1]))
        if total + cost > target:
            break
        total += cost
        start -= 1
    window = tuple(entries[start:])
    return HistoryWindow(window, window[0].id if window else "")


def build_prompt(
    static_sections: Sequence[PromptSection],
    history: HistoryWindow,
    dynamic_sections: Sequence[PromptSection],
    user_text: str,
    budgets: Mapping[str, int],
    count: CountTokens,
    render_history: Callable[[LogEntry], str] = lambda e: e.text,
    reminder: str = "",
    closing_note: str = "",
    context_tokens: int = 0,
) -> BuiltPrompt:
    """Assemble the messages: the static system message, the history, then what changes every
    turn as a system message of its own, then the user's message as typed.

    The per-turn context is not wrapped in the user's message: the small model copied such
    markup (`<context>[Now] …`) into its replies and took its content for the user's words.
    `reminder` (who replies, in which language: a line in the user's language) closes the
    context. `closing_note` ends the prefix: it changes seldom (the current hour), so the warm-up
    after a reply evaluates it and the turn does not. (Placed after the user's words, in brackets, the model copied it into its replies.)
    `context_tokens`: what the prompt may take of the model's context (the reply's room left out); a
    user's message longer than what is left of it is cut to fit, marked (`message_kept`).
    """
    tokens: dict[str, int] = {}
    left_out: dict[str, int] = {}
    static_parts = []
    for section in static_sections:
        if section.newest_first:
            text, left_out[section.name] = fit_newest_lines(section.text, budgets.get(section.name, 0), count)
        else:
            text = fit_to_budget(section.text, budgets.get(section.name, 0), count)
        tokens[section.name] = count(text) if text else 0
        if text:
            static_parts.append(f"# {section.title}\n{text}")
    messages = [ChatMessage("system", "\n\n".join(static_parts))]
    for entry in history.entries:
        role = "user" if entry.role == "USER" else "assistant"
        messages.append(ChatMessage(role, render_history(entry)))
    tokens["history"] = sum(count(m.content) for m in messages[1:])
    if closing_note:  # what changes slowly (the hour): the end of the prefix, evaluated ahead of time
        messages.append(ChatMessage("system", closing_note))
    prefix_len = len(messages)

    dynamic_budget = budgets.get("dynamic", 0)
    dynamic_parts, shared_parts = [], []
    used = 0
    for section in dynamic_sections:
        header = f"# {section.title}\n"
        # A section named after a budget of its own (an entity page) takes that, on top of "dynamic".
        own = section.name != "dynamic"
        room = (budgets.get(section.name, 0) if own else dynamic_budget - used) - count(header) - 2  # -2: the join
        if room <= 0:
            text = ""
        elif section.lines:
            text = fit_lines(section.lines, room, count, section.line_order, section.shorten, section.join)
        else:
            text = fit_to_budget(section.text, room, count)
        if text:
            dynamic_parts.append(header + text)
            if own:
                tokens[section.name] = tokens.get(section.name, 0) + count(header + text)
            else:
                shared_parts.append(header + text)
                used = count("\n\n".join(shared_parts))
    context = "\n\n".join(dynamic_parts + ([reminder] if reminder else []))
    # The reminder comes on top of "dynamic" (constants.PROMPT_BUDGETS): counted apart, so "dynamic"
    # is what its budget bounds (bench budgets checks every section against its budget).
    tokens["dynamic"] = count("\n\n".join(shared_parts)) if shared_parts else 0
    tokens["reminder"] = count(reminder) if reminder else 0
    if context:
        messages.append(ChatMessage("system", context))
    kept, tokens["message"] = None, count(user_text)
    if context_tokens:
        room = context_tokens - sum(count(m.content) for m in messages) - constants.CHAT_TEMPLATE_TOKENS_PER_MESSAGE * (
            len(messages) + 1)
        if tokens["message"] > room:
            cut = fit_to_budget(user_text, max(room, 0), count, MESSAGE_CUT_MARK)
            kept = len(cut) - len(MESSAGE_CUT_MARK) if cut else 0
            user_text = cut or MESSAGE_CUT_MARK.strip()
            tokens["message"] = count(user_text)
    messages.append(ChatMessage("user", user_text))
    return BuiltPrompt(tuple(messages), prefix_len, tokens, history, context, left_out, message_kept=kept,
                       reminder=reminder)
