"""Shared fixtures: a fixed clock, a temp data dir, and a service around a scripted model."""
from __future__ import annotations

import json
import os
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

REPO = Path(__file__).resolve().parent.parent


class StepClock:
    """A clock that starts at a fixed moment and advances one second per reading."""

    def __init__(self, start: datetime = datetime(2026, 3, 14, 9, 0, tzinfo=timezone.utc)):
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def stream(gate, text: str, piece: int = 3) -> str:
    """What a reply guard (agent/character_guard.py `SentenceGate`) shows of `text` streamed in pieces."""
    shown = "".join(gate.feed(text[i:i + piece]) for i in range(0, len(text), piece))
    return shown + gate.flush()


@pytest.fixture
def clock() -> StepClock:
    return StepClock()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    path = tmp_path / "data"
    path.mkdir()
    return path


def embedded_model_path() -> Path:
    override = os.environ.get("NEXUS_ARK_MODEL_PATH")
    return Path(override) if override else REPO / "data" / "models" / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"


def quiet_dream(insight: str = "A quiet night; nothing new to resolve.") -> str:
    """A scripted answer to the night's dream (persona/dream_job.py) that changes nothing but the diary,
    and to its questions' ask (no such JSON: no question): for tests of the other sleep-time steps,
    whose model must answer every ask of the night."""
    return json.dumps({"trigger_topic": "", "insight": insight, "strategy": "", "log_entry": "", "new_goals": [],
                       "completed_goals": [], "abandoned_goals": [], "entity_updates": []})


def turn_context(messages) -> str:
    """The turn's context message (time, memories, reminder) of a prompt as sent: the system message
    right before the user's; a retry's nudge after the user's message is left aside."""
    messages = list(messages)
    while messages and messages[-1].role == "system":
        messages.pop()
    assert messages and messages[-1].role == "user"
    return messages[-2].content if len(messages) > 2 and messages[-2].role == "system" else ""
