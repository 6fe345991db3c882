import numpy as np, pickle
from harness import *
from feats import *
convs = load_all()
F = pickle.load(open("/tmp/locomo_cache/bm25feats.pkl", "rb")); F.update(pickle.load(open("/tmp/locomo_cache/densefeats.pkl", "rb")))
SQ = [np.load(f"{CACHE}/{c['name']}_sp_q.npy") for c in convs]; ST = [np.load(f"{CACHE}/{c['name']}_sp_turn.npy") for c in convs]
print("sparse dim", ST[0].shape, "nnz/turn", float((ST[0] > 0).sum(1).mean()))
F["sp"] = [q @ t.T for q, t in zip(SQ, ST)]; F["sp_mm"] = [minmax(x) for x in F["sp"]]
def winsum(c, X):
    T = c["turns"]; out = np.zeros_like(X)
    for i in range(len(T)):
        js = [j for j in range(i - 2, i + 3) if 0 <= j < len(T) and T[j]["sess"] == T[i]["sess"]]
        out[i] = X[js].sum(0)
    return out
F["sp_w_mm"] = [minmax(q @ winsum(c, t).T) for c, q, t in zip(convs, SQ, ST)]
def ev(w, label):
    S = [sum(wt * F[k][ci] for k, wt in w.items()) for ci in range(4)]
    r = evaluate(convs, lambda ci, qi: np.argsort(-S[ci][qi], kind="stable")); print(fmt(r, label), flush=True)
ev({"sp": 1}, "e5 sparse head alone")
B = dict(turn=1, w22=1.5, spk=0.9, d_turn_mm=1.5, d_w22_mm=2)
for w in (0.5, 1.0): ev({**B, "sp_mm": w}, f"base + {w}*sparse(turn)")
for w in (0.5, 1.0): ev({**B, "sp_mm": w, "sp_w_mm": w}, f"base + {w}*sparse(turn) + {w}*sparse(win)")
