"""`python nexus_ark.py bench cjk [ja|zh ...] [--json]`: Japanese and Chinese memory recall.

The sets (bench/recall_sets/cjk_recall_{ja,zh}.json, built by bench/cjk_sets.py) hold companion-chat
histories and later questions, each with the ids of the messages that answer it. Each history is
replayed through the real save path (chat log → memory items → indexing), every question asked
through the real recall pipeline with the rule-based planner, "now" one day after the last
session, as in the LoCoMo bench; the ranking is scored with bench/locomo_metrics.py.

Beside it, the baseline the pipeline must at least match: Okapi BM25 over character bigrams of
the same items (each item's message text, NFKC-normalised; k1 1.2, b 0.75, Lucene/Robertson IDF
as shared/bench/locomo_bm25.py; the query is its own character bigrams, a repeated one counted
again, as that script counts a repeated query word).
"""
from __future__ import annotations

import collections
import json
import math
import random
import tempfile
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Sequence

from agent.query_planner import rule_plan
from bench.locomo_metrics import score_ranking
from managers.chat_log import ChatLog
from managers.rag import MEMORY_KINDS, MemoryIndexer
from persona.recall import MemoryRecall

DATA_DIR = Path(__file__).parent / "recall_sets"
LANGUAGES = ("ja", "zh")
BASELINE_K1 = 1.2
BASELINE_B = 0.75
REPORTED = ("R@5", "R@10", "mrr")


def char_bigrams(text: str) -> list[str]:
    """Every pair of adjacent characters of the NFKC-normalised text, in order."""
    text = unicodedata.normalize("NFKC", text)
    return [text[i:i + 2] for i in range(len(text) - 1)]


@dataclass(frozen=True)
class BigramBM25:
    """Okapi BM25 over character bigrams (the baseline), built once per history."""
    tfs: tuple[collections.Counter, ...]
    lengths: tuple[int, ...]
    df: collections.Counter
    k1: float = BASELINE_K1
    b: float = BASELINE_B

    @classmethod
    def of(cls, texts: Sequence[str]) -> "BigramBM25":
        grams = [char_bigrams(t) for t in texts]
        return cls(tuple(collections.Counter(g) for g in grams), tuple(len(g) for g in grams),
                   collections.Counter(g for item in grams for g in set(item)))

    def scores(self, query: str) -> list[float]:
        n = len(self.tfs)
        avg = sum(self.lengths) / max(1, n)
        out = []
        for tf, length in zip(self.tfs, self.lengths):
            score = 0.0
            for gram in char_bigrams(query):
                if gram in tf:
                    df = self.df[gram]
                    idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
                    norm = self.k1 * (1 - self.b + self.b * length / avg) if avg else self.k1
                    score += idf * tf[gram] * (self.k1 + 1) / (tf[gram] + norm)
            out.append(score)
        return out

    def ranking(self, query: str) -> list[int]:
        """Item positions, best first (ties in item order, as locomo_bm25.py sorts)."""
        scores = self.scores(query)
        return sorted(range(len(scores)), key=lambda i: -scores[i])


def load(lang: str) -> dict:
    return json.loads((DATA_DIR / f"cjk_recall_{lang}.json").read_text(encoding="utf-8"))


def replay(history: dict, root: Path) -> tuple[dict[str, str], datetime]:
    """Write the history to a chat log as the app would: message id → the set's id, last time."""
    clock = {"t": datetime.fromisoformat(history["sessions"][0]["date"])}
    log = ChatLog(root / "logs", lambda: clock["t"])
    to_set: dict[str, str] = {}
    for session in history["sessions"]:
        start = datetime.fromisoformat(session["date"])
        for n, message in enumerate(session["messages"]):
            clock["t"] = start + timedelta(minutes=n)
            name = history["user"] if message["role"] == "USER" else history["persona"]
            to_set[log.append(message["role"], name, message["text"]).id] = message["id"]
    return to_set, clock["t"]


def _mean(scored: list[dict]) -> dict:
    return {m: round(sum(s[m] for s in scored) / max(1, len(scored)), 4 if m == "mrr" else 2) for m in REPORTED}


def run_language(lang: str, embedder, weights: dict[str, float] | None = None) -> dict:
    data = load(lang)
    app, baseline = [], []
    for history in data["histories"]:
        with tempfile.TemporaryDirectory(prefix=f"cjk-{lang}-") as tmp:
            root = Path(tmp) / "character"
            to_set, last = replay(history, root)
            indexer = MemoryIndexer(root, embedder)
            indexer.update()
            recall = MemoryRecall(indexer, random.Random(0))
            now = last + timedelta(days=1)
            stored = indexer.db.get(indexer.db.all_ids(MEMORY_KINDS))
            items = [(tuple(to_set[m] for m in s.item.message_ids if m in to_set), s.item.lexical_body)
                     for s in stored.values()]
            bm25 = BigramBM25.of([text for _, text in items])
            for question in history["questions"]:
                evidence = set(question["evidence"])
                ranked = recall.rank(rule_plan(question["question"], now.date()), now, weights=weights)
                app.append(score_ranking([(tuple(to_set[m] for m in r.message_ids if m in to_set), r.text)
                                          for r in ranked], evidence))
                baseline.append(score_ranking([items[i] for i in bm25.ranking(question["question"])], evidence))
            indexer.db.close()
    return {"questions": len(app), "app": _mean(app), "bigram_bm25": _mean(baseline)}


def main(args) -> int:
    from bench.locomo_bench import ablation_weights
    from managers.embeddings import create_embedder

    embedder = create_embedder(args.embedder)
    weights = ablation_weights(args.weights) if args.weights else None
    result = {lang: run_language(lang, embedder, weights) for lang in (args.files or LANGUAGES)}
    print(json.dumps(result, ensure_ascii=False) if args.json else json.dumps(result, ensure_ascii=False, indent=1))
    return 0
