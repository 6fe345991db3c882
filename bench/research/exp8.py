import numpy as np, pickle, re
from harness import *
from feats import *
convs = load_all()
F = pickle.load(open("/tmp/locomo_cache/bm25feats.pkl", "rb")); F.update(pickle.load(open("/tmp/locomo_cache/densefeats.pkl", "rb")))
QSTOP = set("likely would could kind type sort some any ever also there s t much many often".split())
def ev(w, label=None, G=F):
    S = [sum(wt * G[k][ci] for k, wt in w.items()) for ci in range(len(convs))]
    r = evaluate(convs, lambda ci, qi: np.argsort(-S[ci][qi], kind="stable")); print(fmt(r, label or str(w)), flush=True); return r, S
best = {"turn": 1, "w22": 1, "spk": 0.6, "d_turn_mm": 1.5, "d_w22_mm": 1.5}
_, S = ev(best, "BEST-sofar")
for ci, c in enumerate(convs):
    print(fmt(evaluate([c], lambda _, qi: np.argsort(-S[ci][qi], kind="stable")), "  file " + c["name"]))
def variant(tokf, label):
    G = dict(F)
    G["turn"] = [minmax(bm25_mat(c, tokf=tokf)) for c in convs]
    G["w22"] = [minmax(bm25_texts(c, window_texts(c["turns"], 2, 2), tokf=tokf)) for c in convs]
    ev(best, label, G); return G
variant(lambda q: [w for w in fts_tokens(q) if w not in QSTOP], "+question filler stopwords")
for ci, c in enumerate(convs): pass
names = {n.lower() for c in convs for n in set(t["speaker"] for t in c["turns"])}
# participant names removed from lexical query (names are per conversation; app knows its participants)
G = dict(F)
def tk_for(c):
    nm = {t["speaker"].lower() for t in c["turns"]}
    return lambda q: [w for w in fts_tokens(q) if w not in nm]
G["turn"] = [minmax(bm25_mat(c, tokf=tk_for(c))) for c in convs]
G["w22"] = [minmax(bm25_texts(c, window_texts(c["turns"], 2, 2), tokf=tk_for(c))) for c in convs]
ev(best, "participant names out of lexical query", G)
for s in (0.3, 0.9): ev({**best, "spk": s}, f"  same, spk={s}", G)
