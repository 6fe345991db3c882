"""Component score matrices (Q x N) per conversation, cached in memory."""
import os, re, numpy as np
from harness import FTS, fts_tokens, STOP
from common import CACHE

def bm25_mat(c, tokenize="porter unicode61", ws=1.0, wb=1.0, tokf=fts_tokens):
    f = FTS(c["turns"], tokenize)
    return np.stack([f.scores(tokf(q["question"]), ws, wb) for q in c["qa"]])

def window_texts(T, before, after):
    out = []
    for i in range(len(T)):
        parts = [T[j]["body"] for j in range(i - before, i + after + 1) if 0 <= j < len(T) and T[j]["sess"] == T[i]["sess"]]
        out.append(" ".join(parts))
    return out

def bm25_texts(c, texts, tokenize="porter unicode61", tokf=fts_tokens):
    import sqlite3
    db = sqlite3.connect(":memory:")
    db.execute(f"create virtual table t using fts5(body, tokenize='{tokenize}')")
    db.executemany("insert into t(rowid, body) values (?,?)", [(i + 1, x) for i, x in enumerate(texts)])
    M = np.zeros((len(c["qa"]), len(texts)), np.float32)
    for qi, q in enumerate(c["qa"]):
        terms = tokf(q["question"])
        if not terms: continue
        for rid, sc in db.execute("select rowid, bm25(t) from t where t match ?", (" OR ".join('"%s"' % t for t in terms),)):
            M[qi, rid - 1] = -sc
    return M

def speaker_mask(c):
    """Q x N: 1 where the turn's speaker is a participant named in the question."""
    names = sorted(set(t["speaker"] for t in c["turns"]))
    spk = np.array([t["speaker"] for t in c["turns"]])
    M = np.zeros((len(c["qa"]), len(spk)), np.float32)
    for qi, q in enumerate(c["qa"]):
        ql = q["question"].lower()
        hit = [n for n in names if re.search(r"\b" + re.escape(n.lower()) + r"\b", ql)]
        for n in hit: M[qi, spk == n] = 1
    return M

def dense(c, kind):
    p = f"{CACHE}/{c['name']}_{kind}.npy"
    if not os.path.exists(p): return None
    Q = np.load(f"{CACHE}/{c['name']}_q.npy")
    return Q @ np.load(p).T

def minmax(M):
    lo = M.min(1, keepdims=True); hi = M.max(1, keepdims=True)
    return (M - lo) / np.maximum(hi - lo, 1e-9)

def zscore(M):
    return (M - M.mean(1, keepdims=True)) / np.maximum(M.std(1, keepdims=True), 1e-9)

def rrf(M, k=60):
    r = np.argsort(np.argsort(-M, 1), 1)
    return 1.0 / (k + r + 1)


def window_vectors(c, P, before=2, after=2):
    """Each turn's window vector: the normalised sum of the turn vectors P in its same-session window."""
    T = c["turns"]; out = np.zeros_like(P)
    for i in range(len(T)):
        js = [j for j in range(i - before, i + after + 1) if 0 <= j < len(T) and T[j]["sess"] == T[i]["sess"]]
        v = P[js].sum(0); out[i] = v / np.linalg.norm(v)
    return out


def features(convs):
    """The five fused signals of the session-1 recipe, per conversation (Q x N each, min-max scaled):
    `turn` porter BM25, `w22` porter BM25 over the ±2 window text, `spk` speaker prior, `d_turn_mm` e5
    cosine, `d_w22_mm` cosine with the window vector. Dense ones need `embed_cache.py`'s cached vectors.
    (The session-1 experiments that chose them are in BENCHMARKS.md, "Decisions settled by experiments".)"""
    F = {"turn": [minmax(bm25_mat(c)) for c in convs],
         "w22": [minmax(bm25_texts(c, window_texts(c["turns"], 2, 2))) for c in convs],
         "spk": [speaker_mask(c) for c in convs]}
    Q = [np.load(f"{CACHE}/{c['name']}_q.npy") for c in convs]
    P = [np.load(f"{CACHE}/{c['name']}_turn.npy") for c in convs]
    F["d_turn_mm"] = [minmax(q @ p.T) for q, p in zip(Q, P)]
    F["d_w22_mm"] = [minmax(q @ window_vectors(c, p).T) for c, q, p in zip(convs, Q, P)]
    return F
