import numpy as np, pickle
from harness import *
from feats import *
convs = load_all()
F = pickle.load(open("/tmp/locomo_cache/bm25feats.pkl", "rb")); F.update(pickle.load(open("/tmp/locomo_cache/densefeats.pkl", "rb")))
best = {"turn": 1, "w22": 1, "spk": 0.6, "d_turn_mm": 1.5, "d_w22_mm": 1.5}
S = [sum(wt * F[k][ci] for k, wt in best.items()) for ci in range(len(convs))]
def divrank(c, s, delta, rad, topn=60, sess_pen=0.0):
    T = c["turns"]; order = list(np.argsort(-s)[:topn]); rest = list(np.argsort(-s)[topn:])
    sc = {i: s[i] for i in order}; out = []
    pos = np.arange(len(T)); sess = np.array([t["sess"] for t in T])
    while sc:
        i = max(sc, key=sc.get); out.append(i); del sc[i]
        for j in sc:
            if sess[j] == sess[i]:
                sc[j] -= sess_pen
                if abs(j - i) <= rad: sc[j] -= delta
    return out + rest
for delta, rad, sp in [(0.1, 2, 0), (0.2, 2, 0), (0.3, 2, 0), (0.2, 1, 0), (0.5, 1, 0), (0, 0, 0.05), (0, 0, 0.1), (0.1, 2, 0.05)]:
    r = evaluate(convs, lambda ci, qi: divrank(convs[ci], S[ci][qi], delta, rad, sess_pen=sp))
    print(fmt(r, f"diversify delta={delta} rad={rad} sess_pen={sp}"), flush=True)
