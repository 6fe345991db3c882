"""Whether a text only tells what happened (a recap: "Today we talked about…", 「小説の話をした。」)
rather than what to do (a resolution: "Next time I'll ask…", "Ask Mina…", 「次は聞こう。」). The
night's strategy must be a resolution (agent/dream.py strategy_ok).

By rules, so by what the grammar shows, and only in English and Japanese. A sentence recaps when
it narrates the past — English: it opens with a subject and a past-tense verb ("We talked",
"Mina told", "It was"); Japanese: it ends in the past (〜た, 〜ました, 〜でした, 〜んだ) — and
nothing in it looks ahead (a first-person will / want to / should, "next time", "from now on";
〜と思う after a volitional, つもり, ことにした, 次は, これからは). A text is a recap only when every
sentence is. An imperative ("Ask Mina how…") or a present-tense sentence is not a recap: in
doubt, a text passes. Other languages are not judged (False): their past is not told apart by a
short rule (Chinese has no tense to read; Spanish preterite forms collide with the present).
"""
from __future__ import annotations

import re

from agent.english_verbs import IRREGULAR
from agent.sentences import split

# --- English ------------------------------------------------------------------------------------
_EN_TIME = r"(?:today|yesterday|tonight|earlier(?: today)?|last night|this (?:morning|afternoon|evening|week))"
_EN_SUBJECT = (r"(?:(?i:i|we|you|he|she|they|it|there|this|that)|(?i:my|our|his|her|their|the|a|an)\s+[\w'’-]+"
               r"|[A-Z][\w'’-]*(?:['’]s\s+[\w'’-]+)?)")  # "Mina", "Mina's sister"
_EN_ADVERB = r"(?i:\w+ly|also|just|both|all|then|first|even|only|still|never|once)"
# Past tense: a regular "-ed" (not the "-eed" of need, feed…) or an irregular verb's past that is
# not also its present ("I read every night" tells no day).
_EN_PAST = ("(?:(?!\\w*eed\\b)\\w+ed|agreed|were|"
            + "|".join(past for base, (past, _) in IRREGULAR.items() if past != base) + ")")


def _en_narrates(user_name: str) -> re.Pattern[str]:
    """A sentence's opening "[time,] [subject [and subject]] [adverb] past-verb"; the user's name is
    a subject too (the capitalised-word rule does not see a name in another script)."""
    subject = f"(?:{re.escape(user_name)}|{_EN_SUBJECT})" if user_name else _EN_SUBJECT
    return re.compile(rf"^\W*(?:(?i:and|but|so|then)\s+)?(?:(?i:{_EN_TIME}),?\s+)?(?:{subject}(?:\s+(?i:and)\s+{subject})?\s+)?"
                      rf"(?:{_EN_ADVERB}\s+)?(?i:{_EN_PAST})\b")
_EN_AHEAD = re.compile(
    r"\b(?:i|we)\s*(?:will|shall|['’]ll|am going to|['’]m going to|are going to|['’]re going to|want to|"
    r"would like to|['’]d like to|plan to|intend to|hope to|need to|should|must|have to|ought to|mean to|"
    r"decided to|resolved to|promised (?:myself )?to)\b"
    r"|\b(?:let me|let['’]s|let us|next time|from now on|going forward|in (?:the )?future|tomorrow)\b",
    re.IGNORECASE)

# --- Japanese -----------------------------------------------------------------------------------
_JA_TAIL = re.compile(r"[。．.！!？?…」』）)\s]*$")
_JA_PARTICLES = re.compile(r"(?:よね|なあ|なぁ|ね|よ|な|わ|の)+$")
_JA_PAST_END = re.compile(r"(?:た|んだ)$")
_JA_AHEAD = re.compile(
    r"[うこそとのぼもろごよ]うと(?:思|決|考)|たい(?:と|んだ|です|な|の|[。！!]|$)|つもり|ことにし|決め"
    r"|次(?:は|こそ|回)|今度(?:は|こそ)|これから|今後|明日(?:は|から)")


# Clauses of one sentence: "Mina opened up about her fears; be patient with her" ends in a resolution.
_EN_CLAUSE = re.compile(r"\s*[;:—–]\s*|,\s*(?=(?:so|and|but)\s)", re.IGNORECASE)


def _en_recaps(sentence: str, narrates: re.Pattern[str]) -> bool:
    clauses = [c for c in _EN_CLAUSE.split(sentence) if c.strip()]
    return all(narrates.search(c) for c in clauses) and not _EN_AHEAD.search(sentence)


def _ja_recaps(sentence: str) -> bool:
    end = _JA_PARTICLES.sub("", _JA_TAIL.sub("", sentence))
    return bool(_JA_PAST_END.search(end)) and not _JA_AHEAD.search(sentence)


def only_recaps(text: str, language: str, user_name: str = "") -> bool:
    """Every sentence of `text` narrates the past and none looks ahead (English and Japanese only;
    other languages: False)."""
    if language == "en":
        narrates = _en_narrates(user_name.strip())
        recaps = lambda sentence: _en_recaps(sentence, narrates)  # noqa: E731
    elif language == "ja":
        recaps = _ja_recaps
    else:
        return False
    sentences = [s.strip() for s in split(text) if s.strip()]
    return bool(sentences) and all(recaps(s) for s in sentences)
