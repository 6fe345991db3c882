"""The recall side of the RAG manager: plan → hybrid search → fuse → intent-aware re-rank.

`rank` returns the whole ranked list (the benchmark scores it before any display cap);
`__call__` is the retrieval_node searcher: the top items within the seed's counts, plus the
keyword search over logs with its noise controls, each item saying why it was recalled.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from typing import Callable, Collection, Sequence

import numpy as np

import constants
from agent.keyword_sampling import LogBlock, sample_keyword_hits
from agent.memory_scoring import marks_for, rerank, time_decay
from agent.query_planner import QueryPlan, content_words, plan
from agent.retrieval import RetrievalResult, RetrievedItem
from managers.rag import MEMORY_KINDS, MemoryIndexer


@dataclass(frozen=True)
class RankedItem:
    id: int
    text: str
    message_ids: tuple[str, ...]
    source: str
    kind: str
    score: float
    lexical: float
    dense: float
    ts: datetime | None


def minmax(scores: dict[int, float]) -> dict[int, float]:
    if not scores:
        return {}
    values = np.fromiter(scores.values(), dtype=np.float64)
    low, high = float(values.min()), float(values.max())
    span = high - low
    return {k: ((v - low) / span if span > 0 else 1.0) for k, v in scores.items()}


def fuse(lexical: dict[int, float], dense: dict[int, float],
         lexical_weight: float = constants.FUSION_LEXICAL_WEIGHT) -> dict[int, float]:
    """Weighted sum of per-query min-max normalised scores (missing = 0)."""
    lex, den = minmax(lexical), minmax(dense)
    return {k: lexical_weight * lex.get(k, 0.0) + (1 - lexical_weight) * den.get(k, 0.0)
            for k in set(lex) | set(den)}


def _parse_ts(value: str) -> datetime | None:
    try:
        return datetime.fromisoformat(value) if value else None
    except ValueError:
        return None


class MemoryRecall:
    def __init__(self, indexer: MemoryIndexer, rng: random.Random,
                 complete_json: Callable[[str, str, dict], str] | None = None,
                 exclude_ids: Callable[[], Collection[str]] = frozenset):
        self.indexer = indexer
        self.rng = rng
        self.complete_json = complete_json
        self.exclude_ids = exclude_ids

    def rank(self, query_plan: QueryPlan, now: datetime, exclude: Collection[str] = (),
             limit: int = constants.RECALL_CANDIDATES, rerank_on: bool = True) -> list[RankedItem]:
        db, kinds = self.indexer.db, MEMORY_KINDS
        terms = list(dict.fromkeys(content_words(query_plan.rag_query) + list(query_plan.keywords)))
        lexical = dict(db.lexical_search(terms, kinds, limit)) if terms else {}
        vector = self.indexer.embedder.embed_query(query_plan.rag_query)
        dense = dict(self.indexer.vectors.search(vector, limit))
        fused = fuse(lexical, dense)
        stored = db.get(list(fused))
        candidates = [
            (i, fused[i], stored[i].item.arousal, _parse_ts(stored[i].item.ts))
            for i in fused if i in stored and not set(stored[i].item.message_ids) & set(exclude)
        ]
        order = (rerank(candidates, query_plan.intent, now) if rerank_on
                 else sorted(((c[0], c[1]) for c in candidates), key=lambda p: p[1], reverse=True))
        return [
            RankedItem(i, stored[i].item.text, stored[i].item.message_ids, stored[i].item.source,
                       stored[i].item.kind, score, lexical.get(i, 0.0), dense.get(i, 0.0),
                       _parse_ts(stored[i].item.ts))
            for i, score in order
        ]

    def keyword_hits(self, keywords: Sequence[str], exclude: Collection[str],
                     slots: tuple[int, int, int] = constants.KEYWORD_AUTO_SLOTS) -> list[RetrievedItem]:
        db = self.indexer.db
        found = db.lexical_search(list(keywords), ["current_log", "log_archive"], constants.KEYWORD_SCAN_LIMIT)
        stored = db.get([i for i, _ in found])
        blocks = [
            LogBlock(s.item.message_ids[0] if s.item.message_ids else s.item.item_key, "USER",
                     s.item.speaker, s.item.text, s.item.ts, s.item.source)
            for s in stored.values()
            if any(k.lower() in s.item.text.lower() for k in keywords)
        ]
        hits = sample_keyword_hits(blocks, exclude, *slots, rng=self.rng)
        return [RetrievedItem(h.text, f"log {h.block.source}", 0.0, f"keyword · {h.slot}") for h in hits]

    def __call__(self, message: str, now: datetime) -> RetrievalResult:
        query_plan = plan(message, self.complete_json)
        exclude = set(self.exclude_ids())
        ranked = self.rank(query_plan, now, exclude)
        chosen = [r for r in ranked if r.score >= constants.RECALL_MIN_SCORE][: constants.RECALL_MAX_RESULTS]
        items = []
        for r in chosen:
            mark = marks_for(0.0, time_decay(r.ts, now)).text()
            why = f"fused {r.score:.2f} · dense {r.dense:.2f} · bm25 {r.lexical:.1f} {mark}".strip()
            items.append(RetrievedItem(r.text, r.kind, r.score, why))
        if query_plan.keywords:
            shown = {r.text for r in chosen}
            items += [k for k in self.keyword_hits(query_plan.keywords, exclude) if k.text not in shown]
        self.indexer.db.record_access([r.id for r in chosen], now)
        return RetrievalResult(False, f"planned by {query_plan.source}", tuple(items), query_plan.intent)
