"""Which language a message is written in, by its script: the reply must come in the same one.

Kana means Japanese; Han characters without kana mean Chinese; mostly Latin letters mean a
Latin-script language (treated as English for the reply rules). The counts follow the
conversation scorer's (shared/bench/conversation_checks.py), so the app and the check agree.
"""
from __future__ import annotations

import re

_KANA = re.compile(r"[\u3040-\u30ff]")
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")


def is_cjk(char: str) -> bool:
    """A kana or Han character: the scripts that make a message Japanese or Chinese."""
    return bool(_KANA.match(char) or _HAN.match(char))


_QUESTION = re.compile(r"[?？]|(?:ですか|ますか|かな|だっけ|っけ|の|吗|呢)[。]?\s*$")


def is_question(text: str) -> bool:
    """A question mark, or a Japanese or Chinese sentence-final question particle."""
    return bool(_QUESTION.search(text.strip()))


def message_language(text: str, han_only: str = "ja") -> str:
    """"ja", "zh", "en", or "" when the text has no letters to tell by. Han characters with no
    kana are Chinese or terse Japanese (「了解」); `han_only` says which (the persona's languages)."""
    kana, han, latin = len(_KANA.findall(text)), len(_HAN.findall(text)), len(_LATIN.findall(text))
    if kana:
        return "ja"
    if han and han >= 0.5 * (han + latin):
        return han_only
    if latin:
        return "en"
    return ""
