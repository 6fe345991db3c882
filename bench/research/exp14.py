import numpy as np, pickle, re
from harness import *
from feats import *
convs = load_all()
F = pickle.load(open("/tmp/locomo_cache/bm25feats.pkl", "rb")); F.update(pickle.load(open("/tmp/locomo_cache/densefeats.pkl", "rb")))
TEMPORAL_Q = re.compile(r"^\s*(when|what (year|month|day|date|time)|how long ago)\b|いつ|何年|何月|何日", re.I)
TIME_EXPR = re.compile(r"\b(yesterday|today|tonight|tomorrow|last|next|ago|this (week|month|year|weekend)|weekend|week|month|year|"
                       r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|"
                       r"august|september|october|november|december|\d{4})\b|昨日|今日|明日|先週|来週|先月|来月|去年|今年|週末|\d+月|\d+日", re.I)
F["tq"] = []
for c in convs:
    tq = np.array([1.0 if TEMPORAL_Q.search(q["question"]) else 0.0 for q in c["qa"]], np.float32)
    te = np.array([1.0 if TIME_EXPR.search(t["body"]) else 0.0 for t in c["turns"]], np.float32)
    F["tq"].append(np.outer(tq, te))
print("temporal questions:", sum(int(x.any(1).sum()) for x in F["tq"]))
def ev(w, label=None):
    S = [sum(wt * F[k][ci] for k, wt in w.items()) for ci in range(len(convs))]
    r = evaluate(convs, lambda ci, qi: np.argsort(-S[ci][qi], kind="stable")); print(fmt(r, label or str(w)), flush=True); return r
B = dict(turn=1, w22=1.5, spk=0.9, d_turn_mm=1.5, d_w22_mm=2)
for w in (0, 0.2, 0.4, 0.8): ev({**B, "tq": w}, f"temporal intent boost {w}")
