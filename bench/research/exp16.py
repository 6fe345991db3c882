import numpy as np, pickle
from harness import *
from feats import *
convs = load_all()
F = pickle.load(open("/tmp/locomo_cache/bm25feats.pkl", "rb")); F.update(pickle.load(open("/tmp/locomo_cache/densefeats.pkl", "rb")))
B = dict(turn=1, w22=1.5, spk=0.9, d_turn_mm=1.5, d_w22_mm=2)
S = [sum(wt * F[k][ci] for k, wt in B.items()) for ci in range(4)]
def ev(S, label):
    r = evaluate(convs, lambda ci, qi: np.argsort(-S[ci][qi], kind="stable")); print(fmt(r, label), flush=True)
ev(S, "base")
for g, side in [(0.8, "next"), (0.9, "next"), (0.8, "both"), (0.9, "prev")]:
    S2 = []
    for ci, c in enumerate(convs):
        sess = np.array([t["sess"] for t in c["turns"]]); X = S[ci].copy(); Y = X.copy()
        if side in ("next", "both"):
            ok = sess[1:] == sess[:-1]; Y[:, 1:] = np.where(ok, np.maximum(Y[:, 1:], g * X[:, :-1]), Y[:, 1:])
        if side in ("prev", "both"):
            ok = sess[1:] == sess[:-1]; Y[:, :-1] = np.where(ok, np.maximum(Y[:, :-1], g * X[:, 1:]), Y[:, :-1])
        S2.append(Y)
    ev(S2, f"neighbour expansion {side} gamma={g}")
