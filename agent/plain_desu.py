"""A verb's plain form followed by です, said as 〜んです: 「アレルギーがあるです」 → 「あるんです」.

The embedded 1.5B model glues です to a verb's dictionary or past form (「料理に興味あるですね」,
「カレーを作ったです」: four of the eight Japanese replies of `bench conversation --quick`, session 34),
which no speaker says. Turning the verb polite (作りました) needs its conjugation class; 〜んです is
grammatical for every verb and keeps the model's meaning, so only ん is inserted.

Only where the kana before です can end nothing but a verb: a past た after っ, an i- or e-row kana
or a kanji (見た, 来た), だ after ん (not 「よかったです」, 「あなたです」, 「まだです」, 「へたです」, 「ましたです」), and a present
う ぐ す ぶ む る after a kanji or kana (not 「そうです」, 「どうですか」, 「はずです」, 「いくつですか」,
「近くです」: つ, ず and く end nouns too often). Katakana words (「ハルです」) and correct 〜んです never match.
"""
from __future__ import annotations

import re

_KANJI = r"\u3005\u4e00-\u9fff"
_LETTER = rf"[\u3041-\u3096{_KANJI}]"  # a hiragana or a kanji: the verb goes on before its ending
_PAST = rf"(?<!かっ)(?<!まし)(?<!でし)(?<=[っいきしちにみりぎじびえけせてねめれげでべ{_KANJI}])た|(?<=ん)だ"
_PRESENT = rf"(?<={_LETTER})(?:(?<=[あかがさざただなはばまやらわいきぎしじちにひびみり{_KANJI}])う|[ぐぶむる]|(?<![まで])す)"
_PLAIN_BEFORE_DESU = re.compile(rf"(?:{_PAST}|{_PRESENT})(?=です)")
_UNDECIDED_TAIL = re.compile(rf"(?:{_PAST}|{_PRESENT})で?$")
_CONTEXT_CHARS = 3  # what a rule reads before its kana: 「まし」 of 「ましたです」


def mend_plain_desu(text: str, start: int = 0) -> str:
    """`text` with 〜んです where a verb's plain form was followed by です; `start`: where a verb ending
    may begin (what comes before it is read, never changed)."""
    return _PLAIN_BEFORE_DESU.sub(lambda m: m.group(0) + "ん" if m.start() >= start else m.group(0), text)


class PlainDesuMender:
    """`mend_plain_desu` over a stream: a verb ending that may yet be followed by です is held until
    the next characters tell (at most two characters: the kana and で)."""

    def __init__(self) -> None:
        self._held = ""
        self._before = ""  # the last characters let through: what the rules read before the held text

    def feed(self, delta: str) -> str:
        text = self._held + delta
        mended = mend_plain_desu(self._before + text, len(self._before))[len(self._before):]
        undecided = _UNDECIDED_TAIL.search(self._before + mended)
        cut = max(0, len(mended) - (len(undecided.group(0)) if undecided else 0))
        self._held, released = mended[cut:], mended[:cut]
        self._before = (self._before + released)[-_CONTEXT_CHARS:]
        return released

    def flush(self) -> str:
        held, self._held = self._held, ""
        self._before = ""
        return held
