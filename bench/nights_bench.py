"""`python nexus_ark.py bench nights FILE... [--days N] --out DIR [--from DIR] [--labels PATH] [--json]`

How good the night's products are (issue 20, "Measured"): a grammar guarantees JSON, not content.

FILE is a LoCoMo conversation (`speaker_a` the user, `speaker_b` the persona) or a multi-day
script in the conversation bench's format (`name`, `user_name`, `start`, `steps` of `user`,
`advance_hours`, `sleep`), whose user steps may carry the persona's reply as `"persona"`. The
file's talk is written to the chat log up front and the app's own night (`NexusService.sleep_now`:
episodes, diary, weeks, entities, dream) runs after each of its first N days (`--days`; a script's
`sleep` steps; bench/episodes_bench.py `run_nights`), on the embedded model unless the provider
flags name another. After each night the persona's memory folder is read and every field the
nights produced so far is kept (a daily episode a later night folds into a week is still seen).
Written: `DIR/<stem>-memory` (the memory folder) and `DIR/<stem>-fields.json` (every field with its
checks and its label, for reading and labelling).

`--from DIR/<stem>-memory` (or `--from DIR` for several files) scores an existing run offline (no model): the fields of
`DIR/<stem>-fields.json` beside it when there is one (this bench's own run), else those read from
the folder (an episodes bench run: each field is dated by the day it carries, and a week's days
are seen only as the week).

A field is a night's product: the day's episode (or a week), the diary entry, the dream's insight,
strategy, log entry and trigger topic, each goal added and each completion note, each open question
and the reflection's answer to one, each entity fact proposed or written. A night that wrote no
episode, diary entry or dream gives that field empty. Checked automatically: non-empty; in the
day's language (agent/language.py, as the night decides it: persona/episodes_job.py `day_language`);
drawn from the day (NIGHT_FIELD_MIN_OVERLAP of its content words, agent/memory_lines.py `terms`,
occur in the messages of the day(s) the night followed, speakers' names included).

Labels (`bench/data/night_labels.json`, a person's reading): each labelled field by (source, night,
field, text hash), `ok` or the failure kind (LABELS). Reported: per field kind the labelled pass
rate (target NIGHT_LABEL_TARGET), the automatic checks' rates, the agreement between the automatic
verdict and the labels, and how many fields have no label (a re-run with changed outputs). Beside them,
`prompt_checks_on_labels`: the app's checks of what goes into every prompt (the strategy, a new goal), run
now on every labelled text of the file, whichever run wrote it — how many of each label they let through.
"""
from __future__ import annotations

import hashlib
import json
import logging
import re
import tempfile
import unicodedata
from dataclasses import asdict, dataclass, replace
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

import constants
from agent.dream import goal_ok, misspelt_names, strategy_ok
from agent.language import message_language
from agent.memory_lines import terms
from agent.providers.base import ChatModel
from agent.sleep_schedule import night_of, parse_quiet_hours
from bench.conversation_bench import night_after
from bench.episodes_bench import NightDone, keep_memory, locomo_days, locomo_nights, night_after_day, run_nights
from bench.locomo_bench import load as load_locomo, session_keys, session_time, turn_text
from managers.chat_log import ChatLog
from managers.diaries import MAIN_DIARY, DiaryStore, entries_by_day
from managers.dream_diary import DreamDiary
from managers.entities import EntityStore, ProposalStore, fact_text
from managers.episodes import EpisodeStore
from managers.goals import LIMIT_REASON, STALE_REASON, GoalStore
from managers.open_questions import BY_REFLECTION, OpenQuestionStore
from managers.personas import other_names
from managers.store import CharacterFiles
from persona.episodes_job import day_language

log = logging.getLogger(__name__)

APP_DIR = Path(__file__).resolve().parent.parent
LABELS_FILE = APP_DIR / "bench" / "data" / "night_labels.json"
LABELS = ("ok", "empty", "wrong_language", "not_from_day", "misattributed", "not_about_user")
NIGHT_LABEL_TARGET = 95.0  # the target: ≥ 95 % of a kind's labelled fields ok
# The fields a night always makes (a night without one of them made it empty); the strategy may be
# rejected by its check, but the model was asked for one.
EXPECTED_EACH_NIGHT = ("episode", "diary", "dream_insight", "dream_strategy", "dream_log_entry", "dream_trigger_topic")
SCRIPT_REPLY_SECONDS = 30  # a script's persona reply is logged this long after the user's message


# --- the source: the talk, its days and the nights after them --------------------------------
@dataclass(frozen=True)
class Message:
    at: datetime
    role: str  # "USER" | "AGENT"
    text: str


@dataclass(frozen=True)
class Source:
    name: str  # the file's stem: the labels' `source`
    kind: str  # "locomo" | "script"
    user_name: str
    persona_name: str  # LoCoMo's speaker_b; a script's persona is the bundled one
    messages: tuple[Message, ...]
    nights: tuple[tuple[date, datetime], ...]  # (the session day, the night after it)
    path: Path = Path()


def load_source(path: Path, days: int | None = None) -> Source:
    """A LoCoMo file or a multi-day script, its nights cut to the first `days`."""
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    source = _script_source(path, raw) if "steps" in raw else _locomo_source(path)
    return replace(source, nights=source.nights[:days]) if days else source


def _locomo_source(path: Path) -> Source:
    conv, _ = load_locomo(path)
    user = conv["speaker_a"]
    messages = []
    for key in session_keys(conv):  # the times locomo_bench.replay writes
        start = session_time(conv, key)
        messages += [Message(start + timedelta(seconds=30 * n), "USER" if turn["speaker"] == user else "AGENT",
                             turn_text(turn)) for n, turn in enumerate(conv[key])]
    return Source(Path(path).stem, "locomo", user, conv["speaker_b"], tuple(messages),
                  tuple((day, night_after_day(day)) for day in locomo_days(conv)), Path(path))


def _script_source(path: Path, script: dict) -> Source:
    """The script's talk on the conversation bench's clock (a user step every
    CONVERSATION_MINUTES_PER_TURN, `advance_hours`, a night at the first 02:00 after a `sleep`)."""
    start = datetime.fromisoformat(script["start"])
    if start.tzinfo is None:
        raise SystemExit(f"bench nights: {path}: start {script['start']!r} has no time zone")
    cursor, messages, nights = start, [], []
    for index, step in enumerate(script["steps"]):
        if "user" in step:
            messages.append(Message(cursor, "USER", step["user"]))
            if step.get("persona"):
                messages.append(Message(cursor + timedelta(seconds=SCRIPT_REPLY_SECONDS), "AGENT", step["persona"]))
            cursor += timedelta(minutes=constants.CONVERSATION_MINUTES_PER_TURN)
        elif "advance_hours" in step:
            cursor += timedelta(hours=float(step["advance_hours"]))
        elif step.get("sleep"):
            if messages and (not nights or messages[-1].at.date() > nights[-1][0]):
                nights.append((messages[-1].at.date(), night_after(cursor)))
        else:  # filler is LoCoMo's English talk: a Japanese script's day would be mixed
            raise SystemExit(f"bench nights: {path}: step {index} is none of user / advance_hours / sleep: {step}")
    return Source(Path(path).stem, "script", script["user_name"], constants.CONVERSATION_PERSONA, tuple(messages),
                  tuple(nights), Path(path))


@dataclass(frozen=True)
class DayLog:
    day: date
    language: str
    text: str  # "Speaker: message" lines


def day_logs(source: Source) -> dict[date, DayLog]:
    """The talk by the day it was said on (the source's own clock), with the day's language as the
    night decides it."""
    by_day: dict[date, list[Message]] = {}
    for message in source.messages:
        by_day.setdefault(message.at.date(), []).append(message)
    logs = {}
    for day, messages in by_day.items():
        users = [m.text for m in messages if m.role == "USER"]
        lines = [f"{source.user_name if m.role == 'USER' else source.persona_name}: {m.text}" for m in messages]
        logs[day] = DayLog(day, day_language(users, ""), "\n".join(lines))
    return logs


# --- the fields ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class NightField:
    source: str
    night: str  # the session day (ISO) the night followed; a week: its last day
    field: str  # the kind: "episode", "diary", "dream_insight", …
    text: str
    note: str = ""  # e.g. "rejected by its check" for a strategy that did not go into the prompt

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.source, self.night, self.field, text_hash(self.text))


def text_hash(text: str) -> str:
    """A field's text as the labels know it: NFKC, whitespace runs as one space."""
    return hashlib.sha256(" ".join(unicodedata.normalize("NFKC", text).split()).encode("utf-8")).hexdigest()[:12]


def _stamp_night(stamp: str, nights: dict[str, str]) -> str:
    """The session day of the night a store's timestamp was written in ("" when none)."""
    try:
        when = datetime.fromisoformat(stamp.replace(" ", "T"))
    except ValueError:
        return ""
    return nights.get(night_of(when, parse_quiet_hours(constants.DEFAULT_QUIET_HOURS)).isoformat(), "")


def night_days(source: Source) -> dict[str, str]:
    """The night's date (agent/sleep_schedule.py `night_of`, as the stores write it) -> its session day."""
    hours = parse_quiet_hours(constants.DEFAULT_QUIET_HOURS)
    return {night_of(night, hours).isoformat(): day.isoformat() for day, night in source.nights}


def fields_of(memory_dir: Path, source: Source) -> list[NightField]:
    """Every field the nights wrote into `memory_dir`, each dated by the night it came from."""
    files = CharacterFiles(memory_dir)
    nights = night_days(source)
    found: list[NightField] = []

    def add(night: str, kind: str, text: str, note: str = "") -> None:
        if night:
            found.append(NightField(source.name, night, kind, text.strip(), note))

    for episode in EpisodeStore(memory_dir, files).all():
        if episode.deleted or episode.is_milestone:
            continue
        if episode.is_daily:
            add(episode.date, "episode", episode.summary)
        else:
            add(_stamp_night(episode.created_at, nights) or episode.last_day, "week", episode.summary,
                f"{episode.first_day}~{episode.last_day}")
    for day, body in entries_by_day(DiaryStore(memory_dir, files).read(MAIN_DIARY)).items():
        add(day, "diary", body)
    for entry in DreamDiary(memory_dir, files).entries():
        night = nights.get(entry.night, "")
        if entry.source_question:  # Phase B: a resolved question filed as an insight
            add(night, "filed_insight", entry.insight)
            continue
        add(night, "dream_insight", entry.insight)
        add(night, "dream_strategy", entry.strategy or entry.strategy_rejected,
            "rejected by its check" if entry.strategy_rejected else "")
        add(night, "dream_log_entry", entry.log_entry)
        add(night, "dream_trigger_topic", entry.trigger_topic)
    goals = GoalStore(memory_dir, files).load()
    for goal in [*goals.short_term, *goals.long_term, *goals.completed, *goals.abandoned]:
        if goal.user_edited:
            continue
        add(_stamp_night(goal.created_at, nights), "goal", goal.goal)
        if goal.completion_note:
            add(_stamp_night(goal.completed_at, nights), "goal_update", goal.completion_note, "completed")
        if goal.reason and goal.reason not in (STALE_REASON, LIMIT_REASON, "—"):  # the app's own words
            add(_stamp_night(goal.abandoned_at, nights), "goal_update", goal.reason, "abandoned")
    for question in OpenQuestionStore(memory_dir, files).all():
        if question.deleted:
            continue
        add(question.source_date if question.source_date in nights.values() else
            _stamp_night(question.created_at, nights), "question", question.text)
        if question.resolved and question.resolved_by == BY_REFLECTION:
            add(_stamp_night(question.resolved_at, nights), "question_resolution", question.resolution)
    proposed: set[tuple[str, str]] = set()
    for proposal in ProposalStore(memory_dir, files).load().proposals:
        for fact in proposal.facts:
            proposed.add((proposal.name.casefold(), fact_text(fact)))
            add(proposal.day, "entity_proposal", f"{proposal.name}: {fact}")
    for page in EntityStore(memory_dir, files).pages():
        for line in page.body.splitlines():
            dated = re.match(r"^\s*[-*・]\s*\[(\d{4}-\d{2}-\d{2})\]\s*(.+)$", line)
            if dated and (page.name.casefold(), fact_text(line)) not in proposed:  # the dream's own entity notes
                add(dated.group(1), "entity_fact", f"{page.name}: {dated.group(2)}")
    return found


def with_missing(fields: Iterable[NightField], source: Source) -> list[NightField]:
    """`fields` and, for each night that made none of an EXPECTED_EACH_NIGHT kind, that field empty."""
    fields = list(fields)
    made = {(f.night, f.field) for f in fields}
    for day, _ in source.nights:
        fields += [NightField(source.name, day.isoformat(), kind, "") for kind in EXPECTED_EACH_NIGHT
                   if (day.isoformat(), kind) not in made]
    return fields


def _entity_fact_key(field: NightField) -> tuple[str, str, str]:
    name, _, fact = field.text.partition(": ")
    return (field.night, name.casefold(), fact_text(fact))


def union(*snapshots: Iterable[NightField]) -> list[NightField]:
    """The fields of every snapshot, each once (by its key), in the order first seen; a page's fact
    that a proposal of any snapshot made is that proposal (applied the next night, pruned later)."""
    seen: dict[tuple, NightField] = {}
    for snapshot in snapshots:
        for field in snapshot:
            seen.setdefault(field.key, field)
    proposed = {_entity_fact_key(f) for f in seen.values() if f.field == "entity_proposal"}
    return [f for f in seen.values() if not (f.field == "entity_fact" and _entity_fact_key(f) in proposed)]


# --- the automatic checks -------------------------------------------------------------------------
@dataclass(frozen=True)
class Checked:
    field: NightField
    non_empty: bool
    language: str  # the field's, "" when it cannot be told
    day_language: str
    language_ok: bool
    overlap: float  # the share of the field's content words found in the day's messages
    overlap_ok: bool

    @property
    def auto_ok(self) -> bool:
        return self.non_empty and self.language_ok and self.overlap_ok


def reference_days(field: NightField, source: Source) -> list[date]:
    """The days a field is checked against: the night's day; a week's, the session days it spans."""
    if field.field == "week" and "~" in field.note:
        first, last = (date.fromisoformat(d) for d in field.note.split("~"))
        return [d for d, _ in source.nights if first <= d <= last]
    return [date.fromisoformat(field.night)]


def check(field: NightField, logs: dict[date, DayLog], source: Source,
          min_overlap: float = constants.NIGHT_FIELD_MIN_OVERLAP) -> Checked:
    """The three automatic checks of one field against its day's log."""
    days = [logs[d] for d in reference_days(field, source) if d in logs]
    language = days[-1].language if days else ""
    text = field.text.strip()
    said_in = message_language(text) if text else ""
    wanted = terms(text)
    shared = wanted & terms("\n".join(d.text for d in days)) if wanted else set()
    overlap = len(shared) / len(wanted) if wanted else 0.0
    return Checked(field, bool(text), said_in, language, bool(text) and (not said_in or said_in == language),
                   round(overlap, 3), bool(text) and overlap >= min_overlap)


# --- the labels ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Label:
    source: str
    night: str
    field: str
    hash: str
    label: str
    reason: str = ""
    text: str = ""

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.source, self.night, self.field, self.hash)


def load_labels(path: Path) -> dict[tuple, Label]:
    """The labels by key; an unknown label or a key given twice is an error (a typo would be a silent miss)."""
    if not Path(path).exists():
        return {}
    records = json.loads(Path(path).read_text(encoding="utf-8")).get("labels", [])
    labels: dict[tuple, Label] = {}
    for record in records:
        label = Label(**{k: record[k] for k in ("source", "night", "field", "hash", "label")},
                      reason=record.get("reason", ""), text=record.get("text", ""))
        if label.label not in LABELS:
            raise ValueError(f"{path}: label {label.label!r} is none of {', '.join(LABELS)} ({label.key})")
        if label.key in labels:
            raise ValueError(f"{path}: two labels for {label.key}")
        labels[label.key] = label
    return labels


def label_record(field: NightField, label: str, reason: str) -> dict:
    """A labels-file record for `field` (how the labeller writes one)."""
    if label not in LABELS:
        raise ValueError(f"label {label!r} is none of {', '.join(LABELS)}")
    return {"source": field.source, "night": field.night, "field": field.field, "hash": text_hash(field.text),
            "text": field.text, "label": label, "reason": reason}


def _rate(hits: int, total: int) -> float | None:
    return round(100 * hits / total, 1) if total else None


def score(checked: Sequence[Checked], labels: dict[tuple, Label], sources: Sequence[str] | None = None) -> dict:
    """The report: the automatic checks' rates and the labelled pass rate per field kind, the
    agreement of the two, and the fields without a label (and labels of these sources without a field)."""
    kinds = sorted({c.field.field for c in checked})
    auto = {}
    for kind in kinds + ["all"]:
        group = [c for c in checked if kind in ("all", c.field.field)]
        auto[kind] = {"fields": len(group), "non_empty": _rate(sum(c.non_empty for c in group), len(group)),
                      "language": _rate(sum(c.language_ok for c in group), len(group)),
                      "overlap": _rate(sum(c.overlap_ok for c in group), len(group)),
                      "auto_ok": _rate(sum(c.auto_ok for c in group), len(group))}
    matched = [(c, labels[c.field.key]) for c in checked if c.field.key in labels]
    keys = {c.field.key for c in checked}
    named = set(sources) if sources is not None else {c.field.source for c in checked}
    stale = [l for l in labels.values() if l.source in named and l.key not in keys]
    by_label = {}
    for kind in kinds + ["all"]:
        group = [(c, l) for c, l in matched if kind in ("all", c.field.field)]
        failures: dict[str, int] = {}
        for _, l in group:
            if l.label != "ok":
                failures[l.label] = failures.get(l.label, 0) + 1
        ok = _rate(sum(l.label == "ok" for _, l in group), len(group))
        by_label[kind] = {"labelled": len(group), "ok": ok, "failures": failures,
                          "meets_target": None if ok is None else ok >= NIGHT_LABEL_TARGET}
    agreement = {
        "labelled": len(matched),
        "agree": _rate(sum(c.auto_ok == (l.label == "ok") for c, l in matched), len(matched)),
        "auto_ok_label_not": sum(c.auto_ok and l.label != "ok" for c, l in matched),
        "auto_not_label_ok": sum(not c.auto_ok and l.label == "ok" for c, l in matched),
        # each check against the failure it stands for
        "empty_check": _agree(matched, lambda c: not c.non_empty, lambda l: l.label == "empty"),
        "language_check": _agree(matched, lambda c: c.non_empty and not c.language_ok,
                                 lambda l: l.label == "wrong_language"),
        "overlap_check": _agree(matched, lambda c: c.non_empty and not c.overlap_ok,
                                lambda l: l.label == "not_from_day"),
    }
    return {"fields": len(checked), "automatic": auto,
            "labels": {"matched": len(matched), "unlabelled": len(checked) - len(matched), "stale": len(stale),
                       "target_ok_percent": NIGHT_LABEL_TARGET, "by_kind": by_label},
            "agreement": agreement}


def _agree(matched, says_bad: Callable[[Checked], bool], is_bad: Callable[[Label], bool]) -> dict:
    """How one check's flags meet the labels' failure of its kind: both, only the check, only the label."""
    return {"both": sum(says_bad(c) and is_bad(l) for c, l in matched),
            "check_only": sum(says_bad(c) and not is_bad(l) for c, l in matched),
            "label_only": sum(not says_bad(c) and is_bad(l) for c, l in matched)}


def prompt_checks_on_labels(source: Source, labels: dict[tuple, Label]) -> dict:
    """What a night may put into every prompt — the strategy (agent/dream.py `strategy_ok`) and a new goal
    (`goal_ok`) — judged now, offline, on every labelled text of `source`: per label, how many the checks let
    through. Every run's labels count, so a change to a check is judged on all that earlier nights wrote. The
    user's messages up to the label's night stand for the words the dream was shown; the copy-of-the-days
    test is not judged (the ask's lines are not kept with the labels)."""
    settings = APP_DIR / "characters" / source.persona_name / "character.json"
    display = json.loads(settings.read_text(encoding="utf-8")).get("display_name", "") if settings.exists() else ""
    persona_names = (source.persona_name, *other_names(source.persona_name, display))
    logs, seen, tally = day_logs(source), set(), {}
    for label in labels.values():
        if label.source != source.name or label.field not in ("dream_strategy", "goal") or not label.text.strip() \
                or (label.field, label.text) in seen:
            continue
        seen.add((label.field, label.text))
        night = date.fromisoformat(label.night)
        theirs = [m.text for m in source.messages if m.role == "USER" and m.at.date() <= night]
        language = logs[night].language if night in logs else day_language(theirs, "")
        names = (*persona_names, *misspelt_names(label.text, persona_names, "\n".join(theirs)))
        taken = (strategy_ok(label.text, language, source.user_name, "", theirs, names) if label.field == "dream_strategy"
                 else goal_ok(label.text, source.user_name, theirs, language, names))
        counts = tally.setdefault(label.field, {}).setdefault(label.label, {"labelled": 0, "taken": 0})
        counts["labelled"] += 1
        counts["taken"] += taken
    return tally


# --- running ---------------------------------------------------------------------------------------
def script_nights(source: Source, model: ChatModel, work: Path) -> Iterator[NightDone]:
    """A script's talk written to the bundled persona's chat log at its own times, then its nights."""
    from persona.service import NexusService

    service = NexusService(work / "data", model_factory=lambda s, k, p: model)
    try:
        service.update_settings(user_name=source.user_name, temperature=0.0, seed=0)
        persona = source.persona_name
        session = service.session(persona)
        clock = {"t": source.messages[0].at if source.messages else datetime.now().astimezone()}
        chat_log = ChatLog(session.character.root / "logs", lambda: clock["t"])
        for message in source.messages:
            clock["t"] = message.at
            chat_log.append(message.role, source.user_name if message.role == "USER" else session.character.name,
                            message.text)
        session.chat_log.invalidate()
        yield from run_nights(service, persona, list(source.nights))
    finally:
        service.close()


def _fields_path(memory_dir: Path) -> Path:
    stem = memory_dir.name.removesuffix("-memory")
    return memory_dir.parent / f"{stem}-fields.json"


def write_fields(path: Path, checked: Sequence[Checked], labels: dict[tuple, Label], extra: dict) -> None:
    records = []
    for c in checked:
        label = labels.get(c.field.key)
        records.append({**asdict(c.field), "hash": text_hash(c.field.text), "language": c.language,
                        "day_language": c.day_language, "overlap": c.overlap, "auto_ok": c.auto_ok,
                        "label": label.label if label else None, "reason": label.reason if label else None})
    path.write_text(json.dumps({**extra, "fields": records}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def read_fields(path: Path) -> tuple[list[NightField], dict]:
    """A fields file's fields, and what else its run recorded (the nights' timings)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    records = data["fields"] or data.get("fields_so_far", [])  # a run stopped half-way: the nights it did
    fields = [NightField(f["source"], f["night"], f["field"], f["text"], f.get("note", "")) for f in records]
    return fields, {k: v for k, v in data.items() if k not in ("fields", "fields_so_far", "source")}


def run_live(source: Source, model: ChatModel, out_dir: Path) -> tuple[list[NightField], dict]:
    """Replay the source with its nights; every field of every night, and the nights' timings. After
    each night the memory folder and the fields so far are written (DIR/<stem>-memory,
    DIR/<stem>-fields.json), so a run stopped half-way is scored with `--from` on the nights it did."""
    snapshots, nights, so_far = [], [], {"nights": [], "wall_s": 0.0}
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="nights-bench-") as tmp:
        replayed = (locomo_nights(str(source.path), model, Path(tmp), len(source.nights))
                    if source.kind == "locomo" else script_nights(source, model, Path(tmp)))
        for done in replayed:
            snapshots.append(fields_of(done.memory_dir, source))
            nights.append({"day": done.day.isoformat(), "seconds": round(done.seconds, 1),
                           "model_calls": done.report.model_calls, "problems": list(done.report.problems)})
            log.info("%s night after %s: %.0f s, %d calls, %s", source.name, done.day, done.seconds,
                     done.report.model_calls, "; ".join(done.report.problems) or "no problems")
            keep_memory(done.memory_dir, out_dir / f"{source.name}-memory")
            so_far = {"nights": nights, "wall_s": round(sum(n["seconds"] for n in nights), 1)}
            write_fields(out_dir / f"{source.name}-fields.json", [], {},
                         {"source": source.name, **so_far, "fields_so_far": [asdict(f) for f in union(*snapshots)]})
    return union(*snapshots), so_far


def evaluate(path: Path, days: int | None, out_dir: Path, labels_path: Path, model_factory: Callable[[], ChatModel],
             from_dir: Path | None = None) -> dict:
    """One source, run (or read `from_dir`), checked, labelled; its fields file written."""
    source = load_source(path, days)
    extra: dict = {}
    if from_dir is None:
        fields, extra = run_live(source, model_factory(), out_dir)
    elif _fields_path(from_dir).exists():
        log.info("Reading the fields of %s (this bench's run)", _fields_path(from_dir))
        fields, extra = read_fields(_fields_path(from_dir))
    else:
        fields = fields_of(from_dir, source)
    if from_dir is not None:  # the nights that ran: as recorded, else up to the last one that wrote something
        ran = ({n["day"] for n in extra["nights"]} if "nights" in extra else
               {d.isoformat() for d, _ in source.nights if d.isoformat() <= max((f.night for f in fields), default="")})
        source = replace(source, nights=tuple(n for n in source.nights if n[0].isoformat() in ran))
    wanted = {d.isoformat() for d, _ in source.nights}
    fields = [f for f in with_missing(fields, source) if f.night in wanted]
    logs = day_logs(source)
    checked = [check(f, logs, source) for f in sorted(fields, key=lambda f: (f.night, f.field))]
    labels = load_labels(labels_path)
    out_dir.mkdir(parents=True, exist_ok=True)
    write_fields(out_dir / f"{source.name}-fields.json", checked, labels, {"source": source.name, **extra})
    return {"checked": checked, "labels": labels, "extra": extra, "prompt_checks": prompt_checks_on_labels(source, labels)}


def memory_folder(from_dir: Path, path: Path) -> Path:
    """`--from`: the file's run folder itself (DIR/<stem>-memory), or the folder that holds it (DIR)."""
    return from_dir if from_dir.name == f"{Path(path).stem}-memory" else from_dir / f"{Path(path).stem}-memory"


def main(args, model_path: Path, chosen=None) -> int:
    from bench.provider_choice import default_bench_model

    if not args.files or not (args.out or args.from_dir):
        raise SystemExit("bench nights: give LoCoMo files or multi-day scripts, and --out DIR (or --from DIR)")
    from_dir = Path(args.from_dir) if args.from_dir else None
    labels_path = Path(args.labels) if args.labels else LABELS_FILE
    model: list[ChatModel] = []

    def model_factory() -> ChatModel:  # loaded once, and only for a run
        if not model:
            model.append((chosen or default_bench_model()).create(model_path))
        return model[0]

    checked, labels, results = [], {}, {}
    for path in args.files:
        memory = memory_folder(from_dir, Path(path)) if from_dir is not None else None
        if memory is not None and not memory.is_dir():
            raise SystemExit(f"bench nights: no run folder {memory} for {path}")
        out_dir = Path(args.out) if args.out else memory.parent
        outcome = evaluate(Path(path), args.days or None, out_dir, labels_path, model_factory, memory)
        checked += outcome["checked"]
        labels = outcome["labels"]
        results[Path(path).stem] = {**score(outcome["checked"], labels), **outcome["extra"],
                                    "prompt_checks_on_labels": outcome["prompt_checks"]}
    report = {"sources": results, "all": score(checked, labels, [Path(p).stem for p in args.files])}
    print(json.dumps(report, ensure_ascii=False) if args.json else json.dumps(report, ensure_ascii=False, indent=1))
    return 0
