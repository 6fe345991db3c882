"""Keeps a reply in character while it streams: a later sentence that steps out of the persona
(help-desk talk, "as an AI language model", a line written as someone's turn "Ken: …") or that
repeats the user's own words back ends the reply there and is never shown; a later sentence that
restates the user's message is left out.

The embedded 1.5B model closes many Japanese replies with a help-desk line
(「何かお手伝いできることがあれば…」) after an answer that was fine (shared/notes/conversation-probe.md;
naming such phrases in the prompt made it write more of them, and token bans hit common Japanese).
A companion is a friend, not a help desk, so the app drops that sentence and what follows it.
The first sentence streams at once (the time to the first word matters) unless it opens like an
apology or a disclaimer, or is so far a copy of the user's words, or the caller asks for it to be
held (a Japanese reply to something the user told rather than asked, where service talk opened
the reply); then it is held and checked. Held service talk or a disclaimer is left out and the
next sentence opens the reply ("Sure, I can help with that! Try a lentil soup." shows the soup:
asked again, three seeds running opened with the same line, and the chat showed a notice); any
other failure shows nothing and the reply is asked for again. Each later sentence is shown when it is
complete and passed the check. Sentence ends: 。！？!? and "." before a space,
or a line break.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from typing import Sequence

import constants
from agent.language import LATIN_LANGUAGES, SCRIPTS, script_of_letters, sure_language, surely_chinese

_OUT_OF_CHARACTER = re.compile(
    r"\bas an ai\b|\bi(?:'m| am) (?:just )?an ai\b|\b(?:ai )?language model\b|\bvirtual assistant\b"
    r"|\bhow (?:can|may) i (?:help|assist)\b|\b(?:anything|something) (?:else )?(?:i can|to) (?:help|assist)\b"
    r"|\bi(?:'m| am) (?:an?|your) (?:ai )?assistant\b|\bis there anything else\b|\blet me know if you need anything\b"
    r"|\bfeel free to (?:ask|let me know|reach out)\b|\bif you have any (?:other |more )?questions\b"
    r"|\bi can help (?:you )?with that\b|\bi(?:'d| would) be (?:happy|glad) to help\b"
    r"|AI言語モデル|言語モデル|人工知能|AIなので|AIとして|AIです|お手伝い|手伝いでき|お役に立て|お知らせください|アシスタント"
    r"|お気軽に|ご質問|ご不明|何か他に.*(?:教えて|ありますか|あれば)",
    re.IGNORECASE,
)
# A first sentence that opens like this is held until it is whole and checked (an apology or a
# disclaimer, the way the model starts stepping out of character); any other streams as soon as
# its first characters rule these out.
_RISKY_OPENINGS = ("申し訳", "すみませんが", "すいませんが", "ごめんなさい、私は", "私はai", "私は人工", "お手伝い", "お役に",
                   "i'm sorry, but", "sure, i can help", "sure! i can help", "i can help with", "i'd be happy to help",
                   "i'm sorry but", "i apologi", "as an ", "as a ", "i am an ", "i am a ", "i'm an ", "i'm a ")


def _opening_risk(text: str, openings: Sequence[str] = _RISKY_OPENINGS) -> bool | None:
    """True if `text` opens like one of `openings` (lower-case), False once it cannot, None while
    undecided."""
    head = text.lstrip().lower().replace("’", "'")
    if any(head.startswith(o) for o in openings):
        return True
    return None if any(o.startswith(head) for o in openings) else False


def _user_name_openings(user_name: str) -> tuple[str, ...]:
    """How a reply opens when the persona takes the user's name as its own."""
    name = user_name.strip().lower()
    if not name:
        return ()
    return (f"i'm {name}", f"i am {name}", f"my name is {name}", f"私は{name}", f"わたしは{name}", f"{name}です")


def claims_user_name(sentence: str, user_name: str) -> bool:
    """Whether the persona calls itself by the user's name ("Good morning! I'm Maya." said back
    to Maya, 「私はハルカです」 to ハルカ): the reply has taken the user's place."""
    if not user_name.strip():
        return False
    name = re.escape(user_name.strip())
    return bool(re.search(
        rf"\b(?:i'm|i am|my name is|call me)\s+{name}\b(?!['’]s)|(?:私|僕|俺|あたし|わたし)(?:は|の名前は){name}(?!さん)"
        rf"|(?:^|[、。！!？?\s]){name}(?:です|だよ|と申します)", sentence.replace("’", "'"), re.IGNORECASE))


# An echo (the user's words said back: 「早起きしないといけないから、そろそろ寝るね。」 to that very
# message) is at least this many letters, copied or this similar to one of the user's sentences
# (difflib ratio: at 0.8 "Here are some tips for house-training a puppy:" counted as an echo of
# "Any tips for house-training a puppy?"; the conversation scorer applies 0.8 to the whole reply).
ECHO_MIN_CHARS = 10
# A sentence that is a piece of the turn's context this long, or a whole line of it (the reminder), is
# the prompt said back; a shorter piece is an answer quoted from it ("0800 556 713" from a document's passage was
# taken for a copy and the question got an empty-reply notice: bench docqa, session 9).
CONTEXT_COPY_MIN_CHARS = 40
# 0.85: 「私は暑すぎて何もしたくない。」 said back to 「今日は暑すぎて何もしたくない。」 is 0.89 (bench conversation,
# session 10); "Here are some tips for house-training a puppy:" to "Any tips…?" stays below, at 0.82.
ECHO_SIMILARITY = 0.85
ECHO_RESTATED_SHARE = 0.7
_PROMPT_LAYOUT = re.compile(r"\s*(?:#{1,3}\s|-{3,}|={3,})")
# The first letters of a reply tell its script: held until this many letters (or the first kana or
# Hangul), then a reply in another script than the user's message is asked for again (「Wow, John! …」
# to a Japanese message, a Japanese reply to a Korean one).
LANGUAGE_DECIDED_LETTERS = 6
# The scripts a reply in each script's languages may open with (agent/language.py SCRIPTS): Han
# characters alone may be Japanese (今日は…) or Chinese.
_SCRIPT_FITS = {"ja": ("ja", "han"), "zh": ("han",), "ko": ("ko",), "latin": ("latin",)}
# Among Latin-script languages the first letters tell nothing ("Oh", "Super"): a reply to a Spanish,
# French, German, Portuguese or Italian message is judged on its first sentence at most, and asked
# for again only when that sentence is surely in another language (constants.LANGUAGE_REPLY_MIN_SCORE).
_SENTENCE_SPLIT = re.compile(r"(?<=[。！？!?])|(?<=\.)\s+|\n+")
# A colon before a space ends a piece too: "Here are some tips for house-training a puppy: take him
# out after meals." restates the question only up to it.
_SENTENCE_END = re.compile(r"[。！？!?…：]+[」』）)\"'”’]*\s*|[.:](?:[\"'”’)]*)\s+|\n+")


def breaks_character(sentence: str, names: Sequence[str] = ()) -> bool:
    """Whether the sentence steps out of the persona, starts a turn as one of `names`, or writes
    the prompt's own layout (a "# Now" section heading, a "---" rule)."""
    if _OUT_OF_CHARACTER.search(sentence) or _PROMPT_LAYOUT.match(sentence):
        return True
    speakers = "|".join(re.escape(n) for n in names if n)
    return bool(speakers and re.match(rf"\s*(?:{speakers})\s*[:：]", sentence))


def _squash(text: str) -> str:
    """Letters and digits only, case-folded: what an echo keeps of the user's words."""
    return "".join(c for c in unicodedata.normalize("NFKC", text).casefold() if c.isalnum())


def echoes(sentence: str, user_text: str) -> bool:
    """Whether the sentence repeats the user's message (or one of its sentences) back."""
    said, heard = _squash(sentence), _squash(user_text)
    if len(said) < ECHO_MIN_CHARS or not heard:
        return False
    if said in heard:
        return True
    return any(difflib.SequenceMatcher(None, said, _squash(part)).ratio() >= ECHO_SIMILARITY
               for part in _SENTENCE_SPLIT.split(user_text) if len(_squash(part)) >= ECHO_MIN_CHARS)


def restates(sentence: str, user_text: str) -> bool:
    """Whether the sentence carries most of the user's message ("Here are some tips for
    house-training a puppy:" to "Any tips for house-training a puppy?"): the conversation scorer's
    echo bar, a common run of 70 % of a message of 12 letters or more."""
    said, heard = _squash(sentence), _squash(user_text)
    if len(heard) < ECHO_MIN_CHARS:
        return False
    match = difflib.SequenceMatcher(None, said, heard, autojunk=False).find_longest_match(0, len(said), 0, len(heard))
    return match.size >= ECHO_RESTATED_SHARE * len(heard)


def _script_of(text: str) -> str:
    """The script of a reply's first letters (agent/language.script_of_letters): kana or Hangul
    decide at once, Han characters or Latin letters once there are LANGUAGE_DECIDED_LETTERS; ""
    until then."""
    letters = "".join(c for c in text if c.isalpha())[:LANGUAGE_DECIDED_LETTERS]
    script = script_of_letters(letters)
    return script if script in ("ja", "ko") or len(letters) >= LANGUAGE_DECIDED_LETTERS else ""


def _other_latin_language(sentence: str, language: str) -> bool:
    """Whether the sentence is surely in another Latin-script language than `language`."""
    found = sure_language(sentence, constants.LANGUAGE_REPLY_MIN_SCORE)
    return found in LATIN_LANGUAGES and found != language


class SentenceGate:
    """Feed the model's text as it streams; get back the text that may be shown.

    After `blocked` is set the reply is over: the caller stops generating. If nothing had been
    shown by then (`blocked` in the first sentence), the caller asks for the reply again.
    """

    def __init__(self, names: Sequence[str] = (), user_text: str = "", language: str = "", context: str = "",
                 user_name: str = "", hold_first_sentence: bool = False, persona_name: str = ""):
        """`names`: who may not open a line ("Ken: …"); `language`: the user's message's ("en", "ja",
        "zh"; "" checks none); `context`: the turn's context message, which is never to be said
        back; `user_name`: a name the persona never takes as its own; `hold_first_sentence`: the
        first sentence is shown only once whole and checked, whatever it opens with; `persona_name`:
        the persona's own name, taken off as a label when the reply opens with it and a colon ("Ark: …")."""
        self._hold_first = hold_first_sentence
        self._own_labels = tuple(f"{persona_name.strip()}{colon}".lower() for colon in (":", "：")) if persona_name.strip() else ()
        self._names = tuple(names)
        self._user_name = user_name
        self._risky_openings = _RISKY_OPENINGS + _user_name_openings(user_name)
        self._user_text = user_text
        self._heard = _squash(user_text)
        self._script = SCRIPTS.get(language, "")
        # Not English: the first sentence is held until it is surely in the message's language, or whole.
        self._latin_language = language if language in LATIN_LANGUAGES and language != "en" else ""
        self._context = _squash(context)
        self._context_lines = {_squash(line) for line in context.splitlines()} - {""}
        self._pending = ""
        self._first_done = False
        self._streaming = False  # the first sentence has started to be shown
        self.blocked = ""  # the sentence that ended the reply, if one did

    def _offends(self, sentence: str) -> bool:
        said = _squash(sentence)
        return (breaks_character(sentence, self._names) or echoes(sentence, self._user_text)
                or claims_user_name(sentence, self._user_name)
                or (len(said) >= ECHO_MIN_CHARS and said in self._context
                    and (len(said) >= CONTEXT_COPY_MIN_CHARS or said in self._context_lines)))

    def _copying(self, text: str) -> bool:
        said = _squash(text)
        return bool(said) and said in self._heard

    def feed(self, delta: str) -> str:
        if self.blocked:
            return ""
        self._pending += delta
        shown: list[str] = []
        if not self._streaming and not self._first_done:
            decided = self._decide_opening()
            if decided is None:  # hold: it may still be a disclaimer or a copy of the user's words
                return ""
            shown.append(decided)
        if self._streaming and not self._first_done:
            end = _SENTENCE_END.search(self._pending)
            # A final "." or ":" may end the sentence; the next piece tells (a space) — hold it till then.
            cut = end.end() if end else len(self._pending) - self._pending.endswith((".", ":"))
            shown.append(self._pending[:cut])
            self._pending = self._pending[cut:]
            self._first_done = end is not None
        if self._first_done:
            shown.append(self._later_sentences())
        return "".join(shown)

    def _decide_opening(self) -> str | None:
        """While nothing is shown: None to keep holding, else the text to show now (and the
        stream goes on); sets `blocked` when the opening fails (nothing shown: ask again)."""
        self._pending = self._pending.lstrip()  # nothing shown yet: a reply does not open with blanks
        if self._own_labels:
            head = self._pending.lower()
            label = next((label for label in self._own_labels if head.startswith(label)), None)
            if label is None and any(label.startswith(head) for label in self._own_labels):
                return None  # "Ar…" may still become "Ark:"
            self._own_labels = ()  # decided: the label, if any, goes
            if label is not None:
                self._pending = self._pending[len(label):].lstrip()
                if not self._pending:
                    return None
        if self._script:
            script = _script_of(self._pending)
            if not script:
                return None
            if script not in _SCRIPT_FITS[self._script]:  # another language than the user's: nothing shown, ask again
                self.blocked, self._pending = self._pending, ""
                return None
            if self._script == "ja" and script == "han":  # Japanese, or Chinese (「我也喜欢咖喱！」): its first sentence tells
                end = _SENTENCE_END.search(self._pending)
                if end is None:
                    return None
                if surely_chinese(self._pending[: end.end()]):
                    self.blocked, self._pending = self._pending[: end.end()], ""
                    return None
        if self._latin_language:
            end = _SENTENCE_END.search(self._pending)
            said = self._pending[: end.end()] if end else self._pending
            if sure_language(said) != self._latin_language:
                if end is None:
                    return None  # not sure yet: the first sentence may tell
                if _other_latin_language(said, self._latin_language):
                    self.blocked, self._pending = said, ""
                    return None
            self._latin_language = ""  # decided: the reply is in the message's language, or may be
        risk = True if self._hold_first else _opening_risk(self._pending, self._risky_openings)
        if risk is not False:  # a disclaimer is judged on its whole first sentence
            end = _SENTENCE_END.search(self._pending)
            if end is None:
                return None
            first = self._pending[: end.end()]
            if self._offends(first):
                if _OUT_OF_CHARACTER.search(first):  # service talk or a disclaimer: left out, what follows opens
                    self._pending = self._pending[end.end():]
                    return self._decide_opening() if self._pending.strip() else None
                self.blocked, self._pending = first, ""
                return None
            self._pending = self._pending[end.end():]
            self._streaming = self._first_done = True
            return first
        if self._copying(self._pending):  # so far the user's own words, letter for letter
            for end in _SENTENCE_END.finditer(self._pending):
                if len(_squash(self._pending[: end.end()])) >= ECHO_MIN_CHARS:
                    self.blocked, self._pending = self._pending[: end.end()], ""
                    return None
            return None
        # Its own words: show what is held, up to the last sentence end in it.
        ends = list(_SENTENCE_END.finditer(self._pending))
        self._streaming = True
        if not ends:
            return ""
        cut = ends[-1].end()
        held, self._pending = self._pending[:cut], self._pending[cut:]
        self._first_done = True
        return held

    def _later_sentences(self) -> str:
        shown: list[str] = []
        while not self.blocked:
            end = _SENTENCE_END.search(self._pending)
            if end is None:
                break
            sentence, rest = self._pending[: end.end()], self._pending[end.end():]
            self._pending = rest
            if self._offends(sentence):
                self.blocked, self._pending = sentence, ""
                break
            if not restates(sentence, self._user_text):  # a restated question is left out, the reply goes on
                shown.append(sentence)
        return "".join(shown)

    def flush(self) -> str:
        """The rest, once the model has finished: shown if it passes the check."""
        rest, self._pending = self._pending, ""
        if self.blocked or not rest:
            return ""
        if not self._streaming and self._copying(rest) and len(_squash(rest)) >= ECHO_MIN_CHARS:
            self.blocked = rest
            return ""
        if (self._first_done or not self._streaming) and self._offends(rest) or (
                self._latin_language and _other_latin_language(rest, self._latin_language)):
            self.blocked = rest
            return ""
        if self._first_done and restates(rest, self._user_text):
            return ""
        return rest
