import numpy as np, pickle
from harness import *
from feats import *
convs = load_all()
F = pickle.load(open("/tmp/locomo_cache/bm25feats.pkl", "rb"))
def winavg(c, P, b, a):
    T = c["turns"]; out = np.zeros_like(P)
    for i in range(len(T)):
        js = [j for j in range(i - b, i + a + 1) if 0 <= j < len(T) and T[j]["sess"] == T[i]["sess"]]
        v = P[js].mean(0); out[i] = v / np.linalg.norm(v)
    return out
Q = [np.load(f"{CACHE}/{c['name']}_q.npy") for c in convs]
P = [np.load(f"{CACHE}/{c['name']}_turn.npy") for c in convs]
F["d_turn"] = [q @ p.T for q, p in zip(Q, P)]
for b, a in [(1,1), (2,2), (1,0)]:
    F[f"d_w{b}{a}"] = [q @ winavg(c, p, b, a).T for c, q, p in zip(convs, Q, P)]
for k in list(F):
    if k.startswith("d_"): F[k + "_mm"] = [minmax(x) for x in F[k]]
pickle.dump({k: v for k, v in F.items() if k.startswith("d_")}, open("/tmp/locomo_cache/densefeats.pkl", "wb"))
def ev(w, label=None):
    S = [sum(wt * F[k][ci] for k, wt in w.items()) for ci in range(len(convs))]
    r = evaluate(convs, lambda ci, qi: np.argsort(-S[ci][qi], kind="stable")); print(fmt(r, label or str(w)), flush=True); return r
ev({"d_turn": 1}); ev({"d_w11": 1}); ev({"d_w22": 1}); ev({"d_w10": 1})
ev({"d_turn_mm": 1, "d_w22_mm": 1})
base = {"turn": 1, "w22": 1, "spk": 0.6}
for k in ("d_turn_mm", "d_w11_mm", "d_w22_mm"):
    for w in (0.5, 1.0, 2.0):
        ev({**base, k: w})
ev({**base, "d_turn_mm": 1, "d_w22_mm": 1})
ev({**base, "d_turn_mm": 1.5, "d_w22_mm": 1.5})
ev({**base, "d_turn_mm": 2, "d_w11_mm": 1})
