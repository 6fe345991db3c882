"""The work after a reply, off the UI thread: make the new messages searchable, restate the notes
the user corrected, pre-evaluate the next turn's prompt prefix, read the persona's emotion.

The facade (persona/service.py) starts it in a background thread once a turn is over and hands in
what it needs; nothing here keeps state between turns.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable

from agent.emotion import EMOTION_SCHEMA, emotion_prompt, parse_emotion
from agent.keep_requests import MERGE_SCHEMA, merge_prompt, merged_line, pending_corrections
from agent.providers.base import CallStopped, ChatModel, ProviderError
from managers.chat_log import LogEntry, spoken_text
from persona.session import CharacterSession

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class AfterTurnDeps:
    """What the work asks of the facade. Callables, because each answer may change while the work
    runs (indexing takes seconds; a newer turn may begin, the user may rename themself)."""
    index: Callable[[], None] | None  # make the new messages searchable; None: a bench's searcher stands in for memory
    is_latest: Callable[[], bool]  # no newer turn has begun since this one
    user_name: Callable[[], str]  # Settings' name of the user


def after_turn(session: CharacterSession, model: ChatModel | None, user_text: str, reply: LogEntry | None,
               deps: AfterTurnDeps) -> None:
    """Make the new messages searchable, pre-evaluate the next turn's prompt prefix, then read
    the embedded model's emotion for the reply (agent/emotion.py).

    The warm-up costs a few tokens when the history window stayed put; when it has just
    moved (its budget overflowed), the whole window is evaluated here, while the user reads
    and types, instead of at the start of the next reply.
    """
    if deps.index is not None:
        deps.index()
    if model is None or not deps.is_latest():
        return  # a newer turn has begun: it builds, and evaluates, its own prompt
    if not model.native_tools:  # before the warm-up: core memory is part of the cached prefix
        settle_corrections(session, model)
    fold_conversation(session, model, deps)  # so is the running summary
    try:
        session.warm(model, deps.user_name())
    except ProviderError as exc:
        log.warning("Could not prepare the next turn: %s", exc.user_message)
    if reply is not None and model.budget_family == "local" and deps.is_latest():
        record_emotion(session, model, deps.user_name(), user_text, reply)
    if reply is not None and model.budget_family == "local":  # capable models report their traces in tags
        session.apply_traces(session.read_traces(spoken_text(reply.text)), "words")


def settle_corrections(session: CharacterSession, model: ChatModel) -> None:
    """A kept note the user corrected this turn ("…" → corrected: "…") is restated by the
    model as one note (agent/keep_requests.py); an answer that is not a valid note leaves the
    line as it is, both versions in the user's words — and it is not asked again each turn while the app runs
    (a new user's correction cost a model call on every turn after it: 「金曜」 is not in the note's 「（金）」)."""
    for pending in pending_corrections(session.read("core_memory")):
        if pending.line in session.unmerged_corrections:
            continue
        try:
            answer = model.complete_json(*merge_prompt(pending), MERGE_SCHEMA)
        except ProviderError as exc:
            log.warning("Could not restate a corrected note: %s", exc.user_message)
            return
        line = merged_line(pending, answer)
        if line is None:
            log.info("The restated note was not used: %r", answer[:200])
            session.unmerged_corrections.add(pending.line)
            continue
        session.revise_core_memory_line(pending.line, line)


def record_emotion(session: CharacterSession, model: ChatModel, user_name: str, user_text: str,
                   reply: LogEntry) -> None:
    system, user = emotion_prompt(session.character.name, user_name, user_text, reply.text)
    try:
        emotion = parse_emotion(model.complete_json(system, user, EMOTION_SCHEMA))
    except ProviderError as exc:
        log.warning("Could not read the persona's emotion: %s", exc.user_message)
        return
    if emotion is not None:
        session.record_emotion(reply, emotion)


def fold_conversation(session: CharacterSession, model: ChatModel, deps: AfterTurnDeps) -> None:
    """Turns of this sitting that left the history window join the running summary; a newer turn stops it."""
    try:
        session.fold_conversation(model, deps.user_name, should_stop=lambda: not deps.is_latest())
    except CallStopped:
        log.info("Folding the conversation stopped for a newer turn; it is done after that one")
    except ProviderError as exc:
        log.warning("Could not fold the conversation: %s", exc.user_message)
