"""Sleep-time job: the finished days of the log told as the persona's episodes (seed 004 §3).

Reads the chat log, asks the model for each day (agent/episodes.py: the user's part — on the
embedded model two ways, the answer keeping more of the day kept — then the persona's own part),
checks the answers, keeps the user's part the user's, and writes the day's session arousal
(`memory/session_arousal.json`) and then its episode (managers/episodes.py), which marks the day done. Each day is one step: a day done
is never redone unless its log changed after (its digest), so a stop or crash half-way resumes
where it was. A day longer than the model's context is asked in parts and the parts' summaries
told as one; the parts' answers are kept (`episode_parts_pending.json`) until the day's episode is
written, so a stop or crash between them asks only the rest again, and the day still gets one episode.
"""
from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import cached_property, reduce
from pathlib import Path
from typing import Callable, Sequence

import constants
from agent import role, sentences
from agent.episodes import (DAY_WAYS, WEEK_SCHEMA, DaySession, DaySummary, day_prompt, episode_schema, forced_least,
                            dated_text, keeping_most_anew, merge_prompt, own_day_prompt, parse_day, parse_summary, parse_week, part_key,
                            sessions_of_day, split_day, summary_schema, week_prompt, weeks_to_compress, within,
                            own_life, without_quotes, without_talk_of_the_ask, words_of)
from agent.language import message_language
from agent.providers.base import CallStopped, ChatModel, ProviderError
from agent.sleep_schedule import days_to_summarise
from managers.chat_log import LogEntry
from managers.episodes import Episode, EpisodeStore, PendingDay, PendingParts, daily_episode, episode_id, is_starred
from managers.store import PendingFile, atomic_write_text, file_lock

log = logging.getLogger(__name__)

SESSION_AROUSAL_FILE = "session_arousal.json"
OWN_KEY = "own:"  # the persona's own part's answer among the day's kept answers


@dataclass
class JobTally:
    """What a job did, for the night's report."""
    written: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    model_calls: int = 0
    prompt_tokens: int = 0
    output_tokens: int = 0
    on_ask: Callable[[int], None] | None = None  # told each call's number as it starts: the page's progress moves

    def ask(self, model: ChatModel, system: str, user: str, schema: dict, max_tokens: int,
            should_stop: Callable[[], bool]) -> str:
        """One counted JSON call (CallStopped and ProviderError go to the caller)."""
        self.model_calls += 1
        if self.on_ask is not None:
            self.on_ask(self.model_calls)
        self.prompt_tokens += model.count_tokens(system) + model.count_tokens(user)
        answer = model.complete_json(system, user, schema, max_tokens, should_stop)
        self.output_tokens += model.count_tokens(answer)
        return answer


def ask_tallied(model: ChatModel, system: str, user: str, schema: dict, max_tokens: int,
                should_stop: Callable[[], bool], tally: JobTally, what: str) -> str | None:
    """One long JSON ask of a night's job, counted in `tally`; None when the provider failed (the
    problem reported as `what`'s). A reply that needs the model raises CallStopped."""
    try:
        return tally.ask(model, system, user, schema, max_tokens, should_stop)
    except ProviderError as exc:
        tally.problems.append(f"{what}: {exc.user_message}")
        return None


def day_digest(entries: Sequence[LogEntry]) -> str:
    """What a day's dialogue is now: an edit or a late message changes it."""
    text = "\n".join(f"{e.id}|{e.role}|{e.text}" for e in entries if e.is_dialogue)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def days_of(entries: Sequence[LogEntry], now: datetime) -> dict[date, list[LogEntry]]:
    """The dialogue by the user's local day (the time zone of `now`): a sitting belongs to the day
    it began on (one past midnight stays with its evening), and a day the user said nothing on
    (only the persona's unanswered messages) makes none."""
    days: dict[date, list[LogEntry]] = {}
    timed = sorted((e for e in entries if e.ts is not None), key=lambda e: e.ts)  # an import may be out of order
    for session in sessions_of_day(timed):  # the whole log's sittings, cut at long pauses
        day = session.start.astimezone(now.tzinfo).date()
        days.setdefault(day, []).extend(session.entries)
    return {day: talk for day, talk in days.items() if any(e.role == "USER" for e in talk)}


def day_language(user_texts: Sequence[str], language_hint: str) -> str:
    """The language a day was spoken in: the user's last messages', the day's as a whole to decide."""
    return message_language(" ".join(user_texts[-3:]), user_texts, language_hint) or "en"


def users_part_kept(summary: str, user_texts: Sequence[str], user_name: str, language: str,
                    own_texts: Sequence[str] = (), persona: str = "", also_called: Sequence[str] = (),
                    or_said_to_you: bool = True) -> str:
    """The summary with every sentence that tells the user's facts as the persona's said back as
    the user's by name (Japanese 「ユイさんは…」), or left out where the only swap is "you" — a memory is
    read later by the persona, whom the prompt calls "you" ("You went camping with your kids" became
    the persona's camping again) — or where no plain swap reads right. `own_texts`: the persona's own
    words that day; a sentence they back is its own (both went camping) and stays. `persona`: its
    name, read as "I" (`role.persona_as_speaker`: "Ark mentioned that the kitchen is tiny"); such a
    sentence is said back with the user's name in its place; so is one by its other names (`also_called`).
    With nothing else left, the summary said to "you" (unless `or_said_to_you` is False: then "")."""
    kept, said_to_you = [], []
    names = tuple(n for n in (persona, *also_called) if n.strip())
    for sentence in sentences.split(summary):
        claim = reduce(lambda text, name: role.persona_as_speaker(text, name, language), names, sentence)
        if role.takes_users_part(claim, user_texts, (user_name,), language) and not (
                own_texts and role.takes_users_part(claim, own_texts, (), language)):
            by_name = reduce(lambda text, name: role.persona_as_user(text, name, user_name), names, sentence)
            said_back = (by_name if claim != sentence else role.as_users(sentence, language, user_name) or "")
            said_to_you.append(said_back)
            sentence = "" if role.says_you(said_back) else said_back
        else:
            said_to_you.append(sentence)
        kept.append(sentence)
    # nothing left but "you": that rather than nothing (a one-line diary entry of the user's day)
    return "".join(kept).strip() or ("".join(said_to_you).strip() if or_said_to_you else "")


def _prompt_limit(model: ChatModel) -> int:
    """Tokens a day's prompt may take: the model's context less the answer's room."""
    return constants.CONTEXT_TOKENS[model.budget_family] - constants.EPISODE_MAX_TOKENS


def _prompt_tokens(model: ChatModel, system: str, user: str) -> int:
    return model.count_tokens(system) + model.count_tokens(user) + constants.EPISODE_PROMPT_MARGIN_TOKENS


def _log_chars(sessions: Sequence[DaySession]) -> int:
    return sum(len(line) + 1 for s in sessions for line in s.lines)


class _NoRoom(Exception):
    """Not even the shortest form of a prompt fits the model's context."""


def _fitting(model: ChatModel, build: Callable[[int], tuple[str, str]], size: int) -> tuple[str, str]:
    """`build(size)`'s (system, user), `size` (characters of the text it cuts) shrunk until the
    prompt fits beside the answer: a part is packed by its lines' tokens counted one by one, and
    a message longer than a whole part is cut here."""
    limit = _prompt_limit(model)
    for _ in range(5):
        system, user = build(size)
        used = _prompt_tokens(model, system, user)
        if used <= limit:
            return system, user
        size = max(1, int(size * limit / used * 0.9))
    raise _NoRoom()


def _ask_part(model: ChatModel, persona: str, user_name: str, day: date, sessions: Sequence[DaySession],
              language: str, should_stop: Callable[[], bool], tally: JobTally, way: str) -> str:
    """The day prompt's answer for `sessions` (the whole day, or a part of it), asked `way`."""
    system, user = _fitting(model, lambda size: day_prompt(persona, user_name, day, sessions, language, size, way),
                            _log_chars(sessions))
    least = forced_least(language, sum(len(line) for s in sessions for line in s.lines))
    return tally.ask(model, system, user, episode_schema(len(sessions), least), constants.EPISODE_MAX_TOKENS,
                     should_stop)


def _unusable(day: date, answer: str, tally: JobTally, what: str = "") -> None:
    tally.problems.append(f"episode {day}: the model's answer{what} was not a usable summary")
    log.warning("No usable episode for %s%s: %r … %r", day, what, answer[:200], answer[-200:])


def _saved_answers(pending: PendingFile[PendingParts], day: date, digest: str) -> dict[str, str]:
    saved = pending.load()
    kept = saved.days.get(day.isoformat()) if saved else None
    return dict(kept.answers) if kept and kept.digest == digest else {}


def _keep_answer(pending: PendingFile[PendingParts], day: date, digest: str, key: str, answer: str) -> None:
    saved = pending.load() or PendingParts()
    kept = saved.days.get(day.isoformat())
    answers = {**(kept.answers if kept and kept.digest == digest else {}), key: answer}
    pending.save(PendingParts(days={**saved.days, day.isoformat(): PendingDay(digest=digest, answers=answers)}))


def _drop_pending(pending: PendingFile[PendingParts], keep: Callable[[str, PendingDay], bool]) -> None:
    """Only the days `keep` says; the file goes with the last."""
    saved = pending.load()
    if saved is None:
        return
    days = {day: kept for day, kept in saved.days.items() if keep(day, kept)}
    if not days:
        pending.clear()
    elif days != saved.days:
        pending.save(PendingParts(days=days))


@dataclass(frozen=True)
class _Day:
    """What a day's asks need."""
    day: date
    sessions: list[DaySession]
    user_texts: list[str]
    language: str
    digest: str

    @cached_property
    def lines(self) -> list[str]:
        """Every message of the day, both sides, as its asks show them."""
        return [line for s in self.sessions for line in s.lines]


def _tell_day(model: ChatModel, pending: PendingFile[PendingParts], persona: str, user_name: str, d: _Day,
              should_stop: Callable[[], bool], tally: JobTally) -> tuple[DaySummary, Sequence[DaySession]] | None:
    """The day's episode (the user's part kept the user's, quotes left out, within the seed's length)
    and the sessions it rates; None when the model's answer was not usable (reported). Two voices:
    the user's words first (one ask, or a long day in parts and merged), rating the sessions where
    the user spoke; then the persona's own words, told in its first person. Each answer is kept
    (`pending`) until the episode is written, so a stop or crash between them asks only the rest."""
    def told_anew(voice: str) -> str:  # neither the day's words again nor talk about the ask
        return without_talk_of_the_ask(without_quotes(voice, d.lines))
    def users_voice(summary: str, or_said_to_you: bool = True) -> str:
        return told_anew(users_part_kept(summary, d.user_texts, user_name, d.language, persona=persona,
                                         or_said_to_you=or_said_to_you))
    theirs = words_of(d.sessions, users=True)
    system, user = day_prompt(persona, user_name, d.day, theirs, d.language, _log_chars(theirs))
    if _prompt_tokens(model, system, user) > _prompt_limit(model):
        told = _tell_in_parts(model, pending, persona, user_name, d, theirs, system, users_voice, should_stop, tally)
    else:
        asked = _ask_kept(model, pending, persona, user_name, d, theirs, users_voice, should_stop, tally)
        told = (asked, theirs) if asked is not None else None
    if told is None:
        return None
    (users_day, ratings), rated = told
    mine = own_life(d.sessions, user_name, d.language)
    own = _own_part(model, pending, persona, user_name, d, mine, should_stop, tally)
    # what the persona told of itself, not its lines to the user ("I'm glad you enjoyed your pottery
    # class!" backed "I made a wobbly little bowl" as its own; bench conversation, session 21)
    own_texts = [line.removeprefix("- ") for s in mine for line in s.lines]
    voices = (users_day,
              told_anew(users_part_kept(own, d.user_texts, user_name, d.language, own_texts, persona)))
    summary = within("\n".join(filter(None, voices)), constants.EPISODE_DAY_CHARS[1])
    if not summary:
        _unusable(d.day, users_day, tally)
        return None
    return DaySummary(summary, ratings), rated


def _ask_kept(model: ChatModel, pending: PendingFile[PendingParts], persona: str, user_name: str, d: _Day,
              part: Sequence[DaySession], users_voice: Callable[..., str], should_stop: Callable[[], bool],
              tally: JobTally, number: str = "") -> tuple[str, tuple[float, ...]] | None:
    """A part of the user's words (or all of them) asked, or its answers kept from before: the summary
    (as `users_voice` keeps it) that keeps the most of the part — the ways asked are EPISODE_DAY_ASKS of
    DAY_WAYS; an answer left with nothing but "you" keeps nothing — and the first usable answer's
    ratings; None when no answer was usable (reported; the parts asked so far stay kept)."""
    saved = _saved_answers(pending, d.day, d.digest)
    told: list[str] = []
    ratings: tuple[float, ...] | None = None
    for way in DAY_WAYS[:constants.EPISODE_DAY_ASKS[model.budget_family]]:
        key = part_key(part) if way == DAY_WAYS[0] else f"{way}:{part_key(part)}"
        answer = saved.get(key)
        parsed = parse_day(answer, len(part)) if answer is not None else None
        if parsed is None:
            if should_stop():
                raise CallStopped()
            answer = _ask_part(model, persona, user_name, d.day, part, d.language, should_stop, tally, way)
            parsed = parse_day(answer, len(part))
            if parsed is None:
                log.warning("No usable episode for %s%s asked %s: %r", d.day, number, way, answer[:300])
                continue
            _keep_answer(pending, d.day, d.digest, key, answer)
        told.append(parsed.summary)
        if ratings is None:
            ratings = parsed.session_arousal
    if ratings is None:
        _unusable(d.day, answer or "", tally, number)
        return None
    material = "\n".join(line for s in part for line in s.lines)
    kept = [users_voice(summary, or_said_to_you=False) for summary in told]
    chosen = keeping_most_anew(kept, material, d.lines, (user_name, persona), d.language)
    # the same text but where nothing is left beside "you": then that, rather than nothing (users_part_kept)
    return kept[chosen] or users_voice(told[chosen]), ratings


def _own_part(model: ChatModel, pending: PendingFile[PendingParts], persona: str, user_name: str, d: _Day,
              mine: Sequence[DaySession], should_stop: Callable[[], bool], tally: JobTally) -> str:
    """What the persona did, felt or told of its own life that day (`mine`: its sentences that tell
    of it, `own_life`), in its first person; "" when it told too little or the answer was unusable
    (reported: the user's part still makes the episode). A long day's own words are cut to fit one ask."""
    if _log_chars(mine) < constants.EPISODE_OWN_MIN_CHARS:
        return ""
    key = OWN_KEY + part_key(mine)
    answer = _saved_answers(pending, d.day, d.digest).get(key)
    if answer is None:
        if should_stop():
            raise CallStopped()
        system, user = _fitting(model, lambda size: own_day_prompt(persona, user_name, d.day, mine, d.language, size),
                                _log_chars(mine))
        least = forced_least(d.language, _log_chars(mine)) // 2
        answer = tally.ask(model, system, user, summary_schema(least), constants.EPISODE_OWN_MAX_TOKENS, should_stop)
        _keep_answer(pending, d.day, d.digest, key, answer)
    own = parse_summary(answer)
    if not own:
        tally.problems.append(f"episode {d.day}: the model's answer for {persona}'s own part was not usable")
        log.warning("No usable own part for %s: %r", d.day, answer[:300])
    return own


def _tell_in_parts(model: ChatModel, pending: PendingFile[PendingParts], persona: str, user_name: str, d: _Day,
                   theirs: Sequence[DaySession], system: str, users_voice: Callable[..., str],
                   should_stop: Callable[[], bool], tally: JobTally) -> tuple[tuple[str, tuple[float, ...]], Sequence[DaySession]] | None:
    """The user's words of a day longer than the model's context (issue 19: an evening of 300
    messages, a day of imported history): each part asked as a day of its own, each answer kept
    (`pending`) until the episode is written, then one ask merges the parts' summaries. A session's
    arousal is its part's rating (the highest of its pieces' when it was cut)."""
    room = (_prompt_limit(model) - model.count_tokens(system) - model.count_tokens(f"Date: {d.day.isoformat()}")
            - constants.EPISODE_PROMPT_MARGIN_TOKENS)
    split = split_day(theirs, room, model.count_tokens, constants.EPISODE_DAY_PARTS_MAX,
                      constants.EPISODE_PART_MIN_FILL)
    if split.left_out:
        total = sum(len(s.lines) for s in theirs)
        log.warning("The day %s needs more than %d parts: its first %d of %d messages are left out of its episode",
                    d.day, constants.EPISODE_DAY_PARTS_MAX, split.left_out, total)
        tally.problems.append(f"episode {d.day}: a day too long to tell whole — its first {split.left_out} of "
                              f"{total} messages were left out (at most {constants.EPISODE_DAY_PARTS_MAX} parts)")
    notes: list[tuple[Sequence[DaySession], str, bool]] = []
    ratings: dict[int, float] = {}
    for number, part in enumerate(split.parts, 1):
        told = _ask_kept(model, pending, persona, user_name, d, part, users_voice, should_stop, tally,
                         f" for part {number} of {len(split.parts)}")
        if told is None:
            return None  # the parts asked so far are kept: the next run asks this one again
        summary, part_ratings = told
        for session, rating in zip(part, part_ratings):
            ratings[session.number] = max(ratings.get(session.number, 0.0), rating)
        notes.append((part, summary, is_starred(max(part_ratings, default=0.0))))
    merged = notes[0][1] if len(notes) == 1 else users_voice(_merge(model, persona, user_name, d, notes, should_stop,
                                                                     tally))
    rated = [s for s in theirs if s.number in ratings]
    return (merged, tuple(ratings[s.number] for s in rated)), rated


def _merge(model: ChatModel, persona: str, user_name: str, d: _Day, notes: list[tuple[Sequence[DaySession], str, bool]],
           should_stop: Callable[[], bool], tally: JobTally) -> str:
    """The parts' summaries told as one, by the model: a join would be k episodes one after the
    other, each opening the day again, cut to 1/k of the day's length each, a ★ part no longer
    than a routine one. Joined after all when the model's answer has no summary (reported): the
    parts' asks are not lost over one bad answer."""
    system, user = _fitting(model, lambda size: merge_prompt(persona, user_name, d.day, notes, d.language, size),
                            max(len(summary) for _, summary, _ in notes))
    least = forced_least(d.language, sum(len(summary) for _, summary, _ in notes))
    answer = tally.ask(model, system, user, summary_schema(least), constants.EPISODE_MAX_TOKENS, should_stop)
    merged = parse_summary(answer)
    if merged:
        return merged
    tally.problems.append(f"episode {d.day}: the model's merge of its {len(notes)} parts was not usable; "
                          f"their summaries were joined")
    log.warning("No usable merge for %s: %r", d.day, answer[:300])
    share = constants.EPISODE_DAY_CHARS[1] // len(notes)
    return "\n".join(within(summary, share) for _, summary, _ in notes)


def write_session_arousal(memory_dir: Path, day: date, sessions: Sequence[DaySession], arousal: Sequence[float]) -> None:
    """The day's sessions and their ratings, replacing that day's earlier ones."""
    path = memory_dir / SESSION_AROUSAL_FILE
    with file_lock(path):
        try:
            records = json.loads(path.read_text(encoding="utf-8")) if path.exists() else []
            records = records if isinstance(records, list) else []
        except (UnicodeDecodeError, ValueError):
            records = []  # an annotation only: rewritten from the episodes' own numbers
        records = [r for r in records if not (isinstance(r, dict) and r.get("date") == day.isoformat())]
        records += [{"date": day.isoformat(), "session": s.number, "start": s.start.isoformat(), "arousal": a}
                    for s, a in zip(sessions, arousal)]
        records.sort(key=lambda r: (str(r.get("date", "")), r.get("session", 0)))
        atomic_write_text(path, json.dumps(records, ensure_ascii=False, indent=1) + "\n")


def summarise_days(entries: Sequence[LogEntry], store: EpisodeStore, memory_dir: Path, model: ChatModel, *,
                   persona: str, user_name: str, language_hint: str, now: datetime,
                   should_stop: Callable[[], bool], tally: JobTally) -> bool:
    """Write the episodes of finished days that have none or changed since; False when stopped
    before all were done (the rest waits for the next idle moment)."""
    by_day = days_of(entries, now)
    digests = {d: day_digest(e) for d, e in by_day.items()}
    summarised: dict[date, str | None] = {}
    for episode in store.all():
        if episode.is_milestone:  # a moment of the day, not its summary
            continue
        first, last = date.fromisoformat(episode.first_day), date.fromisoformat(episode.last_day)
        if episode.compressed or episode.user_edited or episode.deleted:  # a week, the user's words or choice
            summarised.update({d: digests.get(d) for d in by_day if first <= d <= last})
        else:
            summarised[first] = episode.source_digest
    digests_by_name = {d.isoformat(): digest for d, digest in digests.items()}
    summarised_by_name = {d.isoformat(): digest for d, digest in summarised.items()}
    pending = store.pending_parts()
    # the parts kept of a day written since (a crash before they were dropped) or changed since go
    _drop_pending(pending, lambda day, kept: kept.digest == digests_by_name.get(day) != summarised_by_name.get(day))
    for day in days_to_summarise(now, set(by_day), summarised, digests, constants.EPISODE_DAYS_PER_RUN):
        if should_stop():
            return False
        day_entries = by_day[day]
        user_texts = [dated_text(e) for e in day_entries if e.role == "USER"]
        asked = _Day(day, sessions_of_day(day_entries), user_texts, day_language(user_texts, language_hint),
                     digests[day])
        try:
            told = _tell_day(model, pending, persona, user_name, asked, should_stop, tally)
        except CallStopped:
            return False
        except ProviderError as exc:
            tally.problems.append(f"episode {day}: {exc.user_message}")
            continue
        except _NoRoom:
            tally.problems.append(f"episode {day}: the day's prompt does not fit the model's context")
            continue
        if told is None:
            continue
        parsed, rated = told
        # The ratings first: the episode marks the day done, so a crash between the two writes redoes
        # the day (its ratings replaced) instead of leaving it without them (bench sleep-crash).
        write_session_arousal(memory_dir, day, rated, parsed.session_arousal)
        store.put([daily_episode(day.isoformat(), parsed.summary, now, arousal=parsed.arousal,
                                 arousal_max=parsed.arousal_max, source_digest=digests[day])])
        _drop_pending(pending, lambda name, kept: name != day.isoformat())
        tally.written.append(f"episode {day}")
    return True


def compress_weeks(store: EpisodeStore, model: ChatModel, *, persona: str, user_name: str, language_hint: str,
                   now: datetime, should_stop: Callable[[], bool], tally: JobTally) -> bool:
    """Daily episodes older than EPISODE_COMPRESS_AFTER_DAYS become one episode a week (★ days kept
    in detail); the week replaces its days in one atomic write. False when stopped."""
    daily = {date.fromisoformat(e.date): e for e in store.all() if e.is_daily and not e.deleted}
    weeks = weeks_to_compress(list(daily), now.date(), constants.EPISODE_COMPRESS_AFTER_DAYS)
    for monday, sunday in weeks[:constants.EPISODE_WEEKS_PER_RUN]:  # the oldest first; the rest on later nights
        if should_stop():
            return False
        days = [daily[d] for d in sorted(daily) if monday <= d <= sunday]
        language = message_language(" ".join(e.summary for e in days[-2:]), [], language_hint) or "en"
        system, user = week_prompt(persona, user_name, [(e.date, e.summary, e.starred) for e in days],
                                   language)
        try:
            answer = ask_tallied(model, system, user, WEEK_SCHEMA, constants.EPISODE_WEEK_MAX_TOKENS, should_stop, tally,
                                 f"week {monday}")
        except CallStopped:
            return False
        if answer is None:
            continue
        summary = within(parse_week(answer), constants.EPISODE_WEEK_CHARS[1])
        if not summary:
            tally.problems.append(f"week {monday}: the model's answer was not a usable summary")
            continue
        arousals = [e.arousal for e in days if e.arousal is not None]
        span = f"{days[0].date}~{days[-1].date}"
        week = Episode(id=episode_id(span), date=span, summary=summary, compressed=True, original_count=len(days),
                       arousal_avg=round(sum(arousals) / len(arousals), 3) if arousals else None,
                       arousal_max=max((e.arousal_max or 0.0 for e in days), default=0.0),
                       created_at=now.isoformat(timespec="seconds"))
        store.put([week], remove_ids=[e.id for e in days])
        tally.written.append(f"week {span}")
    return True
