import numpy as np
from harness import *
convs = load_all()
# reference check: our own ordering with reference tokeniser replicates 51.2?
def run(tokenize, ws, wb, tokf=fts_tokens):
    S = []
    for c in convs:
        f = FTS(c["turns"], tokenize)
        S.append([f.scores(tokf(q["question"]), ws, wb) for q in c["qa"]])
    rk = lambda ci, qi: np.argsort(-S[ci][qi], kind="stable")
    return evaluate(convs, rk)
for tk in ("unicode61", "porter unicode61"):
    for ws in (0.0, 0.5, 1.0, 2.0):
        print(fmt(run(tk, ws, 1.0), f"fts {tk} ws={ws}"), flush=True)
print(fmt(run("porter unicode61", 1.0, 1.0, lambda q: [w for w in re.findall(r"[a-z0-9]+", q.lower()) if w not in ref.STOP]), "porter, ref stoplist"))
print(fmt(run("trigram", 1.0, 1.0), "trigram tokens"))
