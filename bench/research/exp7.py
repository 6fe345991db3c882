import numpy as np, pickle, datetime
from harness import *
from feats import *
convs = load_all()
F = pickle.load(open("/tmp/locomo_cache/bm25feats.pkl", "rb")); F.update(pickle.load(open("/tmp/locomo_cache/densefeats.pkl", "rb")))
raw_turn = [bm25_mat(c) for c in convs]
def smooth(c, M, b, a, how):
    T = c["turns"]; out = np.zeros_like(M)
    for i in range(len(T)):
        js = [j for j in range(i - b, i + a + 1) if 0 <= j < len(T) and T[j]["sess"] == T[i]["sess"]]
        out[:, i] = M[:, js].sum(1) if how == "sum" else M[:, js].max(1)
    return out
F["sm22sum"] = [minmax(smooth(c, m, 2, 2, "sum")) for c, m in zip(convs, raw_turn)]
F["sm22max"] = [minmax(smooth(c, m, 2, 2, "max")) for c, m in zip(convs, raw_turn)]
def ev(w, label=None, S=None):
    if S is None: S = [sum(wt * F[k][ci] for k, wt in w.items()) for ci in range(len(convs))]
    r = evaluate(convs, lambda ci, qi: np.argsort(-S[ci][qi], kind="stable")); print(fmt(r, label or str(w)), flush=True); return r
best = {"turn": 1, "w22": 1, "spk": 0.6, "d_turn_mm": 1.5, "d_w22_mm": 1.5}
ev(best, "BEST-sofar")
ev({"turn": 1, "sm22sum": 1, "spk": 0.6, "d_turn_mm": 1.5, "d_w22_mm": 1.5}, "w22 text -> smoothed turn bm25 (sum)")
ev({"turn": 1, "sm22max": 1, "spk": 0.6, "d_turn_mm": 1.5, "d_w22_mm": 1.5}, "w22 text -> smoothed turn bm25 (max)")
# z-score fusion / RRF fusion of the same components
raw = {"turn": raw_turn, "w22": [bm25_texts(c, window_texts(c["turns"], 2, 2)) for c in convs], "d_turn": F["d_turn"], "d_w22": F["d_w22"]}
for name, norm in (("z", zscore), ("rrf", rrf)):
    for sw in (0.6,):
        S = [sum(w * norm(raw[k][ci]) for k, w in (("turn", 1), ("w22", 1), ("d_turn", 1.5), ("d_w22", 1.5))) for ci in range(4)]
        sc = np.mean([np.ptp(s) for s in S])  # scale speaker bonus to the fused range
        S = [s + sw * sc / 5 * F["spk"][ci] for ci, s in enumerate(S)]
        ev(None, f"{name} fusion (+spk scaled)", S)
        S2 = [sum(w * norm(raw[k][ci]) for k, w in (("turn", 1), ("w22", 1), ("d_turn", 1.5), ("d_w22", 1.5))) for ci in range(4)]
        ev(None, f"{name} fusion no spk", S2)
# time decay: now = last session + 1 day
for lam, tau in ((0.1, 30), (0.1, 180), (0.3, 365)):
    S = []
    for ci, c in enumerate(convs):
        ts = [t["ts"] for t in c["turns"]]; now = max(ts) + datetime.timedelta(days=1)
        age = np.array([(now - t).total_seconds() / 86400 for t in ts])
        S.append(sum(wt * F[k][ci] for k, wt in best.items()) + lam * np.exp(-age / tau)[None, :])
    ev(None, f"+ recency {lam}*exp(-age/{tau}d)", S)
