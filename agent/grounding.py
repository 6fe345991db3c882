"""What a night's text says that its material does not: the sentences of a dream whose words the days,
the user's messages and the ask itself mostly lack.

Told to reflect, the 1.5B model invents: "Noor's favorite instrument is the violin" (she plays the cello),
"Noor is a hardworking and reliable individual who values his time", 「天野さんの美味な料理」 (the tenzaru
became a person), 「上司との関係も深まる可能性がある」 — and the diary it writes is recalled into later
replies as memory (bench nights, sessions 14–25: no dream insight of 16 labelled held up). A sentence is
kept when at least DREAM_GROUNDED_SHARE of what it is about (agent/role.py `content_units`, without the
names and the small words of person: "her", "his", "herself") is found in the material; the rest is left
out rather than remembered. When the first sentence is left out, so is the rest: what follows leans on
it ("Noor's favorite instrument is the violin. It has a calming effect on her.").
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable

import constants
from agent import sentences
from agent.language import function_words, sure_language
from agent.role import content_units

_POSSESSIVE = re.compile(r"['’]s\b")  # "Noor's" is about Noor
_HANGUL = re.compile(r"[\uac00-\ud7af]+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_SHORT_LATIN = re.compile(r"(?<![A-Za-z])[A-Za-z]{2}(?![A-Za-z])")
# Words of person in the Latin-script languages, beside each language's small words (agent/language.py
# `function_words`): who did a thing is not what it is about.
_PERSON_WORDS = frozenset("""
he she him her his hers herself himself they them their theirs themselves you your yours yourself we our ours
ourselves it its he'd she'd he's she's they're you're we're
""".split())


def units_of(text: str, names: Iterable[str] = ()) -> set[str]:
    """What `text` is about (agent/role.py `content_units`): without `names` (the user's, the persona's),
    possessive endings and words of person; a Korean word by its first two syllables, so that its
    particle does not make it another word (친구와, 친구를); in CJK text, two Latin letters too."""
    text = _POSSESSIVE.sub("", unicodedata.normalize("NFKC", text))
    for name in sorted((n.strip() for n in names if n.strip()), key=len, reverse=True):
        text = re.sub(re.escape(name), " ", text, flags=re.IGNORECASE)
    small = _PERSON_WORDS | function_words(sure_language(text))
    units = content_units(text)
    units = {u for u in units if u.casefold() not in small}
    if _CJK.search(text):  # "UI" for ユイ: in a Japanese sentence two Latin letters are a word of their own
        units |= {w.casefold() for w in _SHORT_LATIN.findall(text)}
    return {u[:2] if _HANGUL.fullmatch(u) else u for u in units}


@dataclass(frozen=True)
class Grounded:
    kept: str  # the text without the sentences its material lacks
    left_out: tuple[str, ...]  # those sentences
    missing: tuple[str, ...]  # what they were about that the material lacks, first seen first


def grounded(text: str, material: str, names: Iterable[str] = (),
             share: float = constants.DREAM_GROUNDED_SHARE) -> Grounded:
    """`text` sentence by sentence: kept when at least `share` of its units are in `material`'s (a
    sentence with none — "おやすみ。" — is kept) and, in Japanese, Chinese or Korean, it has no word in
    Latin letters the material lacks; and only while its first sentence is kept."""
    names = tuple(names)
    known = units_of(material, names)
    kept, left_out, missing = [], [], []
    for index, sentence in enumerate(sentences.split(text)):
        units = units_of(sentence, names)
        lacking = sorted(units - known)
        # in a CJK sentence, a word in Latin letters the material lacks is a name miswritten ("UI" for ユイ)
        miswritten = bool(_CJK.search(sentence)) and any(u.isascii() and u.isalpha() for u in lacking)
        if units and ((len(units) - len(lacking)) / len(units) < share or miswritten):
            left_out.append(sentence.strip())
            missing += [u for u in lacking if u not in missing]
            if index == 0:
                return Grounded("", tuple(s.strip() for s in sentences.split(text)), tuple(missing))
        else:
            kept.append(sentence)
    return Grounded("".join(kept).strip(), tuple(left_out), tuple(missing))
