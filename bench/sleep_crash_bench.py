"""`python nexus_ark.py bench sleep-crash [--kills 20] [--days N] [--model scripted|local] [--seed S] [--json]`

shared/BENCHMARKS.md §3, kill -9 trials during sleep-time work: a persona whose chat log spans
`--days` past days (bench/synthetic_history.py, in the app's log format) has its night run by a
child process (`python -m bench.sleep_crash_bench --child DATA_DIR NOW ...`: the app's own
`NexusService.sleep_now`), which the parent SIGKILLs at a random moment (seeded) and starts again,
until `--kills` kills have landed inside the night's work; then a last run finishes it.

After every kill, every file of the data directory is read as the app would need it: JSON parses
(backups too), JSON Lines line by line, text decodes as UTF-8; a temp file a write left behind
(`.NAME.XXXX.tmp`, never read as data) is counted, and anything quarantined is a failure. At the
end: exactly one daily episode per day with conversation (none duplicated by id or by day, none
lost; a day a compressed week holds is kept), one session-arousal record per session of each such day, the diary's entry of each day
once, one dream a night, no goal, question, proposal or entity line twice, and the night's state
done. Which step each kill landed in comes from the state file (`steps_done`).

The scripted model (default) answers every ask of the night at once with valid JSON
(agent/providers/fake.night_answers) after a random pause, and every fsync waits a little too, so
kills land inside calls, between a temp file's write and its rename, and between two writes. Its
night is a few seconds; the kills are spread over it (each run is killed at a random moment of a
window sized from a clean night, measured first on a copy: about KILLS_PER_NIGHT kills a night).
When a night is done, the next begins after as many days of conversation (the nights between
missed, as when the computer was off), and so on until the kills are in. `--model local` runs the
embedded model instead (slow: minutes a night, no pauses added).
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Sequence

import constants
from bench.synthetic_history import seed_history
from managers.diaries import DIARY_FILES, MAIN_DIARY, entry_days
from managers.dream_diary import PENDING_FILE
from managers.entities import ENTITIES_DIR, PROPOSALS_FILE, fact_text, parse_page
from managers.episodes import EPISODES_FILE
from managers.goals import GOALS_FILE, goal_key
from managers.memory_sources import INSIGHTS_FILE
from managers.open_questions import QUESTIONS_FILE
from managers.sleep_state import SLEEP_STATE_FILE
from persona.episodes_job import SESSION_AROUSAL_FILE
from persona.sleep import STEP_NAMES

log = logging.getLogger(__name__)

REPO = Path(__file__).resolve().parent.parent
PERSONA, USER = "Ark", "Mina"
DEFAULT_DAYS = 5  # days of conversation before the first night (--days)
PER_DAY = 12  # messages a day: a sitting of six exchanges
# The first night is the early hours of this day (UTC); its conversation days end the evening before.
FIRST_NIGHT_DAY = datetime(2026, 11, 1, tzinfo=timezone.utc)
NIGHT_HOUR = timedelta(hours=2)
CALL_DELAY_S = (0.02, 0.25)  # the scripted model's pause per ask: a kill lands inside a call
FSYNC_DELAY_S = 0.03  # at most, before each fsync: a kill lands between a temp file's write and its rename
START_TIMEOUT_S = 120.0
# Kills a night takes on average: each run is killed at a random moment of a window whose mean is a
# clean night over this (a killed run redoes the day it was in; with 20 a night the kills crowded
# into the first step, seed 0; with 13, 20 kills spread over every step of a night and a half).
KILLS_PER_NIGHT = 13
AFTER_THE_WORK = "after the work"  # a kill while the finished night's process was exiting


# --- the checks (pure over the files; tests/unit/test_sleep_crash_bench.py) ----------------------
@dataclass
class FileCheck:
    checked: int = 0
    problems: list[str] = field(default_factory=list)  # a file that does not parse or decode
    leftovers: list[str] = field(default_factory=list)  # temp files of an interrupted write (never read as data)
    quarantined: list[str] = field(default_factory=list)  # files the app moved aside as corrupt


def _data_name(path: Path) -> str:
    """The name a file is read as: a backup (`NAME.TIMESTAMP.bak`) is checked as NAME."""
    name = path.name
    if name.endswith(".bak"):
        name = name[: -len(".bak")].rsplit(".", 1)[0]
    return name


def check_files(data_dir: Path) -> FileCheck:
    """Every file under `data_dir` as a reader needs it."""
    result = FileCheck()
    for path in sorted(p for p in data_dir.rglob("*") if p.is_file()):
        rel = str(path.relative_to(data_dir))
        if "quarantine" in path.relative_to(data_dir).parts:
            result.quarantined.append(rel)
            continue
        if path.name.endswith(".tmp"):
            result.leftovers.append(rel)
            continue
        name = _data_name(path)
        kind = Path(name).suffix
        if kind not in (".json", ".jsonl", ".md", ".txt"):
            continue  # locks, SQLite, vector files: not written by the night, or not text
        result.checked += 1
        try:
            text = path.read_bytes().decode("utf-8")
            if kind == ".json":
                json.loads(text)
            elif kind == ".jsonl":
                for number, line in enumerate(text.splitlines(), 1):
                    if line.strip():
                        try:
                            json.loads(line)
                        except ValueError as exc:
                            raise ValueError(f"line {number}: {exc}") from exc
        except (UnicodeDecodeError, ValueError) as exc:
            result.problems.append(f"{rel}: {type(exc).__name__}: {str(exc)[:120]}")
    return result


def _read_json(path: Path, default):
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else default


def episode_problems(records: Sequence[dict], days: Sequence[str]) -> list[str]:
    """Exactly one daily episode per day with conversation: none duplicated (by id or by day), none
    lost, none for a day without talk. Milestones (a day's moment) and weeks are not days' summaries."""
    problems = []
    ids = Counter(r.get("id", "") for r in records)
    problems += [f"episode id {i} is there {n} times" for i, n in sorted(ids.items()) if n > 1]
    summaries = [r for r in records if r.get("type", "daily") == "daily"]
    weeks = [str(r.get("date", "")).split("~") for r in summaries if r.get("compressed") or "~" in str(r.get("date", ""))]
    by_day = Counter(str(r.get("date", "")) for r in summaries if not r.get("compressed") and "~" not in str(r.get("date", "")))
    in_week = Counter(d for d in days for span in weeks if span[0] <= d <= span[-1])
    problems += [f"day {d} has {n} episodes" for d, n in sorted(by_day.items()) if n > 1]
    problems += [f"day {d} is in {n} weeks" for d, n in sorted(in_week.items()) if n > 1]
    problems += [f"day {d} is in a week and has its own episode" for d in sorted(by_day) if d in in_week]
    problems += [f"day {d} has no episode (lost)" for d in days if d not in by_day and d not in in_week]
    problems += [f"episode of {d}, a day without conversation" for d in sorted(by_day) if d not in days]
    return problems


def arousal_problems(records: Sequence[dict], days: Sequence[str]) -> list[str]:
    """Each day's sessions rated once: a day with an episode has its records, none twice."""
    seen = Counter((str(r.get("date", "")), r.get("session")) for r in records if isinstance(r, dict))
    problems = [f"session arousal of {d} session {s} is there {n} times" for (d, s), n in sorted(seen.items()) if n > 1]
    rated = {d for d, _ in seen}
    return problems + [f"day {d} has no session arousal" for d in days if d not in rated]


def diary_problems(text: str, days: Sequence[str]) -> list[str]:
    """The main diary: each day's entry once."""
    headings = Counter(entry_days(text))
    return ([f"diary entry of {d} is there {n} times" for d, n in sorted(headings.items()) if n > 1]
            + [f"diary has no entry of {d}" for d in days if d not in headings])


def inner_life_problems(dreams: Sequence[dict], goals: dict, questions: Sequence[dict], proposals: dict,
                        pages: dict[str, str]) -> list[str]:
    """Nothing the night writes is there twice: a dream a night, a resolved question's insight once,
    a goal's text once, a question once, a proposal once, an entity page's fact line once."""
    problems = []
    nights = Counter(d.get("night") for d in dreams if d.get("night") and not d.get("source_question"))
    filed = Counter(d.get("source_question") for d in dreams if d.get("source_question"))
    problems += [f"dream of night {k} is there {n} times" for k, n in nights.items() if n > 1]
    problems += [f"insight of question {k} is there {n} times" for k, n in filed.items() if n > 1]
    texts = Counter(goal_key(g.get("goal", "")) for term in ("short_term", "long_term", "completed", "abandoned")
                    for g in goals.get(term, []))
    problems += [f"goal {k!r} is there {n} times" for k, n in texts.items() if n > 1]
    asked = Counter(q.get("id") for q in questions)
    problems += [f"open question {k} is there {n} times" for k, n in asked.items() if n > 1]
    offered = Counter(p.get("id") for p in proposals.get("proposals", []))
    problems += [f"entity proposal {k} is there {n} times" for k, n in offered.items() if n > 1]
    for file, text in pages.items():
        lines = Counter(fact_text(line) for line in parse_page(text, file[:-3], file).body.splitlines() if line.strip())
        problems += [f"entity page {file}: {k!r} is there {n} times" for k, n in lines.items() if n > 1]
    return problems


def state_problems(state: dict, night: str) -> list[str]:
    if state.get("last_done_night") != night or state.get("night_in_progress"):
        return [f"the night's state is not done: last_done_night={state.get('last_done_night')!r}, "
                f"in progress={state.get('night_in_progress')!r} {state.get('steps_done')}"]
    return []


def step_at_kill(state: dict, night: str) -> str:
    """The step a kill landed in, from the state the run left: the first step of the night not done
    (before the first step finishes, the state still names the last night)."""
    if state.get("night_in_progress") == night:
        return next((name for name in STEP_NAMES if name not in state.get("steps_done", [])), STEP_NAMES[-1])
    return AFTER_THE_WORK if state.get("last_done_night") == night else STEP_NAMES[0]


def final_problems(memory_dir: Path, days: Sequence[str], night: str) -> list[str]:
    """Everything the finished nights must have left, read from the files as they are."""
    pages = {p.name: p.read_text(encoding="utf-8") for p in sorted((memory_dir / ENTITIES_DIR).glob("*.md"))}
    problems = (episode_problems(_read_json(memory_dir / EPISODES_FILE, []), days)
                + arousal_problems(_read_json(memory_dir / SESSION_AROUSAL_FILE, []), days)
                + diary_problems(_read_text(memory_dir / DIARY_FILES[MAIN_DIARY]), days)
                + inner_life_problems(_read_json(memory_dir / INSIGHTS_FILE, []), _read_json(memory_dir / GOALS_FILE, {}),
                                      _read_json(memory_dir / QUESTIONS_FILE, {}).get("questions", []),
                                      _read_json(memory_dir / PROPOSALS_FILE, {}), pages)
                + state_problems(_read_json(memory_dir / SLEEP_STATE_FILE, {}), night))
    if (memory_dir / PENDING_FILE).exists():
        problems.append("a dream's answer is still pending after the finished night")
    return problems


def _read_text(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.exists() else ""


# --- the data ------------------------------------------------------------------------------------
def night_of_round(number: int, days: int = 1) -> datetime:
    """Night `number`: every `days` days (the nights between were missed: the computer was off)."""
    return FIRST_NIGHT_DAY + timedelta(days=number * days) + NIGHT_HOUR


def prepare(data_dir: Path, days: int, seed: int) -> None:
    """The sample persona, the user's name, and `days` days of conversation before the first night,
    written through the app's log format (bench/synthetic_history.py)."""
    from persona.service import NexusService

    service = NexusService(data_dir, model_factory=_no_model)
    service.update_settings(user_name=USER)
    logs = service.session(PERSONA).character.root / "logs"
    service.close()
    seed_history(logs, days * PER_DAY, seed=seed, user=USER, persona=PERSONA, end=FIRST_NIGHT_DAY, per_day=PER_DAY)


def add_days(data_dir: Path, number: int, days: int, seed: int) -> None:
    """The `days` days of conversation before night `number`."""
    seed_history(data_dir / "characters" / PERSONA / "logs", days * PER_DAY, seed=seed + number, user=USER,
                 persona=PERSONA, end=night_of_round(number, days) - NIGHT_HOUR, per_day=PER_DAY)


def conversation_days(data_dir: Path, night: datetime) -> list[str]:
    """The days the app itself counts as days with conversation (persona/episodes_job.days_of)."""
    from managers.chat_log import ChatLog
    from persona.episodes_job import days_of

    view = ChatLog(data_dir / "characters" / PERSONA / "logs", lambda: night).view()
    return sorted(d.isoformat() for d in days_of(view, night) if d < night.date())


def _no_model(settings, secrets, path):
    raise RuntimeError("the bench's parent process asks no model")


# --- the child: one run of the night --------------------------------------------------------------
def _slow_fsync(rng: random.Random) -> None:
    """Every fsync (of a temp file before its rename, of a folder after it, of a backup) waits a
    little first, in this process only, so that kills land between a write and its rename."""
    real = os.fsync

    def fsync(fd):
        time.sleep(rng.uniform(0, FSYNC_DELAY_S))
        real(fd)
    os.fsync = fsync


def child(data_dir: Path, now: datetime, model_kind: str, seed: str, model_path: str) -> int:
    from agent.providers.fake import ScriptedChatModel, night_answers, replies
    from persona.service import NexusService

    if model_kind == "local":
        from bench.provider_choice import default_bench_model

        model = default_bench_model().create(Path(model_path))
        model.load()  # the kill window starts with the night's work, not the model's loading
    else:
        rng = random.Random(seed)
        model = ScriptedChatModel(replies("ok"), json_script=night_answers(lambda: rng.uniform(*CALL_DELAY_S)))
        _slow_fsync(rng)
    service = NexusService(data_dir, model_factory=lambda s, k, p: model)
    print("START", flush=True)
    report = service.sleep_now(PERSONA, now=now)
    print("DONE " + report.model_dump_json(), flush=True)
    service.close()
    return 0


# --- the parent ---------------------------------------------------------------------------------
@dataclass
class Run:
    finished: bool
    exit_code: int
    work_s: float  # from the child's START to its end (or kill)
    report: dict | None = None


def run_child(data_dir: Path, now: datetime, model_kind: str, seed: str, model_path: str, stderr,
              kill_after: float | None) -> Run:
    """One run of the night; SIGKILLed `kill_after` seconds into its work unless it ends first."""
    command = [sys.executable, "-m", "bench.sleep_crash_bench", "--child", str(data_dir), now.isoformat(),
               "--model", model_kind, "--seed", seed, "--model-path", model_path]
    proc = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=stderr, text=True)
    try:
        line = proc.stdout.readline()  # the child starts the night's work right after this line
        if line.strip() != "START":
            proc.wait(timeout=START_TIMEOUT_S)
            raise RuntimeError(f"the child ended before its night began (exit {proc.returncode}); see its log")
        started = time.monotonic()
        try:
            proc.wait(timeout=kill_after)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            return Run(False, proc.returncode, time.monotonic() - started)
        work = time.monotonic() - started
        out = proc.stdout.read()
        done = next((json.loads(x[5:]) for x in out.splitlines() if x.startswith("DONE ")), None)
        return Run(proc.returncode == 0 and done is not None, proc.returncode, work, done)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        proc.stdout.close()


def _memory_counts(memory_dir: Path) -> dict:
    """How far the night had got, for the table (read leniently: the checks are separate)."""
    try:
        episodes = len([r for r in _read_json(memory_dir / EPISODES_FILE, []) if r.get("type", "daily") == "daily"])
    except ValueError:  # a torn file (UnicodeDecodeError is one too): the file check reports it
        episodes = -1
    try:
        diary = len(entry_days(_read_text(memory_dir / DIARY_FILES[MAIN_DIARY])))
    except ValueError:
        diary = -1
    return {"episodes": episodes, "diary": diary}


def run(kills: int, days: int, model_kind: str, seed: int, work: Path, model_path: str = "") -> dict:
    data = work / "data"
    memory = data / "characters" / PERSONA / "memory"
    prepare(data, days, seed)
    child_log = open(work / "children.log", "w", encoding="utf-8")
    rng = random.Random(seed)
    try:
        # A clean night on a copy: how long the work takes, and that it runs at all.
        shutil.copytree(data, work / "calibration")
        clean = run_child(work / "calibration", night_of_round(0), model_kind, f"{seed}:clean", model_path,
                          child_log, None)
        if not clean.finished:
            raise RuntimeError(f"a clean night did not finish (exit {clean.exit_code}); see {work / 'children.log'}")
        window = max(0.05, 2 * clean.work_s / KILLS_PER_NIGHT)
        trials, failures, rounds, runs, completed = [], [], 0, 0, 0
        night = night_of_round(0)
        while sum(1 for t in trials if t["step"] != AFTER_THE_WORK) < kills:
            runs += 1
            if runs > kills * 20:
                failures.append("too many runs without enough kills inside the work")
                break
            delay = rng.uniform(0, window)
            result = run_child(data, night, model_kind, f"{seed}:{runs}", model_path, child_log, delay)
            if result.finished or result.exit_code == 0:
                completed += 1
                if result.report and (result.report.get("problems") or result.report.get("stopped")):
                    failures.append(f"run {runs}: the night reported {result.report.get('problems')} "
                                    f"stopped={result.report.get('stopped')}")
                rounds += 1  # the night is done: the next one, after as many days of conversation
                add_days(data, rounds, days, seed)
                night = night_of_round(rounds, days)
                continue
            if result.exit_code != -signal.SIGKILL:
                failures.append(f"run {runs}: the child failed (exit {result.exit_code}); see {work / 'children.log'}")
                break
            state = _read_json_leniently(memory / SLEEP_STATE_FILE)
            files = check_files(data)
            trial = {"kill": len(trials) + 1, "night": night.date().isoformat(), "after_ms": round(delay * 1000),
                     "step": step_at_kill(state, night.date().isoformat()), **_memory_counts(memory),
                     "files_checked": files.checked, "tmp_leftovers": len(files.leftovers),
                     "problems": files.problems + [f"quarantined: {q}" for q in files.quarantined]}
            trials.append(trial)
            failures += [f"kill {trial['kill']}: {p}" for p in trial["problems"]]
            if trial["step"] == AFTER_THE_WORK:  # done, as the scheduler would see it: the next night
                rounds += 1
                add_days(data, rounds, days, seed)
                night = night_of_round(rounds, days)
        final = run_child(data, night, model_kind, f"{seed}:final", model_path, child_log, None)
        if not final.finished:
            failures.append(f"the last run did not finish (exit {final.exit_code})")
        elif final.report and (final.report.get("problems") or final.report.get("stopped")):
            failures.append(f"the last run reported {final.report.get('problems')} stopped={final.report.get('stopped')}")
    finally:
        child_log.close()
    files = check_files(data)
    days_talked = conversation_days(data, night)
    end_problems = files.problems + [f"quarantined: {q}" for q in files.quarantined] + final_problems(
        memory, days_talked, night.date().isoformat())
    failures += [f"end: {p}" for p in end_problems]
    in_work = [t for t in trials if t["step"] != AFTER_THE_WORK]
    return {
        "model": model_kind, "seed": seed, "kills": len(trials), "kills_inside_the_work": len(in_work),
        "runs": runs + 2, "nights": rounds + 1, "days_with_conversation": len(days_talked),
        "clean_night_s": round(clean.work_s, 2), "kill_window_s": round(window, 3),
        "kill_steps": {name: sum(1 for t in trials if t["step"] == name) for name in (*STEP_NAMES, AFTER_THE_WORK)},
        "files_checked_per_kill_max": max((t["files_checked"] for t in trials), default=0),
        "tmp_leftovers_max": max((t["tmp_leftovers"] for t in trials), default=0),
        "tmp_leftovers_at_end": len(files.leftovers), "quarantined": files.quarantined,
        "episodes_at_end": _memory_counts(memory)["episodes"], "diary_entries_at_end": _memory_counts(memory)["diary"],
        "failures": failures, "trials": trials,
    }


def _read_json_leniently(path: Path) -> dict:
    try:
        data = _read_json(path, {})
    except (UnicodeDecodeError, ValueError):
        return {}  # reported by the file check
    return data if isinstance(data, dict) else {}


def table(result: dict) -> str:
    rows = [f"{'kill':>4}  {'night':<10}  {'after':>7}  {'step':<14}  {'episodes':>8}  {'diary':>5}  {'tmp':>3}  problems"]
    for t in result["trials"]:
        rows.append(f"{t['kill']:>4}  {t['night']:<10}  {t['after_ms']:>5}ms  {t['step']:<14}  {t['episodes']:>8}  "
                    f"{t['diary']:>5}  {t['tmp_leftovers']:>3}  {'; '.join(t['problems']) or '-'}")
    steps = ", ".join(f"{k} {v}" for k, v in result["kill_steps"].items() if v)
    rows += ["", f"{result['kills']} kills ({result['kills_inside_the_work']} inside the work: {steps}) over "
                 f"{result['nights']} nights, {result['runs']} runs; {result['days_with_conversation']} days with "
                 f"conversation → {result['episodes_at_end']} daily episodes, {result['diary_entries_at_end']} diary "
                 f"entries; temp files left by kills: at most {result['tmp_leftovers_max']}, "
                 f"{result['tmp_leftovers_at_end']} at the end; quarantined: {len(result['quarantined'])}",
             f"failures: {len(result['failures'])}" + "".join(f"\n  - {f}" for f in result["failures"])]
    return "\n".join(rows)


def main(args, model_path: Path | None = None) -> int:
    days, model_kind = args.days or DEFAULT_DAYS, args.model or "scripted"  # --model is shared with the model benches
    if model_kind not in ("scripted", "local"):
        raise SystemExit(f"bench sleep-crash: --model scripted or local, not {model_kind!r}")
    if not 1 <= days <= constants.EPISODE_DAYS_PER_RUN:
        raise SystemExit(f"bench sleep-crash: --days between 1 and {constants.EPISODE_DAYS_PER_RUN} (one night's "
                         "episodes; older days would wait for later nights)")
    if model_kind == "local" and (model_path is None or not model_path.is_file()):
        raise SystemExit(f"bench sleep-crash: the embedded model is not at {model_path} (--data-dir, or setup-model)")
    with tempfile.TemporaryDirectory(prefix="sleep-crash-") as tmp:
        result = run(args.kills, days, model_kind, args.seed, Path(tmp), str(model_path or ""))
    print(json.dumps(result, ensure_ascii=False) if args.json else table(result))
    if args.json:
        print(table(result), file=sys.stderr)
    return 1 if result["failures"] else 0


def _child_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.sleep_crash_bench")
    parser.add_argument("--child", required=True, help="the data directory")
    parser.add_argument("now", help="the night's moment, ISO")
    parser.add_argument("--model", default="scripted", choices=["scripted", "local"])
    parser.add_argument("--seed", default="0")
    parser.add_argument("--model-path", default="")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return child(Path(args.child), datetime.fromisoformat(args.now), args.model, args.seed, args.model_path)


if __name__ == "__main__":
    sys.exit(_child_main(sys.argv[1:]))
