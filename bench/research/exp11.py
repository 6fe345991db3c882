import numpy as np, pickle
from harness import *
from feats import *
convs = load_all()
F = pickle.load(open("/tmp/locomo_cache/bm25feats.pkl", "rb")); F.update(pickle.load(open("/tmp/locomo_cache/densefeats.pkl", "rb")))
Q = [np.load(f"{CACHE}/{c['name']}_q.npy") for c in convs]
P = [np.load(f"{CACHE}/{c['name']}_turn.npy") for c in convs]
def winavg(c, P, b, a):
    T = c["turns"]; out = np.zeros_like(P)
    for i in range(len(T)):
        js = [j for j in range(i - b, i + a + 1) if 0 <= j < len(T) and T[j]["sess"] == T[i]["sess"]]
        v = P[js].sum(0); out[i] = v / np.linalg.norm(v)
    return out
PW = [winavg(c, p, 2, 2) for c, p in zip(convs, P)]
B = dict(turn=1, w22=1.5, spk=0.9, d_turn_mm=1.5, d_w22_mm=2)
S0 = [sum(wt * F[k][ci] for k, wt in B.items()) for ci in range(4)]
def ev(S, label):
    r = evaluate(convs, lambda ci, qi: np.argsort(-S[ci][qi], kind="stable")); print(fmt(r, label), flush=True); return r
ev(S0, "base")
# session prior: mean-of-session embedding similarity (dense) and session max fused score
for w in (0.3, 0.6, 1.0):
    S = []
    for ci, c in enumerate(convs):
        sess = np.array([t["sess"] for t in c["turns"]]); M = np.zeros_like(S0[ci])
        SE = np.stack([P[ci][sess == s].mean(0) for s in range(sess.max() + 1)]); SE /= np.linalg.norm(SE, axis=1, keepdims=True)
        M = minmax((Q[ci] @ SE.T)[:, sess])
        S.append(S0[ci] + w * M)
    ev(S, f"+ {w}*dense session prior")
# Rocchio dense PRF: q' = q + beta*mean(top-m turn vecs of fused ranking); recompute dense parts
for m, beta in [(3, 0.5), (5, 0.5), (5, 1.0), (10, 1.0)]:
    S = []
    for ci, c in enumerate(convs):
        top = np.argsort(-S0[ci], 1)[:, :m]
        q2 = Q[ci] + beta * P[ci][top].mean(1); q2 /= np.linalg.norm(q2, axis=1, keepdims=True)
        S.append(F["turn"][ci] * 1 + 1.5 * F["w22"][ci] + 0.9 * F["spk"][ci] + 1.5 * minmax(q2 @ P[ci].T) + 2 * minmax(q2 @ PW[ci].T))
    ev(S, f"dense PRF m={m} beta={beta}")
