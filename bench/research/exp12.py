import numpy as np, pickle
from harness import *
from feats import *
convs = load_all()
F = pickle.load(open("/tmp/locomo_cache/bm25feats.pkl", "rb")); F.update(pickle.load(open("/tmp/locomo_cache/densefeats.pkl", "rb")))
def ev(w, label=None):
    S = [sum(wt * F[k][ci] for k, wt in w.items()) for ci in range(len(convs))]
    r = evaluate(convs, lambda ci, qi: np.argsort(-S[ci][qi], kind="stable")); print(fmt(r, label or str(w)), flush=True); return r
D = dict(spk=0.9, d_turn_mm=1.5, d_w22_mm=2)
ev({**D, "turn": 1, "w22": 1.5}, "porter lexical (base)")
ev({**D, "tri_turn": 1, "tri_w22": 1.5}, "trigram lexical only")
ev({**D, "turn": 0.5, "w22": 0.75, "tri_turn": 0.5, "tri_w22": 0.75}, "porter+trigram half each")
ev({**D, "turn": 1, "w22": 1.5, "tri_turn": 0.5, "tri_w22": 0.75}, "porter + 0.5 trigram")
ev({"spk": 0.9, "d_turn_mm": 1.5, "d_w22_mm": 2}, "dense only + spk")
ev({"d_turn_mm": 1.5, "d_w22_mm": 2}, "dense only")
ev({"turn": 1, "w22": 1.5, "spk": 0.9}, "lexical only + spk")
ev({"turn": 1, "w22": 1.5, "d_turn_mm": 1.5, "d_w22_mm": 2}, "no speaker prior")
ev({"turn": 1, "spk": 0.9, "d_turn_mm": 1.5}, "no windows (turn-only hybrid + spk)")
ev({"turn": 1, "d_turn_mm": 1.5}, "turn-only hybrid")
ev({"turn": 1, "w22": 1.5, "spk": 0.9, "d_turn_mm": 1.5}, "no dense window")
ev({"turn": 1, "spk": 0.9, "d_turn_mm": 1.5, "d_w22_mm": 2}, "no bm25 window")
