"""One turn as a LangGraph StateGraph.

log_user (durable, before the model is asked) → retrieval → prompt → agent (streams) ⇄ tools
(bounded) → finalize (strip and apply reply tags, log the reply, close the journal).
Tokens reach the caller as custom stream events: {"type": "token", "text": ...}; status
events ({"type": "status", ...}) tell the UI what the turn is doing.
"""
from __future__ import annotations

import logging
import re
import threading
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any, Callable, Sequence, TypedDict

from langchain_core.runnables import RunnableConfig
from langgraph.config import get_stream_writer
from langgraph.graph import END, START, StateGraph

import constants
from agent import reply_tags
from agent.character_guard import SentenceGate
from agent.echoes import asks_it_back, echoes, squash, told_openings
from agent.engagement import leads_in, least_to_say, only_greets
from agent.keep_requests import KeepAction
from agent.held_back import greeting_held_back, users_words_held_back
from agent.language import is_question, name_for
from agent.memory_lines import is_day_heading
from agent.not_knowing import asks_of_a_day_told
from agent.notices import empty_reply_notice, kept_acknowledgement
from agent.out_of_character import claims_user_name
from agent.plain_desu import PlainDesuMender
from agent.relative_time import day_spelled_out
from agent.reply_form import asks_for_brevity
from agent.reply_rules import (RETRY_AFTER_DENYING_THOUGHT, RETRY_AFTER_NOT_KNOWING, RETRY_AFTER_SAYING_NOTHING,
                               RETRY_AFTER_SERVICE_TALK_TWICE, RETRY_AFTER_TAKING_NAME, retry_nudge)
from agent.prompt_builder import BuiltPrompt, long_message_note
from agent.providers.base import ChatMessage, ChatModel, ProviderError, TextDelta, ToolCall, ToolSpec
from agent.retrieval import RetrievalResult
from agent.tools import kept_announcement, MemoryEditor, ToolOutcome, run_tool, tools_for_turn
from managers.chat_log import ANNOUNCEMENT_MARK, STATUS_STOPPED, ChatLog, LogEntry
from managers.journal import StreamingJournal

log = logging.getLogger(__name__)


class TurnState(TypedDict, total=False):
    user_text: str
    user_entry_id: str  # set: the message is already logged (regenerate)
    replaces_id: str  # regenerate: the reply this turn replaces
    retrieval: RetrievalResult
    tools: tuple[ToolSpec, ...]
    prompt: BuiltPrompt
    transcript: list[ChatMessage]  # tool-loop messages after the prompt
    reply_raw: str  # everything the model wrote that is meant for the user
    pending_calls: list[ToolCall]
    outcomes: list[ToolOutcome]
    rounds: int
    stopped: bool
    error: str
    agent_entry_id: str
    emotions: tuple


@dataclass
class TurnControl:
    """Per-turn handles passed through the run config: the stop button sets `stop`."""

    stop: threading.Event = field(default_factory=threading.Event)


@dataclass(frozen=True)
class TurnDeps:
    model: ChatModel
    chat_log: ChatLog
    journal: StreamingJournal
    memory_editor: MemoryEditor
    clock: Callable[[], datetime]
    retrieve: Callable[[str, datetime], RetrievalResult]
    # (user entry, recall, tools offered, what the app saved this turn) -> the prompt
    compose_prompt: Callable[[LogEntry, RetrievalResult, Sequence[ToolSpec], str], BuiltPrompt]
    user_name: str
    persona_name: str
    temperature: float
    max_tokens: int
    seed: int | None = None
    max_chars: int | None = None  # the reply ends at its last whole sentence within this many characters
    remember_as_sent: Callable[[str, str], None] = lambda entry_id, content: None
    introduced_names: tuple[str, ...] = ()  # names the user introduced themself by in the conversation
    persona_other_names: tuple[str, ...] = ()  # the persona's names besides its folder's (its display name's)
    on_emotion: Callable[[LogEntry, Any], None] = lambda entry, emotion: None
    # (episode id, resonance) of the reply's <memory_trace/> tags (agent/memory_traces.py)
    on_traces: Callable[[Sequence[tuple[str, float]]], None] = lambda traces: None
    # "Please remember": what the app keeps for a message (a model without native tools), and the
    # record that the message was handled (the keep ledger: a turn killed before it is finished on
    # the next open, managers/keep_ledger.py).
    plan_keep: Callable[[LogEntry], KeepAction | None] = lambda entry: None
    keep_done: Callable[[str, str], None] = lambda entry_id, outcome: None


def turn_config(deps: TurnDeps, control: TurnControl) -> RunnableConfig:
    """The run config of one turn: what the nodes work with and the stop handle."""
    return {"configurable": {"deps": deps, "control": control}}


def _control(config: RunnableConfig) -> TurnControl:
    return config.get("configurable", {}).get("control") or TurnControl()


def _deps(config: RunnableConfig) -> TurnDeps:
    return config["configurable"]["deps"]


def _with_nudge(messages: list[ChatMessage], deps: TurnDeps, language: str, reason: str = "",
                thought: str = "") -> list[ChatMessage]:
    """The prompt of a retry: a line after the user's words asks for a reply in the persona's own
    words, in the turn's language — or, by the `reason` the last attempt failed (agent/reply_rules.py),
    for an answer from what the user told, for a greeting that calls the user by the name it took, or
    for the `thought` on the persona's mind that it denied.
    After them, so the first attempt's evaluation of the whole prompt stays valid and only the line is
    read (~0.4 s less per retry on 2 cores than re-reading the user's message after a line put before it)."""
    persona = name_for(language, (deps.persona_name, *deps.persona_other_names))
    return messages + [ChatMessage("system", retry_nudge(language, persona, deps.user_name, reason, thought))]


def _going_on_from(greeted: str, user_text: str) -> str:
    """The reply's start a retry goes on from: the greeting shown — unless the user's message opens
    with it too ("¡Hola!" to "¡Hola! Soy Diego. Hoy me compré…"), where the model went on copying
    the message (bench conversation, session 19); then the reply is written afresh."""
    return "" if squash(user_text).startswith(squash(greeted)) else greeted


def _echo_among(openings: Sequence[str], user_text: str) -> str:
    """The longest of the failed `openings` that said the user's message back, or ""."""
    return max((o for o in openings if echoes(o, user_text)), key=len, default="")


def _retry_reason(generation: "Generation", guard: "GuardInputs") -> str:
    """Why an attempt that showed nothing failed, when its retry is told more than "in your own words"."""
    if generation.not_knowing or (generation.blocked and generation.answers_told
                                  and asks_it_back(generation.blocked, guard.user_text)):
        return RETRY_AFTER_NOT_KNOWING  # "I don't know", or the question asked back, to what the user told
    if generation.denied_thought:
        return RETRY_AFTER_DENYING_THOUGHT
    if generation.took_name or guard.user_names and claims_user_name(generation.blocked, guard.user_names):
        return RETRY_AFTER_TAKING_NAME
    if (generation.only_greeted or generation.left_out) and not is_question(guard.user_text):
        return RETRY_AFTER_SAYING_NOTHING  # a greeting or service talk to something told
    return ""


def _nudge_reason(reason: str, nudged: tuple[str, ...]) -> tuple[str, ...]:
    """The reasons the retries were nudged by, with the next: after "react to what was told" failed once,
    the next asks for a remark on it, with no offer of help (agent/reply_rules.py)."""
    if reason == RETRY_AFTER_SAYING_NOTHING and reason in nudged:
        reason = RETRY_AFTER_SERVICE_TALK_TWICE
    return (*nudged, reason)


def min_reply_tokens(user_text: str) -> int:
    """A question gets more than a curt "I'm Ark." or 「ハナ」 (bench conversation, session 9), unless
    it asks for a short answer."""
    return constants.MIN_REPLY_TOKENS if is_question(user_text) and not asks_for_brevity(user_text) else 0


@dataclass(frozen=True)
class GuardInputs:
    """What the reply guard judges a reply against (agent/character_guard.py): the user's message
    and its language, the turn's context, the user's names (Settings, or introduced in the
    conversation) and what the user told earlier in it."""
    user_text: str
    context: str = ""
    user_names: tuple[str, ...] = ()
    user_said: tuple[str, ...] = ()
    language: str = ""  # the turn's language (CharacterSession.turn_language)
    persona_said: tuple[str, ...] = ()  # the persona's last replies in the window
    instructions: tuple[str, ...] = ()  # the reply's own instruction lines: the reminder, a retry's line
    day_told: bool = False  # the message asks of a day gone by the user said things on (agent/not_knowing.py)
    thought: str = ""  # what the prompt says is on the persona's mind (agent/on_mind.py)


def guard_inputs(state: "TurnState", deps: TurnDeps) -> GuardInputs:
    prompt = state["prompt"]
    names = tuple(dict.fromkeys(n for n in (deps.user_name, *deps.introduced_names)
                                if n.strip() and n.strip() != constants.DEFAULT_USER_NAME))
    window = [(e.ts.date() if e.ts else None, e.text) for e in prompt.history.entries if e.role == "USER"]
    dated = window + recalled_user_lines_dated(prompt.context, names)
    replies = tuple(e.text for e in prompt.history.entries if e.role == "AGENT")[-constants.REPEAT_WINDOW_REPLIES:]
    day_told = asks_of_a_day_told(state["user_text"], {day for day, _ in dated if day}, deps.clock().date(),
                                  prompt.language)
    return GuardInputs(state["user_text"], prompt.context, names, tuple(text for _, text in dated), prompt.language,
                       replies, tuple(filter(None, (prompt.reminder,))), day_told, prompt.thought)


def recalled_user_lines_dated(context: str, user_names: Sequence[str]) -> list[tuple[date | None, str]]:
    """What the user said in the memories recalled for this turn, with its day: "- [7 May 2023] Ken: …",
    or "- Ken: …" under its day's heading ("[7 May 2023]", "[Sunday, 7 May 2023]"; agent/memory_lines.py)."""
    if not user_names:
        return []
    speaker = re.compile(rf"^- (?:\[([^\]]*)\] )?(?:{'|'.join(re.escape(n) for n in user_names)}): (.+)$")
    said, day = [], None
    for line in context.split("\n"):
        if is_day_heading(line):
            day = day_spelled_out(line.strip()[1:-1])
        elif (found := speaker.match(line)) is not None:
            said.append((day_spelled_out(found.group(1)) if found.group(1) else day, found.group(2)))
        elif not line.startswith("- "):
            day = None  # a document's or an episode's line ends the day's messages
    return said


@dataclass(frozen=True)
class Generation:
    """One streamed model call: the text meant for the user, tool calls, whether it was stopped,
    an error, the sentences the guard put right, and what ended the reply (`SentenceGate.blocked`)."""
    text: str
    calls: list[ToolCall]
    stopped: bool
    error: str
    repaired: int
    blocked: str
    not_knowing: bool = False  # the opening said it did not know what the user had told (agent/not_knowing.py)
    took_name: bool = False  # a sentence taking the user's name as the persona's was left out
    only_greeted: bool = False  # it showed a greeting at once (or followed one shown before), then failed
    greeting: str = ""  # the greeting it showed at once
    left_out: tuple[str, ...] = ()  # openings left out as service talk or a refusal
    said_nothing: bool = False  # the model ended before it wrote anything but whitespace
    denied_thought: bool = False  # the opening denied the thought on the persona's mind (agent/on_mind.py)
    answers_told: bool = False  # the message asks about what the user told (SentenceGate.answers_told)


def _generate(deps: TurnDeps, control: TurnControl, messages: list[ChatMessage], tools: Sequence[ToolSpec],
              may_call: bool, temperature: float, seed: int | None,
              guard: GuardInputs, last_attempt: bool = False, avoid_openings: Sequence[str] = (),
              past_echo: str = "", greeted: str = "", at_least: int = 0) -> Generation:
    """One streamed model call. `avoid_openings`: what ended the previous attempts before anything
    was shown (the reply may not open with their first tokens); `past_echo`: one of them said the
    user's message back — this attempt leaves such an opening out and goes on, and may not end
    before it has had room for a sentence after one; `greeted`: the greeting an earlier attempt
    showed at once, which this one goes on from; `at_least`: the tokens before which it may not end.

    Text passes the character guard, then the tag filter; only what the guard lets through is
    journaled and becomes the reply, so what is logged is what was shown.
    """
    writer = get_stream_writer()
    round_text, calls = "", []
    display = reply_tags.TagStreamFilter()
    display.feed(greeted)  # shown by an earlier attempt: what follows is tidied as its continuation
    user_text = guard.user_text
    language = guard.language
    # Told something rather than asked, the model's Japanese often opened with service talk
    # (「忙しいときは、何かお手伝いできることがありますか？」, 「またお手伝いできることがあれば…」): there the
    # first sentence is checked whole before it is shown. An answer to a question streams at once.
    hold = language in ("ja", "zh") and not is_question(user_text)
    names = (*guard.user_names, deps.user_name, deps.persona_name, *deps.persona_other_names)
    gate = SentenceGate(names, user_text, language, guard.context,
                        user_names=guard.user_names, hold_first_sentence=hold, persona_name=deps.persona_name,
                        user_said=guard.user_said, day_told=guard.day_told, thought=guard.thought,
                        release_fillers=last_attempt, leave_out_echoes=bool(past_echo),
                        persona_said=guard.persona_said, greet_early=True, greeted=greeted,
                        most_chars=deps.max_chars, instructions=guard.instructions)
    mender = PlainDesuMender()  # 「あるです」 → 「あるんです」 before the guard reads it
    min_tokens = max(min_reply_tokens(user_text), at_least)
    wrote = ""
    going_on_from = _going_on_from(greeted, user_text)
    if going_on_from:
        min_tokens = max(min_tokens, constants.MIN_REPLY_TOKENS_AFTER_GREETING)
    if past_echo:
        min_tokens = max(min_tokens, deps.model.count_tokens(past_echo) + constants.MIN_REPLY_TOKENS_AFTER_ECHO)
    stopped, error = False, ""

    def show(text: str) -> None:
        nonlocal round_text
        round_text += text
        deps.journal.write_text(text)
        shown = display.feed(text)
        if shown:
            writer({"type": "token", "text": shown})

    try:
        for event in deps.model.stream(messages, tools, temperature, deps.max_tokens, seed, min_tokens,
                                       avoid_openings=avoid_openings, prefix=going_on_from):
            if isinstance(event, ToolCall):
                calls.append(event)
                continue
            assert isinstance(event, TextDelta)
            wrote += event.text
            show(gate.feed(mender.feed(event.text)))
            if gate.blocked or gate.full:
                break
            if control.stop.is_set():
                stopped = True
                break
    except ProviderError as exc:
        error = exc.user_message
    if not stopped:
        show(gate.feed(mender.flush()))
        show(gate.flush())
    if gate.blocked.strip():  # out of character, or nothing but greetings and fillers
        log.info("The guard held back %r", gate.blocked[:80])
    elif wrote.strip() and not round_text.strip():  # held silently (a filler alone, a tag): what was it
        log.info("Nothing of the attempt was shown; the model wrote %r", wrote[:120])
    tail = display.flush()
    if tail:
        writer({"type": "token", "text": tail})
    # A greeting streamed as the opening of an answer, then the rest held back, is a greeting shown too ("Hey,
    # Sam!" and the echo after it to "Guess where I've just been?" was the whole reply: §4 en-trip, session 44)
    # So is a lead-in that the held-back rest was to follow ("Hier ist Annas Antwort:" before "Anna: …", session 47).
    greeting = gate.greeting or (round_text.strip() if gate.blocked and (
        leads_in(round_text) or only_greets(round_text, guard.user_names)) else "")
    only_greeted = bool(gate.blocked) and bool(greeted or greeting) and round_text.strip() == greeting
    return Generation(round_text, calls if may_call else [], stopped, error, gate.repaired, gate.blocked,
                      gate.not_knowing, gate.took_name, only_greeted, greeting, tuple(gate.left_out_openings),
                      said_nothing=not wrote.strip() and not calls and not error and not stopped,
                      denied_thought=gate.denied_thought, answers_told=gate.answers_told)


def _keep(action: KeepAction, editor: MemoryEditor, language: str = "") -> ToolOutcome | None:
    """Write what the app keeps for the user: a new core-memory line, or a kept line corrected
    (None when that line is no longer there as kept: corrected already, or edited by the user),
    announced in the user's `language`."""
    if not action.old_line:
        outcome = run_tool(ToolCall("edit_core_memory", {"content": action.line, "mode": "append"}), editor)
        return replace(outcome, announcement=kept_announcement(language)) if outcome.ok else outcome
    call = ToolCall("edit_core_memory", {"content": action.line, "mode": "revise"})
    try:
        if not editor.revise_core_memory_line(action.old_line, action.line):
            return None
    except ValueError as exc:
        return ToolOutcome(call, False, str(exc), f"{ANNOUNCEMENT_MARK}edit core memory failed: {exc}")
    return ToolOutcome(call, True, "core_memory updated (correction).", kept_announcement(language, corrected=True))


_MEMORY_EDITS = ("edit_core_memory", "edit_notepad")


def _kept_a_note(outcomes: Sequence[ToolOutcome]) -> bool:
    return any(o.call.name in _MEMORY_EDITS and o.ok for o in outcomes)


def _kept_for_a_model_that_did_not(state: TurnState, deps: TurnDeps) -> list[ToolOutcome]:
    """A model with native tools that was asked to remember and answered "I'll remember that"
    without calling an edit tool (a small server model did so every time, issue 18): after its
    reply the app keeps the request itself, and says so."""
    if not deps.model.native_tools or state.get("replaces_id") or state.get("error"):
        return []  # an error: the ledger is left unwritten, and the request is handled at the next turn or start
    user_entry = deps.chat_log.find(state["user_entry_id"])
    if user_entry is None:
        return []
    if _kept_a_note(state["outcomes"]):
        deps.keep_done(user_entry.id, "model")
        return []
    action = deps.plan_keep(user_entry)
    outcome = _keep(action, deps.memory_editor, state["prompt"].language) if action else None
    if outcome is None:
        deps.keep_done(user_entry.id, "")
        return []
    deps.keep_done(user_entry.id, action.line if outcome.ok else "failed")
    get_stream_writer()({"type": "tool", "announcement": outcome.announcement, "ok": outcome.ok})
    return [outcome]


def build_turn_graph() -> StateGraph:
    """The uncompiled graph. Its nodes take their TurnDeps from the run config (`turn_config`), so
    the app compiles it once: compiling cost ~4 ms of every turn (BENCHMARKS.md §2)."""

    def log_user(state: TurnState, config: RunnableConfig) -> dict:
        deps = _deps(config)
        if state.get("user_entry_id"):
            return {}
        text = reply_tags.strip_user_tags(state["user_text"])
        entry = deps.chat_log.append("USER", deps.user_name, text)
        return {"user_entry_id": entry.id, "user_text": text}

    def retrieval_node(state: TurnState, config: RunnableConfig) -> dict:
        deps = _deps(config)
        writer = get_stream_writer()
        writer({"type": "status", "text": "Remembering…"})
        result = deps.retrieve(state["user_text"], deps.clock())
        writer({"type": "retrieval", "result": result})
        return {"retrieval": result}

    def prompt_node(state: TurnState, config: RunnableConfig) -> dict:
        deps = _deps(config)
        user_entry = deps.chat_log.find(state["user_entry_id"])
        if user_entry is None:
            raise ValueError(f"message {state['user_entry_id']} is not in the log")
        tools = tools_for_turn(user_entry.text, deps.model.native_tools)
        # A model without native tools does not call the edit tools when asked to remember: the
        # app keeps the request itself. The prompt is built first, so this turn still starts from
        # the cached prefix; the next turn's warm-up reads the changed core memory.
        action = None
        if not deps.model.native_tools and not state.get("replaces_id"):
            action = deps.plan_keep(user_entry)
        prompt = deps.compose_prompt(user_entry, state["retrieval"], tools, action.line.removeprefix("- ") if action else "")
        outcomes = []
        outcome = _keep(action, deps.memory_editor, prompt.language) if action else None
        if outcome:
            outcomes.append(outcome)
            get_stream_writer()({"type": "tool", "announcement": outcome.announcement, "ok": outcome.ok})
        elif action:  # nothing was revised after all: the reply is not told otherwise
            prompt = deps.compose_prompt(user_entry, state["retrieval"], tools, "")
        if not state.get("replaces_id") and not deps.model.native_tools:  # a model with tools: after its turn
            done = action.line if outcome and outcome.ok else "failed" if outcome else ""
            deps.keep_done(user_entry.id, done)
        if prompt.message_kept is not None:  # cut to fit the context: the user is told, the log keeps it whole
            get_stream_writer()({"type": "tool", "announcement": long_message_note(prompt.message_kept, len(user_entry.text)),
                                 "ok": True})
        return {"prompt": prompt, "tools": tools, "transcript": [], "reply_raw": "",
                "rounds": 0, "outcomes": outcomes, "pending_calls": []}

    def agent_node(state: TurnState, config: RunnableConfig) -> dict:
        deps, control = _deps(config), _control(config)
        may_call = state["rounds"] < constants.MAX_TOOL_ROUNDS
        tools = state["tools"] if may_call else ()
        messages = list(state["prompt"].messages) + state["transcript"]
        guard, repairs, ended_by, reason = guard_inputs(state, deps), 0, (), ""
        left_out: tuple[str, ...] = ()  # service talk the attempts opened with: not to be opened with again
        # An empty or tag-only reply is never the persona's answer: nothing of it was shown
        # (whitespace and tags are held back), so it is asked for again with another seed — and,
        # when the guard ended it, without the opening that failed (the user's words said back
        # opened three attempts running, even at a higher temperature). A greeting shown at once
        # stays: the next attempt goes on from it.
        greeted, at_least, nudged = "", 0, ()
        names = (*guard.user_names, deps.user_name, deps.persona_name, *deps.persona_other_names)
        told = told_openings(guard.user_text, names)  # never an opening: the message said back
        for attempt in range(1 + constants.EMPTY_REPLY_RETRIES):
            if state["rounds"] == 0 and not greeted:
                deps.journal.open(reply_to=state["user_entry_id"], speaker=deps.persona_name)
            temperature = deps.temperature if attempt == 0 else max(deps.temperature, constants.RETRY_MIN_TEMPERATURE)
            seed = None if deps.seed is None else deps.seed + attempt * constants.RETRY_SEED_STRIDE
            nudged = _nudge_reason(reason, nudged)
            asked = messages if attempt == 0 else _with_nudge(messages, deps, state["prompt"].language, nudged[-1],
                                                              guard.thought)
            # the retry's line is context too: said back, it is no reply ("Rispondi a Giulia come Ark, in
            # italiano, con parole tue." was shown as one; bench conversation, session 21)
            judged = guard if attempt == 0 else replace(guard, context=f"{guard.context}\n{asked[-1].content}",
                                                        instructions=(*guard.instructions, asked[-1].content))
            generation = _generate(deps, control, asked, tools, may_call, temperature, seed, judged,
                                   last_attempt=attempt == constants.EMPTY_REPLY_RETRIES,
                                   avoid_openings=told + ended_by + left_out,
                                   past_echo=_echo_among(ended_by, guard.user_text), greeted=greeted, at_least=at_least)
            round_text, calls, stopped, error = generation.text, generation.calls, generation.stopped, generation.error
            round_text = greeted + round_text  # after a greeting an earlier attempt showed
            repairs += generation.repaired
            reason = _retry_reason(generation, guard) or reason
            ended_by += (generation.blocked,) if generation.blocked.strip() else ()
            left_out += tuple(o for o in generation.left_out if o.strip())
            if calls or stopped or error or (reply_tags.parse_reply(round_text).visible_text and not generation.only_greeted):
                break
            greeted = greeted or generation.greeting
            if generation.said_nothing:  # ended at once, to a thing told (no question, so no floor): not again
                at_least = constants.MIN_REPLY_TOKENS_AFTER_SILENCE
            log.warning("The model gave an empty reply (attempt %d of %d)", attempt + 1,
                        1 + constants.EMPTY_REPLY_RETRIES)
        else:
            if greeted:  # the greeting shown at once is the reply, journaled and shown already
                round_text = greeted
            else:
                round_text = (greeting_held_back(ended_by, guard.language, names, guard.user_names,
                                                 least_to_say(guard.user_text, guard.language))
                              or users_words_held_back(ended_by + left_out, guard.language, guard.user_said, names,
                                                       guard.user_names)
                              or (kept_acknowledgement(guard.language) if _kept_a_note(state["outcomes"]) else ""))
                if round_text:
                    deps.journal.write_text(round_text)
                    get_stream_writer()({"type": "token", "text": round_text})
                else:
                    error = empty_reply_notice(guard.language, name_for(guard.language, (
                        deps.persona_name, *deps.persona_other_names)))
        get_stream_writer()({"type": "guard", "asked_again": attempt, "repaired": repairs})
        reply_raw = state["reply_raw"] + round_text
        return {"reply_raw": reply_raw, "pending_calls": calls, "stopped": stopped, "error": error,
                "rounds": state["rounds"] + 1}

    def tools_node(state: TurnState, config: RunnableConfig) -> dict:
        deps = _deps(config)
        writer = get_stream_writer()
        transcript = list(state["transcript"])
        outcomes = list(state["outcomes"])
        for call in state["pending_calls"]:
            deps.journal.write_tool(call.name)
            outcome = run_tool(call, deps.memory_editor)
            outcomes.append(outcome)
            writer({"type": "tool", "announcement": outcome.announcement, "ok": outcome.ok})
            transcript.append(ChatMessage("assistant", f'{{"name": "{call.name}"}}'))
            transcript.append(ChatMessage("tool", outcome.result, tool_call_id=call.id, name=call.name))
        return {"transcript": transcript, "outcomes": outcomes, "pending_calls": []}

    def route_after_agent(state: TurnState) -> str:
        if state["pending_calls"] and not state.get("stopped") and not state.get("error"):
            return "tools"
        return "finalize"

    def finalize(state: TurnState, config: RunnableConfig) -> dict:
        deps = _deps(config)
        parsed = reply_tags.without_echoes(reply_tags.parse_reply(state["reply_raw"]), state["user_text"])
        outcomes = list(state["outcomes"]) + _kept_for_a_model_that_did_not(state, deps)
        announcements = [o.announcement for o in outcomes]
        if state["prompt"].message_kept is not None:
            announcements.insert(0, long_message_note(state["prompt"].message_kept, len(state["user_text"])))
        text = "\n".join(announcements + ([parsed.visible_text] if parsed.visible_text else []))
        meta = {"reply_to": state["user_entry_id"]}
        if state.get("replaces_id"):
            meta["replaces"] = state["replaces_id"]
        if parsed.emotions:
            first = parsed.emotions[0]
            meta["emotion"] = f"{first.category}:{first.intensity:.2f}"
        if state.get("stopped"):
            meta["status"] = STATUS_STOPPED
        if not parsed.visible_text:
            # No words from the model (an error, only empty replies, or stopped before any): the
            # notice is shown, nothing is logged as the persona's reply (tool results stay: they
            # really happened).
            deps.journal.finalize()
            return {"agent_entry_id": "", "emotions": ()}
        entry = deps.chat_log.append("AGENT", deps.persona_name, text, **meta)
        deps.journal.finalize()
        deps.remember_as_sent(entry.id, state["reply_raw"])
        for emotion in parsed.emotions:
            deps.on_emotion(entry, emotion)
        if parsed.traces:
            deps.on_traces([(trace.id, trace.resonance) for trace in parsed.traces])
        get_stream_writer()({"type": "done", "entry": entry, "text": text})
        return {"agent_entry_id": entry.id, "emotions": parsed.emotions}

    graph = StateGraph(TurnState)
    graph.add_node("log_user", log_user)
    graph.add_node("retrieval", retrieval_node)
    graph.add_node("prompt", prompt_node)
    graph.add_node("agent", agent_node)
    graph.add_node("tools", tools_node)
    graph.add_node("finalize", finalize)
    graph.add_edge(START, "log_user")
    graph.add_edge("log_user", "retrieval")
    graph.add_edge("retrieval", "prompt")
    graph.add_edge("prompt", "agent")
    graph.add_conditional_edges("agent", route_after_agent, {"tools": "tools", "finalize": "finalize"})
    graph.add_edge("tools", "agent")
    graph.add_edge("finalize", END)
    return graph
