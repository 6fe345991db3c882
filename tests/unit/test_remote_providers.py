"""Remote backends against a local imitation of the OpenAI streaming API (no internet)."""
from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import constants
from agent.providers.base import ChatMessage, ProviderError, TextDelta, ToolCall, ToolSpec
from agent.providers.langchain_adapter import LangChainChatModel, to_langchain_messages, to_provider_error
from agent.providers.remote import make_gemini, make_openai_compatible
from agent.providers.retry import backoff_delays

API_KEY = "sk-test-SECRETKEY0123456789abcdef"
MESSAGES = [ChatMessage("system", "You are Ark."), ChatMessage("user", "Hi!")]
NOTEPAD_TOOL = ToolSpec("edit_notepad", "Replace the notepad.",
                        {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})


def chunk(delta: dict, finish: str | None = None) -> dict:
    return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "test-model",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


class FakeOpenAIServer:
    """Answers POST /v1/chat/completions from a script: a list of chunk lists or HTTP statuses."""

    def __init__(self):
        self.script: list = []
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep the test output quiet
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                server.requests.append(body)
                if self.path != "/v1/chat/completions":
                    return self._error(404)
                step = server.script[min(len(server.requests), len(server.script)) - 1]
                if isinstance(step, int):
                    return self._error(step)
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                for item in step:
                    self.wfile.write(f"data: {json.dumps(item)}\n\n".encode())
                    self.wfile.flush()
                self.wfile.write(b"data: [DONE]\n\n")

            def _error(self, status: int):
                payload = json.dumps({"error": {"message": f"Incorrect API key provided: {API_KEY}",
                                                "type": "error", "code": "some_code"}}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)


@pytest.fixture
def server(monkeypatch):
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    fake = FakeOpenAIServer()
    fake.thread.start()
    yield fake
    fake.httpd.shutdown()
    fake.httpd.server_close()


def adapter(base_url: str, sleeps: list[float]) -> LangChainChatModel:
    """The factory's client, wrapped with a recording sleep instead of real waits."""
    made = make_openai_compatible(base_url, API_KEY, "test-model", 0.7, 256, timeout_s=5)
    return LangChainChatModel(made.model, made.name, made.describe_endpoint, model_id=made.model_id,
                              secrets=(API_KEY,), sleep=sleeps.append)


def run(model: LangChainChatModel, tools=()) -> list:
    return list(model.stream(MESSAGES, list(tools), temperature=0.2, max_tokens=99))


def test_text_streams_as_deltas_in_order(server):
    server.script = [[chunk({"role": "assistant", "content": "Hel"}), chunk({"content": "lo th"}),
                      chunk({"content": "ere"}), chunk({}, finish="stop")]]
    events = run(adapter(server.base_url, []))
    assert events == [TextDelta("Hel"), TextDelta("lo th"), TextDelta("ere")]
    assert "".join(e.text for e in events) == "Hello there"
    body = server.requests[0]
    assert body["stream"] is True and body["model"] == "test-model"
    assert body["temperature"] == 0.2 and body["max_completion_tokens"] == 99  # per-call settings win
    assert [m["role"] for m in body["messages"]] == ["system", "user"] and "tools" not in body


def test_streamed_tool_call_is_assembled(server):
    first = {"index": 0, "id": "call_7", "type": "function",
             "function": {"name": "edit_notepad", "arguments": '{"text": "buy'}}
    second = {"index": 0, "function": {"arguments": ' milk"}'}}
    server.script = [[chunk({"role": "assistant", "tool_calls": [first]}), chunk({"tool_calls": [second]}),
                      chunk({}, finish="tool_calls")]]
    events = run(adapter(server.base_url, []), tools=[NOTEPAD_TOOL])
    assert events == [ToolCall("edit_notepad", {"text": "buy milk"}, "call_7")]
    assert server.requests[0]["tools"] == [NOTEPAD_TOOL.as_openai_tool()]


def test_a_forced_tool_call_is_asked_for_and_a_repeated_name_is_read_once(server):
    # llama-cpp-python's server repeats the name and id in every chunk of a streamed call
    pieces = ['{"content": "my locker', ' is 317", ', '"mode": "append"}']
    calls = [{"index": 0, "id": "call_0", "type": "function",
              "function": {"name": "edit_core_memory", "arguments": piece}} for piece in pieces]
    server.script = [[chunk({"role": "assistant", "tool_calls": [c]}) for c in calls] + [chunk({}, finish="tool_calls")]]
    core = ToolSpec("edit_core_memory", "Update core memory.", NOTEPAD_TOOL.parameters)
    events = list(adapter(server.base_url, []).stream(MESSAGES, [NOTEPAD_TOOL, core], temperature=0.0, max_tokens=64,
                                                      seed=7, tool_choice="edit_core_memory"))
    assert events == [ToolCall("edit_core_memory", {"content": "my locker is 317", "mode": "append"}, "call_0")]
    body = server.requests[0]
    assert body["tool_choice"] == {"type": "function", "function": {"name": "edit_core_memory"}}
    assert body["seed"] == 7 and body["temperature"] == 0.0
    with pytest.raises(ValueError):
        adapter(server.base_url, []).stream(MESSAGES, [], temperature=0.0, max_tokens=8, tool_choice="edit_notepad")


def test_rejected_key_is_not_retried_and_not_shown(server):
    server.script = [401]
    sleeps: list[float] = []
    with pytest.raises(ProviderError) as info:
        run(adapter(server.base_url, sleeps))
    assert not info.value.retryable and info.value.status == 401
    assert "API key was rejected" in info.value.user_message
    assert API_KEY not in info.value.user_message and API_KEY not in str(info.value)
    assert len(server.requests) == 1 and sleeps == []


def test_busy_server_is_retried_with_backoff(server):
    server.script = [503, 503, [chunk({"content": "ok"}), chunk({}, finish="stop")]]
    sleeps: list[float] = []
    assert run(adapter(server.base_url, sleeps)) == [TextDelta("ok")]
    assert len(server.requests) == 3
    assert sleeps == backoff_delays() == [constants.RETRY_BASE_DELAY_S, 2 * constants.RETRY_BASE_DELAY_S]


def test_rate_limit_gives_up_after_the_attempt_budget(server):
    server.script = [429]
    sleeps: list[float] = []
    with pytest.raises(ProviderError) as info:
        run(adapter(server.base_url, sleeps))
    assert info.value.retryable and info.value.status == 429
    assert "rate-limited (HTTP 429)" in info.value.user_message
    assert len(server.requests) == constants.RETRY_ATTEMPTS  # the client's own retries are off
    assert len(sleeps) == constants.RETRY_ATTEMPTS - 1


def test_closed_port_cannot_be_reached():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    sleeps: list[float] = []
    with pytest.raises(ProviderError) as info:
        run(adapter(f"http://127.0.0.1:{port}/v1", sleeps))
    assert info.value.user_message.startswith("Cannot reach http://127.0.0.1:")
    assert info.value.retryable and len(sleeps) == constants.RETRY_ATTEMPTS - 1


def test_empty_key_uses_a_placeholder_and_url_credentials_are_hidden():
    model = make_openai_compatible("http://user:pw@127.0.0.1:11434/v1?token=x", "", "llama3", 0.7, 64)
    assert model.model.openai_api_key.get_secret_value() == "not-needed"
    assert model.describe_endpoint == "http://127.0.0.1:11434/v1"
    assert model.budget_family == "remote" and model.native_tools and model.model.max_retries == 0


def test_make_gemini_builds_without_network(monkeypatch):
    def no_network(*args, **kwargs):
        raise AssertionError("make_gemini must not open a connection")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    model = make_gemini("AIzaFAKEKEY-0123456789abcdefghij", "gemini-2.5-flash", 0.5, 128)
    assert isinstance(model, LangChainChatModel) and model.name == "gemini:gemini-2.5-flash"
    assert model.model.max_retries == 0 and model.model.max_output_tokens == 128
    assert model.count_tokens("x" * 10) == 4  # ceil(10 / CHARS_PER_TOKEN_ESTIMATE)


@pytest.mark.parametrize("code, retryable, phrase", [(401, False, "API key was rejected"),
                                                     (429, True, "rate-limited (HTTP 429)")])
def test_gemini_client_errors_are_mapped(code, retryable, phrase):
    from google.genai.errors import ClientError

    key = "AIzaSyLEAKED-0123456789abcdefghijklmn"
    exc = ClientError(code, {"error": {"code": code, "message": f"API key not valid: {key}", "status": "X"}})
    for candidate in (exc, _wrapped(exc)):
        error = to_provider_error(candidate, "Google Gemini", "gemini-2.5-flash")
        assert error.retryable is retryable and error.status == code and phrase in error.user_message
        assert key not in error.user_message


def _wrapped(exc: Exception) -> Exception:
    """The exception as langchain-google-genai re-raises it (its own class, `from` the original)."""
    from langchain_google_genai import chat_models

    handle = getattr(chat_models, "_handle_client_error", None)
    try:
        if handle is not None:
            handle(exc, {"model": "gemini-2.5-flash"})
        raise RuntimeError(f"Error calling model: {exc}") from exc
    except Exception as outer:  # noqa: BLE001 - whatever the wrapper raised is the subject
        assert outer.__cause__ is exc
        return outer


def test_unknown_errors_name_the_class_only_and_404_names_the_model():
    error = to_provider_error(ValueError(f"boom with {API_KEY}"), "http://x/v1")
    assert not error.retryable and "ValueError" in error.user_message and API_KEY not in error.user_message

    class NotFound(Exception):
        status_code = 404

    assert "'gpt-x' was not found" in to_provider_error(NotFound(), "api.openai.com", "gpt-x").user_message


def test_tool_results_follow_an_assistant_tool_call():
    converted = to_langchain_messages([
        ChatMessage("user", "note this"),
        ChatMessage("assistant", '{"name": "edit_notepad"}'),
        ChatMessage("tool", "saved", tool_call_id="call_7", name="edit_notepad"),
    ])
    ai, tool = converted[1], converted[2]
    assert ai.content == "" and [c["id"] for c in ai.tool_calls] == ["call_7"]
    assert tool.tool_call_id == "call_7" and tool.content == "saved"
