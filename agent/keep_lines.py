"""The shape of a kept note in core memory, in the user's language, and of a corrected one.

'- 2026-03-04 Ken said: "My locker is 317"', 「- 2026-03-04 ハルカさんの言葉:「…」」, '- … 王磊说：「…」':
the day, who said it and their words, quoted so the user's "I" is not read as the persona's. A
correction is written after the note in the user's words (`corrected_note`); after the reply the
model names the words that change and the app puts the note right (`merge_prompt`, `merged_line`).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

# language: (said, corrected mark, label of a correction, opening quote, closing quote)
_SHAPES = {
    "ja": ("{who}さんの言葉{mark}:", "（訂正後）", "訂正", "「", "」"),
    "zh": ("{who}说{mark}：", "（更正后）", "更正", "「", "」"),
    "ko": ("{who} 님의 말{mark}: ", " (정정)", "정정", '"', '"'),
    "en": ("{who} said{mark}: ", " (corrected)", "corrected", '"', '"'),
    "es": ("{who} dijo{mark}: ", " (corregido)", "corregido", '"', '"'),
    "fr": ("{who} a dit{mark} : ", " (corrigé)", "corrigé", "« ", " »"),
    "de": ("{who} sagte{mark}: ", " (korrigiert)", "korrigiert", "„", "“"),
    "it": ("{who} ha detto{mark}: ", " (corretto)", "corretto", '"', '"'),
    "pt": ("{who} disse{mark}: ", " (corrigido)", "corrigido", '"', '"'),
}


def _shape(language: str) -> tuple[str, str, str, str, str]:
    return _SHAPES.get(language, _SHAPES["en"])


def kept_line(day: str, who: str, body: str, language: str, corrected: bool = False) -> str:
    """The one shape of a kept note in core memory (`pending_corrections` reads it back)."""
    said, mark, _, opening, closing = _shape(language)
    return f"- {day} {said.format(who=who, mark=mark if corrected else '')}{opening}{body}{closing}"


def corrected_note(kept: str, correction: str, now_day: str) -> str:
    """The kept line with the user's correction after it, in their words: the newer version wins
    in the persona's memory, and the reply is told what changed."""
    language = next((lang for lang, pattern in _LINE.items() if pattern.match(kept.strip())), "en")
    _, _, label, opening, closing = _shape(language)
    return f"{kept} → {label} {now_day}:{_gap(opening)}{opening}{' '.join(correction.split())}{closing}"


def _gap(opening: str) -> str:
    return "" if opening == "「" else " "  # 「→ 訂正 2026-03-01:「…」」 as the notes kept before


def _line_pattern(language: str, with_fix: bool) -> re.Pattern:
    said, _, label, opening, closing = _shape(language)
    head = re.escape(said).replace(re.escape("{who}"), "(?P<who>.+?)").replace(re.escape("{mark}"), "")
    fix = (rf" → {re.escape(label)} (?P<when>\d{{4}}-\d{{2}}-\d{{2}}):{_gap(opening)}{re.escape(opening)}(?P<fix>.*){re.escape(closing)}"
           if with_fix else "")
    return re.compile(rf"^- (?P<said>\d{{4}}-\d{{2}}-\d{{2}}) {head}{re.escape(opening)}(?P<note>.*?){re.escape(closing)}{fix}$")


_LINE = {lang: _line_pattern(lang, False) for lang in _SHAPES}
_CORRECTED = {lang: _line_pattern(lang, True) for lang in _SHAPES}
MERGE_SCHEMA = {"type": "object", "properties": {"old": {"type": "string"}, "new": {"type": "string"}},
                "required": ["old", "new"]}


def note_of(line: str) -> str:
    """The user's words in a kept line ("" when the line is not a kept note)."""
    for pattern in _LINE.values():
        match = pattern.match(line.strip())
        if match:
            return match["note"]
    return ""


@dataclass(frozen=True)
class PendingCorrection:
    line: str  # the core-memory line as it stands
    who: str
    when: str  # the day of the correction, YYYY-MM-DD
    note: str
    correction: str
    language: str


def pending_corrections(core_memory: str) -> list[PendingCorrection]:
    found = []
    for line in core_memory.splitlines():
        for language, pattern in _CORRECTED.items():
            match = pattern.match(line.strip())
            if match:
                found.append(PendingCorrection(line.strip(), match["who"], match["when"], match["note"], match["fix"],
                                               language))
                break
    return found


def merge_prompt(pending: PendingCorrection) -> tuple[str, str]:
    """(system, user) of the call that finds what the correction changes: the words of the note
    it replaces and the words that replace them. (Asked to rewrite the note, the 1.5B model copied
    the correction; asked which words change, it names them, and the app puts them in.)"""
    system = ("A note and a correction to it. Which words of the note does the correction change, and to "
              'what? Answer with a JSON object: {"old": "words copied from the note", "new": "the words '
              'that replace them"}\n'
              "Example. Note: I have a team meeting on Monday at 10. Correction: Sorry, they moved it to "
              'Tuesday. → {"old": "Monday", "new": "Tuesday"}')
    user = f"Note: {pending.note}\nCorrection: {pending.correction}"
    return system, user


def merged_line(pending: PendingCorrection, answer: str) -> str | None:
    """The core-memory line with the note as corrected, or None when the answer is not usable:
    not JSON, "old" not words of the note, "new" not words of the correction, or no change."""
    try:
        data = json.loads(answer)
        old, new = (" ".join(str(data[k]).split()).strip(' "「」') for k in ("old", "new"))
    except (json.JSONDecodeError, KeyError, TypeError, AttributeError):
        return None
    if not old or not new or old == new or old not in pending.note or new.lower() not in pending.correction.lower():
        return None
    return kept_line(pending.when, pending.who, pending.note.replace(old, new), pending.language, corrected=True)
