""""Please remember …" requests: recognised by rule and kept by the app itself.

The embedded model was offered the edit tools for such messages and did not call them (0 of 5
requests saved, issue 12), so for models without native tool calls the app writes the request
to core memory before the reply is generated, and the reply is told it was saved.
A question about memory ("do you remember …?", 「覚えてる？」) is not a request to keep anything.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Sequence

import constants
from agent.language import message_language

_REQUEST = re.compile(
    # English: imperative forms only; "do you remember that …" asks, it does not request.
    r"(?<!do you )(?<!did you )(?<!don't you )\bremember (?:that|this)\b|\bplease remember\b|\bremember:"
    r"|\bdon'?t forget\b|\bdo not forget\b|\bkeep in mind\b|\bmake a note\b|\btake a note\b"
    r"|\bnote (?:that|this|down)\b|\b(?:write|jot) (?:it|this|that) down\b|\b(?:add|put) (?:it|this|that) (?:in|to) your (?:notepad|notes|core memory)\b"
    # Japanese: 覚えておいて / 覚えといて / 覚えてて(ね) / 忘れないで / メモして / 記録して / 書いておいて
    r"|覚えて(?:お|と)い?て|覚えといて|覚えてて(?:ね|ほしい|欲しい|ください)|おぼえておいて|忘れないで|忘れずに"
    r"|メモ(?:して|しておいて|しといて|っておいて|っといて)|記録(?:して|しておいて)|書いておいて|書き留めて"
    # Chinese
    r"|记住|記住|别忘了|別忘了|记下|記下",
    re.IGNORECASE,
)
_ENGLISH_LEAD = re.compile(
    r"^(?:(?:hey|oh|ok|okay|so|and|also)[,!]?\s+)?(?:(?:can|could|would|will) you\s+)?(?:please\s+)?"
    r"(?:remember|don'?t forget|do not forget|keep in mind|note|make a note|take a note)(?:\s+(?:that|this|of this))?\s*[:,]?\s+",
    re.IGNORECASE,
)


_ASKED = re.compile(r"^(?:(?:hey|oh|ok|okay|so|and|also)[,!]?\s+)?(?:can|could|would|will) you\b", re.IGNORECASE)


def is_keep_request(text: str) -> bool:
    return bool(_REQUEST.search(text))


_JAPANESE_LEAD = re.compile(
    r"^(?:ねえ|あのね|ちなみに)?[、,]?\s*(?:これ)?(?:覚えて(?:おいて|て|といて)|メモして(?:おいて)?)"
    r"(?:ほしいんだけど|ほしいんだ|ほしい|ね|ください)?[、,。！!：:]?\s*")
_JAPANESE_TAIL = re.compile(
    r"[、,]?\s*(?:って|ということ)?(?:覚えて(?:おいて|て|といて)|忘れないで|メモして(?:おいて)?|メモっといて)"
    r"(?:ね|ください|ほしい|くれる)?[。！!？?]*$")


def keep_note(text: str, user_name: str, now: datetime) -> str:
    """The line kept for the request: its date, who said it, and what, quoted in the user's own
    words with the request itself dropped ("Please remember that", 「覚えておいてほしいんだけど、」).
    Quoted, because the user's "I"/「私」 read as the persona's own in a bare line: asked 「私のアレルギ
    ー、覚えてる？」, the model answered 「私はアレルギーはありません」 (session 8 transcripts)."""
    body = " ".join(text.split())
    stripped = _JAPANESE_TAIL.sub("", _JAPANESE_LEAD.sub("", _ENGLISH_LEAD.sub("", body, count=1), count=1))
    if _ASKED.match(body):  # "Can you note that it is on Thursday?": the fact, not a question
        stripped = stripped.rstrip("?？ ")
    if stripped and stripped != body:
        body = stripped[0].upper() + stripped[1:]
    return _kept_line(now.strftime("%Y-%m-%d"), user_name, body, message_language(body) in ("ja", "zh"))


def _kept_line(day: str, who: str, body: str, japanese: bool, corrected: bool = False) -> str:
    """The one shape of a kept note in core memory (`_CORRECTED` reads it back)."""
    if japanese:
        return f"- {day} {who}さんの言葉{'（訂正後）' if corrected else ''}:「{body}」"
    return f'- {day} {who} said{" (corrected)" if corrected else ""}: "{body}"'



# A message that changes what was just said ("it's been moved to Friday", 「やっぱり土曜日じゃなくて日曜日」).
# Only acted on right after a kept request (`KEEP_CORRECTION_WINDOW` user messages), where it can
# only be about that note: "actually" in any other message corrects nothing that was kept.
_CORRECTION = re.compile(
    r"\b(?:actually|moved (?:it |that )?to|changed (?:it |that )?to|rescheduled|postponed|instead|i meant"
    r"|mixed (?:that|it|them) up|correction|scratch that|not \w+ but)\b"
    r"|じゃなくて|ではなく|間違え|訂正|変更|変わった|ずれた|延期|やっぱり|移った|になった"
    r"|改到|改成|改为|更正|搞错|其实",
    re.IGNORECASE,
)


def is_correction(text: str) -> bool:
    return bool(_CORRECTION.search(text))


def corrected_note(kept_line: str, correction: str, now: datetime) -> str:
    """The kept line with the user's correction after it, in their words: the newer version wins
    in the persona's memory, and the reply is told what changed."""
    body = " ".join(correction.split())
    date = now.strftime("%Y-%m-%d")
    if message_language(body) in ("ja", "zh"):
        return f"{kept_line} → 訂正 {date}:「{body}」"
    return f'{kept_line} → corrected {date}: "{body}"'


@dataclass(frozen=True)
class KeepAction:
    """What the app writes to core memory for this message: a new line (`old_line` empty) or a
    kept line replaced by its corrected form."""
    line: str
    old_line: str = ""


def keep_action(text: str, earlier_user_messages: Sequence[tuple[str, datetime]], user_name: str,
                now: datetime) -> KeepAction | None:
    """A keep request → its note; a correction within `KEEP_CORRECTION_WINDOW` user messages of a
    keep request → that note, corrected; anything else → None. `earlier_user_messages`: the
    user's previous messages with their times, oldest first."""
    if is_keep_request(text):
        return KeepAction(keep_note(text, user_name, now))
    if not is_correction(text):
        return None
    for earlier, when in reversed(earlier_user_messages[-constants.KEEP_CORRECTION_WINDOW:]):
        if is_keep_request(earlier):
            old = keep_note(earlier, user_name, when)
            return KeepAction(corrected_note(old, text, now), old)
    return None


# A corrected note as `corrected_note` writes it, waiting to be put right (after the reply: the model
# names the words that change, `merge_prompt`, and the app replaces them, `merged_line`). With both
# versions in the line, asked "When is my dentist appointment again?", the model answered with the
# first one, "Thursday" (bench conversation, session 9).
_CORRECTED = (
    re.compile(r'^- (?P<said>\d{4}-\d{2}-\d{2}) (?P<who>.+?) said: "(?P<note>.*)" → corrected (?P<when>\d{4}-\d{2}-\d{2}): "(?P<fix>.*)"$'),
    re.compile(r"^- (?P<said>\d{4}-\d{2}-\d{2}) (?P<who>.+?)さんの言葉:「(?P<note>.*)」 → 訂正 (?P<when>\d{4}-\d{2}-\d{2}):「(?P<fix>.*)」$"),
)
MERGE_SCHEMA = {"type": "object", "properties": {"old": {"type": "string"}, "new": {"type": "string"}},
                "required": ["old", "new"]}


@dataclass(frozen=True)
class PendingCorrection:
    line: str  # the core-memory line as it stands
    who: str
    when: str  # the day of the correction, YYYY-MM-DD
    note: str
    correction: str
    japanese: bool


def pending_corrections(core_memory: str) -> list[PendingCorrection]:
    found = []
    for line in core_memory.splitlines():
        for japanese, pattern in enumerate(_CORRECTED):
            match = pattern.match(line.strip())
            if match:
                found.append(PendingCorrection(line.strip(), match["who"], match["when"], match["note"], match["fix"],
                                               bool(japanese)))
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
    return _kept_line(pending.when, pending.who, pending.note.replace(old, new), pending.japanese, corrected=True)
