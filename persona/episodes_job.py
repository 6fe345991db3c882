"""Sleep-time job: the finished days of the log told as the persona's episodes (seed 004 §3).

Reads the chat log, asks the model once per day (agent/episodes.py), checks the answer, keeps the
user's part the user's, and writes the day's session arousal (`memory/session_arousal.json`) and
then its episode (managers/episodes.py), which marks the day done. Each day is one step: a day done
is never redone unless its log changed after (its digest), so a stop or crash half-way resumes
where it was.
"""
from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Callable, Sequence

import constants
from agent import role, sentences
from agent.episodes import (WEEK_SCHEMA, DaySession, day_prompt, episode_schema, parse_day, parse_week,
                            forced_least, sessions_of_day, week_prompt, weeks_to_compress, within)
from agent.language import message_language
from agent.providers.base import CallStopped, ChatModel, ProviderError
from agent.sleep_schedule import days_to_summarise
from managers.chat_log import LogEntry
from managers.episodes import Episode, EpisodeStore, episode_id
from managers.store import atomic_write_text, file_lock

log = logging.getLogger(__name__)

SESSION_AROUSAL_FILE = "session_arousal.json"


@dataclass
class JobTally:
    """What a job did, for the night's report."""
    written: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    model_calls: int = 0
    prompt_tokens: int = 0
    output_tokens: int = 0

    def ask(self, model: ChatModel, system: str, user: str, schema: dict, max_tokens: int,
            should_stop: Callable[[], bool]) -> str:
        """One counted JSON call (CallStopped and ProviderError go to the caller)."""
        self.model_calls += 1
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


def users_part_kept(summary: str, user_texts: Sequence[str], user_name: str, language: str) -> str:
    """The summary with every sentence that tells the user's facts as the persona's said back as
    the user's, or left out where no plain swap reads right."""
    kept = []
    for sentence in sentences.split(summary):
        if role.takes_users_part(sentence, user_texts, (user_name,), language):
            sentence = role.as_users(sentence, language, user_name) or ""
        kept.append(sentence)
    return "".join(kept).strip()


def _room_for_log(model: ChatModel, system: str, language: str) -> int:
    """Characters of log that fit beside the system text and the answer in the model's context."""
    tokens = (constants.CONTEXT_TOKENS[model.budget_family] - constants.EPISODE_MAX_TOKENS
              - model.count_tokens(system) - constants.EPISODE_PROMPT_MARGIN_TOKENS)
    per_token = 1.0 if language in ("ja", "zh", "ko") else constants.CHARS_PER_TOKEN_ESTIMATE
    return max(constants.EPISODE_LINE_MIN_CHARS * 4, int(tokens * per_token))


def _ask_day(model: ChatModel, persona: str, user_name: str, day: date, sessions: list[DaySession], language: str,
             should_stop: Callable[[], bool], tally: JobTally) -> str:
    system, _ = day_prompt(persona, user_name, day, sessions, language, 1)
    room = _room_for_log(model, system, language)
    limit = constants.CONTEXT_TOKENS[model.budget_family] - constants.EPISODE_MAX_TOKENS
    for _ in range(3):  # the estimate of characters per token may be off: shrink until it fits
        system, user = day_prompt(persona, user_name, day, sessions, language, room)
        used = model.count_tokens(system) + model.count_tokens(user) + constants.EPISODE_PROMPT_MARGIN_TOKENS
        if used <= limit:
            break
        room = int(room * limit / used * 0.9)
    tally.model_calls += 1
    tally.prompt_tokens += used
    least = forced_least(language, sum(len(line) for s in sessions for line in s.lines))
    answer = model.complete_json(system, user, episode_schema(len(sessions), least), constants.EPISODE_MAX_TOKENS,
                                 should_stop)
    tally.output_tokens += model.count_tokens(answer)
    return answer


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
    for day in days_to_summarise(now, set(by_day), summarised, digests, constants.EPISODE_DAYS_PER_RUN):
        if should_stop():
            return False
        day_entries = by_day[day]
        sessions = sessions_of_day(day_entries)
        user_texts = [e.text for e in day_entries if e.role == "USER"]
        language = day_language(user_texts, language_hint)
        try:
            answer = _ask_day(model, persona, user_name, day, sessions, language, should_stop, tally)
        except CallStopped:
            return False
        except ProviderError as exc:
            tally.problems.append(f"episode {day}: {exc.user_message}")
            continue
        parsed = parse_day(answer, len(sessions))
        summary = within(users_part_kept(parsed.summary, user_texts, user_name, language),
                         constants.EPISODE_DAY_CHARS[1]) if parsed else ""
        if not parsed or not summary:
            tally.problems.append(f"episode {day}: the model's answer was not a usable summary")
            log.warning("No usable episode for %s: %r … %r", day, answer[:200], answer[-200:])
            continue
        # The ratings first: the episode marks the day done, so a crash between the two writes redoes
        # the day (its ratings replaced) instead of leaving it without them (bench sleep-crash).
        write_session_arousal(memory_dir, day, sessions, parsed.session_arousal)
        store.put([Episode(id=episode_id(day.isoformat()), date=day.isoformat(), summary=summary,
                           arousal=parsed.arousal, arousal_max=parsed.arousal_max,
                           created_at=now.isoformat(timespec="seconds"), source_digest=digests[day])])
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
