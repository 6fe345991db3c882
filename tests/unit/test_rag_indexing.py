"""Incremental indexing of chat logs: a changed file once, an unchanged file never."""
import hashlib
import os
from pathlib import Path

import numpy as np
import pytest

from managers.chat_log import ChatLog
from managers.rag import MemoryIndexer


class CountingEmbedder:
    """A deterministic stand-in embedder that records every text it embeds."""

    name = "counting-test-embedder"
    dim = 8
    dense_weight_scale = 1.0

    def __init__(self):
        self.embedded: list[str] = []

    def _vec(self, text: str) -> np.ndarray:
        digest = hashlib.sha256(text.encode()).digest()
        v = np.frombuffer(digest[: self.dim * 4], dtype=np.uint32).astype(np.float32)
        return v / np.linalg.norm(v)

    def embed_documents(self, texts):
        self.embedded.extend(texts)
        return np.stack([self._vec(t) for t in texts]) if texts else np.zeros((0, self.dim), np.float32)

    def embed_query(self, text):
        return self._vec(text)


@pytest.fixture
def character(tmp_path):
    root = tmp_path / "Ark"
    (root / "logs").mkdir(parents=True)
    return root


def write_month(root, clock, texts):
    log = ChatLog(root / "logs", clock)
    return [log.append("USER" if i % 2 == 0 else "AGENT", "Mina" if i % 2 == 0 else "Ark", t)
            for i, t in enumerate(texts)]


def test_unchanged_files_are_never_reembedded_and_new_entries_once(character, clock):
    write_month(character, clock, ["I adopted a cat named Tama", "What a lovely name!"])
    embedder = CountingEmbedder()
    indexer = MemoryIndexer(character, embedder)
    first = indexer.update()
    assert first.items_added == 2 and first.vectors_added == 2
    assert indexer.update().sources_changed == 0 and len(embedder.embedded) == 2
    ChatLog(character / "logs", clock).append("USER", "Mina", "Tama knocked over a cup")
    report = indexer.update()
    assert report.items_added == 1 and report.vectors_added == 1
    assert len(embedder.embedded) == 3 and "Tama knocked over a cup" in embedder.embedded[-1]


def test_rebuild_equals_incremental(character, clock):
    entries = write_month(character, clock, ["first thing said here", "second reply here", "third one"])
    log = ChatLog(character / "logs", clock)
    incremental = MemoryIndexer(character, CountingEmbedder())
    incremental.update()
    log.record_edit(entries[0].id, "first thing, corrected")
    log.record_delete(entries[2].id)
    incremental.update()
    snapshot = sorted(s.item.text for s in incremental.db.get(incremental.db.all_ids(["current_log"])).values())
    assert len(incremental.vectors) == 2
    rebuilt = MemoryIndexer(character, CountingEmbedder())
    rebuilt.rebuild()
    again = sorted(s.item.text for s in rebuilt.db.get(rebuilt.db.all_ids(["current_log"])).values())
    assert again == snapshot and any("corrected" in t for t in again) and not any("third one" in t for t in again)
    assert len(rebuilt.vectors) == 2


def test_interrupted_embedding_resumes(character, clock):
    write_month(character, clock, [f"message number {i}" for i in range(10)])

    class FailingEmbedder(CountingEmbedder):
        def embed_documents(self, texts):
            raise KeyboardInterrupt  # the app stopped mid-way

    with pytest.raises(KeyboardInterrupt):
        MemoryIndexer(character, FailingEmbedder()).update()
    embedder = CountingEmbedder()
    resumed = MemoryIndexer(character, embedder)
    report = resumed.update()
    assert report.items_added == 0 and report.vectors_added == 10 and len(resumed.vectors) == 10


def test_items_carry_provenance(character, clock):
    [entry] = write_month(character, clock, ["田中さんと猫カフェに行った"])
    indexer = MemoryIndexer(character, CountingEmbedder())
    indexer.update()
    [stored] = indexer.db.get(indexer.db.all_ids(["current_log"])).values()
    assert stored.item.message_ids == (entry.id,) and stored.item.source == "2026-03.txt"
    assert stored.item.text.endswith("Mina: 田中さんと猫カフェに行った")
    assert [i for i, _ in indexer.db.lexical_search(["猫"], ["current_log"], 5)] == [stored.id]


def test_windows_stay_inside_a_session_and_grow_with_new_messages(character, clock):
    from datetime import timedelta

    log = ChatLog(character / "logs", clock)
    log.append("USER", "Mina", "alpha message")
    log.append("AGENT", "Ark", "bravo reply")
    clock.now += timedelta(hours=5)  # a long silence: a new session starts
    log.append("USER", "Mina", "charlie later")
    indexer = MemoryIndexer(character, CountingEmbedder())
    indexer.update()
    db = indexer.db

    def ids():
        return [db.ids_by_key([e.id])[e.id] for e in log.view()]

    alpha, bravo, charlie = ids()
    assert db.neighbours([alpha, charlie], 2) == {alpha: [alpha, bravo], charlie: [charlie]}
    log.append("AGENT", "Ark", "delta answer")
    indexer.update()
    delta = ids()[3]
    assert db.neighbours([charlie, alpha], 2) == {charlie: [charlie, delta], alpha: [alpha, bravo]}


def test_a_few_new_vectors_are_searchable_at_once_and_written_later(character, clock):
    write_month(character, clock, ["I adopted a cat named Tama", "What a lovely name!"])
    embedder = CountingEmbedder()
    indexer = MemoryIndexer(character, embedder)
    indexer.update()
    indexer.flush()
    [entry] = write_month(character, clock, ["Tama knocked over a cup"])
    indexer.update()
    new_id = indexer.db.ids_by_key([entry.id])[entry.id]
    assert indexer.vectors.search(embedder.embed_query("[x] Mina: Tama knocked over a cup"), 3)  # in memory
    assert new_id in indexer.vectors.ids()

    # Stopped without a flush: the file lacks the vector; the next start embeds just that one.
    restarted_embedder = CountingEmbedder()
    restarted = MemoryIndexer(character, restarted_embedder)
    assert new_id not in restarted.vectors.ids()
    assert restarted.update().vectors_added == 1 and new_id in restarted.vectors.ids()
    restarted.flush()
    after_flush = MemoryIndexer(character, CountingEmbedder())
    assert after_flush.update().vectors_added == 0 and len(after_flush.vectors) == 3


def test_the_embedder_reads_speaker_and_message_without_the_date_heading(character, clock):
    [entry] = write_month(character, clock, ["I adopted a cat named Tama"])
    embedder = CountingEmbedder()
    indexer = MemoryIndexer(character, embedder)
    indexer.update()
    assert embedder.embedded == ["Mina: I adopted a cat named Tama"]
    stored = indexer.db.get([indexer.db.ids_by_key([entry.id])[entry.id]])
    assert [s.item.text for s in stored.values()] == [f"[{clock():%Y-%m-%d}] Mina: I adopted a cat named Tama"]


def test_vectors_of_an_older_embedded_text_are_rebuilt_and_retired_files_removed(character, clock):
    import json

    write_month(character, clock, ["I adopted a cat named Tama", "What a lovely name!"])
    indexer = MemoryIndexer(character, CountingEmbedder())
    indexer.update()
    indexer.flush()
    indexer.db.close()
    meta = character / "index" / "memory.json"
    meta.write_text(json.dumps({"embedder": CountingEmbedder.name, "dim": CountingEmbedder.dim}))  # no text version
    (character / "index" / "memory-window.faiss").write_bytes(b"old window vectors")
    embedder = CountingEmbedder()
    reopened = MemoryIndexer(character, embedder)
    assert len(reopened.vectors) == 0 and not (character / "index" / "memory-window.faiss").exists()
    assert reopened.update().vectors_added == 2 and len(embedder.embedded) == 2


def test_a_run_that_fails_mid_way_is_completed_by_the_next_run_of_the_same_indexer(character, clock):
    write_month(character, clock, [f"message number {i}" for i in range(3)])
    embedder = CountingEmbedder()
    indexer = MemoryIndexer(character, embedder)
    assert indexer.update().vectors_added == 3
    write_month(character, clock, [f"later message {i}" for i in range(4)])
    real_embed = embedder.embed_documents
    embedder.embed_documents = lambda texts: (_ for _ in ()).throw(RuntimeError("engine stopped"))
    with pytest.raises(RuntimeError):
        indexer.update()  # the 4 new items are in memory.db, their vectors are not
    embedder.embed_documents = real_embed
    report = indexer.update()  # nothing new to read: the missing vectors are found by comparing
    assert report.items_added == 0 and report.vectors_added == 4 and len(indexer.vectors) == 7
    write_month(character, clock, ["one more"])
    report = indexer.update()
    assert report.vectors_added == 1 and len(indexer.vectors) == 8


def test_a_long_history_is_partitioned_by_the_indexer_and_recall_still_finds_a_message(character, clock):
    from persona.recall import MemoryRecall
    from agent.query_planner import rule_plan
    import random

    texts = [f"Note number {n}: today I thought about topic {n % 97} and item {n % 13}" for n in range(1200)]
    write_month(character, clock, texts + ["My grandmother's lighthouse painting hangs in the hallway"])
    embedder, progress = CountingEmbedder(), []
    indexer = MemoryIndexer(character, embedder, partition_from=1000)
    indexer.update(progress=lambda message, fraction: progress.append(message))
    assert indexer.vectors.partitioned
    assert "Organising the memory index for fast search" in progress
    ranked = MemoryRecall(indexer, random.Random(0)).rank(rule_plan("the lighthouse painting"), clock())
    assert "lighthouse painting" in ranked[0].text
    reopened = MemoryIndexer(character, embedder, partition_from=1000)
    assert reopened.vectors.partitioned and len(reopened.vectors) == 1201  # saved once partitioned


def test_a_vector_whose_item_is_gone_is_dropped_at_the_next_full_comparison(character, clock):
    write_month(character, clock, ["I adopted a cat named Tama", "What a lovely name!"])
    embedder = CountingEmbedder()
    first = MemoryIndexer(character, embedder)
    first.update()
    # As after a crash: the saved index holds a vector for an id memory.db no longer has.
    first.vectors.add([4242], embedder.embed_documents(["an edited-away message"]))
    first.flush()
    first.db.close()
    reopened = MemoryIndexer(character, embedder)
    reopened.update()
    assert 4242 not in reopened.vectors.ids() and len(reopened.vectors) == 2


def test_a_hand_edited_timestamp_without_offset_is_recalled_not_a_crash(character, clock):
    from persona.recall import MemoryRecall
    from agent.query_planner import rule_plan
    import random

    write_month(character, clock, ["My grandmother's lighthouse painting hangs in the hallway", "Lovely"])
    month = next((character / "logs").glob("*.txt"))
    month.write_text(month.read_text(encoding="utf-8").replace("+00:00", ""), encoding="utf-8")
    indexer = MemoryIndexer(character, CountingEmbedder())
    indexer.update()
    ranked = MemoryRecall(indexer, random.Random(0)).rank(rule_plan("the lighthouse painting"), clock())
    painting = next(r for r in ranked if "lighthouse painting" in r.text)
    assert painting.ts is not None and painting.ts.tzinfo is not None


def test_an_unchanged_file_is_not_even_read_and_a_touched_one_only_hashed(character, clock, monkeypatch):
    write_month(character, clock, ["I adopted a cat named Tama", "What a lovely name!"])
    indexer = MemoryIndexer(character, CountingEmbedder())
    indexer.update()
    read: list[str] = []
    real_read = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: read.append(self.name) or real_read(self))
    assert indexer.update().sources_changed == 0 and read == []
    [log_file] = indexer.log_files()
    os.utime(log_file)  # touched: read and hashed once, nothing re-indexed, then left alone again
    assert indexer.update().sources_changed == 0 and read == [log_file.name]
    assert indexer.update().sources_changed == 0 and read == [log_file.name]
    ChatLog(character / "logs", clock).append("USER", "Mina", "Tama knocked over a cup")
    assert indexer.update().items_added == 1
