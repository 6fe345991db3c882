"""`python nexus_ark.py bench qa FILE... [--per-category N] [--episodes DIR] [--json] [--out FILE]`: does memory reach the reply?

shared/BENCHMARKS.md §5. Each LoCoMo conversation is replayed as in §1 (bench/locomo_bench.py's
`replay`) into the bundled persona "Ark" of a fresh data directory, `speaker_a` as the user (the
settings' `user_name`), `speaker_b`'s turns as the persona's, and the memory index is brought up
to date through the service. A seeded sample, stratified by category (1-4, N per category pooled
over the files), is then asked through the real chat turn (`NexusService.send`) on the embedded
model, the question followed by `qa_f1.SUFFIX`, with the clock one day after the last turn.

Three conditions on the same questions, each a service of its own over a copy of the replayed
data directory:
- `none`: automatic recall off (`auto_retrieval=False`), everything else as the app;
- `app`: the app as configured;
- `oracle`: recall returns the question's evidence turns, each as the memory index would show
  it (`managers.rag.log_item_text`: "[YYYY-MM-DD] Speaker: text"), in conversation order, placed
  where recalled memories go, with the "dynamic" budget lifted (NexusService's `prompt_budgets`
  hook) so none of it is cut.

Every question is asked against the replayed state alone: before each question the persona's
folder is restored from a snapshot taken after the replay (the service closes the persona first,
`close_persona`), so no exchange is kept or recalled, and the after-turn work that only serves
the next turn of a conversation is skipped (`after_turn_work=False`). One loaded model serves all
services and questions; its prefix (identity, rules, core memory, notepad, history window) is
warmed once per file (`warm_up`) and every prompt is checked to start with exactly that prefix, so
llama.cpp evaluates only the turn's context and the question.

With `--episodes DIR` (opt-in; without it nothing of this runs), the persona also has the daily
episodes that `bench episodes FILE --out DIR` wrote for the file (DIR/<file stem>.json, written
once, read by every run): after the replay they go into its episode store as the nights left them
(each day's stable id, written at its night, told from that day's log), before the memory index is
brought up to date, so the prompt's "Earlier days" and recall see them as a user's would after the
nights. A file without its episodes stops the run before anything is replayed. Each `app` answer
then also records the episodes its prompt showed, with the resonance the app reads from the reply
(agent/memory_traces.py, what the after-turn work would move their arousal by) and whether the
question's evidence lies in that day; `memory_traces` in the summary says how the resonances
spread and how often the evidence's episode resonated more than the others shown beside it.

Scores: `qa_f1.f1` (shared/bench/qa_f1.py, loaded by path) on the visible reply (the `done`
event's text), in percent; a notice instead of a reply scores 0. `memory_tokens_mean`: tokens,
by the model's tokenizer, of the "# Memories" section's body in the prompt actually sent (0 when
there is none). `ttft_s`: from `send` to the first token event with visible text.
"""
from __future__ import annotations

import collections
import importlib.util
import json
import logging
import random
import re
import shutil
import tempfile
import time
from dataclasses import asdict, dataclass
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Iterable, Sequence

from agent.memory_traces import read_resonance
from agent.providers.base import ChatMessage, ChatModel
from agent.retrieval import RetrievalResult, RetrievedItem
from bench.episodes_bench import episodes_path, night_after_day
from bench.locomo_bench import load, replay, session_keys
from bench.locomo_metrics import evidence_ids, percentile
from bench.shared import find_shared, shared_candidates
from managers.chat_log import ChatLog
from managers.episodes import daily_episode
from managers.rag import log_item_text
from persona.episodes_job import day_digest, days_of
from persona.service import NexusService

log = logging.getLogger(__name__)

PERSONA = "Ark"
CATEGORIES = ("1", "2", "3", "4")
CONDITIONS = ("none", "app", "oracle")
MEMORIES_HEADER = "# Memories\n"  # the section title persona/session.py gives recalled memories
UNBOUNDED = 10 ** 9  # the oracle's "dynamic" budget: nothing is cut
SHARED = find_shared("bench/qa_f1.py") or shared_candidates()[-1]
QA_F1_PATH = SHARED / "bench" / "qa_f1.py"


def load_qa_f1(path: Path = QA_F1_PATH):
    """The shared reference scorer, loaded from its file (never vendored)."""
    if not path.is_file():
        raise FileNotFoundError(f"{path} (the shared QA scorer) is not on this machine")
    spec = importlib.util.spec_from_file_location("qa_f1_reference", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass(frozen=True)
class Question:
    file: str
    index: int  # position in the file's qa list
    question: str
    answer: str
    category: str
    evidence: tuple[str, ...]  # valid dia ids, in conversation order


@dataclass(frozen=True)
class Asked:
    """One condition's answer to one question."""
    reply: str  # the visible reply, or the notice shown instead
    notice: bool
    f1: float  # percent
    memory_tokens: int
    ttft_s: float | None  # None: no visible token came
    prefix_reused: bool  # the prompt started with the prefix warmed for this file
    context: str = ""  # the turn's context message as sent (memories, reminder), for reading
    # With episodes: each episode the prompt showed, as (its date, the resonance read from the reply,
    # whether it is a day of the question's evidence) — issue 19's memory-trace measure
    traces: tuple[tuple[str, float, bool], ...] = ()


def _dia_order(dia_id: str) -> tuple[int, int]:
    session, turn = re.fullmatch(r"D(\d+):(\d+)", dia_id).groups()
    return int(session), int(turn)


def questions_of(path: str) -> list[Question]:
    """The file's questions of categories 1-4 that have an answer and a valid evidence turn."""
    conv, qa = load(Path(path))
    valid = {turn["dia_id"] for key in session_keys(conv) for turn in conv[key]}
    out = []
    for index, item in enumerate(qa):
        category, answer = str(item.get("category")), item.get("answer")
        evidence = evidence_ids(item, valid)
        if category in CATEGORIES and answer is not None and evidence:
            out.append(Question(str(path), index, item["question"], str(answer), category,
                                tuple(sorted(evidence, key=_dia_order))))
    return out


def sample(questions: Sequence[Question], per_category: int, seed: int) -> list[Question]:
    """`per_category` questions of each category, drawn with `seed` from the pool of all files;
    returned file by file in the files' order, each file's in its qa order."""
    rng = random.Random(seed)
    chosen: list[Question] = []
    for category in CATEGORIES:
        pool = [q for q in questions if q.category == category]
        chosen += rng.sample(pool, min(per_category, len(pool)))
    file_order = {f: i for i, f in enumerate(dict.fromkeys(q.file for q in questions))}
    return sorted(chosen, key=lambda q: (file_order[q.file], q.index))


class RecordingModel:
    """The loaded model, passed through unchanged; remembers what it was sent and the last prefix
    it warmed, so the bench can read the prompt actually sent and check the prefix cache hits."""

    def __init__(self, model: ChatModel):
        self._model = model
        self.sent: list[tuple[ChatMessage, ...]] = []
        self.warmed: tuple[ChatMessage, ...] = ()

    def __getattr__(self, name: str):
        return getattr(self._model, name)

    def stream(self, messages, tools, temperature, max_tokens, seed=None, min_tokens=0, avoid_openings=(), prefix=""):
        self.sent.append(tuple(messages))
        return self._model.stream(messages, tools, temperature, max_tokens, seed, min_tokens, avoid_openings, prefix)

    def warm(self, messages) -> None:
        self.warmed = tuple(messages)
        self._model.warm(messages)


class OracleSearcher:
    """Recall that returns the evidence turns of the question being asked (set before each ask)."""

    def __init__(self):
        self.items: tuple[RetrievedItem, ...] = ()

    def __call__(self, query: str, now: datetime) -> RetrievalResult:
        return RetrievalResult(False, "oracle: the question's evidence turns", self.items)


class SimulatedClock:
    """The replay's "now" (one day after the last turn), set once the conversation is replayed."""

    def __init__(self):
        self.now = datetime(2000, 1, 1, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now


def memory_tokens(prompt: Sequence[ChatMessage], count) -> int:
    """Tokens of the Memories section's body in the turn's context message (the system message
    right before the user's), 0 if it has none."""
    if len(prompt) < 2 or prompt[-2].role != "system":
        return 0
    for part in prompt[-2].content.split("\n\n"):
        if part.startswith(MEMORIES_HEADER):
            return count(part[len(MEMORIES_HEADER):])
    return 0


def shown_traces(service: NexusService, reply: str | None, evidence_days: frozenset[str]) -> tuple[tuple[str, float, bool], ...]:
    """The episodes the turn's prompt showed (the session's record, as the after-turn trace work
    reads it), each with the resonance the app reads from the reply (agent/memory_traces.py) and
    whether one of the question's evidence days lies within it."""
    shown = service.session(PERSONA).shown_episodes.values()
    return tuple((e.date, read_resonance(reply or "", e.summary),
                  any(e.first_day <= day <= e.last_day for day in evidence_days)) for e in shown)


def ask(service: NexusService, model: RecordingModel, text: str, answer: str, f1,
        evidence_days: frozenset[str] = frozenset()) -> Asked:
    first_call = len(model.sent)
    started = time.monotonic()
    first, reply, notice = None, None, ""
    for event in service.send(PERSONA, text):
        if event.kind == "token" and first is None and event.text.strip():
            first = time.monotonic() - started
        elif event.kind == "done":
            reply = event.text
        elif event.kind == "error":
            notice = event.text
    service.wait_for_background_work(PERSONA)
    prompt = model.sent[first_call] if len(model.sent) > first_call else ()
    warmed = model.warmed
    reused = bool(warmed) and prompt[:len(warmed)] == warmed
    shown = reply if reply is not None else notice
    context = prompt[-2].content if len(prompt) >= 2 and prompt[-2].role == "system" else ""
    return Asked(shown, reply is None, round(100 * f1(reply, answer), 2) if reply is not None else 0.0,
                 memory_tokens(prompt, model.count_tokens), round(first, 3) if first is not None else None, reused,
                 context, shown_traces(service, reply, evidence_days) if evidence_days else ())


def load_episodes(path: str, episodes_dir: Path) -> list[dict]:
    """The days `bench episodes` wrote for the LoCoMo file `path` (bench/episodes_bench.py's format:
    [{"date": "YYYY-MM-DD", "text", "arousal", "arousal_max"}], the ratings absent in older files)."""
    target = episodes_path(episodes_dir, path)
    if not target.is_file():
        raise SystemExit(f"bench qa --episodes: {target} is missing; write it first with "
                         f"`python nexus_ark.py bench episodes {path} --out {episodes_dir}`")
    try:
        records = json.loads(target.read_text(encoding="utf-8"))
        for record in records:
            date.fromisoformat(record["date"])
            if not isinstance(record["text"], str):
                raise TypeError("text is not a string")
    except (UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        raise SystemExit(f"bench qa --episodes: {target} is not what `bench episodes` writes "
                         f'([{{"date": "YYYY-MM-DD", "text": ...}}]): {exc}') from exc
    return records


def give_episodes(service: NexusService, records: Sequence[dict], now: datetime) -> int:
    """The days `bench episodes` wrote, put in the persona's episode store as the nights would have
    left them (persona/episodes_job.py's `summarise_days`): each under its day's stable id, written
    at its night (bench/episodes_bench.py's, 02:00 UTC the next day), told from that day's log as
    replayed here (its digest, so a later night would leave it be). A day the night wrote no
    episode for (no text) has none here either. Returns how many were given."""
    session = service.session(PERSONA)
    by_day = {day.isoformat(): entries for day, entries in days_of(session.chat_log.view(), now).items()}
    episodes = []
    for record in records:
        if not record["text"].strip():
            continue
        day = record["date"]
        if day not in by_day:
            log.warning("The episode of %s is of a day this conversation has no talk on", day)
        episodes.append(daily_episode(day, record["text"], night_after_day(date.fromisoformat(day)),
                                      arousal=record.get("arousal"), arousal_max=record.get("arousal_max"),
                                      source_digest=day_digest(by_day[day]) if day in by_day else ""))
    if episodes:  # none to give: no episode file, as after nights that wrote none
        session.episodes().put(episodes)
    return len(episodes)


def _restore(service: NexusService, snapshot: Path) -> None:
    """The persona's folder as it was right after the replay."""
    root = service.personas.get(PERSONA).root
    service.close_persona(PERSONA)
    shutil.rmtree(root)
    shutil.copytree(snapshot, root)


def run_file(path: str, questions: Sequence[Question], model: RecordingModel, f1, suffix: str, seed: int,
             scratch: Path, conditions: Sequence[str] = CONDITIONS, app_budget: int | None = None,
             episodes: Sequence[dict] | None = None) -> list[tuple[Question, dict[str, Asked]]]:
    """Replay one conversation (and give the persona its `episodes`, `load_episodes`'s records,
    when there are), warm the model once, and ask its questions under every condition."""
    conv, _ = load(Path(path))
    clock = SimulatedClock()
    factory = lambda settings, secrets, model_path: model  # noqa: E731 - one loaded model for every service
    app = NexusService(scratch / "app", clock=clock, model_factory=factory, after_turn_work=False,
                       prompt_budgets={"dynamic": app_budget} if app_budget else None)
    app.update_settings(user_name=conv["speaker_a"], seed=seed)
    root = app.personas.get(PERSONA).root
    started = time.monotonic()
    to_dia, last = replay(conv, root)
    clock.now = last + timedelta(days=1)
    if episodes is not None:  # before the index is brought up to date: recall finds them as after a night
        log.info("%s: %d episodes given", Path(path).name, give_episodes(app, episodes, clock.now))
    app.update_memory_index(PERSONA)
    indexed = time.monotonic()
    app.warm_up()  # loads the model and evaluates the prefix every question starts with
    if app.model_status.state != "ready":
        raise RuntimeError(f"the model is not ready: {app.model_status.text()}")
    log.info("%s: %d turns replayed and indexed in %.1f s; prefix of %d messages, ~%d tokens, warmed in %.1f s",
             Path(path).name, len(to_dia), indexed - started, len(model.warmed),
             sum(model.count_tokens(m.content) for m in model.warmed), time.monotonic() - indexed)
    app.close()
    app.close_persona(PERSONA)
    snapshot = scratch / "snapshot"
    shutil.copytree(root, snapshot)
    logged = ChatLog(snapshot / "logs", clock).entries()
    by_dia = {to_dia[e.id]: e for e in logged if e.id in to_dia}
    # The local day each message's episode tells it under (only needed when there are episodes)
    day_of = {e.id: day.isoformat() for day, talk in days_of(logged, clock.now).items() for e in talk} if episodes else {}

    for name in ("none", "oracle"):
        shutil.copytree(scratch / "app", scratch / name)
    none = NexusService(scratch / "none", clock=clock, model_factory=factory, after_turn_work=False)
    none.update_settings(auto_retrieval=False)
    oracle_search = OracleSearcher()
    oracle = NexusService(scratch / "oracle", clock=clock, model_factory=factory, searcher=oracle_search,
                          prompt_budgets={"dynamic": UNBOUNDED}, after_turn_work=False)
    services = {"none": none, "app": app, "oracle": oracle}

    results = []
    for q in questions:
        oracle_search.items = tuple(RetrievedItem(log_item_text(by_dia[d]), "current_log", 1.0, "oracle")
                                    for d in q.evidence)
        asked = {}
        for condition in conditions:
            service = services[condition]
            _restore(service, snapshot)
            evidence_days = frozenset(day_of[by_dia[d].id] for d in q.evidence if by_dia[d].id in day_of)
            asked[condition] = ask(service, model, f"{q.question} {suffix}", q.answer, f1,
                                   evidence_days if condition == "app" else frozenset())
            if not asked[condition].prefix_reused:
                log.warning("%s: the prompt did not start with the warmed prefix (%s)", condition, q.question)
        log.info("[%s] %s -> %s", q.category, q.question,
                 " | ".join(f"{c} {a.f1:.0f}: {a.reply[:60]!r}" for c, a in asked.items()))
        results.append((q, asked))
    app.close()
    return results


def _record(asked: Asked) -> dict:
    fields = asdict(asked)
    fields["F1"] = fields.pop("f1")
    return fields


def summarise(results: Iterable[tuple[Question, dict[str, Asked]]]) -> dict:
    results = list(results)
    conditions = {}
    for condition in (c for c in CONDITIONS if results and c in results[0][1]):
        per_category: dict[str, list[float]] = collections.defaultdict(list)
        for q, asked in results:
            per_category[q.category].append(asked[condition].f1)
        scores = [asked[condition].f1 for _, asked in results]
        ttft = [asked[condition].ttft_s for _, asked in results if asked[condition].ttft_s is not None]
        tokens = [asked[condition].memory_tokens for _, asked in results]
        conditions[condition] = {
            "overall": {"F1": round(sum(scores) / len(scores), 1) if scores else 0.0},
            "by_category": {c: {"F1": round(sum(v) / len(v), 1), "n": len(v)} for c, v in sorted(per_category.items())},
            "memory_tokens_mean": round(sum(tokens) / len(tokens), 1) if tokens else 0.0,
            "ttft_s": {"p50": round(percentile(ttft, 50), 2), "p95": round(percentile(ttft, 95), 2)},
        }
    summary = {"conditions": conditions, "questions": len(results)}
    traced = [asked["app"].traces for _, asked in results if "app" in asked and asked["app"].traces]
    if traced:
        summary["memory_traces"] = trace_summary(traced)
    return summary


def trace_summary(per_question: Sequence[Sequence[tuple[str, float, bool]]]) -> dict:
    """How the resonances read from the replies spread over the shown episodes, and whether the
    episode holding a question's evidence resonated more than the other episodes shown with it
    (issue 19: a constant would pass nothing — it ties every time)."""
    every = [resonance for traces in per_question for _, resonance, _ in traces]
    spread = collections.Counter(every)
    contests = [(max(r for _, r, holds in traces if holds), max(r for _, r, holds in traces if not holds))
                for traces in per_question
                if any(holds for *_, holds in traces) and not all(holds for *_, holds in traces)]
    evidence = [r for traces in per_question for _, r, holds in traces if holds]
    others = [r for traces in per_question for _, r, holds in traces if not holds]
    mean = lambda values: round(sum(values) / len(values), 3) if values else None  # noqa: E731
    return {
        "episodes_shown": len(every), "questions_with_episodes": len(per_question),
        "resonance_counts": {f"{value:.1f}": spread[value] for value in sorted(spread)},
        "mean_resonance": {"evidence_episode": mean(evidence), "other_episodes": mean(others)},
        "evidence_vs_others": {"questions": len(contests),
                               "higher": sum(e > o for e, o in contests), "equal": sum(e == o for e, o in contests),
                               "lower": sum(e < o for e, o in contests)},
    }


def run(files: Sequence[str], per_category: int, model: ChatModel, seed: int = 0,
        qa_f1=None, conditions: Sequence[str] = CONDITIONS, app_budget: int | None = None,
        episodes_dir: Path | None = None) -> tuple[dict, list[dict]]:
    """(the summary, one record per question) for the sampled questions of `files`; with
    `episodes_dir`, each file's persona has the episodes `bench episodes` wrote there."""
    started = time.monotonic()
    qa_f1 = qa_f1 or load_qa_f1()
    recording = model if isinstance(model, RecordingModel) else RecordingModel(model)
    chosen = sample([q for path in files for q in questions_of(path)], per_category, seed)
    log.info("%d questions sampled (%s per category)", len(chosen), per_category)
    asked_files = list(dict.fromkeys(q.file for q in chosen))
    # Every file's episodes read first: a missing one stops the run before an hour of questions.
    given = {path: load_episodes(path, episodes_dir) for path in asked_files} if episodes_dir is not None else {}
    results: list[tuple[Question, dict[str, Asked]]] = []
    for path in asked_files:
        with tempfile.TemporaryDirectory(prefix="qa-bench-") as tmp:
            results += run_file(path, [q for q in chosen if q.file == path], recording, qa_f1.f1, qa_f1.SUFFIX,
                                seed, Path(tmp), conditions, app_budget, given.get(path))
    summary = summarise(results)
    if episodes_dir is not None:
        summary["episodes_dir"] = str(episodes_dir)
    summary["wall_s"] = round(time.monotonic() - started, 1)
    records = [{**asdict(q), "conditions": {c: _record(a) for c, a in asked.items()}} for q, asked in results]
    return summary, records


def main(args, model_path: Path, chosen=None) -> int:
    """The CLI; `chosen`: the model of the provider flags (bench/provider_choice.py; None: the
    embedded model at `model_path`)."""
    from bench.provider_choice import default_bench_model

    if not args.files:
        raise SystemExit("bench qa: give one or more LoCoMo conversation files")
    model = (chosen or default_bench_model()).create(model_path)
    conditions = tuple(c for c in CONDITIONS if c in (args.conditions.split(",") if args.conditions else CONDITIONS))
    summary, records = run(args.files, args.per_category, model, seed=args.seed, conditions=conditions,
                           app_budget=args.memory_budget or None,
                           episodes_dir=Path(args.episodes) if args.episodes else None)
    if args.out:
        Path(args.out).write_text(json.dumps(records, ensure_ascii=False, indent=1) + "\n")
    reused = sum(a["prefix_reused"] for r in records for a in r["conditions"].values())
    log.info("Prompts that started with the warmed prefix: %d of %d", reused, len(records) * len(conditions))
    log.info("Wall time: %.1f s", summary["wall_s"])
    print(json.dumps(summary) if args.json else json.dumps(summary, indent=1))
    return 0
