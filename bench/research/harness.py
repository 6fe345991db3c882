"""Score matrices per conversation + evaluation with the reference score_ranking."""
import collections, re, sqlite3, numpy as np
from common import ref, load_all, CACHE

STOP = ref.STOP | set("did does do has have had would could should will can may might".split())


def fts_tokens(q):
    return [w for w in re.findall(r"[a-z0-9]+", q.lower()) if w not in STOP]


class FTS:
    def __init__(self, turns, tokenize="porter unicode61", with_speaker_col=True):
        self.db = sqlite3.connect(":memory:")
        self.db.execute(f"create virtual table t using fts5(speaker, body, tokenize='{tokenize}')")
        self.db.executemany("insert into t(rowid, speaker, body) values (?,?,?)",
                            [(i + 1, x["speaker"], x["body"]) for i, x in enumerate(turns)])
        self.n = len(turns)

    def scores(self, terms, w_speaker=1.0, w_body=1.0):
        s = np.zeros(self.n, np.float32)
        terms = [t for t in terms if t]
        if not terms:
            return s
        q = " OR ".join('"%s"' % t for t in terms)
        for rid, sc in self.db.execute(f"select rowid, bm25(t, {w_speaker}, {w_body}) from t where t match ?", (q,)):
            s[rid - 1] = -sc
        return s


def evaluate(convs, rank_fn, items_fn=None, cats=("1", "2", "3", "4")):
    """rank_fn(ci, qi) -> list of turn indices (ranked). items_fn optional -> list of (ids, text)."""
    agg = collections.defaultdict(lambda: collections.defaultdict(float)); cnt = collections.Counter()
    for ci, c in enumerate(convs):
        T = c["turns"]; valid = {t["id"] for t in T}
        for qi, q in enumerate(c["qa"]):
            cat = str(q["category"])
            if cat not in cats: continue
            ev = ref.evidence(q, valid)
            if not ev: continue
            if items_fn: items = items_fn(ci, qi)
            else: items = [((T[i]["id"],), T[i]["text"]) for i in rank_fn(ci, qi)]
            m = ref.score_ranking(items, ev)
            for key in (cat, "all"):
                cnt[key] += 1
                for k, v in m.items(): agg[key][k] += v
    res = {k: {m: v / cnt[k] for m, v in agg[k].items()} for k in cnt}
    for k in res: res[k]["n"] = cnt[k]
    return res


def fmt(res, label=""):
    a = res["all"]
    cats = " ".join(f"c{k}:{res[k]['R@5']:.1f}" for k in "1234" if k in res)
    return f"{label:42s} R5 {a['R@5']:.1f} R10 {a['R@10']:.1f} R25 {a['R@25']:.1f} BR {a['budget_recall']:.1f} MRR {a['mrr']:.3f} | {cats} n={a['n']}"
