"""Keeps a reply in character while it streams: a later sentence that steps out of the persona
(help-desk talk, "as an AI language model", a line written as someone's turn "Ken: …") ends the
reply there and is never shown.

The embedded 1.5B model closes many Japanese replies with a help-desk line
(「何かお手伝いできることがあれば…」) after an answer that was fine (shared/notes/conversation-probe.md;
naming such phrases in the prompt made it write more of them, and token bans hit common Japanese).
A companion is a friend, not a help desk, so the app drops that sentence and what follows it.
The first sentence streams at once (the time to the first word matters); each later sentence is
shown when it is complete and passed the check. Sentence ends: 。！？!? and "." before a space,
or a line break.
"""
from __future__ import annotations

import re
from typing import Sequence

_OUT_OF_CHARACTER = re.compile(
    r"\bas an ai\b|\bi(?:'m| am) (?:just )?an ai\b|\b(?:ai )?language model\b|\bvirtual assistant\b"
    r"|\bhow (?:can|may) i (?:help|assist)\b|\b(?:anything|something) (?:else )?(?:i can|to) (?:help|assist)\b"
    r"|\bi(?:'m| am) (?:an?|your) (?:ai )?assistant\b|\bis there anything else\b|\blet me know if you need anything\b"
    r"|AI言語モデル|言語モデル|人工知能として|AIなので|AIとして|お手伝い|手伝いでき|お役に立て|お知らせください|アシスタント",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[。！？!?…]+[」』）)\"'”’]*\s*|\.(?:[\"'”’)]*)\s+|\n+")


def breaks_character(sentence: str, names: Sequence[str] = ()) -> bool:
    """Whether the sentence steps out of the persona, or starts a turn as one of `names`."""
    if _OUT_OF_CHARACTER.search(sentence):
        return True
    speakers = "|".join(re.escape(n) for n in names if n)
    return bool(speakers and re.match(rf"\s*(?:{speakers})\s*[:：]", sentence))


class SentenceGate:
    """Feed the model's text as it streams; get back the text that may be shown.

    After `blocked` is set the reply is over: the caller stops generating.
    """

    def __init__(self, names: Sequence[str] = ()):
        self._names = tuple(names)
        self._pending = ""
        self._first_done = False
        self.blocked = ""  # the sentence that ended the reply, if one did

    def feed(self, delta: str) -> str:
        if self.blocked:
            return ""
        self._pending += delta
        shown: list[str] = []
        if not self._first_done:
            end = _SENTENCE_END.search(self._pending)
            if end is None:  # still in the first sentence: it streams as it comes
                shown.append(self._pending)
                self._pending = ""
                return "".join(shown)
            shown.append(self._pending[: end.end()])
            self._pending = self._pending[end.end():]
            self._first_done = True
        while not self.blocked:
            end = _SENTENCE_END.search(self._pending)
            if end is None:
                break
            sentence, rest = self._pending[: end.end()], self._pending[end.end():]
            if breaks_character(sentence, self._names):
                self.blocked, self._pending = sentence, ""
                break
            shown.append(sentence)
            self._pending = rest
        return "".join(shown)

    def flush(self) -> str:
        """The rest, once the model has finished: shown if it passes the check."""
        rest, self._pending = self._pending, ""
        if self.blocked or not rest:
            return ""
        if self._first_done and breaks_character(rest, self._names):
            self.blocked = rest
            return ""
        return rest
