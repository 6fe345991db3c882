import numpy as np, pickle
from harness import *
from feats import *
convs = load_all()
F = pickle.load(open("/tmp/locomo_cache/bm25feats.pkl", "rb")); F.update(pickle.load(open("/tmp/locomo_cache/densefeats.pkl", "rb")))
raw = {"turn": [bm25_mat(c) for c in convs], "w22": [bm25_texts(c, window_texts(c["turns"], 2, 2)) for c in convs], "d_turn": F["d_turn"], "d_w22": F["d_w22"]}
def mmk(M, K):
    hi = M.max(1, keepdims=True); lo = -np.sort(-M, 1)[:, K - 1:K]
    return np.clip((M - lo) / np.maximum(hi - lo, 1e-9), 0, 1)
W = dict(turn=1, w22=1.5, d_turn=1.5, d_w22=2)
for K in (50, 100, 200, 400):
    S = [sum(w * mmk(raw[k][ci], K) for k, w in W.items()) + 0.9 * F["spk"][ci] for ci in range(4)]
    r = evaluate(convs, lambda ci, qi: np.argsort(-S[ci][qi], kind="stable")); print(fmt(r, f"min-max over top-{K} (clip)"), flush=True)
