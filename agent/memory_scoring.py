"""Intent-aware composite re-ranking (seed 004, Phase 1.5+), restated for similarity.

The seed's score is written for L2 distance (lower is better):
    α·distance + β·(1 − arousal) + γ·(1 − decay)·(1 − arousal)
With cosine-like relevance r in [0, 1] (higher is better) each term keeps its intent:
    α·r + β·arousal + γ·(1 − (1 − decay)·(1 − arousal))
so emotional questions favour vivid memories, technical and temporal ones favour fresh ones, and
a high-arousal memory is protected from time decay. Pure functions: `now` is an argument.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

import constants
from managers.episodes import is_starred


def age_days(ts: datetime | None, now: datetime) -> float:
    if ts is None:
        return 0.0
    return max(0.0, (now - ts).total_seconds() / 86400.0)


def time_decay(ts: datetime | None, now: datetime, rate: float = constants.TIME_DECAY_RATE) -> float:
    """1.0 for a memory from now, → 0 as it ages (rate 0.05/day: half after ~14 days)."""
    return math.exp(-rate * age_days(ts, now))


def composite_score(relevance: float, arousal: float, decay: float, intent: str) -> float:
    alpha, beta, gamma = constants.INTENT_WEIGHTS.get(intent, constants.INTENT_WEIGHTS["factual"])
    arousal = min(1.0, max(0.0, arousal))
    freshness = 1.0 - (1.0 - decay) * (1.0 - arousal)
    return alpha * relevance + beta * arousal + gamma * freshness


@dataclass(frozen=True)
class Marks:
    vivid: bool  # ★ high arousal
    fresh: bool  # 🆕 recent

    def text(self) -> str:
        return ("★" if self.vivid else "") + ("🆕" if self.fresh else "")


def marks_for(arousal: float, decay: float) -> Marks:
    return Marks(is_starred(arousal), decay > constants.FRESH_DECAY_THRESHOLD)


def rerank(candidates: list[tuple[int, float, float, datetime | None]], intent: str, now: datetime,
           weight: float = constants.RERANK_WEIGHT) -> list[tuple[int, float]]:
    """candidates: (id, relevance in [0,1], arousal, timestamp). Returns (id, final score), best first.

    The composite is blended with relevance by `weight`, so the seed's intent preferences
    reorder near-ties without letting recency bury an old memory that clearly answers.
    """
    scored = []
    for item_id, relevance, arousal, ts in candidates:
        composite = composite_score(relevance, arousal, time_decay(ts, now), intent)
        scored.append((item_id, (1.0 - weight) * relevance + weight * composite))
    return sorted(scored, key=lambda pair: pair[1], reverse=True)
