"""A long recalled message cut down to the sentences that bear on the message being answered.

The embedded model's per-turn room for memories is ~110 tokens; one long recalled reply (a
puppy-training list of 200 tokens) used to take all of it, or, when it did not fit, ended the list
there: asked "What's my puppy called?", the prompt held one line, "Any tips for house-training a
puppy?" (bench conversation transcripts, session 9). So a line longer than its share keeps its
date and speaker and the sentences that share the most words with the message, in their order,
with "…" where sentences were left out.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Callable, Sequence

from agent import sentences
from agent.prompt_builder import fit_to_budget
from agent.language import is_exclamation, is_question, sure_language
from agent.query_planner import content_words
from agent.relative_time import with_weekday
from managers.cjk import bigrams, cjk_runs
from managers.lexical import is_latin_word

CountTokens = Callable[[str], int]
ELISION = "…"
_HEAD = re.compile(r"^(- )?(\[[^\]]{1,40}\] )?([^:\n]{1,40}: )?")
_DATED = re.compile(r"^(- )?\[")
_SUFFIXES = ("ing", "ed", "es", "s")
_SIBILANT_ES = re.compile(r"(?:[sxz]|ch|sh)es$")  # "watches" → "watch", but "likes" → "like"
_KEEPS_S = ("ss", "us", "is")  # "Ross", "bus", "Paris" are not plurals


def stem(word: str) -> str:
    """English words without their commonest suffixes, never shorter than three letters and never
    a word that only ends like a plural ("Ross" stayed "Ro" where names lost every final s)."""
    for suffix in _SUFFIXES:
        if not word.endswith(suffix) or len(word) - len(suffix) < 3:
            continue
        if suffix == "es" and not _SIBILANT_ES.search(word):
            continue
        if suffix == "s" and word.endswith(_KEEPS_S):
            return word
        return word[: -len(suffix)]
    return word


def terms(text: str) -> set[str]:
    """Content words (lower-case, English ones with a light suffix strip: no English stemming of
    Spanish or German words) and the bigrams of CJK and Hangul runs."""
    text = unicodedata.normalize("NFKC", text)
    english = sure_language(text) in ("", "en")
    found = {stem(w.lower()) if english and w.isascii() else w.lower() for w in content_words(text) if is_latin_word(w)}
    for run in cjk_runs(text):
        found.update(bigrams(run) or [run])
    return found


def focused_line(line: str, about: str, max_tokens: int, count: CountTokens) -> str:
    """`line` if it fits in `max_tokens` or is not a dated memory, else its head ("- [date] Speaker: ") and, in their order
    with elisions marked, the sentences that share words with `about` (most shared first, as many
    as fit; a question shares none with a question), or, when none does, its first sentences that tell
    something (a greeting or, asked something, a question of its own after them)."""
    head = _HEAD.match(line).group(0)
    if count(line) <= max_tokens or not _DATED.match(head):  # a document's passage: cut by its own rules
        return line
    sentences = _sentences(line[len(head):])
    if len(sentences) <= 1:
        return fit_to_budget(line, max_tokens, count, ELISION)
    wanted = terms(about)
    # Asked something, a sentence that asks too is no answer: "What activities does Melanie partake
    # in?" kept "Have you found any activities that make you feel the same way?" of a message whose
    # answer, "I just signed up for a pottery class", shares no word with the question (§5, session 32).
    asked = is_question(about)
    asks_back = [asked and is_question(s) for s in sentences]
    scores = [0 if back else len(wanted & terms(s)) for s, back in zip(sentences, asks_back)]
    # Most shared words first; among equals the shorter (more of them fit), or, sharing none, the earlier
    # that tells something: a line that shares no word opened with "Hey Jon!" (§5, session 32).
    def order(i: int) -> tuple:
        if scores[i]:
            return -scores[i], len(sentences[i])
        return 0, asks_back[i] or is_exclamation(sentences[i]), i
    by_relevance = sorted(range(len(sentences)), key=order)
    if scores[by_relevance[0]]:  # the sentences that share no word are left for other memories' room
        by_relevance = [i for i in by_relevance if scores[i]]
    kept: list[int] = []
    for index in by_relevance:
        trial = sorted(kept + [index])
        if count(_join(head, sentences, trial)) <= max_tokens:
            kept = trial
    if not kept:
        return fit_to_budget(head + sentences[by_relevance[0]], max_tokens, count, ELISION)
    return _join(head, sentences, kept)


MIN_SENTENCE_CHARS = 6  # "1." or "2." of a numbered list belongs to the sentence after it


def _sentences(body: str) -> list[str]:
    pieces = [s.strip() for s in sentences.split(body) if s.strip()]
    merged: list[str] = []
    carry = ""
    for piece in pieces:
        if len(piece) < MIN_SENTENCE_CHARS:
            carry = _glue(carry, piece)
            continue
        merged.append(_glue(carry, piece))
        carry = ""
    if carry and merged:
        merged[-1] = _glue(merged[-1], carry)
    elif carry:
        merged.append(carry)
    return merged


def _glue(left: str, right: str) -> str:
    """Two pieces of text joined as the language writes them: a space after Latin text only."""
    if not left:
        return right
    return left + (" " if left[-1].isascii() or right[:1].isascii() else "") + right


def _join(head: str, sentences: list[str], kept: list[int]) -> str:
    text = ELISION if kept[0] > 0 else ""
    for position, index in enumerate(kept):
        if position and index != kept[position - 1] + 1:
            text = _glue(text, ELISION)
        text = _glue(text, sentences[index])
    if kept[-1] < len(sentences) - 1:
        text = _glue(text, ELISION)
    return head + text


# "- [7 May 2023] Ken: …": a remembered message (an episode's line, "- [7 May 2023]★ …", has no speaker).
_DATED_MESSAGE = re.compile(r"^- \[([^\]]{1,40})\] ([^:\n\[]{1,40}: .*)$", re.DOTALL)
_DAY_HEADING = re.compile(r"\s*\[[^\]]{1,60}\]\s*")  # "[14 September 2022]", "[Thursday, 5 March 2026]"


def is_day_heading(line: str) -> bool:
    """Whether `line` is the heading `grouped_by_date` writes above a recalled day's messages."""
    return bool(_DAY_HEADING.fullmatch(line))


def grouped_by_date(lines: Sequence[str], weekdays: bool = False) -> str:
    """Recalled lines in their order with each day said once, above its messages ("[10 April 2026]",
    then "- Haruka: …" for each): the date took ~10 of a memory line's tokens (digits are a token
    each), and a turn's recalled lines are often of one day, so the same room holds more of them
    (§5, session 37: 334 lines shown against 296, F1 34.1 → 36.4). Documents and episodes are
    shown whole, as they come. `weekdays`: the message asks of a day of the week gone by, and each day is
    told with its weekday ("[Thursday, 5 March 2026]"), which the 1.5B model does not work out from the
    date ("¿Y qué cené el jueves pasado?" with that Thursday's dinner shown: "no tengo la información
    sobre el jueves pasado", §4 dev-es-taller, session 40)."""
    shown, day = [], None
    for line in lines:
        message = _DATED_MESSAGE.match(line)
        if message is None:
            shown.append(line)
            day = None
            continue
        if message.group(1) != day:
            day = message.group(1)
            shown.append(f"[{with_weekday(day) if weekdays else day}]")
        shown.append(f"- {message.group(2)}")
    return "\n".join(shown)
