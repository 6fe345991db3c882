"""One chat turn as the facade runs it: what the turn graph (agent/graph.py) is handed for a
persona's session, and the graph's stream turned into the events the page lays out.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Callable, Iterator, Mapping, Sequence

from agent.graph import TurnDeps
from agent.providers.base import ChatModel
from agent.providers.factory import max_reply_chars, max_reply_tokens
from agent.retrieval import RetrievalResult, Searcher, retrieve
from managers.chat_log import LogEntry
from managers.config import AppSettings
from persona.session import CharacterSession
from persona.tool_host import PersonaTools

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TurnEvent:
    kind: str  # status / token / tool / retrieval / guard / done / error
    text: str = ""
    entry: LogEntry | None = None
    retrieval: RetrievalResult | None = None
    counts: Mapping[str, int] | None = None  # "guard": replies asked for again, sentences put right


def regenerate_state(view: Sequence[LogEntry]) -> dict | None:
    """The turn that answers the last user message again (replacing the reply after it, if any);
    None with no user message yet."""
    last_user = next((e for e in reversed(view) if e.role == "USER"), None)
    if last_user is None:
        return None
    replaces = view[-1].id if view[-1].role == "AGENT" else ""
    return {"user_text": last_user.text, "user_entry_id": last_user.id, "replaces_id": replaces}


def turn_deps(session: CharacterSession, model: ChatModel, user_text: str, user_name: str, settings: AppSettings,
              clock: Callable[[], datetime], searcher: Callable[[], Searcher], recall: Callable[[], object],
              knowledge: Callable[[], object], prompt_budgets: Mapping[str, int] | None,
              keep_reader: Callable[[str], bool] | None = None) -> TurnDeps:
    """What the turn graph works with for `session`'s persona; `searcher`, `recall` and `knowledge`
    are asked for only when the turn searches."""
    introduced = session.introduced_name(user_text)
    return TurnDeps(
        model=model, chat_log=session.chat_log, journal=session.journal,
        memory_editor=PersonaTools(session, recall, knowledge, clock, model=lambda: model),
        clock=clock,
        retrieve=lambda text, now: retrieve(text, now, searcher(), settings.auto_retrieval,
                                            session.question_before_last(now)),
        compose_prompt=lambda entry, retrieval, tools, saved: session.compose_prompt(
            model, entry, retrieval, tools, user_name, saved, prompt_budgets),
        user_name=user_name, persona_name=session.character.name,
        introduced_names=(introduced,) if introduced else (),
        persona_other_names=session.other_names(),
        temperature=settings.temperature, max_tokens=max_reply_tokens(model), max_chars=max_reply_chars(model),
        seed=settings.seed,
        remember_as_sent=session.remember_as_sent, on_emotion=session.record_emotion,
        on_traces=lambda traces: session.apply_traces(traces, "tag"),
        plan_keep=lambda entry: session.plan_keep(entry, user_name, keep_reader),
        keep_done=session.keep_ledger.record,
    )


def turn_events(stream: Iterator[tuple[str, dict]]) -> Iterator[TurnEvent]:
    """The page's events from the graph's stream (stream_mode ["custom", "values"]); a turn that
    ended in an error says so last. The first token's delay is logged."""
    final_error = ""
    started, first_token_logged = time.monotonic(), False
    for mode, payload in stream:
        if mode == "values":
            final_error = payload.get("error", "") or final_error
            continue
        kind = payload.get("type")
        if kind == "token":
            if not first_token_logged:
                first_token_logged = True
                log.info("First token after %.2f s", time.monotonic() - started)
            yield TurnEvent("token", payload["text"])
        elif kind == "tool":
            yield TurnEvent("tool", payload["announcement"])
        elif kind == "status":
            yield TurnEvent("status", payload["text"])
        elif kind == "retrieval":
            yield TurnEvent("retrieval", retrieval=payload["result"])
        elif kind == "guard":
            yield TurnEvent("guard", counts={"asked_again": payload["asked_again"],
                                             "repaired": payload["repaired"]})
        elif kind == "done":
            yield TurnEvent("done", payload["text"], entry=payload["entry"])
    if final_error:
        yield TurnEvent("error", final_error)


_END = object()


def outliving_the_page(events: Iterator[TurnEvent], name: str) -> Iterator[TurnEvent]:
    """`events`, run to their end on a thread of their own, each handed on as it comes: when the page
    that asked for the reply closes or reloads mid-way, the turn still finishes and its reply is logged
    (it was lost with the page's generator before)."""
    box: queue.Queue = queue.Queue()

    def run() -> None:
        try:
            for event in events:
                box.put(event)
        except Exception as exc:  # noqa: BLE001 — handed to the page, which raises it where it reads
            log.exception("The turn of %s failed", name)
            box.put(exc)
        finally:
            box.put(_END)

    threading.Thread(target=run, name=f"turn-{name}", daemon=True).start()
    while (item := box.get()) is not _END:
        if isinstance(item, Exception):
            raise item
        yield item
