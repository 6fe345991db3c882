"""`python nexus_ark.py bench locomo FILE... [--json]`: retrieval quality on LoCoMo conversations.

Protocol (shared/BENCHMARKS.md §1): each conversation is replayed session by session through
the real save path (chat log → memory items → indexing) with a simulated clock from the
session dates; `speaker_a` plays the user, `speaker_b` the persona. Each question is asked
through the real recall pipeline with the rule-based planner (no LLM), "now" one day after the
last session, and the ranked list is scored before any display cap. Only this adapter knows
the dataset's layout; the memory code sees ordinary chat messages.

With `--distractors N`, each conversation is asked at scale: the persona's logs first hold N
messages of the seeded synthetic history (bench/synthetic_history.py), ending the month before
DISTRACTORS_END, and the conversation follows them. The distractors are indexed once and copied
for each conversation. `--exact` keeps the dense search exact however many messages there are.
"""
from __future__ import annotations

import collections
import json
import re
import shutil
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import constants
from agent.query_planner import rule_plan
from bench.locomo_metrics import evidence_ids, score_ranking, summarise
from bench.synthetic_history import seed_history
from managers.chat_log import ChatLog
from managers.rag import MemoryIndexer
from persona.recall import MemoryRecall


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


# Distractor histories end here: every LoCoMo conversation we know of starts in 2022 or later
# (`run` refuses one that starts earlier, whose months would mix with the distractors').
DISTRACTORS_END = datetime(2022, 1, 1, tzinfo=timezone.utc)


def indexed_distractors(folder: Path, messages: int, embedder, partition_from: int) -> Path:
    """A character folder whose logs hold `messages` synthetic messages, indexed."""
    root = folder / "distractors"
    seed_history(root / "logs", messages, end=DISTRACTORS_END - timedelta(days=31))
    indexer = MemoryIndexer(root, embedder, partition_from=partition_from)
    indexer.update()
    indexer.flush()
    indexer.db.close()
    return root


def run(files: list[str], embedder, rerank_on: bool = True, rng_seed: int = 0,
        weights: dict[str, float] | None = None, distractors: int = 0, exact: bool = False) -> dict:
    import random

    per_question: list[tuple[str, dict]] = []
    latencies: list[float] = []
    skipped = 0
    partition_from = 2 ** 62 if exact else constants.ANN_MIN_ITEMS
    with tempfile.TemporaryDirectory(prefix="locomo-distractors-") as scratch:
        template = indexed_distractors(Path(scratch), distractors, embedder, partition_from) if distractors else None
        for path in files:
            conv, qa = load(Path(path))
            if template and session_time(conv, session_keys(conv)[0]) < DISTRACTORS_END:
                raise ValueError(f"{path} starts before {DISTRACTORS_END:%Y-%m-%d}, where the distractors are")
            scored, took, unscored = _ask(conv, qa, template, embedder, partition_from, random.Random(rng_seed),
                                          rerank_on, weights)
            per_question += scored
            latencies += took
            skipped += unscored
    return summarise(per_question, latencies, skipped)


def _ask(conv: dict, qa: list, template: Path | None, embedder, partition_from: int, rng, rerank_on: bool,
         weights: dict[str, float] | None) -> tuple[list[tuple[str, dict]], list[float], int]:
    """Replay one conversation (after a copy of the distractors, if any) and rank every question:
    (category and score of each question, latencies in ms, questions with no valid evidence)."""
    scored, latencies, skipped = [], [], 0
    with tempfile.TemporaryDirectory(prefix="locomo-") as tmp:
        root = Path(tmp) / "character"
        if template:
            shutil.copytree(template, root)
        to_dia, last = replay(conv, root)
        indexer = MemoryIndexer(root, embedder, partition_from=partition_from)
        indexer.update()
        recall = MemoryRecall(indexer, rng)
        now = last + timedelta(days=1)
        valid = set(to_dia.values())
        for question in qa:
            ev = evidence_ids(question, valid)
            if not ev:
                skipped += 1
                continue
            started = time.perf_counter()
            ranked = recall.rank(rule_plan(question["question"], now.date()), now, rerank_on=rerank_on, weights=weights)
            latencies.append((time.perf_counter() - started) * 1000)
            items = [(tuple(to_dia[m] for m in r.message_ids if m in to_dia), r.text) for r in ranked]
            scored.append((str(question["category"]), score_ranking(items, ev)))
        indexer.db.close()
    return scored, latencies, skipped


def ablation_weights(given: str) -> dict[str, float]:
    """Recall weights from `--weights` JSON: the signals it names, every other signal 0."""
    named = json.loads(given)
    unknown = set(named) - set(constants.RECALL_WEIGHTS)
    if unknown:
        raise SystemExit(f"--weights: unknown signals {sorted(unknown)}; known: {sorted(constants.RECALL_WEIGHTS)}")
    return {signal: float(named.get(signal, 0.0)) for signal in constants.RECALL_WEIGHTS}


def main(args) -> int:
    from managers.embeddings import create_embedder

    weights = ablation_weights(args.weights) if args.weights else None
    result = run(args.files, create_embedder(args.embedder), rerank_on=not args.no_rerank, weights=weights,
                 distractors=args.distractors, exact=args.exact)
    print(json.dumps(result) if args.json else json.dumps(result, indent=1))
    return 0


def by_category_table(result: dict) -> str:
    rows = collections.OrderedDict(sorted(result["by_category"].items()))
    return "\n".join(f"{k}: {v}" for k, v in rows.items())
