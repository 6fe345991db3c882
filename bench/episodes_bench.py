"""`python nexus_ark.py bench episodes FILE... --out DIR [--json]`: do the daily episodes keep what happened?

shared/BENCHMARKS.md §6. Each LoCoMo conversation is replayed as in §1 (bench/locomo_bench.py's
`replay`) into a persona named after `speaker_b` (made from the template), `speaker_a` as the
user (the settings' `user_name`). Then every night after a session day runs the app's own
sleep-time work (`NexusService.sleep_now` at 02:00 the next day, the default model, the app's
prompt and budgets), exactly as for a user; the day's episode is taken as it was written that
night (a later night may fold it into a week). The replay clock is UTC, and so are the nights.

Writes `DIR/<file stem>.json` = [{"date": "YYYY-MM-DD", "text": ..., "arousal", "arousal_max"}] (the
two ratings the night gave the day, absent for a day without an episode; `bench qa --episodes DIR`
puts these days in the persona's memory as the nights left them) and scores it with the
shared scorer (`shared/bench/episode_coverage.py`, loaded by path): the share of the sessions'
events kept, per file, against the dataset's own session summaries (`--reference`, the anchor).
Also reported: seconds per day, characters per day, model calls and tokens.

A file's run keeps its work in `DIR/<file stem>-work` and each finished night in
`DIR/<file stem>-nights.jsonl`; `--resume` goes on from the nights a stopped run finished (a night
stopped half-way is finished by the app's own resumption of sleep-time work), so a file of 30 nights
need not fit in one sitting. Both are removed once the file is scored. `--episodes-only` runs only the
night's episode work (no diary, entity pages or dream): the same asks of the model in about a sixth of
its time (the model's cache may change a word here and there); its costs are then that work's, not a night's.
"""
from __future__ import annotations

import importlib.util
import json
import logging
import os
import shutil
import statistics
import time
from dataclasses import dataclass, replace
from datetime import date, datetime, time as clock_time, timedelta, timezone
from pathlib import Path
from typing import Callable, Iterator, Sequence

from agent.providers.base import ChatModel
from bench.locomo_bench import load, replay, session_keys, session_time
from bench.shared import find_shared
from managers.episodes import episode_id
from managers.sleep_state import SleepReport
from persona.service import NexusService
from persona.sleep import run_night
from persona.sleep_time import sleep_inputs

log = logging.getLogger(__name__)

SCORER = "bench/episode_coverage.py"


def load_scorer(explicit: str | None = None):
    folder = find_shared(SCORER, explicit)
    if folder is None:
        raise SystemExit(f"bench episodes: the shared scorer {SCORER} was not found (--shared, $NEXUS_ARK_SHARED_DIR "
                         "or ../shared)")
    spec = importlib.util.spec_from_file_location("episode_coverage", folder / SCORER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass(frozen=True)
class NightDone:
    """One night the replay ran: the session day it followed, its report and its seconds."""
    service: NexusService
    persona: str
    memory_dir: Path
    day: date
    night: datetime
    report: SleepReport
    seconds: float


def episodes_night(service: NexusService, persona: str, night: datetime) -> SleepReport:
    """The app's own night runner with only its episode work: the day's episode from the log and the
    weeks' compression, no diary, entity pages or dream (`--episodes-only`: what §6 scores, in a
    fraction of a whole night's model time)."""
    inputs = sleep_inputs(service.session(persona), service.model(), service.user_name_for(persona))
    inputs = replace(inputs, diaries=None, entities=None, entity_proposals=None, dream=None)
    return run_night(inputs, night, service.quiet_hours(), should_stop=lambda: False)


def whole_night(service: NexusService, persona: str, night: datetime) -> SleepReport:
    """The app's own night (`NexusService.sleep_now`), exactly as for a user."""
    return service.sleep_now(persona, now=night)


Night = Callable[[NexusService, str, datetime], SleepReport]


def run_nights(service: NexusService, persona: str, nights: Sequence[tuple[date, datetime]],
               night_work: Night = whole_night) -> Iterator[NightDone]:
    """`night_work` at each `night`, after the log is written; each yielded as it is done (the caller
    reads the memory folder in between)."""
    memory_dir = service.session(persona).character.memory_dir
    for day, night in nights:
        started = time.monotonic()
        report = night_work(service, persona, night)
        yield NightDone(service, persona, memory_dir, day, night, report, time.monotonic() - started)


def night_after_day(day: date) -> datetime:
    """The bench's night of a session day: 02:00 UTC the next day (the replay clock is UTC)."""
    return datetime.combine(day + timedelta(days=1), clock_time(2, 0), timezone.utc)


def locomo_days(conv: dict) -> list[date]:
    """The conversation's session days, in order."""
    return sorted({session_time(conv, key).date() for key in session_keys(conv)})


def locomo_nights(path: str, model: ChatModel, work: Path, max_days: int | None = None,
                  replayed_as: str = "", done: Sequence[date] = (),
                  on_replayed: Callable[[str], None] = lambda persona: None,
                  night_work: Night = whole_night) -> Iterator[NightDone]:
    """A LoCoMo file replayed into a persona named after `speaker_b` (`speaker_a` the user), then a
    night after each of its first `max_days` session days (all when None); the service is closed
    when the caller is done with the nights. `replayed_as`: the persona `work` already holds the
    replay in (a stopped run's), whose nights `done` are not run again; `on_replayed` is told the
    persona once a fresh replay is in."""
    conv, _ = load(Path(path))
    service = NexusService(work / "data", model_factory=lambda s, k, p: model)
    try:
        persona = replayed_as
        if not persona:
            service.update_settings(user_name=conv["speaker_a"], temperature=0.0, seed=0)
            persona = service.create_persona(conv["speaker_b"])
            replay(conv, service.session(persona).character.root)
            service.session(persona).chat_log.invalidate()
            on_replayed(persona)
        finished = set(done)
        days = [day for day in locomo_days(conv)[:max_days] if day not in finished]
        yield from run_nights(service, persona, [(day, night_after_day(day)) for day in days], night_work)
    finally:
        service.close()


def keep_memory(memory_dir: Path, keep: Path) -> None:
    """The persona's memory folder (episodes, diary, entity pages, dream diary, goals) copied for reading."""
    shutil.rmtree(keep, ignore_errors=True)
    shutil.copytree(memory_dir, keep)


@dataclass(frozen=True)
class FileRun:
    """Where one file's run keeps its work: the service's data (`work`) and the nights finished so far
    (`nights`: a first line naming the replayed persona, then one JSON line a night)."""
    work: Path
    nights: Path

    @classmethod
    def of(cls, out_dir: Path, locomo_file: str) -> "FileRun":
        stem = Path(locomo_file).stem
        return cls(out_dir / f"{stem}-work", out_dir / f"{stem}-nights.jsonl")

    def stopped(self) -> tuple[str, list[dict]]:
        """The persona a stopped run replayed into and the nights it finished; ("", []) when there is
        none to go on from (no replay finished)."""
        if not (self.nights.is_file() and self.work.is_dir()):
            return "", []
        lines = [json.loads(line) for line in self.nights.read_text(encoding="utf-8").splitlines() if line.strip()]
        return (lines[0]["persona"], lines[1:]) if lines else ("", [])

    def start(self, persona: str) -> None:
        self.nights.write_text(json.dumps({"persona": persona}) + "\n", encoding="utf-8")

    def record(self, night: dict) -> None:
        with self.nights.open("a", encoding="utf-8") as out:
            out.write(json.dumps(night, ensure_ascii=False) + "\n")
            out.flush()
            os.fsync(out.fileno())

    def clear(self) -> None:
        shutil.rmtree(self.work, ignore_errors=True)
        self.nights.unlink(missing_ok=True)


def _night_record(done: NightDone) -> dict:
    """The day's episode as this night wrote it, and what the night cost."""
    report, day = done.report, done.day
    written = next((e for e in done.service.episodes(done.persona) if e.id == episode_id(day.isoformat())), None)
    if written is None:
        log.warning("%s: no episode (%s)", day, "; ".join(report.problems) or "nothing written")
    episode = ({"date": day.isoformat(), "text": written.summary if written else ""}
               | ({"arousal": written.arousal, "arousal_max": written.arousal_max} if written else {}))
    return {**episode, "seconds": done.seconds, "calls": report.model_calls, "prompt_tokens": report.prompt_tokens,
            "output_tokens": report.output_tokens, "step_seconds": report.step_seconds}


_COSTS = ("seconds", "calls", "prompt_tokens", "output_tokens", "step_seconds")


def write_episodes(path: str, model: ChatModel, run: FileRun, keep: Path | None = None,
                   resume: bool = False, night_work: Night = whole_night) -> tuple[list[dict], dict]:
    """The file's days as the app writes them, and the timings; the persona's memory folder (the
    diary, entity pages, dream diary and goals the nights wrote too) copied to `keep` for reading.
    `resume`: go on from the nights a stopped run of `run` finished."""
    persona, nights = run.stopped() if resume else ("", [])
    if not persona:
        run.clear()
        run.work.mkdir(parents=True)
    resumed = len(nights)
    memory_dir = None
    for done in locomo_nights(path, model, run.work, replayed_as=persona, done=[date.fromisoformat(n["date"]) for n in nights],
                              on_replayed=run.start, night_work=night_work):
        nights.append(_night_record(done))
        run.record(nights[-1])
        memory_dir = done.memory_dir
        log.info("%s %s: %.0f s, %d characters", Path(path).stem, done.day, done.seconds, len(nights[-1]["text"]))
    episodes = [{k: v for k, v in night.items() if k not in _COSTS} for night in nights]
    seconds = [night["seconds"] for night in nights]
    timing = {"days": len(episodes), "s_per_day_mean": round(statistics.mean(seconds), 1),
              "s_per_day_max": round(max(seconds), 1), "wall_s": round(sum(seconds), 1),
              "chars_per_day_mean": round(statistics.mean(len(e["text"]) for e in episodes)),
              "chars_per_day_max": max(len(e["text"]) for e in episodes),
              **{name: sum(night[key] for night in nights) for name, key in
                 (("model_calls", "calls"), ("prompt_tokens", "prompt_tokens"), ("output_tokens", "output_tokens"))}}
    if resumed:
        timing["nights_from_a_stopped_run"] = resumed  # their costs as that run measured them
    if keep is not None and memory_dir is not None:
        keep_memory(memory_dir, keep)
    return episodes, timing


def episodes_path(out_dir: Path, locomo_file: str) -> Path:
    """Where the episodes of `locomo_file` are written (and `bench qa --episodes` reads them)."""
    return out_dir / f"{Path(locomo_file).stem}.json"


def _score(scorer, locomo_file: str, episodes: list[dict]) -> dict:
    """The shared scorer's verdict on one file (its own functions, as its command line uses them)."""
    hit, total, text, bad, stray = scorer.coverage(scorer.load(locomo_file), episodes)
    return {"event_coverage": round(100 * hit / total, 1) if total else None, "events": total,
            "days_earning_nothing": bad, "dates_without_a_session": stray}


def run(files: Sequence[str], model: ChatModel, out_dir: Path, shared: str | None = None, resume: bool = False,
        episodes_only: bool = False) -> dict:
    scorer = load_scorer(shared)
    night_work = episodes_night if episodes_only else whole_night
    out_dir.mkdir(parents=True, exist_ok=True)
    results = {}
    for path in files:
        file_run = FileRun.of(out_dir, path)
        episodes, timing = write_episodes(path, model, file_run, out_dir / f"{Path(path).stem}-memory", resume,
                                          night_work)
        if episodes_only:
            timing["episodes_only"] = True  # the costs are the episode work's, not a whole night's
        episodes_path(out_dir, path).write_text(json.dumps(episodes, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        results[Path(path).stem] = {**_score(scorer, path, episodes), **timing}
        file_run.clear()
    return results


def main(args, model_path: Path, chosen=None) -> int:
    from bench.provider_choice import default_bench_model

    if not args.files or not args.out:
        raise SystemExit("bench episodes: give LoCoMo files and --out DIR")
    model = (chosen or default_bench_model()).create(model_path)
    results = run(args.files, model, Path(args.out), args.shared or None, resume=args.resume,
                  episodes_only=args.episodes_only)
    print(json.dumps(results) if args.json else json.dumps(results, indent=1, ensure_ascii=False))
    return 0
