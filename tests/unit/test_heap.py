"""A long history is kept out of the garbage collector's full passes once its persona opens; a short
one is not (freezing keeps the cycles of whatever is frozen for good)."""
import gc

import pytest

import constants
from agent.providers.fake import ScriptedChatModel, replies
from bench.synthetic_history import seed_history
from persona.service import NexusService


@pytest.fixture
def unfrozen():
    gc.unfreeze()
    yield
    gc.unfreeze()


def _opened(data_dir, clock, messages: int) -> int:
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: ScriptedChatModel(replies("ok")))
    seed_history(data_dir / "characters" / "Ark" / "logs", messages)
    service.session("Ark")
    return gc.get_freeze_count()


def test_a_long_history_is_frozen_when_its_persona_opens(data_dir, clock, unfrozen, monkeypatch):
    monkeypatch.setattr(constants, "FREEZE_HISTORY_ENTRIES", 200)
    assert _opened(data_dir, clock, 400) > 0


def test_a_short_history_is_not(data_dir, clock, unfrozen, monkeypatch):
    monkeypatch.setattr(constants, "FREEZE_HISTORY_ENTRIES", 200)
    assert _opened(data_dir, clock, 100) == 0
