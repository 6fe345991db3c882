"""A day of conversation told as the persona's episode (seed 004 §3, エピソード記憶): the ask — the
prompt, its schema and the answer's checks. Pure: the sleep-time job reads the log and writes the
episode file (managers/episodes.py).

One grammar-forced call per day gives each session's arousal (how stirring it was, 0–1) first and
then the summary, so the summary is written after the ratings: sessions of arousal ≥ 0.6 (★) are
told in detail, the rest in a line or two (the seed's annotation, 2026-01-17). The summary is in
the persona's own voice, and what the user did stays the user's ("Haruka made curry", never "I
made curry"): the day is read by the persona, not lived by it.

A day whose log does not fit the model's context is cut into parts that do (`split_day`), each
asked as above, and one more ask merges the parts' summaries (`merge_prompt`, the same voice).
On the embedded model the user's part is asked two ways (`DAY_WAYS`) and the answer that keeps
more of the day in its own words is kept (`keeping_most_anew`).
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Callable, Sequence

import constants
from agent import role
from agent.grounding import units_of
from agent.relative_time import resolve_said_on
from agent.sentences import split as split_sentences
from agent.language import LANGUAGE_NAMES, LATIN_LANGUAGES, sure_language, write_in
from managers.chat_log import LogEntry

@dataclass(frozen=True)
class DaySession:
    """A stretch of the day's conversation without a long pause."""
    number: int  # 1-based, in the day's order
    start: datetime
    lines: tuple[str, ...]  # "Name: text", in order
    entries: tuple[LogEntry, ...] = ()


@dataclass(frozen=True)
class DaySummary:
    """The model's answer for one day, checked."""
    summary: str
    session_arousal: tuple[float, ...]  # one per session, clamped to 0–1

    @property
    def arousal(self) -> float:
        return round(sum(self.session_arousal) / len(self.session_arousal), 3) if self.session_arousal else 0.0

    @property
    def arousal_max(self) -> float:
        return max(self.session_arousal, default=0.0)


def summary_length(language: str, log_chars: int) -> tuple[int, int]:
    """(least, most) characters of a day's summary, as asked: the seed's 800–1,500, fewer in
    Japanese, Chinese and Korean (about a token a character: the answer must fit the embedded
    model's room). The least that the grammar forces is smaller (`forced_least`)."""
    return constants.EPISODE_DAY_CHARS_DENSE if language in ("ja", "zh", "ko") else constants.EPISODE_DAY_CHARS


def forced_least(language: str, log_chars: int) -> int:
    """The fewest characters the grammar lets a day's summary have: asked for 800–1,500, the 1.5B
    model wrote one sentence; forced to the full 800 it padded with talk about the summary itself
    or ran out of room. A quarter of the day's own text, at most EPISODE_DAY_FORCED_CHARS."""
    dense = language in ("ja", "zh", "ko")
    return min(constants.EPISODE_DAY_FORCED_CHARS_DENSE if dense else constants.EPISODE_DAY_FORCED_CHARS, log_chars // 4)


def episode_schema(session_count: int, least_chars: int = 0) -> dict:
    """The day's answer; `least_chars` is forced by the grammar where the backend has one (no
    most: llama.cpp expands a repetition bound into rules, and 1,500 crashed it)."""
    return {
        "type": "object",
        "properties": {
            "sessions": {"type": "array", "minItems": session_count, "maxItems": session_count,
                         "items": {"type": "object", "properties": {"arousal": {"type": "number"}},
                                   "required": ["arousal"]}},
            "summary": _summary_field(least_chars),
        },
        "required": ["sessions", "summary"],
    }


def sessions_of_day(entries: Sequence[LogEntry], gap: timedelta = timedelta(minutes=constants.EPISODE_SESSION_GAP_MINUTES),
                    ) -> list[DaySession]:
    """The day's dialogue cut into sessions where the talk paused for longer than `gap`."""
    sessions: list[list[LogEntry]] = []
    last: datetime | None = None
    for entry in entries:
        if not entry.is_dialogue or entry.ts is None or not entry.text.strip():
            continue
        if not sessions or last is None or entry.ts - last > gap:
            sessions.append([])
        sessions[-1].append(entry)
        last = entry.ts
    return [DaySession(i + 1, group[0].ts, tuple(f"{e.name}: {dated_text(e)}" for e in group), tuple(group))
            for i, group in enumerate(sessions)]


def dated_text(entry: LogEntry) -> str:
    """The message as the night's asks show it: each relative time ("yesterday", "last week") the
    date it stands for, from the day it was said. A summary tells the event under the day it was
    *told*: asked "When did Maria go to the beach?", the model answered that day's date from the
    episode (bench qa --episodes, session 22: category 2 F1 51.9 with episodes, 59.2 without)."""
    text = entry.text.strip()
    return resolve_said_on(text, entry.ts.date(), sure_language(text)) if entry.ts is not None else text


def _fitted(sessions: Sequence[DaySession], max_chars: int) -> list[str]:
    """Each session's lines, the longest messages cut first, so that all of them fit `max_chars`:
    every session keeps its start, and a long message keeps its beginning."""
    lines = [list(s.lines) for s in sessions]
    limit = max((len(line) for group in lines for line in group), default=0)
    while limit > constants.EPISODE_LINE_MIN_CHARS and sum(len(l) + 1 for g in lines for l in g) > max_chars:
        limit = int(limit * 0.8)
        lines = [[l if len(l) <= limit else l[:limit].rstrip() + "…" for l in s.lines] for s in sessions]
    while sum(len(l) + 1 for g in lines for l in g) > max_chars and any(len(g) > 2 for g in lines):
        longest = max(lines, key=len)  # still too long: the middle of the longest session goes
        del longest[len(longest) // 2]
    return ["\n".join(group) for group in lines]


def in_its_language(user: str, language: str) -> str:
    """An ask's user text, ended by the line that asks for the answer in `language` (agent/language.py
    `write_in`) when that is a Latin-script language other than the English of the ask itself: asked "in
    Spanish" only in the English system message, the 1.5B model wrote Spanish, French and German days'
    episodes in English, where Japanese days came back in Japanese without the line — and with it the
    Japanese nights' dreams, which read the episode, changed for the worse (§7 ja 67.6 → 54.1 %, session 51)."""
    line = write_in(language) if language in LATIN_LANGUAGES and language != "en" else ""
    return f"{user}\n\n{line}" if line else user


def day_text(day: date, sessions: Sequence[DaySession], max_chars: int) -> str:
    """The day's dialogue as the night's asks show it: the date, then each session's heading and its
    "Name: text" lines, cut to `max_chars` in all (`_fitted`)."""
    parts = [f"Date: {day.isoformat()}"]
    for session, text in zip(sessions, _fitted(sessions, max_chars)):
        parts.append(f"{_heading(session)}\n{text}")
    return "\n\n".join(parts)


def words_of(sessions: Sequence[DaySession], users: bool) -> list[DaySession]:
    """The sessions with only the user's messages (`users`) or only the persona's, each a "- text"
    line, session numbers kept; a session where that side said nothing is left out."""
    out = []
    for session in sessions:
        kept = [(f"- {line.split(': ', 1)[-1]}", entry) for line, entry in zip(session.lines, session.entries)
                if (entry.role == "USER") == users]
        if kept:
            entries = tuple(entry for _, entry in kept)
            out.append(DaySession(session.number, entries[0].ts or session.start, tuple(line for line, _ in kept), entries))
    return out


def own_life(sessions: Sequence[DaySession], user_name: str, language: str) -> list[DaySession]:
    """The persona's words of the day (as `words_of(…, users=False)`): each message that tells
    something of its own (`role.tells_own_life`, against what the user had said until then: what the
    persona told first stays its own when the user says "me too"), cut to those sentences and the
    ones that go with them (`role.goes_with_own_life`: "Last night was amazing!"); a message or
    session with none is left out."""
    out, told_by_user = [], []
    for session in sessions:
        kept = []
        for line, entry in zip(session.lines, session.entries):
            text = line.split(": ", 1)[-1]
            if entry.role == "USER":
                told_by_user.append(text)
                continue
            said = split_sentences(text)
            own = [role.tells_own_life(s, told_by_user, (user_name,), language) for s in said]
            if not any(own):
                continue
            told = "".join(s for s, mine in zip(said, own)
                           if mine or role.goes_with_own_life(s, told_by_user, (user_name,), language)).strip()
            if told:
                kept.append((f"- {told}", entry))
        if kept:
            entries = tuple(entry for _, entry in kept)
            out.append(DaySession(session.number, entries[0].ts or session.start, tuple(line for line, _ in kept),
                                  entries))
    return out


def _asked_of(language: str, sessions: Sequence[DaySession], own: bool) -> tuple[str, int, int]:
    """The language's name and the (least, most) characters asked of one voice of the day: the user's
    part takes 1 − EPISODE_OWN_SHARE of the day's length, the persona's own part the rest; a short
    day is not asked to be padded."""
    log_chars = sum(len(line) for s in sessions for line in s.lines)
    low, high = summary_length(language, log_chars)
    share = constants.EPISODE_OWN_SHARE if own else 1 - constants.EPISODE_OWN_SHARE
    low, high = int(low * share), int(high * share)
    return LANGUAGE_NAMES.get(language, "the language of the conversation"), min(low, max(100, log_chars // 2)), high


# The two ways the user's day is asked for (`day_prompt`'s `way`): told as a day, and told as its events
# one after another. The 1.5B model keeps different events each way — file 41's user's part kept 14
# of its 54 events told and 19 as events, file 30's fewer as events (BENCHMARKS.md §6, session 50) — so
# on the embedded model both are asked and the answer keeping more of the day is kept (`keeping_most_anew`).
DAY_ASKED_AS_TOLD, DAY_ASKED_AS_EVENTS = "told", "events"
DAY_WAYS = (DAY_ASKED_AS_TOLD, DAY_ASKED_AS_EVENTS)  # the first is the one asked when only one is


def day_prompt(persona: str, user_name: str, day: date, sessions: Sequence[DaySession], language: str,
               max_chars: int, way: str = DAY_ASKED_AS_TOLD) -> tuple[str, str]:
    """(system, user) of the day's first call: what the user said that day (`sessions`: their words
    alone, `words_of`), cut to `max_chars` in all; the answer rates each session and tells the
    user's day, as a day or (`way`) as its events one after another. The persona's own words are
    asked apart (`own_day_prompt`): shown the dialogue, the 1.5B model gave the persona's camping to
    the user and wrote how the talk felt rather than what happened (BENCHMARKS.md §6, session 21)."""
    written, low, high = _asked_of(language, sessions, own=False)
    if way == DAY_ASKED_AS_EVENTS:
        what = (f"each thing {user_name} did, felt, planned or told about their life, one after another: what, "
                f"with whom, where and when, with the names, places, times and numbers said")
        only = f"Only what {user_name} said, nothing about the sessions or this summary"
    else:
        what = (f"what {user_name} did, felt, planned or told about their life: the events, with the names, "
                f"places, times and numbers said")
        only = f"Only what {user_name} said"
    system = (
        f"You are {persona}. Below is everything {user_name} said to you on one day, in sessions, in "
        f"{user_name}'s own words (there, \"I\" is {user_name} and \"you\" is you, {persona}). First rate each "
        f"session's arousal from 0.0 (routine small talk) to 1.0 (deeply moving, exciting or important), one "
        f"entry per session in order. Then write, for your memory, in {written}, {what}. "
        f"Sessions rated {constants.AROUSAL_STAR_THRESHOLD} or more: in detail; the others: a line or two. "
        f"Write about {user_name} by name (\"{user_name} told me …\", \"{user_name} went …\"): it is "
        f"{user_name}'s life, never yours. {only}; about {low}-{high} characters.")
    return system, in_its_language(day_text(day, sessions, max_chars), language)


def own_day_prompt(persona: str, user_name: str, day: date, sessions: Sequence[DaySession], language: str,
                   max_chars: int) -> tuple[str, str]:
    """(system, user) of the day's second call: what the persona itself said (`words_of`), told in
    its first person — what it did, felt or planned, not its questions to the user."""
    written, low, high = _asked_of(language, sessions, own=True)
    system = (
        f"You are {persona}. Below is everything you yourself said to {user_name} on one day, in your own "
        f"words. Write, for your memory, in {written} and in the first person, what you did, felt, planned or "
        f"told about your own life: the events, with the names, places, times and numbers said. Leave out "
        f"your questions to {user_name} and your encouragement. Tell it in new words, not the ones you said; "
        f"about {low}-{high} characters.")
    return system, in_its_language(day_text(day, sessions, max_chars), language)


def _heading(session: DaySession) -> str:
    return f"## Session {session.number} ({session.start.strftime('%H:%M')})"


@dataclass(frozen=True)
class DayParts:
    """A day too long for one ask, in consecutive parts, oldest first. A session too long for a
    part is in pieces (DaySession with its number, each piece from its own first message)."""
    parts: tuple[tuple[DaySession, ...], ...]
    left_out: int  # the day's oldest messages in no part (more parts than allowed)


def _piece(session: DaySession, start: int, end: int) -> DaySession:
    if start == 0 and end == len(session.lines):
        return session
    first = session.entries[start].ts if len(session.entries) == len(session.lines) else session.start
    return DaySession(session.number, first or session.start, session.lines[start:end], session.entries[start:end])


def split_day(sessions: Sequence[DaySession], room: int, count_tokens: Callable[[str], int],
              max_parts: int, min_fill: float = 0.0) -> DayParts:
    """The day's sessions in parts whose text (headings and lines, as `day_prompt` writes them)
    takes at most `room` tokens each. Parts meet between sessions where the session fits a part of
    its own and the part it would close is `min_fill` full; otherwise the session is cut between its
    messages, never inside one, except a message longer than a whole part, which goes alone (cut to
    fit when asked). Packed from the newest message back, at most `max_parts`: over that, the day's
    beginning is left out (the evening is what the user remembers). Each line is counted alone,
    plus its line break: the whole prompt is counted again when asked."""
    parts: list[list[DaySession]] = []  # newest first while packing (each part in its own order)
    current: list[DaySession] = []
    used = placed = 0
    full = False
    for session in reversed(sessions):
        heading = count_tokens(_heading(session)) + 2  # and the blank line before it
        costs = [count_tokens(line) + 1 for line in session.lines]
        whole = heading + sum(costs)
        if current and used + whole > room >= whole and used >= room * min_fill:  # the parts meet between sessions
            parts.append(current)
            current, used = [], 0
            full = len(parts) == max_parts
        end = len(costs)
        while end > 0 and not full:
            start, size = end, heading
            while start > 0 and used + size + costs[start - 1] <= room:
                start -= 1
                size += costs[start]
            if start == end and current:  # not one more message fits: the next part
                parts.append(current)
                current, used = [], 0
                full = len(parts) == max_parts
                continue
            if start == end:  # one message longer than a whole part: alone
                start, size = end - 1, heading + costs[end - 1]
            current.insert(0, _piece(session, start, end))
            used += size
            placed += end - start
            end = start
        if full:
            break
    if current:
        parts.append(current)
    total = sum(len(s.lines) for s in sessions)
    return DayParts(tuple(tuple(part) for part in reversed(parts)), total - placed)


def part_key(part: Sequence[DaySession]) -> str:
    """What a part is: its answer is kept under this until the day's episode is written."""
    text = "\n".join(f"{s.number}|{line}" for s in part for line in s.lines)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _summary_field(least_chars: int) -> dict:
    return {"type": "string", **({"minLength": least_chars} if least_chars else {})}


def summary_schema(least_chars: int = 0) -> dict:
    """An answer that is a summary only: a long day's parts merged (the sessions were rated in the
    parts), the persona's own part of the day."""
    return {"type": "object", "properties": {"summary": _summary_field(least_chars)}, "required": ["summary"]}


def merge_prompt(persona: str, user_name: str, day: date,
                 notes: Sequence[tuple[Sequence[DaySession], str, bool]], language: str,
                 max_chars: int) -> tuple[str, str]:
    """(system, user) of the call that makes a long day's parts one episode; `notes`: each part's
    sessions, its summary and whether a session of it was rated ★, in order. Each summary is cut to
    its first `max_chars` characters in whole sentences. The day prompt's voice: the persona's own,
    in the day's language, and what the user did stays the user's."""
    written = LANGUAGE_NAMES.get(language, "the language of the conversation")
    low, high = summary_length(language, 0)
    system = (
        f"You are {persona}. Below are your notes on one day of your conversations with {user_name}, written "
        f"part by part, in order; ★ marks a part with a session rated {constants.AROUSAL_STAR_THRESHOLD} or more. "
        f"Write them as the day's one episode for your memory, in {written}, as {persona} in the first person: "
        f"the ★ parts in detail, the others in a line or two. What {user_name} did, felt or told about their "
        f"life is {user_name}'s: write it as {user_name}'s, never as yours. Only what the notes say; "
        f"about {low}-{high} characters.")
    parts = [f"Date: {day.isoformat()}"]
    for number, (sessions, summary, starred) in enumerate(notes, 1):
        first, last = sessions[0].number, sessions[-1].number
        which = f"session {first}" if first == last else f"sessions {first}-{last}"
        parts.append(f"## Part {number} ({which}, from {sessions[0].start.strftime('%H:%M')}){' ★' if starred else ''}"
                     f"\n{within(summary, max_chars)}")
    return system, in_its_language("\n\n".join(parts), language)


# The JSON's own closing written inside the summary string ("…and take care! }"): 12 of 51 days of
# LoCoMo 26, 30 and 41 ended so (bench episodes, session 22).
_STRAY_CLOSING = re.compile(r"(?:\s*[{}])+\s*$")


def summary_text(value: object) -> str:
    """A summary field's text without the stray braces the model closed it with; "" if it is no text."""
    return _STRAY_CLOSING.sub("", value).strip() if isinstance(value, str) else ""


def parse_summary(answer: str) -> str:
    """The summary of a one-field answer (the merged day), or "" when it has none; one cut off by
    the answer's room keeps its whole sentences."""
    try:
        data = json.loads(answer)
    except json.JSONDecodeError:
        data = completed_answer(answer)
    return summary_text(data.get("summary") if isinstance(data, dict) else None)


def completed_answer(answer: str, field: str = "summary") -> dict | None:
    """An answer cut off before its end (the model ran out of tokens, or wrote blank lines until
    it did), or whose `field` ran on past stray braces, closed where the words stopped, so its
    whole sentences can be kept; None if it went wrong anywhere else than inside or after that field."""
    try:
        data = json.loads(answer.rstrip() + "}")
        if isinstance(data, dict):
            return data
    except json.JSONDecodeError:
        pass
    # the summary's words up to its closing quote or the answer's end: a string the model closed after
    # stray braces and blank lines ('…感じました。} \n\n{  " }') is no JSON either
    match = re.search(rf'"{field}"\s*:\s*"((?:[^"\\]|\\.)*)', answer, re.S)
    if not match:
        return None
    # what the model wrote after the summary's words ("} }", a code fence, blank lines) goes
    text = re.split(r"[\n`{}]", match.group(1))[0].rstrip("\\")
    try:
        data = json.loads(answer[:match.start(1)] + text + '"}')
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get(field), str):
        return None
    sentences, seen = [], set()
    for sentence in split_sentences(data[field]):  # the last one unfinished; a loop's repeats once
        if sentence.strip() and sentence.strip() not in seen and sentence.rstrip()[-1:] in ".!?。！？":
            seen.add(sentence.strip())
            sentences.append(sentence)
    return {**data, field: "".join(sentences)}


def parse_day(answer: str, session_count: int) -> DaySummary | None:
    """The day's summary and session ratings, or None when the answer is no usable JSON, has no
    summary, or rates another number of sessions (the day is then asked again at the next run
    rather than stored with made-up numbers). A summary cut off by the answer's room keeps its
    whole sentences."""
    try:
        data = json.loads(answer)
    except json.JSONDecodeError:
        data = completed_answer(answer)
        if data is None:
            return None
    if not isinstance(data, dict) or not isinstance(data.get("summary"), str):
        return None
    summary = summary_text(data["summary"])
    ratings = data.get("sessions")
    if not summary or not isinstance(ratings, list) or len(ratings) != session_count:
        return None
    arousal = []
    for rating in ratings:
        value = rating.get("arousal") if isinstance(rating, dict) else None
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value != value:
            return None
        arousal.append(round(min(1.0, max(0.0, float(value))), 3))
    return DaySummary(summary, tuple(arousal))


WEEK_SCHEMA = {"type": "object", "properties": {"summary": {"type": "string"}}, "required": ["summary"]}


def weeks_to_compress(days: Sequence[date], today: date, older_than_days: int) -> list[tuple[date, date]]:
    """The weeks (Monday–Sunday) whose every day is more than `older_than_days` before `today`
    and that hold at least two daily episodes (one is already as short as it gets), oldest first,
    as (Monday, Sunday)."""
    limit = today - timedelta(days=older_than_days)
    weeks: dict[date, int] = {}
    for day in days:
        monday = day - timedelta(days=day.weekday())
        if monday + timedelta(days=6) < limit:
            weeks[monday] = weeks.get(monday, 0) + 1
    return [(monday, monday + timedelta(days=6)) for monday, count in sorted(weeks.items()) if count >= 2]


def week_prompt(persona: str, user_name: str, episodes: Sequence[tuple[str, str, bool]], language: str) -> tuple[str, str]:
    """(system, user) of a week's compression; `episodes`: (date, summary, starred) in order."""
    written = LANGUAGE_NAMES.get(language, "the language of the episodes")
    low, high = constants.EPISODE_WEEK_CHARS
    system = (
        f"You are {persona}. Below are your memories of several days with {user_name}, one per day; ★ marks "
        f"a day that moved you. Write them as one memory of the week, in {written}, as {persona} in the "
        f"first person: the ★ days in detail, the others in a few words. What {user_name} did or felt is "
        f"{user_name}'s: write it as {user_name}'s. Only what the days say; about {low}-{high} characters.")
    user = "\n\n".join(f"[{day}]{' ★' if starred else ''} {summary}" for day, summary, starred in episodes)
    return system, in_its_language(user, language)


def parse_week(answer: str) -> str:
    """The week's summary, or "" when the answer has none."""
    try:
        data = json.loads(answer)
    except json.JSONDecodeError:
        return ""
    return summary_text(data.get("summary") if isinstance(data, dict) else None)


_CJK_CHAR = r"[\u3400-\u9fff\u3040-\u30ff\uac00-\ud7af]"
_GRAM_TOKEN = re.compile(_CJK_CHAR + r"|[^\W\d_]+(?:'[^\W\d_]+)*|\d+")
_CJK_TOKEN = re.compile(_CJK_CHAR)


def _tokens(text: str) -> list[str]:
    """Words, and CJK characters one by one."""
    return _GRAM_TOKEN.findall(text.casefold().replace("’", "'"))


def _grams(tokens: Sequence[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)}


class _SaidThatDay:
    """The word n-grams of a day's messages, for the share of a text's own that were said that day
    (a CJK character is half a word: its n-grams are twice as long)."""

    def __init__(self, day_lines: Sequence[str]):
        self._said = [_tokens(line) for line in day_lines]
        self._grams: dict[int, set[tuple[str, ...]]] = {}

    def share(self, text: str) -> float:
        tokens = _tokens(text)
        cjk = sum(bool(_CJK_TOKEN.fullmatch(t)) for t in tokens)
        n = constants.EPISODE_QUOTE_GRAM * (2 if cjk > len(tokens) - cjk else 1)
        if n not in self._grams:
            self._grams[n] = set().union(*(_grams(line, n) for line in self._said)) if self._said else set()
        grams = _grams(tokens, n)
        return len(grams & self._grams[n]) / len(grams) if grams else 0.0


def without_quotes(summary: str, day_lines: Sequence[str]) -> str:
    """The summary less its sentences said word for word that day (EPISODE_QUOTE_SHARE of their word
    n-grams in the day's messages; a CJK character is half a word): asked for its own words, the 1.5B
    model wrote its part of the day as its lines again ("You'll be an awesome mom!", "It keeps me
    motivated to keep growing."), a transcript and not a memory (BENCHMARKS.md §6, session 21)."""
    said = _SaidThatDay(day_lines)
    return "".join(sentence for sentence in split_sentences(summary)
                   if said.share(sentence) < constants.EPISODE_QUOTE_SHARE).strip()


def keeping_most_anew(candidates: Sequence[str], material: str, day_lines: Sequence[str],
                      names: Sequence[str] = (), language: str = "") -> int:
    """The index of the candidate that keeps the most of what `material` is about in words of its own:
    the units of `material` it keeps (agent/grounding.py `units_of`, without `names`), each counted
    once, times the share of its word n-grams not said that day (`day_lines`) — of two answers to one
    ask, the one that left less of the day out without copying it; one surely in another language than
    `language` (the day's) only when none is in it; the first of equals; -1 for none."""
    known = units_of(material, names)
    said = _SaidThatDay(day_lines)
    def worth(text: str) -> tuple[bool, float]:
        in_its = not language or sure_language(text) in ("", language)
        return in_its, len(units_of(text, names) & known) * (1.0 - said.share(text))
    worths = [worth(text) for text in candidates]
    return worths.index(max(worths)) if worths else -1


# A sentence about the ask, not the day: its sessions, its summary, its ratings — the 1.5B model
# echoing the prompt's own words (the "## Session N" headings, "summary", "arousal"): "The session was
# brief but emotionally charged.", "The summary captures John's enthusiasm…", "The session was relatively
# low arousal…", 「Arkのセッション1で活動しました」 (§6 and §7 episodes, session 50: 44 of 619 sentences of
# the four LoCoMo files' episodes named the session or the summary, 22 of them as their subject, none with an
# event; "I had a great session with Caroline today" is a diary's line and stays).
_ABOUT_THE_ASK = re.compile(
    r"\barousal\b|覚醒度|唤醒度|각성도"
    r"|(?-i:\bSessions? ?\d)|セッション ?\d|会话 ?\d|세션 ?\d"  # the heading's own capital: "session 5 of his course" is a fact
    r"|^\W*(?:in summary|to summari[sz]e|overall),? (?:the|this|our) (?:sessions?|summary)\b"
    r"|^\W*(?:the|this|today's|our) (?:sessions?|summary)"
    r" (?:was|were|is|are|has|had|ended|ends|concluded|concludes|captures|highlights|focused|focuses|covered|covers|left|seemed|felt)\b"
    r"|^\W*(?:la|esta) sesi[oó]n (?:fue|era|estuvo|terminó)\b|^\W*(?:la|cette) session (?:était|a été|s'est)"
    r"|^\W*(?:die|diese) sitzung (?:war|endete)\b|^\W*(?:la|questa) sessione (?:è|era)\b"
    r"|^\W*(?:a|esta) sess[ãa]o (?:foi|era)\b|^\W*(?:この|今日の|その)?セッション(?:は|では|全体)",
    re.IGNORECASE)


def about_the_ask(sentence: str) -> bool:
    """Whether the sentence talks of the ask (its sessions, summary, ratings) rather than the day."""
    return bool(_ABOUT_THE_ASK.search(sentence.strip()))


def without_talk_of_the_ask(summary: str) -> str:
    """The summary less its sentences about the ask (`about_the_ask`)."""
    return "".join(s for s in split_sentences(summary) if not about_the_ask(s)).strip()


def within(summary: str, max_chars: int) -> str:
    """The summary in whole sentences up to `max_chars` (the seed's length; a model asked for
    1,500 characters sometimes writes more)."""
    if len(summary) <= max_chars:
        return summary
    kept = ""
    for sentence in split_sentences(summary):
        if len(kept) + len(sentence) > max_chars:
            break
        kept += sentence
    return kept.strip() or summary[: max_chars - 1].rstrip() + "…"
