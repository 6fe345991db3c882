"""LoCoMo retrieval metrics, exactly as shared/BENCHMARKS.md §1 and its reference script define them."""
from __future__ import annotations

import collections
import re
from typing import Iterable, Sequence

BUDGET_CHARS = 2500


def evidence_ids(question: dict, valid: set[str]) -> set[str]:
    """Evidence turns: entries split on ';'/spaces/commas, D30:05 → D30:5, unknown ids dropped."""
    ids = set()
    for entry in question.get("evidence", []):
        for part in re.split(r"[;\s,]+", entry):
            match = re.fullmatch(r"D(\d+):0*(\d+)", part.strip())
            if match:
                ids.add(f"D{match.group(1)}:{match.group(2)}")
    return ids & valid


def score_ranking(items: Sequence[tuple[tuple[str, ...], str]], ev: set[str]) -> dict[str, float]:
    """items: ranked (turn ids, text shown). R@k over the first k turns, MRR@100, budget recall."""
    flat, seen = [], set()
    for ids, _ in items:
        for i in ids:
            if i not in seen:
                seen.add(i)
                flat.append(i)
    out = {f"R@{k}": len(set(flat[:k]) & ev) / len(ev) * 100 for k in (5, 10, 25)}
    first = next((rank + 1 for rank, i in enumerate(flat[:100]) if i in ev), None)
    out["mrr"] = 1 / first if first else 0.0
    used, covered = 0, set()
    for ids, text in items:
        if used + len(text) > BUDGET_CHARS:
            break
        used += len(text)
        covered |= set(ids)
    out["budget_recall"] = len(covered & ev) / len(ev) * 100
    return out


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def summarise(per_question: Iterable[tuple[str, dict]], latencies_ms: Sequence[float], skipped: int) -> dict:
    totals: dict[str, dict[str, float]] = collections.defaultdict(lambda: collections.defaultdict(float))
    counts: collections.Counter = collections.Counter()
    for category, metrics in per_question:
        for key in [category] + (["overall"] if category != "5" else []):
            counts[key] += 1
            for name, value in metrics.items():
                totals[key][name] += value
    res = {key: {m: round(v / counts[key], 4 if m == "mrr" else 2) for m, v in totals[key].items()} for key in counts}
    return {
        "overall": res.get("overall", {}),
        "by_category": {k: v for k, v in sorted(res.items()) if k != "overall"},
        "latency_ms": {"p50": round(percentile(latencies_ms, 50), 1), "p95": round(percentile(latencies_ms, 95), 1)},
        "questions": counts["overall"],
        "skipped_no_evidence": skipped,
    }
