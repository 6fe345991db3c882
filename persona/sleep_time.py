"""When the nights run and what they are handed: the quiet hours as Settings give them, the order
in which the scheduler's look takes the personas whose night is due, and the inputs of one
persona's night (persona/sleep.py runs it). The facade (persona/service.py) calls these.
"""
from __future__ import annotations

import logging
from datetime import date, datetime, timedelta, timezone
from typing import Callable, Mapping, Sequence

import constants
from agent.providers.base import ChatModel, ProviderError
from agent.sleep_schedule import QuietHours, due, parse_quiet_hours
from managers.config import AppSettings
from managers.dream_diary import PendingDream
from managers.sleep_state import SleepReport, SleepState, SleepStateStore
from persona.dream_job import DreamStores
from persona.night_records import diaries
from persona.session import CharacterSession
from persona.sleep import SleepBusy, SleepInputs

log = logging.getLogger(__name__)


def quiet_hours(settings: AppSettings) -> QuietHours:
    try:
        return parse_quiet_hours(settings.quiet_hours)
    except ValueError:  # Settings validates what the user types; a hand-edited file falls back
        return parse_quiet_hours(constants.DEFAULT_QUIET_HOURS)


def sleep_state(session: CharacterSession) -> SleepState:
    """What the persona's nights have done (managers/sleep_state.py)."""
    return SleepStateStore(session.character.memory_dir, session.files).load()


def last_talk(session: CharacterSession) -> datetime | None:
    """When the user and the persona last talked (among the recent entries the scan looks at)."""
    recent = session.chat_log.recent(constants.SLEEP_ACTIVITY_SCAN)
    return next((e.ts for e in reversed(recent) if e.is_dialogue and e.ts is not None), None)


def nights_due(now: datetime, hours: QuietHours, idle: timedelta,
               personas: Mapping[str, tuple[SleepState, datetime | None]]) -> list[str]:
    """The personas (name → their sleep state and last talk) whose night is due at `now` (local
    time: the quiet hours are the user's), the most recently talked-to first."""
    never = datetime.min.replace(tzinfo=timezone.utc)
    found = []
    for persona in sorted(personas, key=lambda p: personas[p][1] or never, reverse=True):
        state, last = personas[persona]
        done = date.fromisoformat(state.last_done_night) if state.last_done_night else None
        if due(now, hours, done, last, idle):
            found.append(persona)
    return found


def run_nights(personas: Sequence[str], run: Callable[[str], SleepReport]) -> list[SleepReport]:
    """Each persona's night in turn (`run`); one already running, or one that cannot reach the
    model, is logged and the next one goes on."""
    reports = []
    for persona in personas:
        try:
            reports.append(run(persona))
        except SleepBusy as exc:
            log.info("%s", exc)
        except ProviderError as exc:
            log.warning("Sleep-time work for %s could not reach the model: %s", persona, exc.user_message)
    return reports


def sleep_inputs(session: CharacterSession, model: ChatModel, user_name: str) -> SleepInputs:
    """What one persona's night reads and writes: its stores, its chat log, the model."""
    memory = session.character.memory_dir
    memory.mkdir(parents=True, exist_ok=True)
    return SleepInputs(persona=session.character.name, user_name=user_name,
                       language_hint=session.language_hint(), memory_dir=memory, entries=session.chat_log.view,
                       episodes=session.episodes(), state=SleepStateStore(memory, session.files),
                       model=model, entities=session.entities, entity_proposals=session.entity_proposals,
                       diaries=diaries(session), identity=session.read("system_prompt"), also_called=session.other_names(),
                       dream=DreamStores(session.episodes(), session.goals(), session.questions(),
                                         session.dream_diary(), PendingDream(memory, session.files), session.entities))
