"""The scale benchmark's synthetic history: the app's own log format, seeded, varied like chat."""
import re
from datetime import datetime, timezone

from bench.synthetic_history import seed_history
from managers.chat_log import ChatLog


def _read(logs_dir):
    return ChatLog(logs_dir, lambda: datetime(2027, 1, 1, tzinfo=timezone.utc)).entries()


def test_history_is_readable_seeded_bilingual_and_varied(tmp_path):
    assert seed_history(tmp_path / "a", 2000) == 2000
    seed_history(tmp_path / "b", 2000)
    entries = _read(tmp_path / "a")
    assert len(entries) == 2000 and len({e.id for e in entries}) == 2000
    assert [e.role for e in entries[:4]] == ["USER", "AGENT", "USER", "AGENT"]
    assert [e.text for e in entries] == [e.text for e in _read(tmp_path / "b")]  # same seed, same history
    japanese = sum(bool(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", e.text)) for e in entries)
    assert 800 <= japanese <= 1200
    # Real chat rarely repeats a message word for word (the first generator had 134 distinct ones).
    assert len({e.text for e in entries}) > 1000
