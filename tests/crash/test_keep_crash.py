"""Processes killed with SIGKILL while "please remember" requests are being answered: after each
restart, every request that reached the chat log is in core memory, exactly once."""
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agent.keep_requests import is_keep_request
from agent.providers.fake import ScriptedChatModel, replies
from agent.retrieval import RetrievalResult
from persona.service import NexusService

pytestmark = pytest.mark.crash
CHILD = Path(__file__).with_name("keep_child.py")
TRIALS = 30


def reopen(data_dir: Path) -> NexusService:
    model = ScriptedChatModel(replies("ok"))
    service = NexusService(data_dir, model_factory=lambda s, k, p: model,
                           searcher=lambda q, now: RetrievalResult(True, "crash trial"), after_turn_work=False)
    service.session("Ark")  # the open finishes what the killed turn left
    return service


def locker(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def test_every_logged_request_lands_exactly_once_after_kill_9(tmp_path):
    data_dir, rng, first = tmp_path / "data", random.Random(18), 100
    cut_short = 0
    for trial in range(TRIALS):
        child = subprocess.Popen([sys.executable, str(CHILD), str(data_dir), str(first)], stdout=subprocess.PIPE)
        try:
            assert child.stdout.readline().strip() == b"READY"
            time.sleep(rng.uniform(0.05, 1.2))
            os.kill(child.pid, signal.SIGKILL)
        finally:
            child.wait(timeout=10)
        service = reopen(data_dir)
        core = service.read_memory("Ark", "core_memory")
        requests = [e.text for e in service.conversation("Ark") if e.role == "USER" and is_keep_request(e.text)]
        notes = [line[13:] for line in core.splitlines() if re.match(r"- \d{4}-\d{2}-\d{2} ", line)]
        for text in requests:
            number = re.compile(rf"(?<!\d){locker(text)}(?!\d)")
            assert sum(bool(number.search(note)) for note in notes) == 1, (trial, text, core)
        cut_short += any("kept what you asked" in n for n in service.pop_notices())
        service.close()
        first += 100
    assert cut_short, "no kill landed between a message being logged and its note being written"
