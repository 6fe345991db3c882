"""`python nexus_ark.py bench budgets [--json]`: does the prompt stay within its budgets with two years of memories?

A persona is given what two years of use leave (bench/synthetic_history.py for the chat log and the
memories' text, the app's own stores to write them): a chat log of daily sittings ending in a long one
(so the history window overflows and the sitting's summary shows), daily episodes for the last
EPISODE_COMPRESS_AFTER_DAYS days and compressed weeks before them (as the night's compression
leaves them), 500 entity pages, goals, open questions, a dream diary of a night a week, and a core
memory and notepad far longer than their budgets. The memory index is built, then one turn per budget
family runs through the app's own turn (`NexusService.send`: retrieval, the turn graph,
`CharacterSession.compose_prompt`) with a scripted model of that family: local (the embedded model's
tokenizer when its file is there, no native tools) and remote (native tools). The query planner
runs by rules for both (the remote family's LLM planner changes which memories come, not their room).

Per section: tokens used against its budget (constants.PROMPT_BUDGETS), and what the section held
before it was cut (static sections); the reply reminder, which comes on top of "dynamic" by design,
and the framing (headings, joins), the chat template's tokens and the reply's room; the whole
against the model's context (constants.CONTEXT_TOKENS). Exit 1 when a section is over its budget or
prompt and reply do not fit the context.
"""
from __future__ import annotations

import json
import logging
import random
import shutil
import sys
import tempfile
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Callable, Mapping, Sequence

import constants
from agent.providers.factory import max_reply_tokens
from bench.synthetic_history import seed_history, user_lines
from managers.conversation_summary import ConversationSummary, ConversationSummaryStore
from managers.dream_diary import DreamDiary, DreamEntry
from managers.episodes import Episode, EpisodeStore, episode_id
from managers.goals import LONG, SHORT, GoalStore, add_goal

log = logging.getLogger(__name__)

PERSONA, USER = "Ark", "Mina"
DAYS = 730
PER_DAY = 20
LAST_SITTING = 160  # messages of the last evening: more than the local history window holds
ENTITIES = 500
# The turn: a question that recalls, and names an entity with a page (its notes go to the tail).
QUESTION = "Do you remember what Ken Tanaka told me about the museum in Osaka last spring?"
END = datetime(2026, 11, 1, tzinfo=timezone.utc)  # the daily sittings end the evening before; the long one is this evening
# The turn: three minutes after the long sitting's last message (seed_history: 19:00, two minutes apart).
TURN_AT = END + timedelta(hours=19, minutes=2 * LAST_SITTING + 1)
FIRST_NAMES = ["Ken", "Yui", "Sam", "Maria", "Tom", "Aiko", "Leo", "Nina", "Raj", "Emma", "Hugo", "Sara", "Diego",
               "Lena", "Omar", "Kate", "Haruto", "Sakura", "Ivan", "Chloe", "Mateo", "Priya", "Jonas", "Mei", "Noah"]
FAMILY_NAMES = ["Tanaka", "Sato", "Suzuki", "Garcia", "Smith", "Müller", "Rossi", "Kim", "Nguyen", "Silva",
                "Ito", "Watanabe", "Brown", "Dubois", "Kowalski", "Yamamoto", "Novak", "Lopez", "Costa", "Hansen"]


# --- the accounting (pure; tests/unit/test_budgets_bench.py) ------------------------------------
@dataclass(frozen=True)
class SectionUse:
    name: str
    used: int
    budget: int | None  # None: no budget of its own (the message, the reminder)
    full: int | None = None  # what the section held before it was fitted (static sections)

    @property
    def over(self) -> bool:
        return self.budget is not None and self.used > self.budget


def account(section_tokens: Mapping[str, int], budgets: Mapping[str, int], full: Mapping[str, int],
            content_tokens: int, messages: int, tool_tokens: int, reply_tokens: int, context: int) -> dict:
    """The prompt's sections against their budgets, and the whole against the context: `content_tokens`
    (all messages' text), `messages` (their count, for the chat template's tokens per message, one more
    for the reply's opening), `tool_tokens` (native tool specs sent beside them), the reply's room."""
    sections = [SectionUse(name, used, budgets.get(name) if name in budgets else None, full.get(name))
                for name, used in section_tokens.items()]
    framing = content_tokens - sum(section_tokens.values())
    template = constants.CHAT_TEMPLATE_TOKENS_PER_MESSAGE * (messages + 1)
    total = content_tokens + template + tool_tokens
    over = [s.name for s in sections if s.over]
    fits = total + reply_tokens <= context
    # Were every section with a budget filled to it (a history window grown to its whole budget before
    # it restarts at half, a longer identity): what the same turn would need. Reported, not judged.
    at_budgets = total + sum(max(0, s.budget - s.used) for s in sections if s.budget is not None)
    return {"sections": [{"section": s.name, "used": s.used, "budget": s.budget, "full": s.full, "over": s.over}
                         for s in sections],
            "framing": framing, "chat_template": template, "tools": tool_tokens, "prompt_total": total,
            "reply_room": reply_tokens, "context": context, "fits_context": fits, "over_budget": over,
            "prompt_at_budgets": at_budgets, "fits_context_at_budgets": at_budgets + reply_tokens <= context,
            "ok": not over and fits}


# --- the persona ----------------------------------------------------------------------------------
class FixedClock:
    """The turn's moment, a second later at each reading (the log's ids stay in order)."""

    def __init__(self, start: datetime):
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def entity_names(count: int) -> list[str]:
    names = [f"{first} {family}" for family in FAMILY_NAMES for first in FIRST_NAMES]
    return names[:count]


def _text_of(rng: random.Random, least: int, japanese: bool) -> str:
    text = ""
    while len(text) < least:
        text += ("" if japanese else " ") + user_lines(rng, 1, japanese)[0]
    return text.strip()


def fill(service, rng: random.Random) -> None:
    """Two years of memories, written through the app's stores."""
    session = service.session(PERSONA)
    memory, files, now = session.character.memory_dir, session.files, END
    memory.mkdir(parents=True, exist_ok=True)
    seed_history(session.character.root / "logs", DAYS * PER_DAY, seed=7, user=USER, persona=PERSONA, end=END,
                 per_day=PER_DAY)
    seed_history(session.character.root / "logs", LAST_SITTING, seed=8, user=USER, persona=PERSONA,
                 end=END + timedelta(days=1), per_day=LAST_SITTING)
    session.chat_log.invalidate()
    # Episodes: the days of the last EPISODE_COMPRESS_AFTER_DAYS, and weeks (Monday–Sunday) before.
    first, last = (END - timedelta(days=DAYS)).date(), (END - timedelta(days=1)).date()  # tonight's is not written yet
    recent = last - timedelta(days=constants.EPISODE_COMPRESS_AFTER_DAYS)
    episodes, day = [], first
    while day <= last:
        if day >= recent:
            episodes.append(Episode(id=episode_id(day.isoformat()), date=day.isoformat(), arousal=0.4,
                                    arousal_max=round(rng.uniform(0.2, 0.9), 2), created_at=f"{day}T02:00:00",
                                    summary=_text_of(rng, constants.EPISODE_DAY_CHARS[0], day.day % 2 == 0)))
            day += timedelta(days=1)
            continue
        sunday = min(day + timedelta(days=6 - day.weekday()), recent - timedelta(days=1))
        span = f"{day.isoformat()}~{sunday.isoformat()}"
        episodes.append(Episode(id=episode_id(span), date=span, compressed=True, original_count=(sunday - day).days + 1,
                                arousal_avg=0.4, arousal_max=round(rng.uniform(0.2, 0.9), 2),
                                summary=_text_of(rng, constants.EPISODE_WEEK_CHARS[0], day.day % 2 == 0),
                                created_at=f"{sunday}T02:00:00"))
        day = sunday + timedelta(days=1)
    EpisodeStore(memory, files).put(episodes)
    for name in entity_names(ENTITIES):
        facts = "\n".join(f"- [{first + timedelta(days=rng.randrange(DAYS))}] {line}" for line in user_lines(rng, 6))
        session.entities.replace(name, facts, now, "person")
    goals = GoalStore(memory, files)
    for number in range(constants.GOAL_MAX_SHORT + 5):
        term = SHORT if number < constants.GOAL_MAX_SHORT else LONG
        goals.change(lambda g, n=number, t=term: add_goal(g, f"{_text_of(rng, 60, False)} ({n})", t, 1 + n % 5, now))
    session.questions().add([(_text_of(rng, 80, n % 2 == 0) + "?", "", rng.random())
                             for n in range(constants.OPEN_QUESTIONS_KEPT)], now)
    diary = DreamDiary(memory, files)
    for week in range(DAYS // 7):
        night = first + timedelta(days=7 * week + 6)
        diary.append(DreamEntry(created_at=f"{night} 03:00:00", trigger_topic=user_lines(rng, 1)[0][:40],
                                insight=_text_of(rng, 200, week % 2 == 0), strategy=f"Ask {USER} about "
                                + user_lines(rng, 1)[0].rstrip(".").lower() + " and listen closely, every evening.",
                                log_entry=_text_of(rng, 120, False), night=night.isoformat(), level=1))
    session.write("core_memory", "\n".join(f"- {line}" for line in user_lines(rng, 220)))
    session.write("notepad", "\n".join(f"- {line}" for line in user_lines(rng, 120, True)))
    sitting = [e for e in session.chat_log.recent(LAST_SITTING)]
    ConversationSummaryStore(memory, files).save(ConversationSummary(
        session_start_id=sitting[0].id, through_id=sitting[len(sitting) // 2].id, text=_text_of(rng, 560, False)))


# --- the turn -------------------------------------------------------------------------------------
def local_token_counter(model_path: Path | None) -> tuple[Callable[[str], int] | None, str]:
    """The embedded model's own tokenizer (its vocabulary only, no weights in a context), or None."""
    if model_path is None or not model_path.is_file():
        return None, f"estimate ({constants.CHARS_PER_TOKEN_ESTIMATE} characters a token; no model at {model_path})"
    try:
        from llama_cpp import Llama
    except ImportError:
        return None, "estimate (llama-cpp-python is not installed)"
    vocab = Llama(model_path=str(model_path), vocab_only=True, verbose=False)
    return (lambda text: len(vocab.tokenize(text.encode("utf-8"), add_bos=False, special=False)),
            f"the embedded model's tokenizer ({model_path.name})")


def measure_turn(data_dir: Path, family: str, count: Callable[[str], int] | None) -> dict:
    from agent.providers.fake import ScriptedChatModel, replies
    from persona.service import NexusService

    model = ScriptedChatModel(replies("Yes, I remember that."), budget_family=family, native_tools=family == "remote")
    if count is not None:
        model.count_tokens = count
    clock = FixedClock(TURN_AT)  # the evening's long sitting goes on
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model, after_turn_work=False)
    service.update_settings(user_name=USER, query_planner="rules")
    session = service.session(PERSONA)
    built = []
    compose = session.compose_prompt

    def capture(*args, **kwargs):  # the prompt the turn builds, as it builds it
        prompt = compose(*args, **kwargs)
        built.append(prompt)
        return prompt
    session.compose_prompt = capture
    errors = [e.text for e in service.send(PERSONA, QUESTION) if e.kind == "error"]
    messages, tools = model.calls[0] if model.calls else ((), ())
    service.close()
    service.memory_index(PERSONA).db.close()
    if not built or errors:
        raise RuntimeError(f"the {family} turn did not build a prompt: {errors}")
    prompt = built[0]
    window = prompt.history
    static = {s.name: (count or model.count_tokens)(s.text) for s in session.static_sections(model, USER, window)}
    count_of = count or model.count_tokens
    tool_tokens = count_of(json.dumps([t.as_openai_tool() for t in tools], ensure_ascii=False)) \
        if model.native_tools else 0
    result = account(prompt.section_tokens, constants.PROMPT_BUDGETS[family], static,
                     sum(count_of(m.content) for m in messages), len(messages), tool_tokens, max_reply_tokens(model),
                     constants.CONTEXT_TOKENS[family])
    return {"family": family, **result}


def run(model_path: Path | None) -> dict:
    from persona.service import NexusService

    with tempfile.TemporaryDirectory(prefix="budgets-bench-") as tmp:
        data = Path(tmp) / "data"
        service = NexusService(data, clock=FixedClock(END))
        service.update_settings(user_name=USER)
        fill(service, random.Random(5))
        service.update_memory_index(PERSONA)
        service.close()
        service.memory_index(PERSONA).db.close()  # the copies below take the database as it is on disk
        counter, counted_by = local_token_counter(model_path)
        families = {}
        for family in ("local", "remote"):
            copy = Path(tmp) / family
            shutil.copytree(data, copy)  # each family's turn on the same state
            families[family] = measure_turn(copy, family, counter if family == "local" else None)
        families["local"]["tokens_counted_by"] = counted_by
        families["remote"]["tokens_counted_by"] = f"estimate ({constants.CHARS_PER_TOKEN_ESTIMATE} characters a token, as the app's remote models)"
    return {"history": {"days": DAYS, "messages": DAYS * PER_DAY + LAST_SITTING, "entities": ENTITIES},
            "families": families, "ok": all(f["ok"] for f in families.values())}


def table(result: dict) -> str:
    out = []
    for family, r in result["families"].items():
        out.append(f"{family} (tokens: {r['tokens_counted_by']})")
        out.append(f"  {'section':<22} {'used':>6} {'budget':>7} {'before fitting':>15}")
        for s in r["sections"]:
            budget = "-" if s["budget"] is None else str(s["budget"])
            full = "" if s["full"] is None else str(s["full"])
            out.append(f"  {s['section']:<22} {s['used']:>6} {budget:>7} {full:>15}{'  OVER' if s['over'] else ''}")
        out.append(f"  {'framing (headings)':<22} {r['framing']:>6}")
        out.append(f"  {'chat template':<22} {r['chat_template']:>6}")
        if r["tools"]:
            out.append(f"  {'tool specs (native)':<22} {r['tools']:>6}")
        out.append(f"  {'prompt total':<22} {r['prompt_total']:>6}   + reply room {r['reply_room']} = "
                   f"{r['prompt_total'] + r['reply_room']} of a {r['context']}-token context"
                   f"{'' if r['fits_context'] else '  DOES NOT FIT'}")
        out.append(f"  {'every budget full':<22} {r['prompt_at_budgets']:>6}   + reply room = "
                   f"{r['prompt_at_budgets'] + r['reply_room']}{'' if r['fits_context_at_budgets'] else '  would not fit'}"
                   " (reported, not judged)")
        out.append("")
    out.append("ok" if result["ok"] else "FAILED: " + "; ".join(
        f"{f}: over {r['over_budget']}{'' if r['fits_context'] else ', over the context'}"
        for f, r in result["families"].items() if not r["ok"]))
    return "\n".join(out)


def main(args, model_path: Path | None = None) -> int:
    result = run(model_path)
    print(json.dumps(result, ensure_ascii=False) if args.json else table(result))
    if args.json:
        print(table(result), file=sys.stderr)
    return 0 if result["ok"] else 1
