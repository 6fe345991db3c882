"""Keeps a reply in character while it streams: a later sentence that steps out of the persona
(help-desk talk, "as an AI language model", a line written as someone's turn "Ken: …") ends the
reply there and is never shown.

The embedded 1.5B model closes many Japanese replies with a help-desk line
(「何かお手伝いできることがあれば…」) after an answer that was fine (shared/notes/conversation-probe.md;
naming such phrases in the prompt made it write more of them, and token bans hit common Japanese).
A companion is a friend, not a help desk, so the app drops that sentence and what follows it.
The first sentence streams at once (the time to the first word matters) unless it opens like an
apology or a disclaimer; then it is held and checked, and if it steps out of character nothing
has been shown and the reply is asked for again. Each later sentence is shown when it is
complete and passed the check. Sentence ends: 。！？!? and "." before a space,
or a line break.
"""
from __future__ import annotations

import re
from typing import Sequence

_OUT_OF_CHARACTER = re.compile(
    r"\bas an ai\b|\bi(?:'m| am) (?:just )?an ai\b|\b(?:ai )?language model\b|\bvirtual assistant\b"
    r"|\bhow (?:can|may) i (?:help|assist)\b|\b(?:anything|something) (?:else )?(?:i can|to) (?:help|assist)\b"
    r"|\bi(?:'m| am) (?:an?|your) (?:ai )?assistant\b|\bis there anything else\b|\blet me know if you need anything\b"
    r"|\bfeel free to (?:ask|let me know|reach out)\b|\bif you have any (?:other |more )?questions\b"
    r"|AI言語モデル|言語モデル|人工知能|AIなので|AIとして|AIです|お手伝い|手伝いでき|お役に立て|お知らせください|アシスタント"
    r"|お気軽に|ご質問|ご不明|何か他に.*(?:教えて|ありますか|あれば)",
    re.IGNORECASE,
)
# A first sentence that opens like this is held until it is whole and checked (an apology or a
# disclaimer, the way the model starts stepping out of character); any other streams as soon as
# its first characters rule these out.
_RISKY_OPENINGS = ("申し訳", "すみませんが", "すいませんが", "ごめんなさい、私は", "私はai", "私は人工", "お手伝い", "お役に",
                   "i'm sorry, but",
                   "i'm sorry but", "i apologi", "as an ", "as a ", "i am an ", "i am a ", "i'm an ", "i'm a ")


def _opening_risk(text: str) -> bool | None:
    """True if `text` opens like a disclaimer, False once it cannot, None while undecided."""
    head = text.lstrip().lower().replace("’", "'")
    if any(head.startswith(o) for o in _RISKY_OPENINGS):
        return True
    return None if any(o.startswith(head) for o in _RISKY_OPENINGS) else False


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
        self._risky: bool | None = None  # whether the first sentence opens like a disclaimer
        self.blocked = ""  # the sentence that ended the reply, if one did

    def feed(self, delta: str) -> str:
        if self.blocked:
            return ""
        self._pending += delta
        shown: list[str] = []
        if not self._first_done:
            if self._risky is None:
                self._risky = _opening_risk(self._pending)
            end = _SENTENCE_END.search(self._pending)
            if end is None:  # still in the first sentence: it streams as it comes, unless risky
                if self._risky is False:
                    shown.append(self._pending)
                    self._pending = ""
                return "".join(shown)
            first = self._pending[: end.end()]
            self._pending = self._pending[end.end():]
            self._first_done = True
            if self._risky is not False and breaks_character(first, self._names):
                self.blocked = first  # nothing was shown: the caller asks for the reply again
                return ""
            shown.append(first)
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
        if (self._first_done or self._risky) and breaks_character(rest, self._names):
            self.blocked = rest
            return ""
        return rest
