"""A process killed with SIGKILL mid-reply: on restart the partial reply is recovered."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from managers.chat_log import STATUS_RECOVERED
from persona.service import NexusService

pytestmark = pytest.mark.crash
CHILD = Path(__file__).with_name("crash_child.py")


def wait_for_journal_text(journal: Path, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if journal.exists() and '"event": "text"' in journal.read_text(errors="replace"):
            return
        time.sleep(0.05)
    raise AssertionError("the child never journaled any text")


def test_sigkill_mid_reply_is_recovered(tmp_path):
    data_dir = tmp_path / "data"
    child = subprocess.Popen([sys.executable, str(CHILD), str(data_dir)], stdout=subprocess.PIPE)
    journal = data_dir / "characters/Ark/journal/streaming.jsonl"
    try:
        wait_for_journal_text(journal)
        time.sleep(0.5)
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(timeout=10)
    assert child.returncode == -signal.SIGKILL
    journaled = "".join(json.loads(line).get("text", "") for line in journal.read_text().splitlines()
                        if line.strip().endswith("}"))

    service = NexusService(data_dir)  # the restart: no model needed to recover
    view = service.conversation("Ark")
    assert [e.role for e in view] == ["USER", "AGENT"]
    assert view[0].text == "Tell me a very long story, please."
    recovered = view[1]
    assert recovered.meta["status"] == STATUS_RECOVERED and recovered.meta["reply_to"] == view[0].id
    assert recovered.text.startswith("word0 word1") and recovered.text.strip() == journaled.strip()
    assert not journal.exists()
    assert any("recovered" in notice for notice in service.pop_notices())

    again = NexusService(data_dir)  # a second restart recovers nothing twice
    assert [e.id for e in again.conversation("Ark")] == [e.id for e in view]
