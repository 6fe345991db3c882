"""`python nexus_ark.py bench scale [SIZE ...] [--copy-of DIR] [--json]` (shared/BENCHMARKS.md §2).

For each history size, on a seeded synthetic bilingual history written in the app's format:
- framework overhead per turn (log append, retrieval, prompt build, finalize) with a scripted
  model that answers at once, so all measured time is the framework's;
- retrieval latency (planner excluded) over the indexed history, for a hundred varied questions:
  as they come (words searched before are answered from kept match lists) and as if every word
  were new;
- bulk indexing throughput with the default embedder, and the delay until a new message is
  searchable.
"""
from __future__ import annotations

import json
import random
import shutil
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np

import constants

from agent.providers.fake import ScriptedChatModel, replies
from agent.query_planner import rule_plan
from bench.locomo_metrics import percentile
from bench.synthetic_history import questions, seed_history
from managers.vector_index import VectorIndex
from persona.heap import freeze_long_lived
from persona.recall import MemoryRecall
from persona.service import NexusService


def answer_in_kind(messages, tools) -> str:
    """A reply the reply guard lets through at once, in the question's language (English or Japanese,
    as the synthetic history's questions are), so each turn times one generation: a canned "Got it,
    thanks for telling me!" to every question was held back as saying nothing, three attempts a
    turn (BENCHMARKS.md, History, session 52)."""
    asked = messages[-1].content if messages else ""
    if any("\u3040" <= c <= "\u30ff" or "\u4e00" <= c <= "\u9fff" for c in asked):
        return "たしか先週の話だよね。あのときは楽しそうだったから、また続きを聞かせてほしいな。 <persona_emotion category=\"joy\" intensity=\"0.5\"/>"
    return ("As far as I remember it was last week, and it sounded like a good time; "
            "I would love to hear how it went on. <persona_emotion category=\"joy\" intensity=\"0.5\"/>")


QUERIES = ["What did I say about the museum?", "京都の話、覚えてる？", "How is Mochi doing?",
           "田中さんとどこに行った？", "Tell me about my astronomy book", "旅行の計画はどうなった？"]


def measure(size: int, turns: int, copy_of: Path | None = None) -> dict:
    """Seed `size` messages and index them (or take a copy of an indexed data directory), then
    time retrieval and whole turns on it."""
    with tempfile.TemporaryDirectory(prefix="nexus-scale-") as tmp:
        data_dir = Path(tmp) / "data"
        if copy_of is not None:
            shutil.copytree(copy_of, data_dir)
        model = ScriptedChatModel(answer_in_kind)
        service = NexusService(data_dir, model_factory=lambda s, k, p: model)
        freeze_long_lived()  # as the app does once it is up
        if copy_of is None:
            seed_history(data_dir / "characters" / "Ark" / "logs", size)

        started = time.perf_counter()
        report = service.update_memory_index("Ark")
        index_s = time.perf_counter() - started
        indexer = service.memory_index("Ark")
        indexed = len(indexer.vectors)
        service.session("Ark")  # opened before the first turn, as the page does when it shows the conversation

        recall = MemoryRecall(indexer, random.Random(0))
        now = service.clock()
        plans = [rule_plan(q) for q in questions(max(100, turns))]
        retrieval_ms = [timed(lambda: recall.rank(p, now)) for p in plans]
        # The same questions as if none of their words had been searched for before.
        first_time_ms = [timed(lambda: recall.rank(p, now), before=indexer.db.forget_lexical_caches) for p in plans]

        overhead_ms, searchable_ms, asked = [], [], questions(turns, seed=12)
        for i in range(turns):
            t0 = time.perf_counter()
            for event in service.send("Ark", asked[i % len(asked)]):
                if event.kind == "done":
                    reply_id = event.entry.id
            t1 = time.perf_counter()
            overhead_ms.append((t1 - t0) * 1000)
            searchable_ms.append(time_until_searchable(indexer, reply_id, t1))
            service.wait_for_background_work("Ark")
        agreement = ann_agreement(indexer, now, Path(tmp))  # after the timings: it warms caches
        service.close()
        indexer.db.close()
    return {
        "messages": size if copy_of is None else f"copy of {copy_of}",
        "indexed_items": indexed,
        "index_items_per_s": round(report.vectors_added / index_s, 1) if report.vectors_added else None,
        "retrieval_ms": {"p50": round(percentile(retrieval_ms, 50), 1), "p95": round(percentile(retrieval_ms, 95), 1)},
        "retrieval_new_words_ms": {"p50": round(percentile(first_time_ms, 50), 1),
                                   "p95": round(percentile(first_time_ms, 95), 1)},
        "turn_overhead_ms": {"p50": round(percentile(overhead_ms, 50), 1), "p95": round(percentile(overhead_ms, 95), 1)},
        "new_message_searchable_ms": {"p50": round(percentile(searchable_ms, 50), 1),
                                      "max": round(max(searchable_ms), 1)},
        **({"approximate_search": agreement} if agreement else {}),
    }


def ann_agreement(indexer, now, scratch: Path) -> dict | None:
    """Once the vector index is partitioned: the share of the exact dense top-k the approximate
    search returns (counted by score: the synthetic history repeats messages, so equal vectors make
    ids ambiguous), and the share of recall's top 10 that is the same with an exact index."""
    vectors = indexer.vectors
    if not vectors.partitioned:
        return None
    ids, matrix = vectors.contents()
    exact_index = VectorIndex(scratch / "exact.faiss", vectors.embedder_name, vectors.dim)
    exact_index.add(ids.tolist(), matrix)
    exact = MemoryRecall(SimpleNamespace(db=indexer.db, vectors=exact_index, embedder=indexer.embedder),
                         random.Random(0))
    approximate = MemoryRecall(indexer, random.Random(0))
    dense_found, top10_same = [], []
    k = constants.RECALL_CANDIDATES
    for text in QUERIES:
        query_plan = rule_plan(text)
        query = indexer.embedder.embed_query(query_plan.rag_query)
        kth_best = np.sort(matrix @ query)[::-1][min(k, len(matrix)) - 1]
        dense_found.append(np.mean([score >= kth_best - 1e-6 for _, score in vectors.search(query, k)]))
        top10 = [{r.id for r in recall.rank(query_plan, now, limit=10)} for recall in (exact, approximate)]
        top10_same.append(len(top10[0] & top10[1]) / 10)
    return {"dense_top150_found": round(float(np.mean(dense_found)), 3),
            "recall_top10_same": round(float(np.mean(top10_same)), 3)}


def timed(call, before=lambda: None) -> float:
    """Milliseconds `call` takes (after `before`, untimed)."""
    before()
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def time_until_searchable(indexer, entry_id: str, since: float, timeout_s: float = 30.0) -> float:
    """Milliseconds from `since` until the message has its vector in the searched index."""
    while time.perf_counter() - since < timeout_s:
        row_id = indexer.db.ids_by_key([entry_id]).get(entry_id)
        if row_id is not None and indexer.vectors.get([row_id]):
            break
        time.sleep(0.005)
    return (time.perf_counter() - since) * 1000


def main(args) -> int:
    # 60 turns at least: the p95 of 20 was the second-slowest turn and moved by ~10 ms between runs.
    turns = max(60, args.turns * 5)
    if args.copy_of:
        results = [measure(0, turns, Path(args.copy_of))]
    else:
        results = [measure(int(size), turns) for size in (args.files or ["1000", "10000"])]
    out = {"sizes": results}
    if len(results) > 1:
        first, last = results[0], results[-1]
        out["overhead_ratio_p95"] = round(last["turn_overhead_ms"]["p95"] / first["turn_overhead_ms"]["p95"], 2)
    print(json.dumps(out) if args.json else json.dumps(out, indent=1))
    return 0
