"""Remote chat models: any langchain `BaseChatModel` behind the ChatModel protocol.

Retries happen only in `retry.retrying_stream`; the wrapped clients are built with
`max_retries=0` so a failing call is not retried twice. Every failure leaves as a
`ProviderError` made by `to_provider_error`, whose message never carries an API key.
"""
from __future__ import annotations

import functools
import importlib
import json
import logging
import math
import re
import time
from typing import Any, Callable, Iterator, Sequence

import constants
from agent.providers.base import CallStopped, ChatMessage, ProviderError, StreamEvent, TextDelta, ToolCall, ToolSpec
from agent.providers.retry import retrying_stream

log = logging.getLogger(__name__)

# Per-call generation settings as keyword arguments of `.stream(...)`, per backend:
# (temperature, max_tokens, seed or None) -> keyword arguments.
CallParams = Callable[[float, int, "int | None"], dict]

_KEY_LIKE = re.compile(r"(sk-[A-Za-z0-9_\-]{6,}|AIza[0-9A-Za-z_\-]{10,}|Bearer\s+\S+|[A-Za-z0-9]{32,})")
_CONNECTION_ERRORS = {
    "openai": ("APIConnectionError",),
    "httpx": ("ConnectError", "TimeoutException", "NetworkError"),
    "httpx2": ("ConnectError", "TimeoutException", "NetworkError"),
}


def openai_call_params(temperature: float, max_tokens: int, seed: int | None = None) -> dict:
    params: dict = {"temperature": temperature, "max_tokens": max_tokens}
    if seed is not None:  # OpenAI's `seed`; Ollama, LM Studio and llama.cpp's servers take it too
        params["seed"] = seed
    return params


def scrub(text: str, secrets: Sequence[str] = ()) -> str:
    """Remove the given secrets and anything that looks like an API key."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "[redacted]")
    return _KEY_LIKE.sub("[redacted]", text)


@functools.lru_cache(maxsize=1)
def _connection_error_types() -> tuple[type, ...]:
    found: list[type] = [ConnectionError, TimeoutError]
    for module_name, names in _CONNECTION_ERRORS.items():
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        found.extend(getattr(module, name) for name in names if isinstance(getattr(module, name, None), type))
    return tuple(found)


def _attr(obj: Any, name: str) -> Any:
    try:
        return getattr(obj, name, None)
    except Exception:  # a property that raises (e.g. httpx's `.request` when unset)
        return None


def _exception_chain(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        if current.__cause__ is not None:
            current = current.__cause__
        else:
            current = None if current.__suppress_context__ else current.__context__


def _http_status(exc: BaseException) -> int | None:
    for link in _exception_chain(exc):
        for candidate in (_attr(link, "status_code"), _attr(link, "code"),
                          _attr(_attr(link, "response"), "status_code")):
            if isinstance(candidate, int) and not isinstance(candidate, bool) and 100 <= candidate <= 599:
                return candidate
    return None


def to_provider_error(exc: BaseException, endpoint: str, model: str = "",
                      secrets: Sequence[str] = ()) -> ProviderError:
    """Map any backend exception to a ProviderError with a message safe to show."""
    if isinstance(exc, ProviderError):
        return exc
    endpoint = scrub(endpoint, secrets)
    kind = type(exc).__name__
    status = _http_status(exc)
    log.info("%s failed: %s (HTTP %s): %s", endpoint, kind, status, scrub(str(exc), secrets)[:300])
    if status in (401, 403):
        message, retryable = f"The API key was rejected by {endpoint}. Check it in Settings.", False
    elif status == 404:
        what = f"The model {scrub(model, secrets)!r}" if model else "The requested model"
        message, retryable = f"{what} was not found at {endpoint}. Check the model name in Settings.", False
    elif status in constants.RETRYABLE_HTTP_STATUS:
        message, retryable = f"{endpoint} is busy or rate-limited (HTTP {status}). Try again in a moment.", True
    elif status is not None:
        message, retryable = f"{endpoint} refused the request (HTTP {status}, {kind}).", False
    elif any(isinstance(link, _connection_error_types()) for link in _exception_chain(exc)):
        message, retryable = f"Cannot reach {endpoint}. Check the address and your connection.", True
    else:
        message, retryable = f"The call to {endpoint} failed ({kind}).", False
    return ProviderError(scrub(message, secrets), retryable=retryable, status=status)


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts = []
    for part in content or []:
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str):
            parts.append(part["text"])
    return "".join(parts)


def chunk_text(chunk: Any) -> str:
    """The visible text of a stream chunk (langchain-core 1.x property, 0.x method, or parts)."""
    text = _attr(chunk, "text")
    if isinstance(text, str):
        return str(text)
    if callable(text):
        value = text()
        if isinstance(value, str):
            return str(value)
    return _text_of(_attr(chunk, "content"))


def _placeholder_args(content: str, tool_name: str) -> dict | None:
    """Arguments when an assistant message is only a tool-call placeholder such as {"name": …}."""
    try:
        data = json.loads(content)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("name") != tool_name:
        return None
    args = data.get("arguments", data.get("args", {}))
    return args if isinstance(args, dict) else {}


def to_langchain_messages(messages: Sequence[ChatMessage]) -> list:
    """Convert, making sure every tool result follows an assistant turn that called it."""
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

    out: list = []
    for index, message in enumerate(messages):
        if message.role == "system":
            out.append(SystemMessage(content=message.content))
        elif message.role == "assistant":
            out.append(AIMessage(content=message.content))
        elif message.role == "tool":
            call_id = message.tool_call_id or f"call_{index}"
            at = len(out) - 1
            while at >= 0 and isinstance(out[at], ToolMessage):
                at -= 1
            call = {"name": message.name, "args": {}, "id": call_id, "type": "tool_call"}
            if at >= 0 and isinstance(out[at], AIMessage):
                ai = out[at]
                if not any(c.get("id") == call_id for c in ai.tool_calls):
                    content = ai.content if isinstance(ai.content, str) else ""
                    args = _placeholder_args(content, message.name)
                    call["args"] = args or {}
                    out[at] = AIMessage(content="" if args is not None else ai.content,
                                        tool_calls=[*ai.tool_calls, call])
            else:
                out.insert(at + 1, AIMessage(content="", tool_calls=[call]))
            out.append(ToolMessage(content=message.content, tool_call_id=call_id, name=message.name or None))
        else:
            if message.role != "user":
                log.warning("Unknown message role %r sent as a user message", message.role)
            out.append(HumanMessage(content=message.content))
    return out


def repeated_name(name: str, known: Sequence[str]) -> str:
    """A streamed tool call's name as sent once. llama-cpp-python's server repeats the name in every
    chunk of a call, and langchain joins the pieces ("edit_core_memoryedit_core_memory…")."""
    if name in known:
        return name
    for tool in known:
        if tool and len(name) % len(tool) == 0 and name == tool * (len(name) // len(tool)):
            return tool
    return name


class LangChainChatModel:
    budget_family = "remote"

    def __init__(
        self,
        model: Any,
        name: str,
        describe_endpoint: str,
        *,
        model_id: str = "",
        call_params: CallParams | None = openai_call_params,
        secrets: Sequence[str] = (),
        sleep: Callable[[float], None] = time.sleep,
        delays: list[float] | None = None,
        native_tools: bool = True,
    ):
        """`native_tools=False`: the model is offered no tools and the app keeps "remember"
        requests itself, as on the embedded model (a small model behind a local server)."""
        self.native_tools = native_tools
        self.model = model
        self.name = name
        self.describe_endpoint = describe_endpoint
        self.model_id = model_id or str(_attr(model, "model_name") or _attr(model, "model") or "")
        self._call_params = call_params
        self._secrets = tuple(s for s in secrets if s)
        self._sleep = sleep
        self._delays = delays

    def stream(
        self,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolSpec],
        temperature: float,
        max_tokens: int,
        seed: int | None = None,
        min_tokens: int = 0,  # no control over a remote model's ending (fake: scripted replies)
        avoid_openings: Sequence[str] = (),  # servers differ in their logit bias support: not sent
        prefix: str = "",  # not every server continues an assistant message: the reply is written afresh
        tool_choice: str = "",
    ) -> Iterator[StreamEvent]:
        """As ChatModel.stream; `tool_choice` (these native-tool backends only) forces a call:
        a tool's name calls that tool, "required" any of `tools`; empty lets the model choose."""
        messages, tools = list(messages), list(tools)
        if tool_choice and not tools:
            raise ValueError("tool_choice needs tools to choose from")
        return retrying_stream(lambda: self._stream_once(messages, tools, temperature, max_tokens, seed, tool_choice),
                               sleep=self._sleep, delays=self._delays)

    def _stream_once(self, messages: list[ChatMessage], tools: list[ToolSpec], temperature: float,
                     max_tokens: int, seed: int | None = None, tool_choice: str = "") -> Iterator[StreamEvent]:
        acc = None
        try:
            runnable = self.model
            if tools:
                specs = [t.as_openai_tool() for t in tools]
                runnable = self.model.bind_tools(specs, tool_choice=tool_choice) if tool_choice \
                    else self.model.bind_tools(specs)
            kwargs = self._call_params(temperature, max_tokens, seed) if self._call_params else {}
            for chunk in runnable.stream(to_langchain_messages(messages), **kwargs):
                text = chunk_text(chunk)
                if text:
                    yield TextDelta(text)
                acc = chunk if acc is None else acc + chunk
        except ProviderError:
            raise
        except Exception as exc:
            raise to_provider_error(exc, self.describe_endpoint, self.model_id, self._secrets) from exc
        for bad in _attr(acc, "invalid_tool_calls") or []:
            log.warning("Ignoring a malformed tool call from %s: %s", self.name, bad.get("name"))
        for call in _attr(acc, "tool_calls") or []:
            name = repeated_name(call.get("name") or "", [t.name for t in tools])
            if name:
                yield ToolCall(name=name, arguments=dict(call.get("args") or {}), id=call.get("id") or "")

    def load(self) -> object:
        return self  # remote: nothing to load; a bad key shows up on the first call

    def count_tokens(self, text: str) -> int:
        return math.ceil(len(text) / constants.CHARS_PER_TOKEN_ESTIMATE)

    def warm(self, messages: Sequence[ChatMessage]) -> None:
        return None

    def complete_json(self, system: str, user: str, schema: dict, max_tokens: int = 0,
                      should_stop: Callable[[], bool] | None = None) -> str:
        # Asked for in the prompt rather than by a response_format flag: servers behind the
        # OpenAI-compatible API differ in which flags they take; the caller validates the answer.
        instruction = f"{system}\nAnswer with one JSON object only, matching this schema: {json.dumps(schema)}"
        pieces = []
        for piece in self.stream([ChatMessage("system", instruction), ChatMessage("user", user)], [],
                                 temperature=0.0, max_tokens=max_tokens or constants.PLANNER_MAX_TOKENS):
            if should_stop is not None and should_stop():
                raise CallStopped()
            if isinstance(piece, TextDelta):
                pieces.append(piece.text)
        return "".join(pieces)
