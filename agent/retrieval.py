"""retrieval_node's decisions: whether a message needs a memory search, and what came back.

The search itself (hybrid RAG, keyword search, intent-aware re-rank) plugs in as a
`Searcher`; until the recall issue lands, the app passes none and only the skip rules run.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Protocol

import constants
from agent.follow_up import follow_up_search
from agent.language import is_question, sure_language
from agent.relative_time import resolve_said_on, spelled_out
from agent.reply_form import without_form_request

# Greetings and short affect-only messages: searching memory for these only adds noise.
_GREETING = re.compile(
    r"^[¡¿]?(hi|hello|hey|yo|good (morning|afternoon|evening|night)|thanks?( you)?|thx|ok(ay)?|"
    r"おはよう|こんにちは|こんばんは|おやすみ|ありがとう|よろしく|はい|うん|ええ|了解|おけ|ただいま|おかえり|"
    r"やあ|どうも|ok|lol|w+|笑|草|"
    r"hola|gracias|bonjour|salut|merci|hallo|danke|ciao|grazie|ol[aá]|oi|obrigad[oa]|"  # the same in other languages
    r"안녕(?:하세요)?|고마워(?:요)?|감사합니다|[ㅋㅎᄏᄒ]+|你好|谢谢|好的|嗯+|哈+)[\s!！。.、,~〜ー♪?？¡¿]*$",
    re.IGNORECASE,
)
# "How are you today?" asks after the persona, as a greeting does: nothing of the user's past to find. After a
# question it was searched as a follow-up of it, and the earlier topic's lines came back (session 46).
_ASKS_HOW_ONE_IS = re.compile(
    r"^[¡¿]?(?:(?:hi|hello|hey|hola|salut|bonjour|hallo|ciao|oi|ol[aá])[\s,!]*)?"
    r"(?:how(?:['’]s| is) (?:it going|life|your day)|how are (?:you|u|ya)(?: doing)?|how have you been|how(?:['’]?re| r) (?:you|u)"
    r"|what(?:['’]s| is) up|c[oó]mo (?:est[aá]s|est[aá]|te va|vai|vais|andas|anda)(?: (?:você|tu|usted))?|como (?:você|voce|tu) (?:est[aá]s?|vai|vais)|qu[eé] tal(?: est[aá]s)?"
    r"|comment (?:(?:[cç]a|tu) vas?|allez[- ]vous|vas[- ]tu)|(?:[cç]a|tu) vas?(?: bien)?|wie geht(?:['’]?s| es)?(?: (?:dir|ihnen))?"
    r"|come (?:stai|sta|va)|tudo (?:bem|bom)|元気(?:だった|してた|ですか)?|お元気ですか|調子(?:は)?どう(?:ですか)?"
    r"|你好吗|您好吗|最近(?:怎么样|好吗|还好吗)|잘 지냈(?:어|어요|니|지)?|잘 지내(?:요|셨어요|니|지)?|어떻게 지내(?:요|세요)?)"
    r"(?: (?:today|these days|lately|hoy|aujourd['’]hui|heute|oggi|hoje))?[\s!！。.、,~〜ー♪?？]*$",
    re.IGNORECASE,
)
_AFFECT_ONLY = re.compile(r"^[\W_ぁ-んー]*$")
# A short hiragana question asks about something (「どこだっけ？」「なんだっけ」「いつ？」): not affect, even
# with no kanji to search by; 「ほんと？」「えっ？」 are reactions. Recall was skipped for all of them (issue 18).
_ASKS_ABOUT = re.compile(r"なに|なん|どこ|どれ|どの|どっち|どう|だれ|いつ|いくら|いくつ|なぜ|っけ")


@dataclass(frozen=True)
class RetrievedItem:
    text: str
    source: str
    score: float
    why: str = ""
    when: str = ""  # ISO timestamp of what is remembered ("" for documents): the prompt's reading order
    sampled: bool = False  # a keyword mention drawn from across time, not ranked by relevance


@dataclass(frozen=True)
class RetrievalResult:
    skipped: bool
    reason: str
    items: tuple[RetrievedItem, ...] = field(default_factory=tuple)
    intent: str = ""

    def for_prompt(self, with_samples: bool = True) -> RetrievalResult:
        """The items the prompt shows: without the keyword samples when `with_samples` is False."""
        return self if with_samples else replace(self, items=tuple(i for i in self.items if not i.sampled))

    def prompt_lines(self, today: date | None = None) -> tuple[str, ...]:
        # Items already say when and who ("[date] speaker: text"); the source kind costs tokens only.
        return tuple(f"- {spelled_out_date(item.text, today)}" for item in self.items)

    def reading_order(self) -> tuple[str, ...]:
        """Sort keys of `prompt_lines`: documents first, then memories oldest first, so a later
        correction ("his name is actually Mochi") reads after what it corrects."""
        return tuple(f"1{item.when}" if item.when else "0" for item in self.items)


_LEADING_ISO_DATE = re.compile(r"^\[(\d{4})-(\d{2})-(\d{2})\]")


def spelled_out_date(text: str, today: date | None = None) -> str:
    """A memory's leading "[2023-05-07]" as "[7 May 2023]", and each relative time in it
    ("yesterday", "last week") as the date it stands for (agent/relative_time.py): the small
    model copied ISO dates, and "yesterday" from a months-old line, into its answers, where people
    (and the QA answers of shared/BENCHMARKS.md §5) say the day, the month's name and the year.
    A line said `today` keeps its words: they are still right, and they are the words of a question
    about that day ("¿Qué hice ayer para mi padre?" found "Ayer hice una tarta…", not "El 13 de junio de
    2026 hice una tarta…": §4 dev-es-tarta, session 43)."""
    match = _LEADING_ISO_DATE.match(text)
    if not match:
        return text
    try:
        said = date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return text
    said_text = text[match.end():]
    if said == today:
        return f"[{spelled_out(said)}]" + said_text
    return f"[{spelled_out(said)}]" + resolve_said_on(said_text, said, sure_language(said_text))


class Searcher(Protocol):
    def __call__(self, query: str, now: datetime) -> RetrievalResult: ...


def skip_reason(message: str) -> str:
    """Why no search is needed for this message, or '' if it needs one."""
    text = unicodedata.normalize("NFKC", message).strip()
    if not text:
        return "empty message"
    if _GREETING.match(text) or _ASKS_HOW_ONE_IS.match(text):
        return "greeting"
    if (len(text) <= constants.RETRIEVAL_SKIP_MAX_CHARS and _AFFECT_ONLY.match(text)
            and not (is_question(text) and _ASKS_ABOUT.search(text))):
        return "short affect-only message"
    return ""


def retrieve(message: str, now: datetime, searcher: Searcher | None, enabled: bool,
             earlier_question: str = "") -> RetrievalResult:
    """What the turn recalls for `message`; `earlier_question`: the user's question just before it in
    the sitting (agent/follow_up.py), searched with a follow-up that names nothing of its own."""
    if not enabled:
        return RetrievalResult(True, "automatic recall is off in Settings")
    reason = skip_reason(message)
    if reason:
        return RetrievalResult(True, reason)
    if searcher is None:
        return RetrievalResult(True, "no memory index yet")
    # "(Answer in a few words.)" says how to reply, not what to recall.
    asked = without_form_request(message)
    result = searcher(asked, now)
    again = follow_up_search(asked, earlier_question, [item.text for item in result.items])
    if not again:
        return result
    followed = searcher(again, now)
    return replace(followed, reason=f"{followed.reason} · with the question before it")
