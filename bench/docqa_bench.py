"""`python nexus_ark.py bench docqa [--json] [--out FILE]`: does the persona answer from its documents?

bench/data/docqa/: four short documents written for this (two English, two Japanese, invented
facts), 24 questions with short gold answers and 20 ordinary chat messages. For each condition
(`without`: no documents; `with`: the documents added through the Knowledge tab's path,
`service.knowledge("Ark").add_file`) the documents are uploaded once into a template data
directory; every question then runs on a fresh copy of it (so questions are independent: no
earlier question in the history or the memory index), through `service.send` on the embedded
model, scored with the shared `qa_f1.f1` (and, as a second look, whether the reply contains the
gold answer: qa_f1 splits on spaces, so a Japanese reply scores only when it is the answer alone).
The chat messages go through automatic recall only (`retrieve`): how many would pull a chunk.
"""
from __future__ import annotations

import importlib.util
import json
import logging
import shutil
import tempfile
import time
import unicodedata
from datetime import datetime, timezone
from pathlib import Path

import constants
from bench.shared import find_shared, shared_candidates

log = logging.getLogger(__name__)
DATA = Path(__file__).resolve().parent / "data" / "docqa"
PERSONA = "Ark"


def load_qa_f1():
    """The shared scoring module (shared/bench/qa_f1.py), loaded by path."""
    shared = find_shared("bench/qa_f1.py")
    if shared is None:
        raise FileNotFoundError("shared/bench/qa_f1.py was not found in " + ", ".join(map(str, shared_candidates()))
                                + f"; set {constants.SHARED_DIR_ENV}")
    spec = importlib.util.spec_from_file_location("qa_f1", shared / "bench" / "qa_f1.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_set(folder: Path = DATA) -> dict:
    return json.loads((folder / "questions.json").read_text("utf-8"))


def contains(reply: str, answer: str) -> bool:
    squash = lambda s: "".join(unicodedata.normalize("NFKC", s).lower().split())  # noqa: E731
    return squash(answer) in squash(reply)


def summarise(rows: list[dict]) -> dict:
    """Mean F1 (×100), contains-rate (%) and chunk-in-prompt rate (%), overall and per language."""
    out = {}
    for lang in ("all", "en", "ja"):
        chosen = [r for r in rows if lang == "all" or r["lang"] == lang]
        if chosen:
            out[lang] = {"n": len(chosen),
                         "f1": round(100 * sum(r["f1"] for r in chosen) / len(chosen), 1),
                         "contains": round(100 * sum(r["contains"] for r in chosen) / len(chosen), 1),
                         "chunk_in_prompt": round(100 * sum(r["chunk"] for r in chosen) / len(chosen), 1)}
    return out


_SHARED_EMBEDDER: list = []  # one embedder for every fresh data directory (loading it takes seconds)


def _service_class():
    from persona.service import NexusService

    class BenchService(NexusService):
        def embedder(self):
            if not _SHARED_EMBEDDER:
                _SHARED_EMBEDDER.append(super().embedder())
            return _SHARED_EMBEDDER[0]

    return BenchService


def make_template(root: Path, with_documents: bool, spec: dict, model) -> Path:
    service = _service_class()(root, model_factory=lambda s, k, p: model)
    if with_documents:
        knowledge = service.knowledge(PERSONA)
        for name in spec["documents"]:
            report = knowledge.add_file(DATA / name, name)
            log.info("Uploaded %s: %d chunks", report.name, report.chunks)
    service.close()
    return root


def ask(template: Path, work: Path, question: str, model, suffix: str) -> tuple[str, bool, str]:
    """(reply, whether a document chunk was recalled, the recalled items) on a fresh copy of the template."""
    shutil.copytree(template, work)
    service = _service_class()(work, model_factory=lambda s, k, p: model)
    service.warm_up()
    reply, retrieval = "", None
    for event in service.send(PERSONA, f"{question} {suffix}"):
        if event.kind == "done":
            reply = event.text
        elif event.kind == "retrieval":
            retrieval = event.retrieval
        elif event.kind == "error":
            reply = reply or f"[error] {event.text}"
    service.wait_for_background_work(PERSONA)
    service.close()
    items = retrieval.items if retrieval is not None else ()
    return reply, any(i.source.startswith("knowledge/") for i in items), "\n".join(i.text for i in items)


def negatives_with_chunks(template: Path, work: Path, spec: dict, model) -> list[dict]:
    """Each chat message through automatic recall (no reply): did a document chunk come along?"""
    from agent.retrieval import retrieve
    from persona.knowledge_recall import KnowledgeRecall, recall_room
    from agent.retrieval import RetrievalResult

    shutil.copytree(template, work)
    service = _service_class()(work, model_factory=lambda s, k, p: model)
    searcher = KnowledgeRecall(lambda text, now: RetrievalResult(False, "memories not searched"),
                               lambda: service.knowledge(PERSONA), model.count_tokens,
                               recall_room(model.budget_family),
                               constants.KNOWLEDGE_RECALL_MAX_CHUNKS[model.budget_family])
    now = datetime.now(timezone.utc)
    rows = []
    for negative in spec["negatives"]:
        result = retrieve(negative["text"], now, searcher, True)
        chunks = [i.text for i in result.items if i.source.startswith("knowledge/")]
        rows.append({"lang": negative["lang"], "text": negative["text"], "chunk": bool(chunks),
                     "recalled": chunks, "skipped": result.reason if result.skipped else ""})
    service.close()
    return rows


def run(model, conditions: tuple[str, ...] = ("without", "with"), limit: int = 0) -> dict:
    qa_f1 = load_qa_f1()
    spec = load_set()
    questions = spec["questions"][:limit] if limit else spec["questions"]
    report: dict = {"budget_dynamic_local": constants.PROMPT_BUDGETS["local"]["dynamic"], "conditions": {},
                    "questions": []}
    with tempfile.TemporaryDirectory(prefix="docqa-") as tmp:
        for condition in conditions:
            template = make_template(Path(tmp) / condition / "template", condition == "with", spec, model)
            rows = []
            for n, q in enumerate(questions):
                started = time.monotonic()
                reply, chunk, recalled = ask(template, Path(tmp) / condition / f"q{n}", q["question"], model,
                                             qa_f1.SUFFIX)
                row = {"condition": condition, "id": q["id"], "lang": q["lang"], "question": q["question"],
                       "answer": q["answer"], "reply": reply, "f1": qa_f1.f1(reply, q["answer"]),
                       "contains": contains(reply, q["answer"]), "chunk": chunk, "recalled": recalled,
                       "seconds": round(time.monotonic() - started, 1)}
                log.info("%s %s f1=%.2f chunk=%s %r", condition, q["id"], row["f1"], chunk, reply[:80])
                rows.append(row)
            report["conditions"][condition] = summarise(rows)
            report["questions"] += rows
            if condition == "with":
                negatives = negatives_with_chunks(template, Path(tmp) / "negatives", spec, model)
                report["negatives"] = {"n": len(negatives), "with_chunk": sum(r["chunk"] for r in negatives),
                                       "rows": negatives}
    if {"with", "without"} <= set(report["conditions"]):
        without = report["conditions"]["without"]["all"]["f1"]
        report["ratio"] = round(report["conditions"]["with"]["all"]["f1"] / without, 2) if without else None
    return report


def main(args, model_path: Path, chosen=None) -> int:
    """The CLI; `chosen`: the model of the provider flags (bench/provider_choice.py; None: the
    embedded model at `model_path`)."""
    from bench.provider_choice import default_bench_model

    if args.memory_budget:  # ablation: the local prompt's dynamic budget, for this process only
        constants.PROMPT_BUDGETS["local"]["dynamic"] = args.memory_budget
    model = (chosen or default_bench_model()).create(model_path)
    model.load()
    conditions = tuple(c for c in (args.conditions or "without,with").split(",") if c)
    report = run(model, conditions, args.limit)
    if args.out:
        Path(args.out).write_text(json.dumps(report, ensure_ascii=False, indent=2), "utf-8")
    summary = {k: v for k, v in report.items() if k != "questions"}
    if "negatives" in summary:
        summary["negatives"] = {k: v for k, v in summary["negatives"].items() if k != "rows"}
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        for condition, by_lang in report["conditions"].items():
            for lang, s in by_lang.items():
                log.info("%-8s %-3s n=%d F1 %.1f contains %.1f%% chunk %.1f%%", condition, lang, s["n"], s["f1"],
                         s["contains"], s["chunk_in_prompt"])
        log.info("with/without F1: %s; chat messages that pulled a chunk: %s", report.get("ratio"),
                 summary.get("negatives"))
    return 0
