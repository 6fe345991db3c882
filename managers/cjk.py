"""Japanese, Chinese and Korean text for the lexical indexes: what a CJK run is and its grams.

Written CJK has no spaces, so the gram index (`items_grams`) holds every CJK run's single
characters and character bigrams, and a ranking query looks up each CJK term's bigrams and its
ideographs one by one (a one-character term, like 猫, as itself). A word of two characters (田中)
is one bigram; a longer run matches partly (健康診断 in 診断書); a Chinese sentence, one run with no
particles to split it, becomes the bigrams a Chinese word is mostly made of, and its single
ideographs still find a one-character word inside it (猫 in 我的猫呢). Kana are not looked up alone:
a single kana is grammar or part of a word, not a word (BENCHMARKS.md, "CJK recall").
"""
from __future__ import annotations

import re
import unicodedata

# Hiragana, katakana (less the middle dot ・, a separator), CJK ideographs with extension A and
# compatibility ideographs, Hangul syllables, and 々 〆 〇 (佐々木, 時々).
_IDEOGRAPH = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_RUN = re.compile(r"[\u3005-\u3007\u3040-\u30fa\u30fc-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+")


def cjk_runs(text: str) -> list[str]:
    """The CJK runs of the NFKC-normalised text (half-width katakana become full-width)."""
    return _RUN.findall(unicodedata.normalize("NFKC", text))


def is_cjk(term: str) -> bool:
    return bool(term) and _RUN.fullmatch(unicodedata.normalize("NFKC", term)) is not None


def bigrams(run: str) -> list[str]:
    return [run[i:i + 2] for i in range(len(run) - 1)]


def index_grams(text: str) -> str:
    """Unigrams and bigrams of every CJK run, space-separated: the gram index's text for an item."""
    grams: list[str] = []
    for run in cjk_runs(text):
        grams.extend(run)
        grams.extend(bigrams(run))
    return " ".join(grams)


def query_grams(term: str) -> list[str]:
    """What a CJK search term looks up in the gram index: its bigrams, then its ideographs one by
    one; a one-character term itself. (Bigrams alone: Chinese R@5 3 points lower, the single
    ideographs of kana words too: Japanese 1 lower; bench cjk, BENCHMARKS.md "CJK recall".)"""
    term = unicodedata.normalize("NFKC", term)
    if len(term) <= 1:
        return [term] if term else []
    return bigrams(term) + [c for c in term if _IDEOGRAPH.fullmatch(c)]
