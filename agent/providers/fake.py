"""A scripted chat model for tests: a plain function decides each reply, streamed in pieces.

`script(messages, tools)` returns the reply text, or a list of events (TextDelta / ToolCall)
for native-tool runs. Every call is recorded in `calls`, so tests can look at the prompt.
"""
from __future__ import annotations

import json
import math
import re
import threading
import time
from typing import Callable, Iterator, Sequence, Union

import constants
from agent.providers.base import CallStopped, ChatMessage, ProviderError, StreamEvent, TextDelta, ToolCall, ToolSpec

Script = Callable[[Sequence[ChatMessage], Sequence[ToolSpec]], Union[str, list]]


def replies(*texts: str) -> Script:
    """A script that answers with the given texts in turn (the last one repeats)."""
    counter = {"n": 0}
    lock = threading.Lock()

    def script(messages, tools):
        with lock:
            index = min(counter["n"], len(texts) - 1)
            counter["n"] += 1
        return texts[index]

    return script


class ScriptedChatModel:
    def __init__(
        self,
        script: Script,
        name: str = "scripted",
        budget_family: str = "local",
        native_tools: bool = False,
        delay_per_piece_s: float = 0.0,
        sleep: Callable[[float], None] = time.sleep,
        json_script: Callable[[str, str, dict], str] | None = None,
    ):
        self.script = script
        self.name = name
        self.budget_family = budget_family
        self.native_tools = native_tools
        self.delay_per_piece_s = delay_per_piece_s
        self._sleep = sleep
        self.calls: list[tuple[list[ChatMessage], list[ToolSpec]]] = []
        self.warmed: list[list[ChatMessage]] = []
        self.prefixes: list[str] = []  # each call's `prefix` (the reply so far)
        self.least_tokens: list[int] = []  # each call's `min_tokens` (how soon it was allowed to end)
        self.avoided: list[tuple[str, ...]] = []  # each call's `avoid_openings`
        self.json_script = json_script  # answers complete_json; None: the model cannot
        self.json_calls: list[str] = []  # the user text of each complete_json call

    def stream(
        self,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolSpec],
        temperature: float,
        max_tokens: int,
        seed: int | None = None,
        min_tokens: int = 0,  # no control over a remote model's ending (fake: scripted replies)
        avoid_openings: Sequence[str] = (),
        prefix: str = "",  # scripted replies are written whole: a retry's script writes what follows
    ) -> Iterator[StreamEvent]:
        self.calls.append((list(messages), list(tools)))
        self.prefixes.append(prefix)
        self.least_tokens.append(min_tokens)
        self.avoided.append(tuple(avoid_openings))
        result = self.script(messages, tools)
        events = [result] if isinstance(result, str) else list(result)
        for event in events:
            if isinstance(event, str):
                event = TextDelta(event)
            if isinstance(event, TextDelta):
                for piece in re.findall(r"\S+\s*|\s+", event.text):
                    if self.delay_per_piece_s:
                        self._sleep(self.delay_per_piece_s)
                    yield TextDelta(piece)
            elif isinstance(event, (ToolCall, Exception)):
                if isinstance(event, Exception):
                    raise event
                yield event

    def load(self) -> object:
        return self

    def count_tokens(self, text: str) -> int:
        return math.ceil(len(text) / constants.CHARS_PER_TOKEN_ESTIMATE)

    def warm(self, messages: Sequence[ChatMessage]) -> None:
        self.warmed.append(list(messages))

    def complete_json(self, system: str, user: str, schema: dict, max_tokens: int = 0,
                      should_stop: Callable[[], bool] | None = None) -> str:
        if should_stop is not None and should_stop():
            raise CallStopped()
        self.json_calls.append(user)
        if self.json_script is None:
            raise ProviderError("This scripted model has no JSON answers.")
        return self.json_script(system, user, schema)


def night_answers(delay: Callable[[], float] = lambda: 0.0, sleep: Callable[[float], None] = time.sleep,
                  name: str = "Tama") -> Callable[[str, str, dict], str]:
    """A `json_script` that answers every ask of a night's sleep-time work (persona/sleep.py) with
    valid JSON, told apart by the schema's fields: a day's episode (one rating per session, the
    summary at least as long as the grammar asks), a week, a diary entry, the entity notes, the
    dream (of the first day's words, a goal, the first listed goal completed, a fact about `name`), the questions (one from the
    first message's words, the first listed question resolved by them). Each answer waits `delay()`
    seconds first, so a crash bench's kills land inside calls."""
    def script(system: str, user: str, schema: dict) -> str:
        wait = delay()
        if wait > 0:
            sleep(wait)
        props = schema.get("properties", {})
        if "insight" in props:  # of the first day's words, in another order: not a copy, and borne out by the day
            day = next((line.split("] ", 1)[-1] for line in user.splitlines() if line.startswith("- [")), "")
            words = ", ".join(w.strip(".,!?") for w in day.split()[2:6]) or name
            return json.dumps({
                "trigger_topic": words, "insight": f"I understood how much {words} matter.",
                "strategy": "", "log_entry": f"I dreamt of {words} again.",
                "new_goals": [{"goal": f"Ask how {name} is doing", "term": "short_term", "priority": 2}],
                "completed_goals": [{"number": 1, "note": "Asked and heard."}], "abandoned_goals": [],
                "entity_updates": [{"name": name, "fact": f"{name} likes to sleep on notebooks."}]})
        if "open" in props:  # the questions' ask: the first message's first words left open
            first = next((line[3:] for line in user.splitlines() if line.startswith("1. ")), "")
            words = " ".join(first.split()[:6])
            return json.dumps({"open": [{"message": 1, "words": words, "question": f"What happened with {words}?"}],
                               "answered": [{"number": 1, "message": 1, "words": words, "answer": words,
                                             "kind": "INSIGHT", "about": ""}]})
        if "entities" in props:
            return json.dumps({"entities": [{"name": name, "kind": "thing", "facts": [f"{name} is the cat."]}]})
        if "entry" in props:
            return json.dumps({"entry": f"A quiet evening; we talked about {name} again."})
        if "sessions" in props:
            sessions = props["sessions"].get("minItems", 1)
            least = props.get("summary", {}).get("minLength", 0)
            summary = f"We talked in the evening about the day, and about {name}, who slept on a notebook."
            while len(summary) < least:
                summary += " We talked a little longer about small things."
            return json.dumps({"sessions": [{"arousal": 0.5}] * sessions, "summary": summary})
        return json.dumps({"summary": f"A week of quiet evenings and talk about {name}."})  # a week

    return script
