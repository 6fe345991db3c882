"""Sleep-time work for one persona: the night's steps in order, resumable, never two at once.

A run loads the state (managers/sleep_state.py), skips the steps the night has done, runs the rest
and saves the state after each; a reply that needs the model stops it at the next token
(`should_stop`), and the rest waits for the next idle moment. Every run leaves a report.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable

from filelock import FileLock, Timeout

from agent.providers.base import ChatModel
from agent.sleep_schedule import QuietHours, night_of
from managers.diaries import DiaryStore
from managers.entities import EntityStore, ProposalStore
from managers.episodes import EpisodeStore
from managers.sleep_state import SleepReport, SleepStateStore
from persona.diary_job import write_diary_entries
from persona.dream_job import DreamStores, dream_step
from persona.entities_job import entities_step
from persona.episodes_job import JobTally, compress_weeks, summarise_days

log = logging.getLogger(__name__)

Progress = Callable[[str, float], None]  # (what is being done, fraction done)


# The night's steps, in the order they run; the names are what `steps_done` records (a crash bench
# reads them to tell which step a kill landed in: bench/sleep_crash_bench.py).
STEP_NAMES = ("episodes", "diary", "weeks", "entities", "dream")


class SleepBusy(RuntimeError):
    """Sleep-time work is already running for this persona (in this or another process)."""


@dataclass(frozen=True)
class SleepInputs:
    """What one persona's night needs, handed in by the facade."""
    persona: str
    user_name: str
    language_hint: str
    memory_dir: Path
    entries: Callable[[], list]  # the chat log's folded view, read when the step runs
    episodes: EpisodeStore
    state: SleepStateStore
    model: ChatModel
    entities: EntityStore | None = None  # entity pages and the night's proposals (seed 004 §4)
    entity_proposals: ProposalStore | None = None
    diaries: DiaryStore | None = None  # None: no diary written tonight
    identity: str = ""  # the persona's system prompt, for the diary's voice
    also_called: tuple[str, ...] = ()  # the persona's other names (its display name's), for who did what
    dream: DreamStores | None = None  # goals, questions, the dream diary (seed 004 §5, §6); None: no dreaming


def run_night(inputs: SleepInputs, now: datetime, hours: QuietHours, should_stop: Callable[[], bool],
              progress: Progress = lambda what, done: None) -> SleepReport:
    """Run what is left of the night's work for one persona, and report it."""
    lock = FileLock(str(inputs.memory_dir / ".sleep.lock"))
    try:
        lock.acquire(timeout=0)
    except Timeout as exc:
        raise SleepBusy(f"Sleep-time work is already running for {inputs.persona}.") from exc
    try:
        return _run(inputs, now, hours, should_stop, progress)
    finally:
        lock.release()


def _run(inputs: SleepInputs, now: datetime, hours: QuietHours, should_stop: Callable[[], bool],
         progress: Progress) -> SleepReport:
    started = time.monotonic()
    night = night_of(now, hours).isoformat()
    state = inputs.state.load()
    if state.night_in_progress != night:
        state = state.model_copy(update={"night_in_progress": night, "steps_done": []})
    # A step of one day can take minutes on the embedded model: each model call it starts is shown, so the bar says it
    # is alive ("Writing the day's episodes - 0.0%" stood for 150 s in a new user's "Sleep now", session 48).
    doing = {"label": "", "fraction": 0.0}
    tally = JobTally(on_ask=lambda calls: progress(f"{doing['label']} (model call {calls})", doing["fraction"]))
    steps = (("episodes", "Writing the day's episodes", lambda: summarise_days(
        inputs.entries(), inputs.episodes, inputs.memory_dir, inputs.model, persona=inputs.persona,
        user_name=inputs.user_name, language_hint=inputs.language_hint, now=now, should_stop=should_stop,
        tally=tally)),
             ("diary", "Writing the diary", lambda: inputs.diaries is None or write_diary_entries(
                 inputs.entries(), inputs.episodes, inputs.diaries, inputs.model, persona=inputs.persona,
                 user_name=inputs.user_name, identity=inputs.identity, language_hint=inputs.language_hint, now=now,
                 should_stop=should_stop, tally=tally)),
             ("weeks", "Compressing old episodes into weeks", lambda: compress_weeks(
                 inputs.episodes, inputs.model, persona=inputs.persona, user_name=inputs.user_name,
                 language_hint=inputs.language_hint, now=now, should_stop=should_stop, tally=tally)),
             ("entities", "Noting people, places and things", lambda: inputs.entities is None or entities_step(
                 inputs.entries(), inputs.episodes, inputs.entities, inputs.entity_proposals, inputs.model,
                 persona=inputs.persona, user_name=inputs.user_name, language_hint=inputs.language_hint, now=now,
                 should_stop=should_stop, tally=tally)),
             ("dream", "Dreaming", lambda: inputs.dream is None or dream_step(
                 inputs.dream, inputs.model, persona=inputs.persona, user_name=inputs.user_name,
                 language_hint=inputs.language_hint, night=night, now=now, should_stop=should_stop, tally=tally,
                 entries=inputs.entries(), also_called=inputs.also_called)))
    assert tuple(name for name, _, _ in steps) == STEP_NAMES
    finished = True
    step_seconds: dict[str, float] = {}
    for number, (name, label, step) in enumerate(steps):
        if name in state.steps_done:
            continue
        doing.update(label=label, fraction=number / len(steps))
        progress(label, number / len(steps))
        step_started = time.monotonic()
        done = step()
        step_seconds[name] = round(time.monotonic() - step_started, 1)
        if not done:
            finished = False
            break
        state = state.model_copy(update={"steps_done": [*state.steps_done, name]})
        inputs.state.save(state)
    report = SleepReport(night=night, started_at=now.isoformat(timespec="seconds"),
                         finished_at=datetime.now(now.tzinfo).isoformat(timespec="seconds"),
                         wall_s=round(time.monotonic() - started, 1), model_calls=tally.model_calls,
                         prompt_tokens=tally.prompt_tokens, output_tokens=tally.output_tokens,
                         step_seconds=step_seconds, written=tally.written, problems=tally.problems, stopped=not finished)
    update = {"reports": [*state.reports, report]}
    if finished:
        update |= {"last_done_night": night, "night_in_progress": "", "steps_done": []}
    inputs.state.save(state.model_copy(update=update))
    progress("Done" if finished else "Stopped for a reply; the rest follows at the next quiet moment", 1.0)
    log.info("Sleep-time work for %s: %s", inputs.persona, report.model_dump_json())
    return report
