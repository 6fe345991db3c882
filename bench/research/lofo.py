"""Leave-one-file-out: choose fusion weights on 3 files, score the 4th; aggregate held-out results."""
import numpy as np, itertools, collections
from harness import *
from feats import *
convs = load_all()
F = features(convs)
grid = [dict(turn=1, w22=a, spk=b, d_turn_mm=c, d_w22_mm=d) for a, b, c, d in
        itertools.product((0.5, 1, 1.5), (0.3, 0.6, 0.9), (0.5, 1, 1.5, 2), (0.5, 1, 1.5, 2))]
# per-question metrics for each grid point and file
per = {}
for gi, w in enumerate(grid):
    for ci, c in enumerate(convs):
        S = sum(wt * F[k][ci] for k, wt in w.items())
        per[gi, ci] = evaluate([c], lambda _, qi: np.argsort(-S[qi], kind="stable"))["all"]
def obj(m): return m["R@5"] + m["R@10"] + m["budget_recall"]
tot = collections.defaultdict(float); n = 0
for held in range(4):
    tr = [ci for ci in range(4) if ci != held]
    def score(gi):
        N = sum(per[gi, ci]["n"] for ci in tr)
        return sum(obj(per[gi, ci]) * per[gi, ci]["n"] for ci in tr) / N
    gbest = max(range(len(grid)), key=score)
    m = per[gbest, held]
    print(f"held {convs[held]['name']}: weights {grid[gbest]} -> R5 {m['R@5']:.1f} R10 {m['R@10']:.1f} BR {m['budget_recall']:.1f}")
    for k in ("R@5", "R@10", "R@25", "budget_recall", "mrr"): tot[k] += m[k] * m["n"]
    n += m["n"]
print("LOFO held-out overall:", {k: round(v / n, 3) for k, v in tot.items()}, "n", n)
