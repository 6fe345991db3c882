"""`python nexus_ark.py bench keep [--json]`: are "please remember" requests told from everything else?

bench/data/keep_requests.json: 567 messages in nine languages (ja, en, zh, ko, es, fr, de, it, pt), each
labelled keep (a request addressed to the persona to keep something) or not (reminiscence,
questions about memory, quotes and reported speech, hedges, negations, requests about others,
statements with the trigger words: the traps), with the words the kept note must hold. Its
held-out part was written first and never tuned on. For each part: precision and recall of the
recognition (agent/keep_grammar.py), overall and per language, and how many kept notes hold the
fact (agent/keep_requests.keep_note, dates resolved against the set's clock). No model is needed.
"""
from __future__ import annotations

import json
import unicodedata
from collections import defaultdict
from datetime import datetime
from pathlib import Path

from agent.keep_requests import is_keep_request, keep_note

DATA = Path(__file__).resolve().parent / "data" / "keep_requests.json"
LANGUAGES = ("ja", "en", "zh", "ko", "es", "fr", "de", "it", "pt")


def _squash(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).lower().split())


def score(rows: list[dict]) -> dict:
    """Precision and recall (%) with their counts; `fact` (%): kept notes that hold the fact."""
    tp = sum(r["label"] and r["found"] for r in rows)
    fp = sum(not r["label"] and r["found"] for r in rows)
    fn = sum(r["label"] and not r["found"] for r in rows)
    kept = [r for r in rows if r["label"] and r["found"]]
    pct = lambda a, b: round(100 * a / b, 1) if b else None  # noqa: E731
    return {"n": len(rows), "requests": tp + fn, "traps": len(rows) - tp - fn, "precision": pct(tp, tp + fp),
            "recall": pct(tp, tp + fn), "fact": pct(sum(r["fact_kept"] for r in kept), len(kept)),
            "false_positives": fp, "missed": fn}


def run(data: dict) -> tuple[dict, list[dict]]:
    now = datetime.fromisoformat(data["now"])
    rows = []
    for message in data["messages"]:
        found = is_keep_request(message["text"])
        note = keep_note(message["text"], "Ken", now) if found else ""
        rows.append({**message, "label": message["label"] == "keep", "found": found, "note": note,
                     "fact_kept": any(_squash(f) in _squash(note) for f in message["fact"]) if found else False})
    result: dict = {}
    for part in (*dict.fromkeys(r["split"] for r in rows), "all"):  # the data's parts, as they first come
        chosen = [r for r in rows if part == "all" or r["split"] == part]
        by_language = defaultdict(list)
        for r in chosen:
            by_language[r["language"]].append(r)
        result[part] = {"overall": score(chosen), **{lang: score(by_language[lang]) for lang in LANGUAGES
                                                     if by_language[lang]}}
    return result, rows


def main(args) -> int:
    result, rows = run(json.loads(DATA.read_text("utf-8")))
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    for part, scores in result.items():
        print(f"{part}: " + "  ".join(f"{lang} P {s['precision']} R {s['recall']} fact {s['fact']} (n={s['n']})"
                                     for lang, s in scores.items()))
    for r in rows:
        if r["label"] != r["found"] or (r["found"] and r["label"] and not r["fact_kept"]):
            kind = "missed" if r["label"] and not r["found"] else "false positive" if r["found"] and not r["label"] \
                else "fact lost"
            print(f"  {kind} [{r['split']} {r['language']} {r['kind']}] {r['text']} → {r['note']}")
    return 0
