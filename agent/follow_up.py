"""A follow-up question searched with the question before it.

"¿Y con quién fui?", "Und mit wem?", "Who was with me?", 「누구랑 갔었지?」 ask about what the user's
question before it named: on their own they name nothing a memory search can find. Asked five days
after a concert, "¿cuándo fui al concierto de Rosalía?" recalled the message that told it, but the
next question, "¿Y con quién fui?", recalled nothing, and the reply invented "con Rosalía" (§4
dev-es-cuando, session 45). A question that finds something by its own words, or has words enough of
its own to ask anew ("Any tips for a good night's sleep?"), is searched as it is, even right after
another: the two together put the earlier topic's lines in the few the prompt has room for — unless
it opens with "and", which goes on from the question before.
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Sequence

import constants
from agent.language import is_question
from agent.memory_lines import terms
from agent.query_planner import content_words
from managers.chat_log import LogEntry


def question_before(before: Sequence[LogEntry], now: datetime) -> str:
    """The user's message just before this one when it asked something in the same sitting (no
    pause longer than the sitting gap since), else ""."""
    earlier = next((e for e in reversed(before) if e.role == "USER"), None)
    if earlier is None or earlier.ts is None or not is_question(earlier.text):
        return ""
    if now - earlier.ts > timedelta(minutes=constants.FOLLOW_UP_GAP_MINUTES):
        return ""
    return earlier.text


def names_something(message: str, recalled: Sequence[str]) -> bool:
    """Whether anything recalled for the message shares a word (Latin words lightly stemmed, CJK
    bigrams, Hangul words: agent/memory_lines.terms) with it: what it found, it found by the
    message's own words, not only by the sound of a question."""
    own = terms(message)
    return bool(own) and any(own & terms(text) for text in recalled)


def follow_up_search(message: str, earlier_question: str, recalled: Sequence[str]) -> str:
    """The text to search memory by again for a follow-up question (the earlier question, then
    the message), or "" when the message is searched by itself: it is no question, there was
    no question just before it, what it recalled alone shares its words, or it has words enough
    of its own to ask anew and does not open with "and" ("Any tips for a good night's sleep?"
    right after "Where was my interview?" is not about the interview)."""
    if not earlier_question or not is_question(message):
        return ""
    if names_something(message, recalled):
        return ""
    if len(content_words(message)) > constants.FOLLOW_UP_MAX_WORDS and not _AND.match(message):
        return ""
    return f"{earlier_question} {message}"


# A question opened by "and" goes on from the one before, however many words it has: "Et j'avais mis combien de
# temps ?" after "c'était quel jour, mon semi-marathon ?" (§4 dev-fr-quand).
_AND = re.compile(r"\s*[¿¡]?\s*(?:and|y|e|et|und|そして|それで|で、|じゃあ|那|那么|那麼|还有|還有|그리고|그럼)(?:\b|\s|[,、，])",
                  re.IGNORECASE)
