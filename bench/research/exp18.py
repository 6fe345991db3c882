import numpy as np, pickle
from harness import *
from feats import *
convs = load_all()
F = pickle.load(open("/tmp/locomo_cache/bm25feats.pkl", "rb")); F.update(pickle.load(open("/tmp/locomo_cache/densefeats.pkl", "rb")))
B = dict(turn=1, w22=1.5, spk=0.9, d_turn_mm=1.5, d_w22_mm=2)
def ev(w, label):
    S = [sum(wt * F[k][ci] for k, wt in w.items()) for ci in range(4)]
    r = evaluate(convs, lambda ci, qi: np.argsort(-S[ci][qi], kind="stable")); print(fmt(r, label), flush=True)
ev({k: 1 for k in B}, "all weights = 1")
for k in B:
    for f in (0.5, 2):
        ev({**B, k: B[k] * f}, f"{k} x{f}")
