"""Real-browser fixtures: the Gradio app on a free local port, driven by Debian Chromium.

The app runs around a temp data directory and a scripted model (no model files, no network);
Chromium is the system one at /usr/bin/chromium (Playwright's own download is not used).
Without it, every browser test is skipped with a visible reason (run pytest with -rs).
"""
from __future__ import annotations

import os
import re
import socket
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

# Offline by design: set before gradio is imported anywhere.
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Nothing but the local app resolves: a stray external request fails fast instead of hanging.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
]
TIMEOUT_MS = 20_000
DELAY_PER_PIECE_S = 0.05
REPLY = 'Nice to meet you, Mina! <persona_emotion category="joy" intensity="0.8"/>'
REPLY_SHOWN = "Nice to meet you, Mina!"
# The app asks again for a reply in another script than the message's (agent/character_guard.py):
# a Japanese message gets a Japanese reply.
REPLY_JA = 'はじめまして！<persona_emotion category="joy" intensity="0.8"/>'
REPLY_JA_SHOWN = "はじめまして！"


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives the real UI in Chromium (needs /usr/bin/chromium)")


@dataclass
class RunningApp:
    url: str
    data_dir: Path
    service: object  # persona.service.NexusService


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    if not CHROMIUM.exists():
        pytest.skip("Chromium not installed: browser tests skipped; install Debian chromium "
                    "(apt-get install -y chromium) to get /usr/bin/chromium")
    return CHROMIUM


@pytest.fixture(scope="module")
def app(tmp_path_factory, chromium_path) -> RunningApp:
    from agent.providers.fake import ScriptedChatModel
    from persona.service import NexusService
    data_dir = tmp_path_factory.mktemp("browser-data")

    def script(messages, tools):
        return REPLY_JA if re.search(r"[\u3040-\u30ff\u3400-\u9fff]", messages[-1].content) else REPLY

    service = NexusService(
        data_dir=data_dir,
        model_factory=lambda settings, secrets, path: ScriptedChatModel(script, delay_per_piece_s=DELAY_PER_PIECE_S),
    )
    service.warm_up()
    assert service.model_status.state == "ready", service.model_status.text()
    with serving(service, data_dir) as running:
        yield running


@contextmanager
def serving(service, data_dir: Path) -> Iterator[RunningApp]:
    """The app around `service`, on a free local port, for as long as the block runs."""
    from ui.app import THEME, build_app

    port = _free_port()
    demo = build_app(service)
    demo.queue()
    demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, share=False,
                ssr_mode=False, theme=THEME, quiet=True)
    try:
        yield RunningApp(f"http://127.0.0.1:{port}/", data_dir, service)
    finally:
        demo.close()


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(chromium_path), headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def dialogs() -> list:
    """Every JavaScript dialog (alert / confirm / prompt) the page opens, dismissed and recorded."""
    return []


@pytest.fixture
def page_errors() -> list:
    return []


@pytest.fixture
def page(browser, dialogs, page_errors):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()

    def on_dialog(dialog):
        dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.on("pageerror", lambda exc: page_errors.append(str(exc)))
    try:
        yield page
    finally:
        context.close()
