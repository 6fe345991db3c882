"""OpenAI-compatible servers on this computer (Ollama, LM Studio, llama.cpp's server).

Only loopback is ever asked: each server's default port on 127.0.0.1, all at once, with a short
timeout (constants.LOCAL_SERVER_*). Parsing is pure (`parse_model_list`); the HTTP getter is
passed in, so tests use a fake or a small local server. `LocalServerScan` keeps the latest
result for the service facade and runs a look-up in the background.
"""
from __future__ import annotations

import ipaddress
import json
import logging
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Callable, Sequence
from urllib.parse import urlsplit

import constants

log = logging.getLogger(__name__)

SERVER_LABELS = {"ollama": "Ollama", "lmstudio": "LM Studio", "llamacpp": "llama.cpp server"}
# Ollama and LM Studio list their embedding models with the chat models; they cannot chat.
EMBEDDING_MODEL_MARKERS = ("embed",)


@dataclass(frozen=True)
class HttpAnswer:
    status: int
    body: bytes


# (url, timeout in seconds) -> the answer; raises OSError when nothing answers (refused, timed out).
HttpGet = Callable[[str, float], HttpAnswer]


@dataclass(frozen=True)
class Candidate:
    kind: str  # "ollama" | "lmstudio" | "llamacpp": what usually listens on this port
    port: int
    host: str = constants.LOCAL_SERVER_HOST

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"


@dataclass(frozen=True)
class LocalServer:
    kind: str
    base_url: str  # the OpenAI-compatible API root, ending in /v1
    models: tuple[str, ...]

    @property
    def label(self) -> str:
        return SERVER_LABELS.get(self.kind, self.kind)


class NotLoopback(ValueError):
    """A URL whose host is not this computer: local-server discovery never goes there."""


def default_candidates(ports: Sequence[tuple[str, int]] = constants.LOCAL_SERVER_PORTS) -> tuple[Candidate, ...]:
    return tuple(Candidate(kind, port) for kind, port in ports)


def is_loopback_host(host: str) -> bool:
    """localhost, 127.0.0.0/8 or ::1 (an IPv4-mapped loopback too); nothing else, no other name."""
    name = (host or "").strip().removeprefix("[").removesuffix("]").lower()
    if name == "localhost":
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
    return (mapped or address).is_loopback


def require_loopback(url: str) -> str:
    """`url` itself when it is an http(s) URL on this computer; NotLoopback otherwise."""
    parts = urlsplit((url or "").strip())
    if parts.scheme not in ("http", "https") or not is_loopback_host(parts.hostname or ""):
        raise NotLoopback(f"Not a server on this computer: {parts.scheme}://{parts.hostname or ''}")
    return url.strip()


def _ids(entries: object, keys: Sequence[str]) -> list[str] | None:
    if not isinstance(entries, list):
        return None
    found = []
    for entry in entries:
        if isinstance(entry, dict):
            name = next((entry[k] for k in keys if isinstance(entry.get(k), str) and entry[k].strip()), None)
            if name:
                found.append(name.strip())
    return found


def parse_model_list(body: bytes) -> tuple[str, ...] | None:
    """The chat models in a model-list answer, or None when `body` is not one.

    Reads the OpenAI shape (`{"data": [{"id": ...}]}`: Ollama's and LM Studio's /v1/models,
    llama.cpp's server, llama-cpp-python) and Ollama's own /api/tags (`{"models": [{"name": ...}]}`).
    Embedding models are left out; the order is the server's, without repeats."""
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    names = _ids(data.get("data"), ("id",))
    if names is None:
        names = _ids(data.get("models"), ("name", "model"))
    if names is None:
        return None
    chat = [n for n in names if not any(m in n.lower() for m in EMBEDDING_MODEL_MARKERS)]
    return tuple(dict.fromkeys(chat))


def _ask(get: HttpGet, url: str, timeout_s: float) -> tuple[str, ...] | None:
    try:
        answer = get(require_loopback(url), timeout_s)
    except OSError as exc:  # refused, timed out, reset: nothing (usable) listens there
        log.debug("No local server at %s: %s", url, exc)
        return None
    if not 200 <= answer.status < 300:
        log.debug("%s answered HTTP %d", url, answer.status)
        return None
    return parse_model_list(answer.body)


def probe(candidate: Candidate, get: HttpGet, timeout_s: float = constants.LOCAL_SERVER_PROBE_TIMEOUT_S
          ) -> LocalServer | None:
    """The server at `candidate` and its models, or None. OpenAI's /v1/models first; Ollama's own
    /api/tags where that route is missing (older Ollama), the chat still going through /v1."""
    base = candidate.base_url
    models = _ask(get, f"{base}/models", timeout_s)
    if models is None and candidate.kind == "ollama":
        models = _ask(get, f"http://{candidate.host}:{candidate.port}/api/tags", timeout_s)
    if models is None:
        return None
    return LocalServer(candidate.kind, base, models)


def discover(candidates: Sequence[Candidate], get: HttpGet,
             timeout_s: float = constants.LOCAL_SERVER_PROBE_TIMEOUT_S) -> tuple[LocalServer, ...]:
    """Probe every candidate at once; the servers that answered, in the candidates' order.

    A candidate off loopback raises NotLoopback before anything is sent. Waits at most about two
    timeouts per request (Ollama's fallback route is a second request)."""
    for candidate in candidates:
        if not is_loopback_host(candidate.host):
            raise NotLoopback(f"Not a server on this computer: {candidate.host}")
    results: list[LocalServer | None] = [None] * len(candidates)

    def run(index: int, candidate: Candidate) -> None:
        try:
            results[index] = probe(candidate, get, timeout_s)
        except Exception:  # a bug in a getter must not end the look-up for the other ports
            log.exception("Probing %s failed", candidate.base_url)

    threads = [threading.Thread(target=run, args=(i, c), name=f"probe-{c.port}", daemon=True)
               for i, c in enumerate(candidates)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout_s * 4)  # sockets time out on their own; this only bounds a stuck getter
    return tuple(r for r in results if r is not None)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # a redirect could lead off this computer: treat it as no answer


def urllib_get(url: str, timeout_s: float) -> HttpAnswer:
    """GET `url` on loopback: no proxy (a proxy would see the request), no redirects, a capped body."""
    require_loopback(url)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect())
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    try:
        with opener.open(request, timeout=timeout_s) as response:
            body = response.read(constants.LOCAL_SERVER_MAX_BODY_BYTES + 1)
            if len(body) > constants.LOCAL_SERVER_MAX_BODY_BYTES:
                return HttpAnswer(response.status, b"")  # too much for a model list: not one
            return HttpAnswer(response.status, body)
    except urllib.error.HTTPError as exc:
        return HttpAnswer(exc.code, b"")


def discover_local_servers(candidates: Sequence[Candidate] | None = None, get: HttpGet = urllib_get,
                           timeout_s: float = constants.LOCAL_SERVER_PROBE_TIMEOUT_S) -> tuple[LocalServer, ...]:
    """The app's look-up: the default ports on 127.0.0.1, through urllib."""
    return discover(default_candidates() if candidates is None else candidates, get, timeout_s)


class LocalServerScan:
    """The latest look-up's result, kept for the page; a look-up runs at most once at a time."""

    def __init__(self, find: Callable[[], Sequence[LocalServer]] = discover_local_servers):
        self._find = find
        self._lock = threading.Lock()
        self._running = threading.Lock()
        self.servers: tuple[LocalServer, ...] = ()
        self.state = "not looked"  # not looked / looking / done
        self.version = 0  # goes up with every finished look-up, so a page sees that it changed

    def run(self) -> tuple[LocalServer, ...]:
        """Look now (or wait for the look-up already running) and return what was found."""
        if not self._running.acquire(blocking=False):
            with self._running:  # another look-up is on its way: its result is this one's
                return self.servers
        try:
            self.state = "looking"
            try:
                found = tuple(self._find())
            except Exception:  # the page keeps working without the list
                log.exception("Looking for local servers failed")
                found = ()
            with self._lock:
                self.servers, self.state = found, "done"
                self.version += 1
            log.info("Local servers: %s", ", ".join(f"{s.label} at {s.base_url} ({len(s.models)} models)"
                                                    for s in found) or "none found")
            return found
        finally:
            self._running.release()

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self.run, name="local-server-scan", daemon=True)
        thread.start()
        return thread
