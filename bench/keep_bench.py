"""`python nexus_ark.py bench keep [--json]`: are "please remember" requests told from everything else?

bench/data/keep_requests.json: messages in nine languages (ja, en, zh, ko, es, fr, de, it, pt), in parts by who wrote them, each
labelled keep (a request addressed to the persona to keep something) or not (reminiscence,
questions about memory, quotes and reported speech, hedges, negations, requests about others,
statements with the trigger words: the traps), with the words the kept note must hold. Its
held-out part was written first and never tuned on. For each part: precision and recall of the
recognition (agent/keep_grammar.py), overall and per language, and how many kept notes hold the
fact (agent/keep_requests.keep_note, dates resolved against the set's clock). No model is needed.

`--classifier`: the grammar and the second reader (agent/keep_classifier.py) together, each part scored
by a classifier trained without it (its weights fitted on every other part and on ordinary chat from
LoCoMo 26 and 30), and the ordinary messages the pair would keep: LoCoMo 41 and 42 and the user
messages of the §4 scripts. `--train`: fit on every part and write agent/keep_classifier.json.
Both need the default embedder and the shared folder's LoCoMo files.

`--set FILE`: a set kept apart in the same format (a blind round measured once and not read, such as
bench/data/keep_blind16.json), scored by the grammar alone and by the grammar with the shipped reader.
"""
from __future__ import annotations

import json
import unicodedata
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from agent.keep_classifier import WEIGHTS_PATH, KeepClassifier, mentions_keeping
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


def run(data: dict, likely: Callable[[str], bool] | None = None) -> tuple[dict, list[dict]]:
    """Scores by part and language; `likely`: the second reader beside the grammar (None: the grammar alone)."""
    now = datetime.fromisoformat(data["now"])
    rows = []
    for message in data["messages"]:
        found = is_keep_request(message["text"], likely)
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


# The classifier's training (agent/keep_classifier.py): L2-regularised logistic regression, C as scikit-learn
# counts it; C and the threshold chosen on the blind6 part before it was read (BENCHMARKS.md "Remember requests":
# C 3–10, thresholds 0.7–0.9 measured; 0.85 kept 1 of 1,292 LoCoMo turns and 1 of 390 §4 messages).
CLASSIFIER_C = 10.0
CLASSIFIER_THRESHOLD = 0.85
ORDINARY_TRAIN = ("26", "30")  # LoCoMo files whose turns are the ordinary chat it learns from
ORDINARY_TEST = ("41", "42")  # … and those it is measured on


def fit_logistic(x: np.ndarray, y: np.ndarray, c: float = CLASSIFIER_C, steps: int = 30) -> tuple[np.ndarray, float]:
    """Weights and bias minimising c·Σ log-loss + ½‖w‖² (the bias unpenalised), by Newton's method."""
    design = np.hstack([x, np.ones((len(x), 1))])
    theta = np.zeros(design.shape[1])
    penalty = np.eye(design.shape[1]) / c
    penalty[-1, -1] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ theta, -60, 60)))
        gradient = design.T @ (p - y) + penalty @ theta
        hessian = (design * (p * (1 - p))[:, None]).T @ design + penalty + 1e-9 * np.eye(len(theta))
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if np.abs(step).max() < 1e-8:
            break
    return theta[:-1], float(theta[-1])


def locomo_turns(shared: Path, names: Sequence[str]) -> list[str]:
    turns: set[str] = set()
    for name in names:
        conv = json.loads((shared / "data" / "locomo" / f"{name}.json").read_text("utf-8"))
        conv = conv.get("conversation", conv)
        turns |= {t["text"] for k, v in conv.items() if k.startswith("session_") and isinstance(v, list) for t in v}
    return sorted(turns)


def script_messages(shared: Path) -> list[str]:
    paths = sorted((shared / "bench" / "conversations").glob("*.json")) + sorted(
        (Path(__file__).resolve().parent / "conversations").glob("*.json"))
    return sorted({s["user"] for p in paths for s in json.loads(p.read_text("utf-8"))["steps"] if "user" in s})


def train(messages: Sequence[dict], ordinary: Sequence[str], vectors: dict[str, np.ndarray], embedder: str,
          threshold: float = CLASSIFIER_THRESHOLD) -> KeepClassifier:
    texts = [m["text"] for m in messages] + list(ordinary)
    y = np.array([m["label"] == "keep" for m in messages] + [False] * len(ordinary), dtype=float)
    weights, bias = fit_logistic(np.array([vectors[t] for t in texts]), y)
    return KeepClassifier(embedder, tuple(float(w) for w in weights), bias, threshold)


def _embedded(embedder, texts: Sequence[str]) -> dict[str, np.ndarray]:
    unique = sorted(set(texts))
    return dict(zip(unique, np.asarray(embedder.embed_documents(unique), dtype=float)))


def with_classifier(data: dict, shared: Path, embedder) -> dict:
    """Every part scored by the grammar and a classifier trained without that part; the ordinary
    messages the pair keeps that the grammar alone does not."""
    messages = data["messages"]
    ordinary, tests, scripts = locomo_turns(shared, ORDINARY_TRAIN), locomo_turns(shared, ORDINARY_TEST), script_messages(shared)
    vectors = _embedded(embedder, [m["text"] for m in messages] + ordinary + tests + scripts)
    result: dict = {}
    for part in dict.fromkeys(m["split"] for m in messages):
        classifier = train([m for m in messages if m["split"] != part], ordinary, vectors, embedder.name)
        scored, _ = run({**data, "messages": [m for m in messages if m["split"] == part]},
                        lambda text, c=classifier: c.asks_to_keep(text, vectors[text]))
        result[part] = scored[part]
    final = train(messages, ordinary, vectors, embedder.name)
    likely = lambda text: final.asks_to_keep(text, vectors[text])  # noqa: E731
    result["ordinary"] = {
        name: {"messages": len(texts), "kept_by_grammar": sum(is_keep_request(t) for t in texts),
               "kept_besides": [t for t in texts if not is_keep_request(t) and is_keep_request(t, likely)]}
        for name, texts in (("locomo " + "+".join(ORDINARY_TEST), tests), ("§4 scripts' user messages", scripts))}
    return result


def score_set(data: dict, embedder=None) -> dict:
    """A set apart, by language: the grammar alone, and the grammar with the shipped second reader."""
    from agent.keep_classifier import load_classifier
    from managers.embeddings import create_embedder

    classifier, embedder = load_classifier(), embedder or create_embedder()
    if classifier is None or classifier.embedder != embedder.name:
        raise SystemExit("bench keep --set: no shipped reader for the default embedder (agent/keep_classifier.json)")
    vectors = _embedded(embedder, [m["text"] for m in data["messages"]])
    as_one_part = {**data, "messages": [{**m, "split": "set"} for m in data["messages"]]}
    grammar, _ = run(as_one_part)
    pair, _ = run(as_one_part, lambda text: classifier.asks_to_keep(text, vectors[text]))
    return {"grammar": grammar["set"], "pair": pair["set"]}


def _print_scores(scores: dict, as_json: bool) -> None:
    print(json.dumps(scores, ensure_ascii=False, indent=None if as_json else 1))


def _shared_and_embedder(args):
    from bench.shared import find_shared
    from managers.embeddings import create_embedder

    shared = find_shared("data/locomo", getattr(args, "shared", "") or None)
    if shared is None:
        raise SystemExit("bench keep --classifier/--train: the shared folder with data/locomo was not found")
    return shared, create_embedder()


def main(args) -> int:
    data = json.loads(DATA.read_text("utf-8"))
    if getattr(args, "train", False):
        shared, embedder = _shared_and_embedder(args)
        ordinary = locomo_turns(shared, ORDINARY_TRAIN)
        vectors = _embedded(embedder, [m["text"] for m in data["messages"]] + ordinary)
        WEIGHTS_PATH.write_text(train(data["messages"], ordinary, vectors, embedder.name).to_json() + "\n", "utf-8")
        print(f"wrote {WEIGHTS_PATH} ({len(data['messages'])} labelled messages, {len(ordinary)} ordinary ones)")
        return 0
    if getattr(args, "set", ""):
        scores = score_set(json.loads(Path(args.set).read_text("utf-8")))
        _print_scores(scores, args.json)
        return 0
    if getattr(args, "classifier", False):
        shared, embedder = _shared_and_embedder(args)
        scores = with_classifier(data, shared, embedder)
        _print_scores(scores, args.json)
        return 0
    result, rows = run(data)
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
