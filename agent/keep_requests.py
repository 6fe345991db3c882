""""Please remember …" requests: recognised by their grammar (agent/keep_grammar.py) and kept by
the app itself.

The embedded model was offered the edit tools for such messages and did not call them (0 of 5
requests saved, issue 12), so for models without native tool calls the app writes the request
to core memory and announces it with an app line (agent/graph.py). What is kept is the user's
words with the request words dropped and relative days resolved to dates, quoted and attributed
(`_kept_line`). A later message revises a kept note only when it corrects it
(agent/keep_corrections.py). Pure functions: the time comes in as `now`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Callable, Sequence

import constants
from agent.keep_corrections import corrects
from agent.keep_grammar import LATIN_GRAMMARS, KeepRequest, declined_request, find_request, latin_language
from agent.keep_lines import (  # noqa: F401  (the service's after-reply merge reads these from here)
    MERGE_SCHEMA, PendingCorrection, corrected_note, kept_line, merge_prompt, merged_line, pending_corrections,
)
from agent.language import message_language
from agent.relative_time import resolve_note_dates

_HANGUL = re.compile(r"[\uac00-\ud7a3]")


# A second reader for what the grammar finds no request in (agent/keep_classifier.py, by the message's embedding).
Likely = Callable[[str], bool]


def is_keep_request(text: str, likely: Likely | None = None) -> bool:
    """A request by the grammar, or else, when `likely` is given, by that second reader — unless the
    grammar read a request's form and ruled it out (`declined_request`: a hedge, advice, a question)."""
    if find_request(text) is not None:
        return True
    return likely is not None and not declined_request(text) and likely(text)


def note_language(text: str) -> str:
    """The language a note is written in, which decides its shape and how its dates are written."""
    return message_language(text) or latin_language(text)


# What is left of the request around the fact: connectors, fillers, pronouns pointing at the fact.
_LATIN_BEFORE_TAIL = re.compile(r"[\s,;:—–\-]*(?:\b(?:so|and|but|y|pero|et|mais|und|aber|also)\b)?[\s,;:—–\-]*$", re.I)
_LATIN_AFTER_HEAD = re.compile(r"^[\s,;:—–\-]*(?:(?:to|that|de|d'|que|qu'|daran|zu)\b\s*)?", re.I)
_CJK_BEFORE_TAIL = re.compile(
    r"(?:[、，,：:\s]|から|ので|なので|なんで|だから|ってこと|ということ|のこと|って|を|も|は|それも|これも|これ|それ|ね|"
    r"どうか|一応|ぜひ|你先|你就|你|您|이니까|하니까|니까|꼭|이거|좀)*$")
_CJK_AFTER_HEAD = re.compile(r"^[\s。、，,：:！!？?~～〜ー…→]*")
_ONLY_POINTS = re.compile(r"^(?:this|that|it|these|those|esto|eso|lo|ça|cela|le|das|es|dies|これ|それ|这个|這個|那个|"
                          r"이거|그거|이것)?[\s.!?。！？]*$", re.I)


def kept_words(text: str, request: KeepRequest, previous: str = "") -> str:
    """The fact the request asks to keep, in the user's words: the message without its request
    words ("Please remember that", 「覚えておいてほしいんだけど、」, "帮我记一下："). When nothing but "this"
    is left ("Remember that."), the fact is the user's message before it."""
    latin = request.language in LATIN_GRAMMARS
    before, after = text[:request.start], text[request.end:]
    if latin:
        before = _LATIN_BEFORE_TAIL.sub("", before)
        after = _LATIN_AFTER_HEAD.sub("", after) if request.start == 0 or not before.strip() else after
    else:
        before = _CJK_BEFORE_TAIL.sub("", before)
        after = _CJK_AFTER_HEAD.sub("", after)
    before, after = before.strip(), after.strip()
    if before and after and _filler(before, latin):
        before = ""  # "Hey Ark, write this down: …", 「ねえ、覚えておいてくれる？…」
    words = (" " if latin or request.language == "ko" else "").join(p for p in (before, after) if p)
    if re.search(r"[?？]$", text.strip()) and not re.search(r"[?？]", after[:-1] if after else ""):
        words = words.rstrip("?？ ")  # "Can you note that it is on Thursday?": the fact, not a question
    if _ONLY_POINTS.match(words):
        words = " ".join(previous.split())
    return re.sub(r"\s+([.!?,;。！？、，])", r"\1", words)


def _filler(part: str, latin: bool) -> bool:
    if re.search(r"\d", part):
        return False
    return len(part.split()) <= 2 if latin else len(part) <= 3


def keep_note(text: str, user_name: str, now: datetime, previous: str = "") -> str:
    """The core-memory line kept for a request: its day, who said it and the fact, quoted in the
    user's words with relative days as dates. Quoted, because the user's "I"/「私」 read as the
    persona's own in a bare line: asked 「私のアレルギー、覚えてる？」, the model answered
    「私はアレルギーはありません」 (session 8 transcripts)."""
    request = find_request(text)
    body = " ".join((kept_words(text, request, previous) if request else text).split()) or " ".join(text.split())
    language = note_language(body)
    body = resolve_note_dates(body, now.date(), language)
    if language not in ("ja", "zh", "ko") and body:
        body = body[0].upper() + body[1:]
    return kept_line(now.strftime("%Y-%m-%d"), user_name, body, language)


@dataclass(frozen=True)
class KeepAction:
    """What the app writes to core memory for this message: a new line (`old_line` empty) or a
    kept line replaced by its corrected form."""
    line: str
    old_line: str = ""


def keep_action(text: str, earlier_user_messages: Sequence[tuple[str, datetime]], user_name: str,
                now: datetime, likely: Likely | None = None) -> KeepAction | None:
    """A keep request → its note; a message within `KEEP_CORRECTION_WINDOW` user messages of a keep
    request that corrects that note (agent/keep_corrections.py) → that note, corrected; anything
    else → None. `earlier_user_messages`: the user's previous messages with their times, oldest
    first (the kept line is made again from the request: the same words, day and name give the
    same line). `likely`: the second reader (`is_keep_request`)."""
    if is_keep_request(text, likely):
        previous = earlier_user_messages[-1][0] if earlier_user_messages else ""
        return KeepAction(keep_note(text, user_name, now, previous))
    window = list(earlier_user_messages[-constants.KEEP_CORRECTION_WINDOW:])
    offset = len(earlier_user_messages) - len(window)
    for index in range(len(window) - 1, -1, -1):
        earlier, when = window[index]
        if not is_keep_request(earlier, likely):
            continue
        at = offset + index
        previous = earlier_user_messages[at - 1][0] if at > 0 else ""
        old = keep_note(earlier, user_name, when, previous)
        if not corrects(old, text):
            return None  # only the newest kept note may be corrected, and only by a correction
        return KeepAction(corrected_note(old, text, now.strftime("%Y-%m-%d")), old)
    return None

