import numpy as np
from harness import *
from feats import *
convs = load_all()
B = [bm25_mat(c) for c in convs]
SP = [speaker_mask(c) for c in convs]
W1 = [bm25_texts(c, window_texts(c["turns"], 1, 1)) for c in convs]
WP = [bm25_texts(c, window_texts(c["turns"], 1, 0)) for c in convs]
WN = [bm25_texts(c, window_texts(c["turns"], 0, 1)) for c in convs]
def ev(S, label):
    print(fmt(evaluate(convs, lambda ci, qi: np.argsort(-S[ci][qi], kind="stable")), label), flush=True)
ev(B, "bm25 porter")
for a in (0.05, 0.1, 0.2):
    ev([minmax(b) + a * s for b, s in zip(B, SP)], f"bm25mm + {a}*speaker")
for a in (0.2, 0.4, 0.6):
    ev([minmax(b) + a * minmax(w) for b, w in zip(B, W1)], f"bm25mm + {a}*bm25(window±1)")
    ev([minmax(b) + a * minmax(w) for b, w in zip(B, WP)], f"bm25mm + {a}*bm25(prev+cur)")
    ev([minmax(b) + a * minmax(w) for b, w in zip(B, WN)], f"bm25mm + {a}*bm25(cur+next)")
