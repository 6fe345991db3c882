"""The one interface every chat model backend implements, and the types that cross it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, Protocol, Sequence, Union


@dataclass(frozen=True)
class ChatMessage:
    role: str  # "system" | "user" | "assistant" | "tool"
    content: str
    tool_call_id: str = ""
    name: str = ""


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    parameters: Mapping[str, Any]  # JSON schema of the arguments

    def as_openai_tool(self) -> dict:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": dict(self.parameters),
            },
        }


@dataclass(frozen=True)
class TextDelta:
    text: str


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    id: str = ""


StreamEvent = Union[TextDelta, ToolCall]


class ProviderError(Exception):
    """A model call failed; `user_message` is safe to show (no keys, no stack trace)."""

    def __init__(self, user_message: str, retryable: bool = False, status: int | None = None):
        super().__init__(user_message)
        self.user_message = user_message
        self.retryable = retryable
        self.status = status


class CallStopped(Exception):
    """A long call was stopped before it finished (a reply needed the model); nothing of it is used."""


class ChatModel(Protocol):
    name: str
    budget_family: str  # "local" or "remote": which PROMPT_BUDGETS apply
    native_tools: bool  # False: tool calls are written as text and parsed by the agent

    def stream(
        self,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolSpec],
        temperature: float,
        max_tokens: int,
        seed: int | None = None,
        min_tokens: int = 0,
        avoid_openings: Sequence[str] = (),
        prefix: str = "",
    ) -> Iterator[StreamEvent]:
        """Yield text deltas as they are generated, and tool calls (native-tool models).

        `seed` fixes the sampling where the backend allows it (benchmarks, tests, retries with
        a new seed); None samples freshly. `min_tokens`: the reply may not end before this many
        tokens, where the backend allows it (others ignore it).
        `avoid_openings`: the reply may not open with the first word of any of these texts, nor take it up after a
        lone opening word ("Oui, "): the user's message and failed attempts, which the model said back three seeds
        running; backends that cannot, ignore it.
        `prefix`: the reply so far (a greeting already shown): the model goes on from it, and what it
        yields follows it; backends that cannot, write the whole reply afresh.
        """
        ...

    def load(self) -> object:
        """Make the model usable (load weights); raises ProviderError with a clear message."""
        ...

    def count_tokens(self, text: str) -> int: ...

    def warm(self, messages: Sequence[ChatMessage]) -> None:
        """Evaluate a prompt prefix ahead of time (local models); a no-op elsewhere."""
        ...

    def complete_json(self, system: str, user: str, schema: dict, max_tokens: int = 0,
                      should_stop: Callable[[], bool] | None = None) -> str:
        """An answer that should be a JSON object of `schema`: a short one (the query planner, the
        emotion) by default, or up to `max_tokens` (sleep-time work), which raises CallStopped as
        soon as `should_stop()` says so.

        Forced by grammar where the backend can; callers still validate what comes back.
        """
        ...
