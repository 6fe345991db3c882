"""Whether a text the night writes for the days ahead (the strategy, a goal) takes the user's doing as
the persona's own, judged piece by piece.

The reply's role check (agent/role.py) excuses a sentence that names the user: in a reply, a name means
the sentence is said to them. A night text names the user by design ("how I will be with Noor"), and the
1.5B model wrote "Ark will continue to practice regularly and seek help when needed from Noor's sister"
of Noor's own cello practice — 9 of 23 such strategies passed into the prompt (bench nights labels,
session 39). So the text is cut into pieces (clauses, and what follows "that", "how", "about"…), and a
piece in the persona's first person (its names read as "I") that speaks of no one else, shares the
user's words and does nothing toward the user (asking, listening, encouraging…) tells the user's doing
as the persona's.
"""
from __future__ import annotations

import re
from typing import Sequence

from agent import sentences
from agent.role import FIRST_PERSON_WORDS, content_units, persona_as_speaker, says_you, shared_units, \
    speaks_of_oneself, told_units

# Where a piece ends: punctuation inside a sentence, a conjunction, and the words that open a clause
# of its own (what follows "that" or "how" has its own subject), in the languages the app replies in.
_PIECE_BREAK = re.compile(
    r"[,、，;；:：]\s*"
    r"|\s+(?:and|then|so|but|while|as|because|that|if|whether|how|what|when|why|where|about"
    r"|y|pero|porque|que|si|cómo|cuando|sobre|et|mais|car|comment|quand|sur|und|aber|weil|dass|ob|wie|wenn|über"
    r"|e|ma|perché|che|se|come|su|mas|como)\s+"
    r"|(?<=\bqu')|について|ことを|のを|かを|关于|然后|에 대해", re.IGNORECASE)

# Someone besides the persona: a third person, "we" (the two of them), "together". A piece with one is
# about the user or someone of theirs, not the persona's own doing.
_SOMEONE_ELSE = {
    "en": r"\b(?:she|he|her|him|his|hers|they|them|their|we|us|our|ours|together)\b",
    "es": r"\b(?:ella|él|le|les|su|sus|nosotros|nosotras|juntos|juntas)\b",
    "fr": r"\b(?:elle|il|lui|leur|son|sa|ses|nous|ensemble)\b",
    "de": r"\b(?:sie|er|ihr|ihm|ihn|sein|seine|seinen|seinem|seiner|ihre|ihren|ihrem|ihrer|wir|uns|zusammen|gemeinsam)\b",
    "it": r"\b(?:lei|lui|gli|sua|suo|sue|suoi|noi|insieme)\b",
    "pt": r"\b(?:ela|ele|dela|dele|lhe|seu|sua|seus|suas|nós|juntos)\b",
    "ja": r"彼女|彼|一緒", "zh": r"她|他|一起|我们", "ko": r"그녀|그는|그의|함께|같이|우리",
}
_SOMEONE_ELSE_IN = {language: re.compile(words, re.IGNORECASE) for language, words in _SOMEONE_ELSE.items()}

# Doing something toward the user about their thing: asking, talking, listening, keeping it in mind,
# encouraging, helping, hoping ("I will bring up the rent gently" takes up the user's rent, not their life).
_TOWARD_THE_USER = re.compile(
    r"\b(?:ask|talk|chat|speak|listen|hear|mention|bring(?:s|ing)? up|check|follow(?:s|ing)? up|keep\b.*\bin mind"
    r"|remember|remind|encourag|support|cheer|help|celebrat|congratulat|comfort|prais|understand|notic|acknowledg"
    r"|hope|wish"
    r"|pregunt|habl|escuch|mencion|recordar|recuerd|animar|apoy|ayud|felicit|consol|entend|comprend|esper|dese[oa]"
    r"|demand|parl|écout|rappel|soutien|souten|aider|aide|félicit|réconfort|espèr|espér|souhait"
    r"|frag|sprech|sprich|rede|zuhör|hör|erwähn|erinner|ermutig|unterstütz|hilf|helf|gratulier|tröst|versteh|hoff"
    r"|wünsch"
    r"|chied|ascolt|menzion|ricord|incoraggi|sosten|aiut|festeggi|congratul|spero|speri|augur"
    r"|pergunt|falar|fala|ouv|escut|lembr|encoraj|apoi|ajud|parabeniz|torc)\w*"
    r"|聞|尋ね|訊|話題|応援|励ま|支え|手伝|覚え|気にかけ|気に留め|願|祈|问|聊|听|谈|提起|鼓励|支持|帮|关心|祝|安慰|记得|希望|盼"
    r"|물어|묻|이야기|얘기|들어|듣|응원|도와|돕|격려|기억|바라|기원", re.IGNORECASE)

_FIRST_PERSON_UNITS = frozenset(content_units(" ".join(FIRST_PERSON_WORDS)))


def pieces(text: str) -> list[str]:
    """The text's clauses and what follows the words that open one ("that", "how", "about", ことを…)."""
    return [piece.strip() for sentence in sentences.split(text) for piece in _PIECE_BREAK.split(sentence)
            if piece and piece.strip()]


def users_doing_taken(text: str, user_name: str, user_texts: Sequence[str], language: str,
                      persona_names: Sequence[str] = ()) -> str | None:
    """The first piece of `text` that tells what the user said of themself (`user_texts`) as the
    persona's own doing (by any of `persona_names` or in the first person), or None."""
    told = told_units(user_texts)
    someone_else = _SOMEONE_ELSE_IN.get(language, _SOMEONE_ELSE_IN["en"])
    for piece in pieces(text):
        if (user_name.strip() and user_name.strip().casefold() in piece.casefold()) or someone_else.search(piece) \
                or says_you(piece) or _TOWARD_THE_USER.search(piece):
            continue
        as_spoken = piece
        for name in persona_names:
            as_spoken = persona_as_speaker(as_spoken, name, language)
        if not speaks_of_oneself(as_spoken, language):
            continue
        mine = content_units(as_spoken) - _FIRST_PERSON_UNITS
        if any(shared_units(mine, units) for units in told):
            return piece
    return None
