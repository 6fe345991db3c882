"""What every "please remember" grammar shares: the request found, and where quotes and sentences are."""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class KeepRequest:
    language: str  # the grammar that recognised it
    start: int  # the request words: text[start:end], dropped from the kept note
    end: int


_QUOTES = re.compile(r"\"[^\"]*\"|“[^”]*”|«[^»]*»|„[^“”\"]*[“”\"]|「[^」]*」|『[^』]*』|‘[^’]*’"
                     r"|(?:(?<=^)|(?<=[\s(:]))'(?:[^']|(?<=\w)'(?=\w))+'(?=[\s.,!?;:)]|$)")


def inside_quote(text: str, position: int) -> bool:
    return any(m.start() < position < m.end() for m in _QUOTES.finditer(text))


def sentence_before(text: str, position: int) -> str:
    start = max(text.rfind(c, 0, position) for c in ".!?。！？\n")
    return text[start + 1:position]
