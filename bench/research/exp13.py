import numpy as np, pickle
from harness import *
from feats import *
convs = load_all()
F = pickle.load(open("/tmp/locomo_cache/bm25feats.pkl", "rb")); F.update(pickle.load(open("/tmp/locomo_cache/densefeats.pkl", "rb")))
F["d_prev"] = [dense(c, "prev") for c in convs]; F["d_prev_mm"] = [minmax(x) for x in F["d_prev"]]
# chunk6 -> turn score = max over chunks containing the turn
F["d_chunk_mm"] = []
for c in convs:
    D = dense(c, "chunk6")
    if D is None: F["d_chunk_mm"].append(None); continue
    idx = np.load(CACHE + "/" + c["name"] + "_chunks_idx.npy")
    if D is None: F["d_chunk_mm"].append(None); continue
    M = np.full((D.shape[0], len(c["turns"])), -1.0, np.float32)
    for k, (a, b) in enumerate(idx): M[:, a:b + 1] = np.maximum(M[:, a:b + 1], D[:, k:k + 1])
    F["d_chunk_mm"].append(minmax(M))
have_chunk = all(x is not None for x in F["d_chunk_mm"])
def ev(w, label=None):
    S = [sum(wt * F[k][ci] for k, wt in w.items()) for ci in range(len(convs))]
    r = evaluate(convs, lambda ci, qi: np.argsort(-S[ci][qi], kind="stable")); print(fmt(r, label or str(w)), flush=True); return r
ev({"d_prev": 1}, "dense e5(prev+turn) alone")
ev({"d_turn": 1}, "dense e5(turn) alone")
B = dict(turn=1, w22=1.5, spk=0.9, d_turn_mm=1.5, d_w22_mm=2)
ev(B, "base")
for w in (0.5, 1.0, 2.0): ev({**B, "d_prev_mm": w}, f"base + {w}*e5(prev+turn)")
ev({**B, "d_turn_mm": 0, "d_prev_mm": 1.5}, "base, e5(turn) replaced by e5(prev+turn)")
print("chunks available:", have_chunk)
if have_chunk:
    for w in (0.5, 1.0): ev({**B, "d_chunk_mm": w}, f"base + {w}*chunk6 max")
