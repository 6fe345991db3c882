import numpy as np, pickle, collections, math, re
from harness import *
from feats import *
convs = load_all()
F = pickle.load(open("/tmp/locomo_cache/bm25feats.pkl", "rb"))
base = {"turn": 1, "w22": 1, "spk": 0.4}
S0 = [sum(wt * F[k][ci] for k, wt in base.items()) for ci in range(len(convs))]
def ev(S, label):
    r = evaluate(convs, lambda ci, qi: np.argsort(-S[ci][qi], kind="stable")); print(fmt(r, label), flush=True); return r
ev(S0, "base")
for s in (0.6, 0.8): ev([S0[ci] + (s - 0.4) * F["spk"][ci] for ci in range(4)], f"spk {s}")
# per-file breakdown
for ci, c in enumerate(convs):
    r = evaluate([c], lambda _, qi: np.argsort(-S0[ci][qi], kind="stable")); print(fmt(r, "  file " + c["name"]))
# PRF: top-m turns' words (by idf) -> second BM25 query on w22 texts
for m, nt, w in [(3, 10, 0.3), (5, 10, 0.3), (3, 20, 0.5), (3, 10, 0.6)]:
    S = []
    for ci, c in enumerate(convs):
        T = c["turns"]; toks = [set(fts_tokens(t["body"])) for t in T]
        df = collections.Counter(x for s in toks for x in s); N = len(T)
        wt = window_texts(T, 2, 2)
        f = FTS([dict(speaker="", body=x) for x in wt])
        M = np.zeros_like(S0[ci])
        for qi, q in enumerate(c["qa"]):
            top = np.argsort(-S0[ci][qi])[:m]
            qs = set(fts_tokens(q["question"]))
            cand = collections.Counter(x for i in top for x in toks[i] if x not in qs and df[x] > 1)
            terms = sorted(cand, key=lambda x: -cand[x] * math.log(N / df[x]))[:nt]
            M[qi] = f.scores(terms)
        S.append(S0[ci] + w * minmax(M))
    ev(S, f"PRF m={m} nt={nt} w={w}")
