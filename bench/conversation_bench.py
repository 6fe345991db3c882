"""`python nexus_ark.py bench conversation [FILE...] [--repeats N] [--transcripts DIR] [--quick] [--json]`

Scripted conversations through the real chat path (shared/BENCHMARKS.md §4). Each script runs on
a fresh temporary data directory with the bundled sample persona (Ark), the chosen model (the
embedded one unless --provider / --from-settings say otherwise, bench/provider_choice.py) and
the user's name set to the script's `user_name`, with a fixed sampling seed per script and run.
A simulated clock starts at the script's `start` (the process's local time zone set to its offset,
as the user's computer would be), moves 2 minutes per user turn and jumps by
`advance_hours`; `filler` steps write LoCoMo turns (shared/bench/filler.py) through the chat
log, dated evenly between the previous step and the next user step, then bring the memory index
up to date and let the persona get ready again (`warm_up`, the app's start-up path: had the
filler been real turns, their after-turn work would have evaluated the new prompt prefix, so
the first turn after it is not charged for re-reading a whole new history); `sleep` steps run the persona's own sleep-time work (episodes, diary, entities, dream) as a night at 02:00. Every user
step goes through `NexusService.send`, the Send button's path.

One transcript per script and run is written to --transcripts DIR (default: a new temporary
folder, logged), in the format of shared/bench/conversation_checks.py's docstring, with a few
extra diagnostic keys per turn (the scorer ignores them). The scripts that ran are copied to
DIR/scripts/, so `conversation_checks.py DIR/scripts DIR --json` reproduces the printed numbers,
which are that scorer's own `score(...)` plus:

- "ms_per_prompt_token": llama.cpp's own prompt-evaluation timing (its perf counters, read
  around every model call of every turn: prompt-eval milliseconds / prompt tokens evaluated).
  Only the tokens the cached prefix did not cover are evaluated, so this is the cost of the
  part of each prompt that is new. null for a model without those counters.
- "wall_s": the whole run, model load included.

Each turn also records "prompt_tokens" (the tokens of every message of the turn's last model
call, counted with the model's tokenizer; the chat template's few tokens per message are not
included), "prompt_eval_tokens" / "prompt_eval_ms" (llama.cpp, all calls of the turn),
"model_calls", "at" (the simulated time), "retrieval" (what recall put in the prompt) and
"prompt_tail" (the last model call's last messages: the turn's context, the user's words).
"""
from __future__ import annotations

import importlib.util
import json
import logging
import os
import tempfile
import threading
import time
import zlib
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Callable, Iterator, Sequence

import constants
from bench.shared import shared_candidates

log = logging.getLogger(__name__)
APP_DIR = Path(__file__).resolve().parent.parent
PROJECT_SCRIPTS = APP_DIR / "bench" / "conversations"
RETRIEVAL_ITEM_CHARS = 200  # diagnostic copy of each recalled item in the transcript
PROMPT_TAIL_MESSAGES = 3  # the turn's context message, a retry's nudge, the user's message


class ConversationBenchError(RuntimeError):
    """The bench cannot run (no shared folder, a bad script, the persona never became ready)."""


@dataclass(frozen=True)
class ModelCall:
    """One streamed model call, as the recorder saw it."""
    prompt_tokens: int | None
    prompt_eval_tokens: int | None
    prompt_eval_ms: float | None
    first_chunk_s: float | None
    prompt_tail: tuple[str, ...] = ()  # the call's last messages (context, user), for reading
    started: float = 0.0  # time.monotonic() when the call began


@dataclass(frozen=True)
class TurnRecord:
    """One user step of a transcript; the first seven fields are the scorer's format."""
    step: int
    user: str
    reply: str
    source: str  # "model" | "notice"
    ttft_s: float | None
    core_memory: str
    notepad: str
    at: str = ""
    model_calls: int = 0
    prompt_tokens: int | None = None
    prompt_eval_tokens: int | None = None
    prompt_eval_ms: float | None = None
    retrieval: tuple[str, ...] = ()
    notices: tuple[str, ...] = ()
    prompt_tail: tuple[str, ...] = ()
    asked_again: int = 0  # replies the guard had asked for again (empty, out of character, said nothing)
    repaired: int = 0  # reply sentences said back as the user's (the user's facts told as the persona's)
    # Where the time to the first shown token went: per model call, when it began after the message
    # was sent and when its first chunk came after that (seconds).
    call_timings: tuple[tuple[float, float | None], ...] = ()


@dataclass(frozen=True)
class ScriptRun:
    """One script, one run: its transcript (as written) and the file it went to."""
    script: str
    run: int
    seed: int
    path: Path
    transcript: dict
    wall_s: float


@dataclass(frozen=True)
class BenchResult:
    result: dict  # the scorer's object plus ms_per_prompt_token and wall_s
    transcripts_dir: Path
    runs: tuple[ScriptRun, ...] = field(default_factory=tuple)


# --- the shared folder ------------------------------------------------------------------

SLEEP_HOUR = 2  # a sleep step's night: 02:00, two hours into the default quiet hours (00:00–07:00)


def night_after(cursor: datetime) -> datetime:
    """The first 02:00 at or after `cursor`: the night a user going to bed then would sleep through."""
    night = cursor.replace(hour=SLEEP_HOUR, minute=0, second=0, microsecond=0)
    return night if night >= cursor else night + timedelta(days=1)


def shared_dir(explicit: str | Path | None = None) -> Path:
    """The shared folder: --shared, else $NEXUS_ARK_SHARED_DIR, else `<repo>/../shared`."""
    candidates = shared_candidates(explicit)
    for candidate in candidates:
        if (candidate / "bench" / "conversation_checks.py").is_file():
            return candidate.resolve()
    raise ConversationBenchError(
        "The shared benchmark folder (bench/conversation_checks.py) was not found in "
        + ", ".join(str(c) for c in candidates) + "; pass --shared DIR.")


def load_module(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ConversationBenchError(f"Cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- scripts ----------------------------------------------------------------------------
def script_files(files: Sequence[str], shared: Path) -> list[Path]:
    """The FILE arguments (a folder stands for its *.json), or by default every script in the
    shared conversations folder and then the project's own development scripts."""
    if not files:
        return sorted((shared / "bench" / "conversations").glob("*.json")) + sorted(PROJECT_SCRIPTS.glob("*.json"))
    out: list[Path] = []
    for name in files:
        path = Path(name)
        out.extend(sorted(path.glob("*.json")) if path.is_dir() else [path])
    return out


def load_scripts(paths: Sequence[Path]) -> list[dict]:
    scripts, seen = [], {}
    for path in paths:
        try:
            script = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConversationBenchError(f"Cannot read the script {path}: {exc}") from exc
        missing = [k for k in ("name", "user_name", "start", "steps") if k not in script]
        if missing:
            raise ConversationBenchError(f"{path}: missing {', '.join(missing)}")
        if script["name"] in seen:
            raise ConversationBenchError(f"Two scripts are named {script['name']!r}: {seen[script['name']]} and {path}")
        seen[script["name"]] = path
        scripts.append(script)
    return scripts


def quick_selection(scripts: list[dict]) -> list[dict]:
    """--quick: the scripts named in constants.CONVERSATION_QUICK_SCRIPTS, else the first three."""
    picked = [s for s in scripts if s["name"] in constants.CONVERSATION_QUICK_SCRIPTS]
    return picked or scripts[:3]


def script_seed(name: str, run: int) -> int:
    return (constants.CONVERSATION_SEED_BASE + zlib.crc32(name.encode("utf-8")) % 100_000
            + 7919 * (run - 1)) % 2**31


# --- the simulated clock and the model recorder ----------------------------------------------
@contextmanager
def machine_time_zone(offset: timedelta) -> Iterator[None]:
    """The process's local time zone set to `offset` while a script plays: the user of a script
    that starts at 22:00+09:00 has a computer that says 22:00, and the app reads its local time
    for the prompt's "# Now", quiet hours and "tomorrow". (The bench's machine runs UTC: the
    Japanese scripts' evenings were "13:00" in the prompt.)"""
    minutes = int(offset.total_seconds() // 60)
    sign = "-" if minutes >= 0 else "+"  # POSIX TZ counts west of Greenwich as positive
    before = os.environ.get("TZ")
    os.environ["TZ"] = f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = before
        time.tzset()


class SimulatedClock:
    """The service's clock: returns `now`, which only the bench moves."""

    def __init__(self, start: datetime):
        self.now = start

    def __call__(self) -> datetime:
        return self.now


def prompt_eval_counters(model) -> tuple[int, float] | None:
    """llama.cpp's cumulative (prompt tokens evaluated, prompt-eval ms) of the model's chat
    context, or None when the model has none (remote, scripted, not loaded)."""
    llama = getattr(model, "_llama", None)
    ctx = getattr(getattr(llama, "_ctx", None), "ctx", None)
    if ctx is None:
        return None
    import llama_cpp

    data = llama_cpp.llama_perf_context(ctx)
    return int(data.n_p_eval), float(data.t_p_eval_ms)


class RecordingModel:
    """Wraps the chat model the service uses: every streamed call is passed through unchanged
    and recorded (prompt size, llama.cpp's prompt-evaluation counters). Everything else is the
    wrapped model's own (warm-ups evaluate through it, unrecorded)."""

    def __init__(self, model):
        self._model = model
        self.calls: list[ModelCall] = []

    def __getattr__(self, name):
        return getattr(self._model, name)

    def stream(self, messages, tools, temperature, max_tokens, seed=None, min_tokens=0, avoid_openings=(),
               prefix="") -> Iterator:
        before = prompt_eval_counters(self._model)
        started, first = time.monotonic(), None
        try:
            for event in self._model.stream(messages, tools, temperature, max_tokens, seed=seed, min_tokens=min_tokens,
                                            avoid_openings=avoid_openings, prefix=prefix):
                if first is None:
                    first = time.monotonic() - started
                yield event
        finally:
            after = prompt_eval_counters(self._model)
            tokens = sum(self._model.count_tokens(m.content) for m in messages) if messages else 0
            evaluated = (None, None)
            if before and after:  # a verbose llama (NEXUS_ARK_LLAMA_VERBOSE) resets them per completion
                fresh = getattr(self._model._llama, "verbose", False)
                evaluated = after if fresh else (after[0] - before[0], after[1] - before[1])
            tail = tuple(f"[{m.role}] {m.content}" for m in messages[-PROMPT_TAIL_MESSAGES:])
            self.calls.append(ModelCall(tokens, evaluated[0], evaluated[1], first, tail, started))


class SharedModelFactory:
    """A model factory for NexusService that builds the chat model once and hands the same
    instance to every service (loading takes seconds), wrapped in a recorder."""

    def __init__(self, create: Callable[[object, object], object]):
        self._create = create  # (settings, secrets) -> ChatModel
        self._lock = threading.Lock()
        self.recorder: RecordingModel | None = None

    def __call__(self, settings, secrets, _data_dir_model_path: Path) -> RecordingModel:
        with self._lock:
            if self.recorder is None:
                self.recorder = RecordingModel(self._create(settings, secrets))
            return self.recorder


def chosen_model_factory(chosen, embedded_model_path: Path) -> SharedModelFactory:
    """The model the bench's flags name (bench/provider_choice.py: the embedded model by default),
    built on the app's own model file: each script's data directory is a fresh temporary one, so
    its settings do not choose the model."""
    return SharedModelFactory(lambda settings, secrets: chosen.create(embedded_model_path))


# --- one script -------------------------------------------------------------------------
def _next_user_time(steps: list[dict], index: int, cursor: datetime) -> datetime:
    """When the next user step after `index` will be sent (the end of the script if none)."""
    when = cursor
    for step in steps[index + 1:]:
        if "user" in step:
            break
        when += timedelta(hours=float(step.get("advance_hours", 0)))
    return when


def _write_filler(service, persona: str, user_name: str, clock: SimulatedClock, filler: ModuleType,
                  count: int, seed: int, start: datetime, end: datetime) -> None:
    chat_log = service.session(persona).chat_log
    messages = filler.messages(count, seed=seed)
    gap = (end - start) / (len(messages) + 1)
    for k, (role, text) in enumerate(messages, start=1):
        clock.now = start + gap * k
        if role == "user":
            chat_log.append("USER", user_name, text)
        else:
            chat_log.append("AGENT", persona, text)
    service.update_memory_index(persona)
    # Had these been real turns, each one's after-turn work would have evaluated the next prompt
    # prefix (and the app re-warms at start-up): the user comes back to a persona that is ready.
    _wait_until_ready(service)


def _wait_until_ready(service) -> None:
    """The persona's start-up path (load the model, evaluate its prompt prefix, catch up on
    indexing), as the page runs it before it says the persona is ready."""
    service.warm_up()
    if service.model_status.state != "ready":
        raise ConversationBenchError(f"The persona did not become ready: {service.model_status.text()}")


def _user_turn(service, persona: str, index: int, text: str, clock: SimulatedClock,
               models: SharedModelFactory) -> TurnRecord:
    recorder = models.recorder  # the service has loaded it by now (warm-up)
    first_call = len(recorder.calls) if recorder is not None else 0
    started = time.monotonic()
    ttft, done, errors, retrieval, guard = None, None, [], (), {}
    for event in service.send(persona, text):
        if event.kind == "token" and ttft is None and event.text.strip():
            ttft = round(time.monotonic() - started, 3)
        elif event.kind == "done":
            done = event.text
        elif event.kind == "error":
            errors.append(event.text)
        elif event.kind == "retrieval" and event.retrieval is not None:
            retrieval = tuple(item.text[:RETRIEVAL_ITEM_CHARS] for item in event.retrieval.items)
        elif event.kind == "guard" and event.counts:
            guard = {k: guard.get(k, 0) + v for k, v in event.counts.items()}
    if done is not None:
        reply, source = done, "model"
    elif errors:
        reply, source = errors[-1], "notice"  # what the chat shows instead of a reply
    else:
        reply, source = "", "model"
    service.wait_for_background_work(persona)
    calls = recorder.calls[first_call:] if recorder is not None else []
    evaluated = [c for c in calls if c.prompt_eval_tokens is not None]
    return TurnRecord(
        step=index, user=text, reply=reply, source=source, ttft_s=ttft,
        core_memory=service.read_memory(persona, "core_memory"),
        notepad=service.read_memory(persona, "notepad"),
        at=clock.now.isoformat(), model_calls=len(calls),
        prompt_tokens=calls[-1].prompt_tokens if calls else None,
        prompt_eval_tokens=sum(c.prompt_eval_tokens for c in evaluated) if evaluated else None,
        prompt_eval_ms=round(sum(c.prompt_eval_ms for c in evaluated), 1) if evaluated else None,
        retrieval=retrieval, notices=tuple(errors),
        prompt_tail=calls[-1].prompt_tail if calls else (),
        asked_again=guard.get("asked_again", 0), repaired=guard.get("repaired", 0),
        call_timings=tuple((round(c.started - started, 3), None if c.first_chunk_s is None else round(c.first_chunk_s, 3))
                           for c in calls),
    )


def run_script(script: dict, run: int, models: SharedModelFactory, filler: ModuleType,
               transcripts_dir: Path, data_dir: Path | None = None) -> ScriptRun:
    """Play one script on a fresh data directory (a temporary one, or `data_dir`, which is kept)
    and write its transcript."""
    from persona.service import NexusService

    started = time.monotonic()
    seed = script_seed(script["name"], run)
    start = datetime.fromisoformat(script["start"])
    if start.tzinfo is None:
        raise ConversationBenchError(f"{script['name']}: start {script['start']!r} has no time zone")
    clock = SimulatedClock(start)
    persona = constants.CONVERSATION_PERSONA
    turns: list[TurnRecord] = []
    with ExitStack() as stack:
        stack.enter_context(machine_time_zone(start.utcoffset()))
        if data_dir is None:
            data_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="nexus-conv-"))) / "data"
        service = NexusService(data_dir, clock=clock, model_factory=models)
        try:
            service.update_settings(user_name=script["user_name"], seed=seed, last_character=persona)
            _wait_until_ready(service)
            persona = service.session(persona).character.name  # as the chat shows it
            cursor = start
            for index, step in enumerate(script["steps"]):
                if "user" in step:
                    clock.now = cursor
                    turns.append(_user_turn(service, persona, index, step["user"], clock, models))
                    cursor += timedelta(minutes=constants.CONVERSATION_MINUTES_PER_TURN)
                elif "advance_hours" in step:
                    cursor += timedelta(hours=float(step["advance_hours"]))
                    clock.now = cursor  # the app's scheduler looked while the hours passed
                    service.keep_warm()
                elif "filler" in step:
                    _write_filler(service, persona, script["user_name"], clock, filler, int(step["filler"]),
                                  index, cursor, _next_user_time(script["steps"], index, cursor))
                elif step.get("sleep"):
                    clock.now = night_after(cursor)
                    service.sleep_now(persona, now=clock.now)  # the app's own night: episodes, diary, dream…
                    service.wait_for_background_work(persona)
                else:
                    raise ConversationBenchError(f"{script['name']}: step {index} is none of user / "
                                                 f"advance_hours / filler / sleep: {step}")
        finally:
            service.wait_for_background_work(persona)
            service.close()
    transcript = {"script": script["name"], "run": run, "persona": persona, "seed": seed,
                  "turns": [asdict(t) for t in turns]}
    path = transcripts_dir / f"{script['name']}.run{run}.json"
    path.write_text(json.dumps(transcript, ensure_ascii=False, indent=1), encoding="utf-8")
    wall = time.monotonic() - started
    log.info("%s run %d: %d turns in %.0f s -> %s", script["name"], run, len(turns), wall, path)
    return ScriptRun(script["name"], run, seed, path, transcript, wall)


# --- the whole bench --------------------------------------------------------------------
def ms_per_prompt_token(runs: Sequence[ScriptRun]) -> float | None:
    tokens = ms = 0.0
    for run in runs:
        for turn in run.transcript["turns"]:
            if turn.get("prompt_eval_tokens") and turn.get("prompt_eval_ms") is not None:
                tokens += turn["prompt_eval_tokens"]
                ms += turn["prompt_eval_ms"]
    return round(ms / tokens, 2) if tokens else None


def guard_summary(runs: Sequence[ScriptRun]) -> dict:
    """How often the reply guard stepped in: turns asked for again at least once, and turns with
    a sentence said back as the user's (a guard that fires on a third of the turns costs time and
    says the prompt is wrong)."""
    turns = [t for run in runs for t in run.transcript["turns"]]
    return {"turns": len(turns), "asked_again": sum(1 for t in turns if t.get("asked_again")),
            "repaired": sum(1 for t in turns if t.get("repaired"))}


def run_bench(scripts: list[dict], models: SharedModelFactory, transcripts_dir: Path, *, filler: ModuleType,
              checks: ModuleType | None, repeats: int = 1, keep_data: Path | None = None) -> BenchResult:
    """Every script `repeats` times (run 1 of each, then run 2, ...) and the verdict of `checks`
    (shared/bench/conversation_checks.py; None: timings only). `keep_data`: play each script in
    a data directory kept under this folder instead of a temporary one."""
    started = time.monotonic()
    transcripts_dir.mkdir(parents=True, exist_ok=True)
    copies = transcripts_dir / "scripts"
    copies.mkdir(exist_ok=True)
    for script in scripts:  # the scorer's CLI reads one folder of scripts
        (copies / f"{script['name']}.json").write_text(json.dumps(script, ensure_ascii=False, indent=1),
                                                      encoding="utf-8")
    runs = []
    for run in range(1, repeats + 1):
        for script in scripts:
            data_dir = keep_data / f"{script['name']}.run{run}" if keep_data is not None else None
            runs.append(run_script(script, run, models, filler, transcripts_dir, data_dir))
    written = {r.path for r in runs}
    stale = [p.name for p in transcripts_dir.glob("*.json") if p not in written]
    if stale:
        log.warning("%s also holds other transcripts (%s): the scorer's CLI on that folder will count them too",
                    transcripts_dir, ", ".join(stale[:5]))
    transcripts: dict[str, list[dict]] = {}
    for r in runs:  # read back from disk: the numbers are those of the files written
        transcripts.setdefault(r.script, []).append(json.loads(r.path.read_text(encoding="utf-8")))
    result = checks.score({s["name"]: s for s in scripts}, transcripts) if checks is not None else {}
    result["ms_per_prompt_token"] = ms_per_prompt_token(runs)
    result["guard"] = guard_summary(runs)
    result["wall_s"] = round(time.monotonic() - started, 1)
    return BenchResult(result, transcripts_dir, tuple(runs))


def main(args, embedded_model_path: Path, models: SharedModelFactory | None = None, chosen=None) -> int:
    """The CLI; `chosen`: the model of the provider flags (bench/provider_choice.py; None: the
    embedded model); `models` replaces it (tests)."""
    from bench.provider_choice import default_bench_model

    try:
        shared = shared_dir(args.shared or None)
        scripts = load_scripts(script_files(args.files, shared))
        repeats = max(1, args.repeats)
        if args.quick:
            if repeats > 1:
                log.info("--quick runs each script once (--repeats %d ignored)", repeats)
            scripts, repeats = quick_selection(scripts), 1
        if not scripts:
            raise ConversationBenchError("No scripts to run.")
        transcripts_dir = (Path(args.transcripts) if args.transcripts
                           else Path(tempfile.mkdtemp(prefix="nexus-conv-transcripts-")))
        log.info("Conversation bench: %d scripts × %d runs; transcripts in %s", len(scripts), repeats,
                 transcripts_dir)
        outcome = run_bench(
            scripts, models or chosen_model_factory(chosen or default_bench_model(), embedded_model_path),
            transcripts_dir,
            filler=load_module(shared / "bench" / "filler.py", "conversation_filler"),
            checks=load_module(shared / "bench" / "conversation_checks.py", "conversation_checks"),
            repeats=repeats)
    except ConversationBenchError as exc:
        log.error("%s", exc)
        return 1
    log.info("Wall time %.0f s; transcripts in %s (check: %s %s %s --json)", outcome.result["wall_s"],
             transcripts_dir, shared / "bench" / "conversation_checks.py", transcripts_dir / "scripts",
             transcripts_dir)
    print(json.dumps(outcome.result, ensure_ascii=False, indent=None if args.json else 1))
    return 0
