"""Looking for OpenAI-compatible servers on this computer, and switching to one."""
from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import constants
from agent.providers.discovery import (
    Candidate, HttpAnswer, LocalServer, LocalServerScan, NotLoopback, default_candidates, discover,
    discover_local_servers, is_loopback_host, parse_model_list, probe, require_loopback, urllib_get,
)
from agent.providers.factory import create_chat_model
from managers.config import AppSettings, Secrets
from persona.service import NexusService

# What the servers answer (trimmed from their real answers).
OLLAMA_V1 = {"object": "list", "data": [
    {"id": "qwen2.5:7b", "object": "model", "created": 1718000000, "owned_by": "library"},
    {"id": "nomic-embed-text:latest", "object": "model", "created": 1718000000, "owned_by": "library"},
    {"id": "llama3.1:latest", "object": "model", "created": 1718000000, "owned_by": "library"}]}
OLLAMA_TAGS = {"models": [{"name": "gemma2:9b", "model": "gemma2:9b", "size": 5443152417,
                           "details": {"family": "gemma2", "parameter_size": "9.2B"}}]}
LMSTUDIO_V1 = {"data": [{"id": "qwen2.5-7b-instruct", "object": "model", "owned_by": "organization_owner"},
                        {"id": "text-embedding-nomic-embed-text-v1.5", "object": "model",
                         "owned_by": "organization_owner"}], "object": "list"}
LLAMACPP_V1 = {"models": [{"name": "model.gguf", "model": "model.gguf"}], "object": "list",
               "data": [{"id": "model.gguf", "object": "model", "created": 1730000000, "owned_by": "llamacpp",
                         "meta": {"n_params": 7615616512}}]}
LLAMA_CPP_PYTHON_V1 = {"object": "list", "data": [{"id": "/models/qwen.gguf", "object": "model", "owned_by": "me",
                                                   "permissions": []}]}


def answer(obj, status: int = 200) -> HttpAnswer:
    return HttpAnswer(status, json.dumps(obj).encode())


class FakeGet:
    """Answers from a URL -> HttpAnswer (or exception) table; anything else is a refused port."""

    def __init__(self, table: dict):
        self.table = table
        self.asked: list[tuple[str, float]] = []

    def __call__(self, url: str, timeout_s: float) -> HttpAnswer:
        self.asked.append((url, timeout_s))
        result = self.table.get(url, ConnectionRefusedError(111, "Connection refused"))
        if isinstance(result, BaseException):
            raise result
        return result


# --- parsing ---------------------------------------------------------------------------------
def test_parses_the_model_lists_of_ollama_lm_studio_and_llama_cpp():
    assert parse_model_list(json.dumps(OLLAMA_V1).encode()) == ("qwen2.5:7b", "llama3.1:latest")
    assert parse_model_list(json.dumps(OLLAMA_TAGS).encode()) == ("gemma2:9b",)
    assert parse_model_list(json.dumps(LMSTUDIO_V1).encode()) == ("qwen2.5-7b-instruct",)  # no embedder
    assert parse_model_list(json.dumps(LLAMACPP_V1).encode()) == ("model.gguf",)  # "data" first, once
    assert parse_model_list(json.dumps(LLAMA_CPP_PYTHON_V1).encode()) == ("/models/qwen.gguf",)


@pytest.mark.parametrize("body", [
    b"<html><body>It works!</body></html>", b"", b"\xff\xfe not utf-8", b"[1, 2]", b'{"status": "ok"}',
    b'{"data": "nope"}', b"null",
])
def test_an_answer_that_is_not_a_model_list_is_none(body):
    assert parse_model_list(body) is None


def test_a_server_with_no_models_is_still_a_server():
    assert parse_model_list(b'{"object": "list", "data": []}') == ()
    assert parse_model_list(b'{"data": [{"id": ""}, {"no": "id"}, 3, {"id": "ok"}]}') == ("ok",)


# --- probing with a fake getter ----------------------------------------------------------------
def test_discover_lists_each_server_at_its_port_with_its_models():
    get = FakeGet({
        "http://127.0.0.1:11434/v1/models": answer(OLLAMA_V1),
        "http://127.0.0.1:1234/v1/models": answer(LMSTUDIO_V1),
        "http://127.0.0.1:8080/v1/models": answer(LLAMACPP_V1),
    })
    found = discover(default_candidates(), get, timeout_s=0.3)
    assert found == (
        LocalServer("ollama", "http://127.0.0.1:11434/v1", ("qwen2.5:7b", "llama3.1:latest")),
        LocalServer("lmstudio", "http://127.0.0.1:1234/v1", ("qwen2.5-7b-instruct",)),
        LocalServer("llamacpp", "http://127.0.0.1:8080/v1", ("model.gguf",)),
    )
    assert [s.label for s in found] == ["Ollama", "LM Studio", "llama.cpp server"]
    assert {t for _, t in get.asked} == {0.3}


def test_old_ollama_without_v1_models_is_read_from_api_tags():
    get = FakeGet({"http://127.0.0.1:11434/v1/models": answer({"error": "not found"}, 404),
                   "http://127.0.0.1:11434/api/tags": answer(OLLAMA_TAGS)})
    assert probe(Candidate("ollama", 11434), get) == LocalServer("ollama", "http://127.0.0.1:11434/v1", ("gemma2:9b",))
    # /api/tags is Ollama's own: never asked of the other servers
    lm = FakeGet({"http://127.0.0.1:1234/v1/models": answer({}, 404)})
    assert probe(Candidate("lmstudio", 1234), lm) is None
    assert [u for u, _ in lm.asked] == ["http://127.0.0.1:1234/v1/models"]


def test_refused_ports_timeouts_errors_and_other_web_servers_are_not_servers():
    get = FakeGet({
        "http://127.0.0.1:11434/v1/models": TimeoutError("timed out"),
        "http://127.0.0.1:11434/api/tags": TimeoutError("timed out"),
        "http://127.0.0.1:1234/v1/models": HttpAnswer(500, b"oops"),
        "http://127.0.0.1:8080/v1/models": HttpAnswer(200, b"<html>a dev server</html>"),
    })
    assert discover(default_candidates(), get) == ()
    assert discover(default_candidates(), FakeGet({})) == ()  # all refused


def test_probes_run_at_once_so_the_look_up_takes_one_timeout_not_three():
    def slow(url: str, timeout_s: float) -> HttpAnswer:
        time.sleep(0.3)
        raise TimeoutError("timed out")

    started = time.monotonic()
    assert discover(default_candidates(), slow, timeout_s=0.3) == ()
    # Ollama's fallback is a second request after the first: two timeouts, not 3 × 2
    assert time.monotonic() - started < 0.9


def test_a_getter_that_breaks_loses_only_its_own_port():
    def get(url: str, timeout_s: float) -> HttpAnswer:
        if ":1234/" in url:
            raise RuntimeError("bug")
        if ":8080/" in url:
            return answer(LLAMACPP_V1)
        raise ConnectionRefusedError()

    assert [s.kind for s in discover(default_candidates(), get)] == ["llamacpp"]


# --- loopback only -------------------------------------------------------------------------------
@pytest.mark.parametrize("host", ["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "::1", "[::1]",
                                  "::ffff:127.0.0.1"])
def test_loopback_hosts(host):
    assert is_loopback_host(host)


@pytest.mark.parametrize("url", [
    "http://192.168.1.10:11434/v1", "http://0.0.0.0:11434/v1", "http://example.com/v1",
    "https://api.openai.com/v1", "http://127.0.0.1.example.com/v1", "http://localhost.evil/v1",
    "ftp://127.0.0.1/v1", "127.0.0.1:11434/v1", "", "http://[::]:1234/v1", "http://10.0.0.1@127.0.0.1.nip.io/",
])
def test_anything_off_this_computer_is_refused(url):
    with pytest.raises(NotLoopback):
        require_loopback(url)


def test_discovery_never_sends_a_request_off_loopback():
    get = FakeGet({})
    with pytest.raises(NotLoopback):
        discover([Candidate("ollama", 11434, host="192.168.1.5")], get)
    with pytest.raises(NotLoopback):
        urllib_get("http://192.168.1.5:11434/v1/models", 0.3)
    assert get.asked == []
    assert all(c.host == "127.0.0.1" for c in default_candidates())
    assert [p for _, p in constants.LOCAL_SERVER_PORTS] == [11434, 1234, 8080]


# --- the real getter against a small local HTTP server -----------------------------------------
class ModelListServer:
    def __init__(self, routes: dict[str, tuple], delay_s: float = 0.0):
        """routes: path -> (status, body) or (status, body, extra headers)."""
        self.hits: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                if delay_s:
                    time.sleep(delay_s)
                outer.hits.append(self.path)
                status, body, *extra = routes.get(self.path, (404, b'{"error": "not found"}'))
                try:
                    self.send_response(status)
                    for name, value in (extra[0] if extra else {}).items():
                        self.send_header(name, value)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up waiting: that is what the test wanted

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_real_http_finds_a_server_and_not_a_closed_or_silent_port(monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", "http://192.0.2.1:9")  # a proxy is never used for loopback
    monkeypatch.setenv("http_proxy", "http://192.0.2.1:9")
    live = ModelListServer({"/v1/models": (200, json.dumps(LMSTUDIO_V1).encode())})
    silent = ModelListServer({"/v1/models": (200, json.dumps(LMSTUDIO_V1).encode())}, delay_s=2.0)
    try:
        candidates = [Candidate("lmstudio", live.port), Candidate("llamacpp", _closed_port()),
                      Candidate("ollama", silent.port)]
        started = time.monotonic()
        found = discover_local_servers(candidates, timeout_s=0.3)
        elapsed = time.monotonic() - started
    finally:
        live.close()
        silent.close()
    assert found == (LocalServer("lmstudio", f"http://127.0.0.1:{live.port}/v1", ("qwen2.5-7b-instruct",)),)
    assert elapsed < 1.5  # the silent one timed out (twice: /v1/models, then Ollama's /api/tags)


def test_real_http_redirects_are_not_followed():
    target = ModelListServer({"/v1/models": (200, json.dumps(OLLAMA_V1).encode())})
    moved = ModelListServer({"/v1/models": (302, b"", {"Location": f"http://127.0.0.1:{target.port}/v1/models"})})
    try:
        assert urllib_get(f"http://127.0.0.1:{moved.port}/v1/models", 0.5).status == 302
        assert discover_local_servers([Candidate("lmstudio", moved.port)], timeout_s=0.5) == ()
    finally:
        target.close()
        moved.close()
    assert target.hits == []


# --- the service: cached look-up, the switch, the first-run note ----------------------------------
SERVERS = (LocalServer("ollama", "http://127.0.0.1:11434/v1", ("qwen2.5:7b", "llama3.1:latest")),)


def make_service(data_dir, clock, servers=SERVERS) -> NexusService:
    return NexusService(data_dir, clock=clock, find_local_servers=lambda: servers)


def test_the_look_up_is_kept_on_the_service_and_runs_in_the_background(data_dir, clock):
    gate = threading.Event()

    def find():
        gate.wait(5)
        return SERVERS

    service = NexusService(data_dir, clock=clock, find_local_servers=find)
    assert service.local_servers.state == "not looked" and service.local_servers.servers == ()
    thread = service.start_local_server_discovery()
    time.sleep(0.05)
    assert service.local_servers.state == "looking"  # nothing waited for it
    gate.set()
    thread.join(5)
    assert service.local_servers.servers == SERVERS and service.local_servers.version == 1
    assert service.discover_local_servers() == SERVERS and service.local_servers.version == 2


def test_a_failing_look_up_leaves_an_empty_list():
    def find():
        raise OSError("no network stack")

    scan = LocalServerScan(find)
    assert scan.run() == () and scan.state == "done"


def test_one_click_switches_the_provider_to_the_server_and_back(data_dir, clock):
    service = make_service(data_dir, clock)
    server = service.discover_local_servers()[0]
    settings = service.use_local_server(server.base_url, server.models[1])
    assert (settings.provider, settings.openai_base_url, settings.openai_model) == (
        "openai", "http://127.0.0.1:11434/v1", "llama3.1:latest")
    again = NexusService(data_dir, clock=clock, find_local_servers=lambda: ())  # saved
    assert again.settings.provider == "openai" and again.settings.openai_model == "llama3.1:latest"
    model = service.model()  # no API key needed on this computer
    assert model.name == "openai:llama3.1:latest" and model.describe_endpoint == "http://127.0.0.1:11434/v1"
    assert service.use_embedded_model().provider == "local"
    assert service.settings.openai_base_url == "http://127.0.0.1:11434/v1"  # kept for next time


def test_switching_to_a_server_off_this_computer_changes_nothing(data_dir, clock):
    service = make_service(data_dir, clock)
    with pytest.raises(NotLoopback):
        service.use_local_server("http://192.168.1.10:11434/v1", "llama3.1")
    with pytest.raises(ValueError):
        service.use_local_server("http://127.0.0.1:11434/v1", " ")
    assert service.settings.provider == "local" and not service.settings.provider_chosen


def test_an_empty_key_is_fine_for_a_local_server(tmp_path):
    settings = AppSettings(provider="openai", openai_base_url="http://127.0.0.1:1234/v1", openai_model="qwen")
    model = create_chat_model(settings, Secrets(), tmp_path / "none.gguf")
    assert model.native_tools
    assert model.model.openai_api_key.get_secret_value() == "not-needed"
    quiet = create_chat_model(settings.model_copy(update={"openai_native_tools": False}), Secrets(), tmp_path)
    assert not quiet.native_tools  # the app keeps "remember" requests itself for this model


def test_the_first_run_note_shows_only_until_the_provider_is_chosen(data_dir, clock):
    first = make_service(data_dir, clock)
    assert first.shows_first_run_note()  # no settings file yet
    first.select_persona("Ark")  # writes settings.json: still the first run as far as the note goes
    assert make_service(data_dir, clock).shows_first_run_note()
    first.dismiss_first_run_note()
    assert not first.shows_first_run_note()
    assert not make_service(data_dir, clock).shows_first_run_note()  # remembered


def test_the_note_is_gone_after_a_switch_or_a_saved_choice(tmp_path, clock):
    switched = make_service(tmp_path / "a", clock)
    switched.use_local_server(SERVERS[0].base_url, SERVERS[0].models[0])
    assert not switched.shows_first_run_note()
    assert switched.use_embedded_model().provider_chosen
    assert not switched.shows_first_run_note()
    saved = make_service(tmp_path / "b", clock)
    saved.update_settings(provider="local", provider_chosen=True)  # what Settings → Save sends
    assert not saved.shows_first_run_note()
    remote = make_service(tmp_path / "c", clock)
    remote.update_settings(provider="gemini")  # someone who chose Gemini in settings.json
    assert not remote.shows_first_run_note()


def test_dismissing_the_note_keeps_the_loaded_model(data_dir, clock):
    service = make_service(data_dir, clock)
    service.models.loaded = loaded = object()  # stands for a loaded embedded model
    service.dismiss_first_run_note()
    assert service.models.loaded is loaded


# --- the page's layout of it (ui/local_servers.py) ------------------------------------------------
def test_the_page_lists_every_model_and_one_click_switches(data_dir, clock):
    from ui.local_servers import NONE_FOUND, found_text, model_choices, switch_to

    service = make_service(data_dir, clock)
    assert found_text(service) == ""  # not looked yet
    service.discover_local_servers()
    assert "Ollama at http://127.0.0.1:11434/v1 (2 models)" in found_text(service)
    choices = model_choices(service.local_servers.servers)
    assert [label for label, _ in choices] == ["Ollama · qwen2.5:7b", "Ollama · llama3.1:latest"]
    message = switch_to(service, choices[1][1])
    assert message.startswith("✅") and service.settings.openai_model == "llama3.1:latest"
    assert switch_to(service, None).startswith("Choose")
    assert switch_to(service, '["http://10.0.0.2:11434/v1", "x"]').startswith("⚠️ Not switched")
    assert service.settings.openai_base_url == "http://127.0.0.1:11434/v1"
    nothing = make_service(data_dir, clock, servers=())
    nothing.discover_local_servers()
    assert found_text(nothing) == NONE_FOUND
