"""Where a sentence ends: the one splitter of the app (the reply guard while a reply streams,
memory lines, document passages, the "only asks" test).

A sentence ends at 。！？!?… (with any closing quotes or brackets after them), at a line break, and
at "." when what follows is a space or the end of the text — but not after an abbreviation
("Mt. Takao", "Dr. Lee", "e.g. tea", "z.B.", "Sr."), an initial ("J. K. Rowling"), a German
ordinal day ("am 12. Juni"), or a list number at a line's start ("1. Take the train"), and never
inside a number ("3.5 km"). Cutting a reply
at "Mt." left "I just got back from hiking on Mt." (issue 18).
While a reply streams, a "." at the end of what has arrived is not decided yet: the next character
tells (`first_end(..., final=False)`).
"""
from __future__ import annotations

import re

# Lower-case, without their final ".": titles, Latin shorthands, units and months that take a
# period in English, French, German and Spanish text.
ABBREVIATIONS = frozenset("""
mr mrs ms mx dr prof sr jr st mt ft rev gen col lt sgt capt gov sen rep
e.g i.e etc vs cf approx ca esp incl dept est fig no nos vol ch pp al
jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur thurs fri sat sun
a.m p.m u.s u.k u.n
mme mlle m.m
z.b u.a bzw usw ggf nr str hr fr dipl
sra srta dra d.c p.ej ee.uu
""".split())

_STRONG_END = "。！？!?…"
_CLOSERS = "\"'”’)）」』】]"
_WORD_BEFORE = re.compile(r"([A-Za-zÀ-ÿ][A-Za-zÀ-ÿ.]*)$")
_LIST_NUMBER = re.compile(r"(?:^|\n)[ \t]*(?:#+[ \t]*|[-*][ \t]+)?\d{1,3}$")


def _closers_end(text: str, i: int) -> int:
    while i < len(text) and text[i] in _CLOSERS:
        i += 1
    return i


_ORDINAL_DAY = re.compile(r"(?:^|\s)\d{1,2}$")
# After a number and ".", streaming: too few letters yet to tell a month ("Jun…") from a new sentence.
_MONTH_ARRIVING = re.compile(r"\s+[A-Za-zÀ-ÿ]{0,2}$")
_AFTER_ORDINAL = re.compile(r"\s+(?:[a-zà-ÿ]|(?:Jan|Feb|Mär|Mar|Apr|Mai|May|Jun|Jul|Aug|Sep|Okt|Oct|Nov|Dez|Dec)[a-zä]*\b)")


def _period_ends(text: str, i: int) -> bool:
    """Whether the "." at `i` (followed by whitespace or the end) ends a sentence."""
    before = text[:i]
    if _LIST_NUMBER.search(before):
        return False
    # A German ordinal day ("am 12. Juni"), or a number the sentence goes on after ("Platz 3. und…").
    if _ORDINAL_DAY.search(before) and _AFTER_ORDINAL.match(text, i + 1):
        return False
    word = _WORD_BEFORE.search(before)
    if word is None:
        return True
    token = word.group(1).lower()
    if token in ABBREVIATIONS:
        return False
    # An initial ("J. K. Rowling", "U.S"): one capital letter, or letters with inner periods.
    return not (len(token) == 1 and word.group(1).isupper()) and "." not in token


def first_end(text: str, start: int = 0, final: bool = True, colon: bool = False) -> int | None:
    """The index just past the first sentence end at or after `start` (its closing quotes and the
    spaces after it included), or None when no sentence has ended yet. `final`: the text is
    complete; else a "." or ":" at the end of `text` is undecided. `colon`: a colon before a space
    (or "：") ends a piece too ("Here are some tips for house-training a puppy: take him out…")."""
    i = start
    n = len(text)
    while i < n:
        c = text[i]
        if colon and c in ":：":
            j = _closers_end(text, i + 1)
            if c == "：" or (j < n and text[j].isspace()):
                while j < n and text[j] in " \t":
                    j += 1
                return j
            if j == n and not final:
                return None
            i = j
            continue
        if c == "\n":
            j = i
            while j < n and text[j].isspace():
                j += 1
            return j
        if c in _STRONG_END:
            j = i
            while j < n and text[j] in _STRONG_END + ".":
                j += 1
            j = _closers_end(text, j)
            if j == n and not final:
                return None  # a closing 」 or ” may follow: judged without it, an echo cut left "」 / …"
            while j < n and text[j] in " \t":
                j += 1
            return j
        if c == ".":
            j = i
            while j < n and text[j] == ".":
                j += 1
            k = _closers_end(text, j)
            if k == n:
                if final:
                    return k
                return None  # the next character tells: "3.5", "Mt. ", "end."
            if not final and j - i == 1 and _ORDINAL_DAY.search(text[:i]) and _MONTH_ARRIVING.match(text, k):
                return None  # "am 12. J…": "Juni" would go on the sentence, the next letters tell
            if text[k].isspace() and (j - i > 1 or _period_ends(text, i)):
                while k < n and text[k] in " \t":
                    k += 1
                return k
            i = j
            continue
        i += 1
    return None


_UNDECIDED_TAIL = re.compile("[" + re.escape(_STRONG_END) + ".:：][" + re.escape(_STRONG_END) + ".]*["
                             + re.escape(_CLOSERS) + "]*$")


def undecided_tail(text: str) -> int:
    """How many characters at the end of a streaming `text` may still end a sentence once the next
    character arrives (an end mark and any closing quotes after it): hold them until it does."""
    found = _UNDECIDED_TAIL.search(text)
    return len(found.group(0)) if found else 0


def split(text: str, colon: bool = False) -> list[str]:
    """The sentences of `text`, in order, each with its end punctuation and the spaces after it;
    the last one may have no end mark. Joined, they give back `text` (blank pieces aside)."""
    pieces: list[str] = []
    start = 0
    while start < len(text):
        end = first_end(text, start, colon=colon)
        if end is None:
            pieces.append(text[start:])
            break
        pieces.append(text[start:end])
        start = end
    return [p for p in pieces if p.strip()]


def shortened(text: str, most: int) -> str:
    """`text` whole if it fits in `most` characters, else cut at its last space before that (anywhere in Chinese or
    Japanese) and ended with "…": the run report wrote "question: ¿Cuándo es el cumpleaños de mi madre y q"."""
    text = " ".join(text.split())
    if len(text) <= most:
        return text
    cut = text[:most]
    space = cut.rfind(" ")
    return (cut[:space] if space > most // 2 else cut).rstrip(" ,;:、，") + "…"
