import numpy as np, pickle
from harness import *
from feats import *
convs = load_all()
F = pickle.load(open("/tmp/locomo_cache/bm25feats.pkl", "rb")); F.update(pickle.load(open("/tmp/locomo_cache/densefeats.pkl", "rb")))
B = dict(turn=1, w22=1.5, spk=0.9, d_turn_mm=1.5, d_w22_mm=2)
sub = [0, 1]  # files 26, 30 (chunk embeddings cached only for these)
CH = {}
for ci in sub:
    c = convs[ci]; D = dense(c, "chunk6"); idx = np.load(CACHE + "/" + c["name"] + "_chunks_idx.npy")
    M = np.full((D.shape[0], len(c["turns"])), -1.0, np.float32)
    for k, (a, b) in enumerate(idx): M[:, a:b + 1] = np.maximum(M[:, a:b + 1], D[:, k:k + 1])
    CH[ci] = minmax(M)
for w in (0, 0.5, 1.0, 2.0):
    S = {ci: sum(wt * F[k][ci] for k, wt in B.items()) + w * CH[ci] for ci in sub}
    r = evaluate([convs[ci] for ci in sub], lambda j, qi: np.argsort(-S[sub[j]][qi], kind="stable"))
    print(fmt(r, f"[26+30 only] + {w}*e5(6-turn chunk, max)"))
