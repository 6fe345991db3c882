"""Entity memory v2 (seed 004 §4): the pure parts — which entities a message names, how the index,
a page and the night's proposals read in the prompt, and the sleep-time ask that proposes facts
(prompt, schema, parser). The pages themselves are managers/entities.py; the job is
persona/entities_job.py.
"""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Sequence

import constants
from agent.language import LANGUAGE_NAMES
from managers.entities import ENTITY_KINDS, EntityError, clean_entity_name, entity_key
from managers.lexical import LATIN_LETTERS

_WORD_CHAR = f"[0-9{LATIN_LETTERS}]"


def _named(message: str, name: str) -> bool:
    """Whether the (NFKC, case-folded) message holds the name: where the name starts or ends with a
    Latin letter or digit, not inside a longer word ("Ken" not in "Kenta"); CJK needs no boundary."""
    key = entity_key(name)
    if not key:
        return False
    before = f"(?<!{_WORD_CHAR})" if re.match(_WORD_CHAR, key) else ""
    after = f"(?!{_WORD_CHAR})" if re.search(f"{_WORD_CHAR}$", key) else ""
    return re.search(before + re.escape(key) + after, message) is not None


def names_in(message: str, names: Sequence[str]) -> list[str]:
    """The entity names the message names (exact name, case-insensitive), longest first, a name
    inside a longer named one left out ("モチ" when "モチ太郎" is named)."""
    text = " ".join(unicodedata.normalize("NFKC", message).casefold().split())
    found = sorted((n for n in names if _named(text, n)), key=lambda n: -len(entity_key(n)))
    kept: list[str] = []
    for name in found:
        if not any(entity_key(name) in entity_key(longer) for longer in kept):
            kept.append(name)
    return kept


def index_text(names: Sequence[str]) -> str:
    """The entity index as the prompt shows it (the names only; pages by tool or by name)."""
    return ", ".join(names)


def index_hint(with_tools: bool) -> str:
    return ("You keep a page about each of these; read one with read_entity_memory before you speak of it:"
            if with_tools else "You keep notes about each of these:")


def page_lines(name: str, kind: str, body: str) -> tuple[str, ...]:
    """A page for the turn's tail: a heading line, then its lines, newest last (whole lines fit the budget)."""
    lines = [line.strip() for line in body.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return (f"{name}{f' ({kind})' if kind else ''}:", *lines)


def proposal_head(name: str, kind: str) -> str:
    """How a proposal's line starts: a line cut to fit the prompt still says whose it is."""
    return f"- {name}{f' ({kind})' if kind else ''}: "


def proposal_line(name: str, kind: str, facts: Sequence[str]) -> str:
    return proposal_head(name, kind) + " ".join(facts)


def proposals_intro(with_tools: bool) -> str:
    """What the note of the night's proposals says before its lines (seed 004 §4: told once)."""
    if with_tools:
        return ("While you slept, these facts were noted for your entity pages. They are added tomorrow night "
                "unless you write the page yourself now (write_entity_memory) in your own words.")
    return "While you slept, these facts were noted for your entity pages:"


# --- the night's ask -----------------------------------------------------------------------
def extraction_schema() -> dict:
    """At most a few entities, each with a kind and a few facts (no length bounds: llama.cpp expands
    a repetition bound into grammar rules; the parser cuts)."""
    return {
        "type": "object",
        "properties": {"entities": {
            "type": "array", "maxItems": constants.ENTITY_PROPOSALS_PER_DAY,
            "items": {"type": "object", "properties": {
                "name": {"type": "string"},
                "kind": {"type": "string", "enum": list(ENTITY_KINDS)},
                "facts": {"type": "array", "minItems": 1, "maxItems": constants.ENTITY_FACTS_PER_PROPOSAL,
                          "items": {"type": "string"}},
            }, "required": ["name", "kind", "facts"]}}},
        "required": ["entities"],
    }


def extraction_prompt(persona: str, user_name: str, day: str, dialogue: str, known: Sequence[str],
                      language: str) -> tuple[str, str]:
    """(system, user) of the day's call: who and what the day's talk was about, as facts."""
    written = LANGUAGE_NAMES.get(language, "the language of the conversation")
    known_line = f" Pages you already keep: {', '.join(known)}; use these names for them." if known else ""
    system = (
        f"You keep {persona}'s notes about the people, places and things in {user_name}'s life. From the "
        f"conversation below, pick at most {constants.ENTITY_PROPOSALS_PER_DAY} people, places or things (a pet, "
        f"an object, a work) it tells concrete facts about, and write up to {constants.ENTITY_FACTS_PER_PROPOSAL} "
        f"short facts for each, in {written}, in the third person with names: who did what stays theirs "
        f"(what {user_name} did or owns is {user_name}'s, never {persona}'s). Only what the conversation says; "
        f"no feelings about the talk itself. Not {persona}.{known_line}")
    return system, f"Date: {day}\n{dialogue}"


@dataclass(frozen=True)
class ProposedEntity:
    name: str
    kind: str
    facts: tuple[str, ...]


def _short(fact: str) -> str:
    fact = " ".join(fact.split())
    if len(fact) <= constants.ENTITY_FACT_MAX_CHARS:
        return fact
    cut = fact[: constants.ENTITY_FACT_MAX_CHARS]
    end = max(cut.rfind(mark) for mark in ".。!！?？")
    return cut[: end + 1] if end > 0 else cut.rstrip() + "…"


def parse_extraction(answer: str, persona: str) -> list[ProposedEntity]:
    """The proposed entities: a usable name (not the persona's own), a kind of the three, the facts
    cut short and once each; [] for an answer that is no such JSON."""
    try:
        data = json.loads(answer)
    except json.JSONDecodeError:
        return []
    items = data.get("entities") if isinstance(data, dict) else None
    proposed: dict[str, ProposedEntity] = {}
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("facts"), list):
            continue
        try:
            name = clean_entity_name(str(item.get("name", "")).strip(" \"'「」『』"))
        except EntityError:
            continue
        if entity_key(name) == entity_key(persona) or entity_key(name) in proposed:
            continue
        facts: list[str] = []
        for fact in item["facts"]:
            fact = _short(fact) if isinstance(fact, str) else ""
            if fact and fact.casefold() not in (f.casefold() for f in facts):
                facts.append(fact)
        kind = item.get("kind") if item.get("kind") in ENTITY_KINDS else ""
        if facts:
            proposed[entity_key(name)] = ProposedEntity(name, kind, tuple(facts[: constants.ENTITY_FACTS_PER_PROPOSAL]))
    return list(proposed.values())[: constants.ENTITY_PROPOSALS_PER_DAY]
