"""`python nexus_ark.py bench locomo FILE... [--json]`: retrieval quality on LoCoMo conversations.

Protocol (shared/BENCHMARKS.md §1): each conversation is replayed session by session through
the real save path (chat log → memory items → indexing) with a simulated clock from the
session dates; `speaker_a` plays the user, `speaker_b` the persona. Each question is asked
through the real recall pipeline with the rule-based planner (no LLM), "now" one day after the
last session, and the ranked list is scored before any display cap. Only this adapter knows
the dataset's layout; the memory code sees ordinary chat messages.
"""
from __future__ import annotations

import collections
import json
import re
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from agent.query_planner import rule_plan
from bench.locomo_metrics import evidence_ids, score_ranking, summarise
from managers.chat_log import ChatLog
from managers.rag import MemoryIndexer
from managers.recall import MemoryRecall


def load(path: Path) -> tuple[dict, list]:
    data = json.loads(Path(path).read_text())
    return data.get("conversation", data), data.get("qa", [])


def session_keys(conv: dict) -> list[str]:
    keys = [k for k in conv if re.fullmatch(r"session_\d+", k) and conv[k]]
    return sorted(keys, key=lambda k: int(k.split("_")[1]))


def session_time(conv: dict, key: str) -> datetime:
    raw = conv.get(f"{key}_date_time", "")
    return datetime.strptime(raw.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=timezone.utc)


def turn_text(turn: dict) -> str:
    text = turn.get("text", "")
    if turn.get("blip_caption"):
        text = f"{text} [shares {turn['blip_caption']}]"
    return text


def replay(conv: dict, root: Path) -> tuple[dict[str, str], datetime]:
    """Write the conversation to a chat log as the app would; returns message id → dia_id."""
    clock_state = {"t": datetime(2000, 1, 1, tzinfo=timezone.utc)}
    log = ChatLog(root / "logs", lambda: clock_state["t"])
    user = conv["speaker_a"]
    to_dia: dict[str, str] = {}
    last = clock_state["t"]
    for key in session_keys(conv):
        start = session_time(conv, key)
        for n, turn in enumerate(conv[key]):
            clock_state["t"] = start + timedelta(seconds=30 * n)
            role = "USER" if turn["speaker"] == user else "AGENT"
            entry = log.append(role, turn["speaker"], turn_text(turn))
            to_dia[entry.id] = turn["dia_id"]
            last = clock_state["t"]
    return to_dia, last


def run(files: list[str], embedder, rerank_on: bool = True, rng_seed: int = 0,
        weights: dict[str, float] | None = None) -> dict:
    import random

    per_question: list[tuple[str, dict]] = []
    latencies: list[float] = []
    skipped = 0
    for path in files:
        conv, qa = load(Path(path))
        with tempfile.TemporaryDirectory(prefix="locomo-") as tmp:
            root = Path(tmp) / "character"
            to_dia, last = replay(conv, root)
            indexer = MemoryIndexer(root, embedder)
            indexer.update()
            recall = MemoryRecall(indexer, random.Random(rng_seed))
            now = last + timedelta(days=1)
            valid = set(to_dia.values())
            for question in qa:
                ev = evidence_ids(question, valid)
                if not ev:
                    skipped += 1
                    continue
                started = time.perf_counter()
                ranked = recall.rank(rule_plan(question["question"]), now, rerank_on=rerank_on, weights=weights)
                latencies.append((time.perf_counter() - started) * 1000)
                items = [(tuple(to_dia[m] for m in r.message_ids if m in to_dia), r.text) for r in ranked]
                per_question.append((str(question["category"]), score_ranking(items, ev)))
            indexer.db.close()
    return summarise(per_question, latencies, skipped)


def main(args) -> int:
    from managers.embeddings import create_embedder

    weights = json.loads(args.weights) if args.weights else None
    result = run(args.files, create_embedder(args.embedder), rerank_on=not args.no_rerank, weights=weights)
    print(json.dumps(result) if args.json else json.dumps(result, indent=1))
    return 0


def by_category_table(result: dict) -> str:
    rows = collections.OrderedDict(sorted(result["by_category"].items()))
    return "\n".join(f"{k}: {v}" for k, v in rows.items())
