"""The persona's reply tags: parse them, remove them from the visible text, neutralise look-alikes.

The persona marks its reply with ``<persona_emotion category="joy" intensity="0.7"/>`` and
``<memory_trace id="abc" resonance="0.8"/>``. The small local model writes these loosely, so
parsing is lenient: single, double, full-width, smart or Japanese quotes or none, extra spaces,
a missing ``/``, attributes in any order, ``</persona_emotion>`` closing forms, any letter case,
``-`` instead of ``_``. A tag cut off at the very end of the reply (max tokens) still counts.

Only an ASCII ``<`` opens a tag, which is what `strip_user_tags` relies on. `TagStreamFilter`
applies the same rules to a token stream, and its output equals `parse_reply(...).visible_text`.
"""
from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass, replace

import constants
from managers.emotion_log import seed_category

log = logging.getLogger(__name__)

EMOTION_TAG_NAMES = frozenset({"persona_emotion", "persona-emotion", "personaemotion"})
TRACE_TAG_NAMES = frozenset({"memory_trace", "memory-trace", "memorytrace"})
TAG_NAMES = EMOTION_TAG_NAMES | TRACE_TAG_NAMES
# Used when the model omits the number or writes something that is not one; the middle of the
# [0, 1] range claims nothing. (Candidates for constants.py.)
DEFAULT_INTENSITY = 0.5
DEFAULT_RESONANCE = 0.5
TRACE_ID_RE = re.compile(r"[A-Za-z0-9_.:-]{1,80}")
# Longest run of attributes after a tag name; longer, it is prose, so a stray `<persona_emotion`
# cannot hide the rest of a reply while it streams.
MAX_TAG_BODY_CHARS = 400

_QUOTES = "\"'`＂＇“”„‟‘’‚‛「」『』"
# Any `<name ...>`; names not in TAG_NAMES are skipped by the caller. `\Z`: cut off at the end.
_TAG_RE = re.compile(
    r"<\s*(?P<close>/\s*)?(?P<name>[A-Za-z_-]+)(?=[\s/>]|\Z)"
    rf"(?P<attrs>[^<>]{{0,{MAX_TAG_BODY_CHARS}}})(?:>|\Z)"
)
_HEAD_RE = re.compile(r"<\s*(?:/\s*)?(?P<name>[A-Za-z_-]*)")
_TAG_BODY_START_RE = re.compile(r"[\s/>]")
_ANGLE_RE = re.compile(r"[<>]")
_ATTR_RE = re.compile(
    rf"(?P<key>[A-Za-z_-]+)\s*[=＝]\s*"
    rf"(?:[{_QUOTES}](?P<quoted>[^{_QUOTES}]*)[{_QUOTES}]?|(?P<bare>[^\s/{_QUOTES}]+))"
)
_RUN_RE = re.compile(r"(\s+)|\S+")
_NEUTRALISE_RE = re.compile(r"<(?=\s*(?:/\s*)?([A-Za-z_-]+))")
_LOOKALIKE_RE = re.compile(r"[<＜]\s*/?\s*(?:" + "|".join(map(re.escape, sorted(TAG_NAMES))) + r")\b[^>＞]*[>＞]?", re.I)


@dataclass(frozen=True)
class EmotionTag:
    category: str
    intensity: float


@dataclass(frozen=True)
class MemoryTrace:
    id: str
    resonance: float


@dataclass(frozen=True)
class ParsedReply:
    visible_text: str
    emotions: tuple[EmotionTag, ...] = ()
    traces: tuple[MemoryTrace, ...] = ()
    rejected: tuple[str, ...] = ()  # one human-readable reason per dropped tag


def parse_reply(text: str) -> ParsedReply:
    """Split a persona reply into visible text and its valid tags.

    Every recognised tag, valid or not, is removed. Whitespace is tidied where a tag was (the
    gap becomes at most one blank line, a single space, or nothing) and at both ends of the
    text. A broken tag look-alike that stays visible is neutralised as by `strip_user_tags`, so
    the visible text never holds a tag (re-parsing it finds nothing). Everything else is left
    exactly as written.
    """
    emotions: list[EmotionTag] = []
    traces: list[MemoryTrace] = []
    rejected: list[str] = []
    tidier = _Tidier()
    out: list[str] = []
    pos = 0
    for m in _TAG_RE.finditer(text):
        name = m.group("name").lower()
        if name not in TAG_NAMES:
            continue
        out.append(tidier.text(strip_user_tags(text[pos : m.start()])))
        tidier.tag()
        pos = m.end()
        if m.group("close"):
            continue
        attrs = _attributes(m.group("attrs"))
        result = _emotion(attrs) if name in EMOTION_TAG_NAMES else _trace(attrs)
        if isinstance(result, str):
            log.info("dropped reply tag: %s", result)
            rejected.append(result)
        elif isinstance(result, EmotionTag):
            emotions.append(result)
        else:
            traces.append(result)
    out.append(tidier.text(strip_user_tags(text[pos:])))
    out.append(tidier.flush())
    return ParsedReply("".join(out), tuple(emotions), tuple(traces), tuple(rejected))


def without_echoes(parsed: ParsedReply, user_text: str) -> ParsedReply:
    """`parsed` without the tags the user's own message carries: pasted text with
    ``<persona_emotion category="anger" intensity="1.0"/>`` in it was copied into the reply by the
    small model and set the persona's mood (a new user's test, session 47). The user's text is data."""
    typed = parse_reply(user_text.replace("＜", "<"))
    if not (typed.emotions or typed.traces):
        return parsed
    return replace(parsed, emotions=tuple(e for e in parsed.emotions if e not in typed.emotions),
                   traces=tuple(t for t in parsed.traces if t not in typed.traces))


def without_tag_lookalikes(text: str) -> str:
    """The text with every reply-tag look-alike (ASCII or neutralised ``＜``) taken out whole: for a
    model asked to judge the exchange, not to read the user's markup as the answer."""
    return _LOOKALIKE_RE.sub(" ", text)


def strip_user_tags(text: str) -> str:
    """Neutralise reply tags in text the *user* typed, so they can never count as the persona's.

    The ``<`` of anything that could start a persona_emotion or memory_trace tag (opening or
    closing, any case or spelling `parse_reply` accepts) is replaced by the full-width ``＜``.
    The result still reads as the same text when shown, but `parse_reply` and `TagStreamFilter`
    only open a tag at an ASCII ``<``, so if the text is later echoed back by the persona or
    re-parsed, nothing in it is taken as a tag. Call this on user input before storing it.
    """
    return _NEUTRALISE_RE.sub(_lt_as_text, text)


def _lt_as_text(m: re.Match | None) -> str:
    """A ``<`` that is shown as text: full-width if it could open a reply tag."""
    return "＜" if m is not None and m.group(1).lower() in TAG_NAMES else "<"


class TagStreamFilter:
    """Removes reply tags from a token stream for display while it streams.

    Text from a ``<`` that could still become a tag is held until that is decided; any other
    text is released at once, except whitespace, which waits for the next visible character so
    that the gap around a removed tag is tidied exactly as `parse_reply` does. The concatenated
    output of every `feed` and the final `flush` equals ``parse_reply(full).visible_text``.
    `flush` ends the stream; the filter may then be fed a new one.
    """

    def __init__(self) -> None:
        self._buf = ""
        self._tidier = _Tidier()

    def feed(self, delta: str) -> str:
        self._buf += delta
        return self._drain(final=False)

    def flush(self) -> str:
        out = self._drain(final=True)
        return out + self._tidier.flush()

    def _drain(self, final: bool) -> str:
        out: list[str] = []
        while self._buf:
            lt = self._buf.find("<")
            if lt != 0:
                plain = self._buf if lt < 0 else self._buf[:lt]
                out.append(self._tidier.text(plain))
                self._buf = self._buf[len(plain) :]
                continue
            decision = _classify(self._buf, final)
            if decision is None:  # could still become a tag: wait for more text
                break
            if decision == 0:  # not a tag: this `<` is plain text (neutralised if look-alike)
                out.append(self._tidier.text(_lt_as_text(_NEUTRALISE_RE.match(self._buf))))
                self._buf = self._buf[1:]
            else:
                self._tidier.tag()
                self._buf = self._buf[decision:]
        return "".join(out)


def _classify(buf: str, final: bool) -> int | None:
    """For `buf` starting with ``<``: the tag's length, 0 if it is no tag, None if undecided."""
    head = _HEAD_RE.match(buf)
    if head is None:  # cannot happen: buf starts with "<"
        return 0
    name = head.group("name").lower()
    if head.end() == len(buf):
        if final:
            return len(buf) if name in TAG_NAMES else 0
        return None if any(n.startswith(name) for n in TAG_NAMES) else 0
    if name not in TAG_NAMES or not _TAG_BODY_START_RE.match(buf, head.end()):
        return 0
    angle = _ANGLE_RE.search(buf, head.end())
    body_end = len(buf) if angle is None else angle.start()
    if body_end - head.end() > MAX_TAG_BODY_CHARS:
        return 0
    if angle is None:
        return len(buf) if final else None
    return angle.end() if angle.group() == ">" else 0


class _Tidier:
    """Emits text with the whitespace around removed tags tidied, decided at the next visible
    character; leading and trailing whitespace of the whole text is dropped."""

    def __init__(self) -> None:
        self._started = False
        self._gap = [""]  # whitespace since the last visible character, split at each tag
        self._tagged = False

    def tag(self) -> None:
        self._tagged = True
        self._gap.append("")

    def text(self, s: str) -> str:
        out: list[str] = []
        for m in _RUN_RE.finditer(s):
            if m.group(1):
                self._gap[-1] += m.group(1)
                continue
            if self._started:
                out.append(self._merged_gap() if self._tagged else "".join(self._gap))
            self._started, self._tagged, self._gap = True, False, [""]
            out.append(m.group())
        return "".join(out)

    def flush(self) -> str:
        self._started, self._tagged, self._gap = False, False, [""]
        return ""

    def _merged_gap(self) -> str:
        newlines = min(2, max(part.count("\n") for part in self._gap))
        if newlines:
            last = self._gap[-1]
            indent = last.rsplit("\n", 1)[1] if "\n" in last else ""
            return "\n" * newlines + indent
        return " " if any(self._gap) else ""


def _attributes(raw: str) -> dict[str, str]:
    attrs: dict[str, str] = {}
    for m in _ATTR_RE.finditer(raw):
        value = m.group("quoted") if m.group("quoted") is not None else m.group("bare")
        key = m.group("key").lower().replace("-", "_")
        attrs.setdefault(key, value.strip().rstrip("/").strip())
    return attrs


def _number(raw: str | None, low: float, high: float, default: float) -> float:
    """`raw` as a number clamped to [low, high] ("70%" is 0.7); `default` if it is none."""
    raw = (raw or "").strip()
    scale = 100.0 if raw.endswith(("%", "％")) else 1.0
    try:
        value = float(raw.rstrip("%％")) / scale
    except ValueError:
        return default
    return default if math.isnan(value) else min(high, max(low, value))


def _emotion(attrs: dict[str, str]) -> EmotionTag | str:
    category = (attrs.get("category") or attrs.get("emotion") or "").strip().lower()
    if not category:
        return "persona_emotion: no category"
    if seed_category(category) is None:
        return f"persona_emotion: unknown category {category!r}"
    category = seed_category(category)  # an old label ("calm") in the seed's seven (constants.LEGACY_EMOTION_MAP)
    low, high = constants.EMOTION_INTENSITY_MIN, constants.EMOTION_INTENSITY_MAX
    return EmotionTag(category, _number(attrs.get("intensity"), low, high, DEFAULT_INTENSITY))


def _trace(attrs: dict[str, str]) -> MemoryTrace | str:
    trace_id = (attrs.get("id") or "").strip()
    if not TRACE_ID_RE.fullmatch(trace_id):
        return f"memory_trace: invalid id {trace_id[:100]!r}" if trace_id else "memory_trace: no id"
    low, high = constants.MEMORY_TRACE_RESONANCE_MIN, constants.MEMORY_TRACE_RESONANCE_MAX
    return MemoryTrace(trace_id, _number(attrs.get("resonance"), low, high, DEFAULT_RESONANCE))
