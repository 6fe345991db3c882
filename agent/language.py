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


_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s*")
_ASIDE = re.compile(r"\[[^\]]*\]")  # "[shares a photo of …]": what was shown, not said


def only_asks(text: str) -> bool:
    """A message that asks and tells nothing: it ends with a question, and every sentence before
    it is a question too or an exclamation of a few words ("Wow, looks great! Is that your third one?")."""
    sentences = [s for s in _SENTENCE_END.split(_ASIDE.sub("", text).strip()) if s.strip()]
    if not sentences or not re.search(r"[?？]$", sentences[-1]):
        return False
    return all(re.search(r"[?？]$", s) or _exclamation(s) for s in sentences[:-1])


def _exclamation(sentence: str) -> bool:
    words = len(sentence.split()) if sentence.isascii() else len(sentence) // 3
    return words <= 2 or (words <= 4 and bool(re.search(r"[!！]$", sentence)))
