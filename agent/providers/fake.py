"""A scripted chat model for tests: a plain function decides each reply, streamed in pieces.

`script(messages, tools)` returns the reply text, or a list of events (TextDelta / ToolCall)
for native-tool runs. Every call is recorded in `calls`, so tests can look at the prompt.
"""
from __future__ import annotations

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
    ) -> Iterator[StreamEvent]:
        self.calls.append((list(messages), list(tools)))
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
