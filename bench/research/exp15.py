import numpy as np, pickle
from harness import *
from feats import *
convs = load_all()
F = pickle.load(open("/tmp/locomo_cache/bm25feats.pkl", "rb")); F.update(pickle.load(open("/tmp/locomo_cache/densefeats.pkl", "rb")))
B = dict(turn=1, w22=1.5, spk=0.9, d_turn_mm=1.5, d_w22_mm=2)
S = [sum(wt * F[k][ci] for k, wt in B.items()) for ci in range(4)]
for label, fmt_t in (("speaker: text", lambda t: t["text"]),
                     ("[D Mon YYYY] speaker: text", lambda t: f"[{t['ts'].day} {t['ts']:%b %Y}] " + t["text"]),
                     ("[YYYY-MM-DD] speaker: text", lambda t: f"[{t['ts']:%Y-%m-%d}] " + t["text"])):
    r = evaluate(convs, None, items_fn=lambda ci, qi: [((convs[ci]["turns"][i]["id"],), fmt_t(convs[ci]["turns"][i])) for i in np.argsort(-S[ci][qi], kind="stable")])
    print(fmt(r, "item text = " + label))
