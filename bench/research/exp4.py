import numpy as np, itertools, pickle
from harness import *
from feats import *
convs = load_all()
F = {"turn": [minmax(bm25_mat(c)) for c in convs], "spk": [speaker_mask(c) for c in convs]}
for b, a in [(1,1),(2,2),(3,3),(5,5)]:
    F[f"w{b}{a}"] = [minmax(bm25_texts(c, window_texts(c["turns"], b, a))) for c in convs]
F["sess"] = [minmax(bm25_texts(c, window_texts(c["turns"], 999, 999))) for c in convs]
F["tri_turn"] = [minmax(bm25_mat(c, "trigram")) for c in convs]
F["tri_w22"] = [minmax(bm25_texts(c, window_texts(c["turns"], 2, 2), "trigram")) for c in convs]
pickle.dump(F, open("/tmp/locomo_cache/bm25feats.pkl", "wb"))
def ev(w, label=None):
    S = [sum(wt * F[k][ci] for k, wt in w.items()) for ci in range(len(convs))]
    r = evaluate(convs, lambda ci, qi: np.argsort(-S[ci][qi], kind="stable")); print(fmt(r, label or str(w)), flush=True); return r
ev({"w22": 1}); ev({"w11": 1}); ev({"w33": 1}); ev({"sess": 1})
for s in (0.2, 0.4): ev({"turn": 1, "w22": 1, "spk": s})
for t in (0.2, 0.4): ev({"turn": 1, "w22": 1, "sess": t})
ev({"turn": 1, "w11": 0.7, "w22": 0.7, "spk": 0.2})
ev({"turn": 1, "w11": 0.5, "w22": 0.5, "w55": 0.5, "spk": 0.2})
ev({"turn": 1, "w11": 0.7, "w33": 0.7, "spk": 0.2, "sess": 0.2})
ev({"tri_turn": 1, "tri_w22": 1}); ev({"tri_turn": 1, "tri_w22": 1, "spk": 0.2})
