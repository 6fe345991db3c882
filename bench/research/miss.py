"""Missed evidence of the session-1 recipe: a seeded sample of category 1/4 questions whose evidence ranks below 10, with the top hits."""
import numpy as np, random
from harness import *
from feats import *
convs = load_all()
F = features(convs)
B = dict(turn=1, w22=1.5, spk=0.9, d_turn_mm=1.5, d_w22_mm=2)
random.seed(0); rows = []
for ci, c in enumerate(convs):
    S = sum(wt * F[k][ci] for k, wt in B.items()); T = c["turns"]; idx = {t["id"]: i for i, t in enumerate(T)}
    for qi, q in enumerate(c["qa"]):
        if q["category"] not in (1, 4): continue
        ev = ref.evidence(q, set(idx))
        if not ev: continue
        rank = np.argsort(np.argsort(-S[qi]))
        miss = [(e, rank[idx[e]]) for e in ev if rank[idx[e]] >= 10]
        if miss: rows.append((q, miss, T, idx, S[qi]))
for q, miss, T, idx, s in random.sample(rows, 14):
    print(q["category"], q["question"], "->", q.get("answer"))
    top = np.argsort(-s)[:2]
    for e, r in miss: print(f"   MISS rank {r}: {T[idx[e]]['text'][:160]}")
    for i in top: print(f"   top: {T[i]['text'][:120]}")
