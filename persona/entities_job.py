"""Sleep-time job: entity memory v2's two-layer recording (seed 004 §4, 影の僕方式).

First the proposals told to the persona in a conversation since (and not rejected, nor written by the
persona itself) are applied: their facts appended to the entity's page, lines it holds already left
out. Then each day with an episode whose talk was not asked yet is asked once (agent/entities.py: one
small JSON-schema call, no tools), and what it proposes is stored with the day's lines that name the
entity, to be told once in the next conversation (persona/session.py). A day asked is marked with its
log's digest, so a stop or crash half-way resumes without asking a day twice.
"""
from __future__ import annotations

import logging
from datetime import date, datetime
from typing import Callable, Sequence

import constants
from agent.entities import extraction_prompt, extraction_schema, names_in, parse_extraction
from agent.episodes import day_text, sessions_of_day
from agent.language import message_language
from agent.providers.base import CallStopped, ChatModel, ProviderError
from managers.chat_log import LogEntry
from managers.entities import (APPLIED, OFFERED, PENDING, EntityError, EntityProposal, EntityStore, ProposalStore,
                               proposal_id)
from managers.episodes import EpisodeStore
from persona.episodes_job import JobTally, day_digest, days_of, users_part_kept

log = logging.getLogger(__name__)


def apply_offered(entities: EntityStore, proposals: ProposalStore, now: datetime, tally: JobTally,
                  untold_too: bool = False) -> None:
    """Append the facts of every proposal told and not rejected (dated lines; a fact the page
    holds already is left out), and mark it applied; with `untold_too`, the earlier nights' ones not
    told as well (the embedded model is not told them: see constants.PROMPT_BUDGETS)."""
    statuses = (OFFERED, PENDING) if untold_too else (OFFERED,)
    for proposal in proposals.with_status(*statuses):
        if proposal.status == PENDING and proposal.created_at[:10] >= now.date().isoformat():
            continue  # this night's own (a resumed night): told, or applied, from the next one on
        lines = "\n".join(f"- [{proposal.day}] {fact}" for fact in proposal.facts)
        try:
            page, added = entities.append(proposal.name, lines, now, proposal.kind)
        except EntityError as exc:
            tally.problems.append(f"entity {proposal.name}: {exc}")
            continue
        proposals.mark([proposal.id], APPLIED, now, only_from=statuses)
        if added:
            tally.written.append(f"entity {page.name}")
    proposals.prune(now.date())


def _related_lines(day: date, entries: Sequence[LogEntry], name: str) -> tuple[str, ...]:
    """The day's messages that name the entity: the memories the proposal came from."""
    cut = constants.ENTITY_PROPOSAL_MEMORY_CHARS
    found = [f"[{day.isoformat()}] {e.name}: {' '.join(e.text.split())[:cut]}" for e in entries
             if e.is_dialogue and names_in(e.text, [name])]
    return tuple(found[: constants.ENTITY_PROPOSAL_MEMORIES])


def propose_for_days(entries: Sequence[LogEntry], episodes: EpisodeStore, entities: EntityStore,
                     proposals: ProposalStore, model: ChatModel, *, persona: str, user_name: str, language_hint: str,
                     now: datetime, should_stop: Callable[[], bool], tally: JobTally) -> bool:
    """Ask the days that have an episode and were not asked (or changed since), newest first, at most
    ENTITY_DAYS_PER_RUN; False when stopped (the rest follows at the next idle moment)."""
    by_day = days_of(entries, now)
    asked = proposals.load().days_done
    with_episode = {date.fromisoformat(e.date) for e in episodes.all() if not e.deleted and len(e.date) == 10}
    todo = sorted((d for d in with_episode & set(by_day) if asked.get(d.isoformat()) != day_digest(by_day[d])),
                  reverse=True)
    known_all = entities.names()
    for day in todo[: constants.ENTITY_DAYS_PER_RUN]:
        if should_stop():
            return False
        day_entries = by_day[day]
        user_texts = [e.text for e in day_entries if e.role == "USER"]
        language = message_language(" ".join(user_texts[-3:]), user_texts, language_hint) or "en"
        dialogue = day_text(day, sessions_of_day(day_entries), constants.ENTITY_EXTRACT_LOG_CHARS)
        named = names_in(dialogue, known_all)
        known = (named + [n for n in known_all if n not in named])[: constants.ENTITY_KNOWN_NAMES_SHOWN]
        system, user = extraction_prompt(persona, user_name, day.isoformat(), dialogue.split("\n", 1)[-1], known,
                                         language)
        try:
            answer = tally.ask(model, system, user, extraction_schema(), constants.ENTITY_EXTRACT_MAX_TOKENS, should_stop)
        except CallStopped:
            return False
        except ProviderError as exc:
            tally.problems.append(f"entities {day}: {exc.user_message}")
            continue
        found = []
        for proposed in parse_extraction(answer, persona):
            if not names_in(dialogue, [proposed.name]):
                # a known name the day never said: the 1.5B model gave 健太 (Yui's brother) to a day he was not
                # in, as her 部長 (bench nights, session 24)
                log.info("Entity proposal for %r left out: the day %s does not name it", proposed.name, day)
                continue
            facts = tuple(f for f in (users_part_kept(fact, user_texts, user_name, language, persona=persona)
                                          for fact in proposed.facts) if f)
            if facts:
                found.append(EntityProposal(
                    id=proposal_id(day.isoformat(), proposed.name), day=day.isoformat(), name=proposed.name,
                    kind=proposed.kind, facts=facts, memories=_related_lines(day, day_entries, proposed.name),
                    created_at=now.isoformat(timespec="seconds")))
        proposals.add(day.isoformat(), day_digest(day_entries), found)
        if found:
            tally.written.append(f"entity proposals {day}: {', '.join(p.name for p in found)}")
    return True


def entities_step(entries: Sequence[LogEntry], episodes: EpisodeStore, entities: EntityStore,
                  proposals: ProposalStore, model: ChatModel, *, persona: str, user_name: str, language_hint: str,
                  now: datetime, should_stop: Callable[[], bool], tally: JobTally) -> bool:
    """The night's entity step: the proposals told since the last night applied, then the new days asked."""
    apply_offered(entities, proposals, now, tally, untold_too=not model.native_tools)
    return propose_for_days(entries, episodes, entities, proposals, model, persona=persona, user_name=user_name,
                            language_hint=language_hint, now=now, should_stop=should_stop, tally=tally)
