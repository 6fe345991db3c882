import numpy as np, pickle
from harness import *
from feats import *
convs = load_all()
F = pickle.load(open("/tmp/locomo_cache/bm25feats.pkl", "rb")); F.update(pickle.load(open("/tmp/locomo_cache/densefeats.pkl", "rb")))
Q = [np.load(f"{CACHE}/{c['name']}_q.npy") for c in convs]
P = [np.load(f"{CACHE}/{c['name']}_turn.npy") for c in convs]
def winavg(c, P, b, a, center=1.0):
    T = c["turns"]; out = np.zeros_like(P)
    for i in range(len(T)):
        js = [j for j in range(i - b, i + a + 1) if 0 <= j < len(T) and T[j]["sess"] == T[i]["sess"]]
        v = P[js].sum(0) + (center - 1) * P[i]; out[i] = v / np.linalg.norm(v)
    return out
def ev(w, label=None, G=F):
    S = [sum(wt * G[k][ci] for k, wt in w.items()) for ci in range(len(convs))]
    r = evaluate(convs, lambda ci, qi: np.argsort(-S[ci][qi], kind="stable")); print(fmt(r, label or str(w)), flush=True); return r
B = dict(turn=1, w22=1.5, spk=0.9, d_turn_mm=1.5, d_w22_mm=2)
ev(B, "LOFO-consensus weights")
def wtexts(T, b, a, spk):
    out = []
    for i in range(len(T)):
        out.append("\n".join((T[j]["text"] if spk else T[j]["body"]) for j in range(i - b, i + a + 1) if 0 <= j < len(T) and T[j]["sess"] == T[i]["sess"]))
    return out
G = dict(F); G["w22"] = [minmax(bm25_texts(c, wtexts(c["turns"], 2, 2, True))) for c in convs]
ev(B, "window text with speaker names", G)
for b, a in [(2, 1), (3, 2), (3, 3)]:
    G = dict(F); G["w22"] = [minmax(bm25_texts(c, wtexts(c["turns"], b, a, False))) for c in convs]
    ev(B, f"bm25 window ({b},{a})", G)
for b, a, cw in [(2, 2, 2.0), (3, 3, 1.0), (3, 3, 2.0), (2, 1, 1.0), (4, 4, 2.0)]:
    G = dict(F); G["d_w22_mm"] = [minmax(q @ winavg(c, p, b, a, cw).T) for c, q, p in zip(convs, Q, P)]
    ev(B, f"dense window avg ({b},{a}) center x{cw}", G)
