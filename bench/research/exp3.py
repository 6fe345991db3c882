import numpy as np, itertools
from harness import *
from feats import *
convs = load_all()
B = [bm25_mat(c) for c in convs]
SP = [speaker_mask(c) for c in convs]
W = {(b, a): [minmax(bm25_texts(c, window_texts(c["turns"], b, a))) for c in convs] for b, a in [(1,1),(2,1),(2,2),(3,3),(1,2)]}
def ev(S, label):
    r = evaluate(convs, lambda ci, qi: np.argsort(-S[ci][qi], kind="stable")); print(fmt(r, label), flush=True); return r
for (b, a), Wm in W.items():
    for w in (0.8, 1.0, 1.5):
        ev([minmax(x) + w * y for x, y in zip(B, Wm)], f"bm25 + {w}*win({b},{a})")
for w, s in itertools.product((0.8, 1.0), (0.1, 0.2, 0.3)):
    ev([minmax(x) + w * y + s * sp for x, y, sp in zip(B, W[(1,1)], SP)], f"bm25 + {w}*win11 + {s}*spk")
for w1, w2 in itertools.product((0.5, 1.0), (0.3, 0.6)):
    ev([minmax(x) + w1 * y + w2 * z + 0.2 * sp for x, y, z, sp in zip(B, W[(1,1)], W[(3,3)], SP)], f"bm25 + {w1}*win11 + {w2}*win33 + .2spk")
