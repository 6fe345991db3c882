"""How the user asks to be answered ("in a few words", 「一言で」): the form of the reply, not its subject.

The request shapes the reply (agent/reply_rules.py's brief reminder, the graph's minimum length) and
must stay out of the memory search: searched for as words, "(Answer in a few words.)" ranked
memories about answers and words. On the §5 development questions it cost a fifth of the evidence
turns in the ten best memories (recall@10 46.5 → 37.8, BENCHMARKS.md History, session 10).
"""
from __future__ import annotations

import re

_BREVITY = (
    r"in (?:a|one|two|three) (?:few |couple of )?words?|briefly|in short|short answer|just the answer"
    r"|一言で|ひとことで|手短に|簡潔に|短く答えて|一句话|简短"
)
_ASKS_FOR_BREVITY = re.compile(rf"(?:\b(?:{_BREVITY})\b|{_BREVITY})", re.IGNORECASE)

# The whole request: its verb, "please", and the brackets or sentence it stands in.
_EN_REQUEST = (
    r"(?:(?:please|pls|just)\s+)?(?:(?:answer|reply|respond|tell me|say it|explain)\s+)?"
    r"(?:in (?:a|one|two|three|a couple of) (?:few |short )?(?:words?|sentences?)|briefly|in short|in brief"
    r"|with a short answer|(?:a |the )?short answer|just the answer)"
    r"(?:,?\s*please)?"
)
_JA_REQUEST = r"(?:一言で|ひとことで|手短に|簡潔に|短く)(?:答えて|教えて|言って|お願い)(?:ください|下さい|ね|ほしい)?|一言で|ひとことで"
_ZH_REQUEST = r"(?:请)?(?:用)?(?:一句话|简短地?|简单地?)(?:回答|说|告诉我)"
_FORM_REQUEST = re.compile(
    rf"[(（\[]\s*(?:{_EN_REQUEST}|{_JA_REQUEST}|{_ZH_REQUEST})\s*[.!。！]?\s*[)）\]]"
    rf"|\b{_EN_REQUEST}\b\s*[.!]?|(?:{_JA_REQUEST}|{_ZH_REQUEST})[。！!]?",
    re.IGNORECASE,
)


def asks_for_brevity(text: str) -> bool:
    """The user asks for a short answer."""
    return bool(_ASKS_FOR_BREVITY.search(text))


def without_form_request(text: str) -> str:
    """`text` with its requests about the reply's form left out: what to search memory for.
    A message that is nothing but such a request is kept as it is."""
    stripped = re.sub(r"\s{2,}", " ", _FORM_REQUEST.sub(" ", text)).strip().lstrip(",:;、，：")
    return stripped.strip() if re.search(r"\w", stripped) else text.strip()
