"""The user addressed by their own name: a vocative name the model took from nowhere (or from a recalled
line's other speaker) replaced by the user's, and the names the user calls others by kept apart, since
those are no names a reply may call the user by. Used by the reply guard (agent/character_guard.py)."""
from __future__ import annotations

import re
from typing import Sequence

# The user addressed by a name that is not theirs ("That's great, John!" to Ken: a name the model
# took from nowhere; bench conversation, session 11): a name after a comma that ends the clause.
_CLAUSE_END = r"(?=\s*[!?.。！？](?:\s|$)|\s*[。！？]|\s*$)"
_NAME_ENDING_CLAUSE = r"(,\s+|[、，]\s*)([A-Z][a-z]{2,})" + _CLAUSE_END
_VOCATIVE = re.compile(r"(?<![A-Z][a-z])(?<![A-Z][a-z][a-z])(?<![A-Z][a-z]{3})(?<![A-Z][a-z]{4})(?<![A-Z][a-z]{5})"
                       + _NAME_ENDING_CLAUSE)
# After a capitalised word the comma may join places ("Paris, France"), so `_VOCATIVE` leaves it; after a
# greeting or thanks it is a name said to the user ("Thanks, John!" to Ken).
# Greetings of the time of day ("Good evening, Ark!" to the user: §4 dev-en-sister-offers, session 45)
_TIME_OF_DAY = (r"Good (?:morning|afternoon|evening|night)|(?:Morning|Evening)|Buenos días|Buenas (?:tardes|noches)|Bonsoir"
                r"|Bonne (?:nuit|soirée)|Guten (?:Morgen|Tag|Abend)|Gute Nacht|Buongiorno|Buonasera|Buonanotte|Bom dia"
                r"|Boa (?:tarde|noite)")
# A greeting that may stand right before a name, with no comma ("Hey John! …")
_BARE_GREETING = r"Hello|Hi|Hey|Hola|Bonjour|Salut|Hallo|Ciao|Olá|Oi|" + _TIME_OF_DAY
_GREETING_VOCATIVE = re.compile(r"(\b(?:Thanks|Thank you|Hello|Hi|Hey|Bye|Goodbye|Congratulations|Congrats|Welcome"
                                r"|Sorry|Gracias|Hola|Merci|Bonjour|Salut|Danke|Hallo|Grazie|Ciao|Olá|Oi|Obrigad[oa]|"
                                + _TIME_OF_DAY + r"),\s+"
                                # a greeting needs no comma before the name, nor a clause end after it ("Hey John! …",
                                # "Hola Ark, ¿…": the §4 filler's name and the persona's own, to Priya and Marta, session 44)
                                r"|\b(?:" + _BARE_GREETING + r")\s+)"
                                r"([A-Z][a-z]{2,})(?:" + _CLAUSE_END + r"|(?<=[a-z])(?=,\s))")
# In Japanese a katakana name after a greeting or thanks (「ありがとうございます、ジョン！」 to ハルカ: a name from the
# recalled lines, bench conversation ja-curry, session 30); elsewhere a katakana word after 、 may be no name.
_JA_VOCATIVE = re.compile(r"((?:ありがとう(?:ございます)?|こんにちは|こんばんは|おはよう(?:ございます)?|おやすみ(?:なさい)?"
                          r"|お疲れ様(?:です)?|おかえり(?:なさい)?|やあ|どういたしまして)[、，]\s*)([ァ-ヴー]{2,})"
                          r"(?:さん|ちゃん|くん|様)?(?=\s*[!?.。！？]|\s*$)")
# A name the user calls someone by: after a comma, ending the clause, after any word ("Thanks, Maria!"), or after
# a greeting or thanks ("Hey John, it's okay…": the §4 filler's words, which the 1.5B model then called Ken by).
_CALLED = re.compile(_NAME_ENDING_CLAUSE)
_GREETED = re.compile(r"(\b(?i:hey|hi|hello|dear|thanks|thank you|hola|gracias|salut|merci|bonjour|hallo|danke|ciao|grazie"
                      r"|oi|olá|obrigad[oa])\s+)([A-Z][a-z]{2,})\b(?=\s*[,!.?])")
VOCATIVE_ARRIVING = re.compile(r"(?:,\s+|[、，]\s*)(?:[A-Z][a-z]*|[ァ-ヴー]*)$|[,、，]\s*$"
                               r"|\b(?:" + _BARE_GREETING + r")(?:\s+[A-Z][a-z]*)?$")
_KANA_TEXT = re.compile(r"[\u3040-\u30ff]")
_JA_HONORIFIC = ("さん", "ちゃん", "くん", "様", "さま")


def spoken_of(user_said: Sequence[str]) -> str:
    """The user's words without the names they call someone by ("Thanks, Maria!"): a name the user speaks
    to is someone else's, so it is no name a reply may call the user by (`addressed_rightly`'s `known`)."""
    return "\n".join(_JA_VOCATIVE.sub(r"\1", _GREETED.sub(r"\1", _CALLED.sub(r"\1", text))) for text in user_said)


def addressed_rightly(text: str, user_name: str, known: str, own_names: Sequence[str] = ()) -> str:
    """`text` with a vocative name that is neither the user's nor one the user said (`known`: their
    words) replaced by the user's name (in Japanese with さん: 「ありがとう、John。」 to
    ユイ is 「ありがとう、ユイさん。」). After a greeting or thanks, the persona's `own_names` are
    never the listener's, though the user wrote them ("¡Hola Ark!" to Marta: §4, session 44)."""
    if not user_name.strip():
        return text
    name_here = user_name
    if _KANA_TEXT.search(text) and not user_name.isascii() and not user_name.endswith(_JA_HONORIFIC):
        name_here = f"{user_name}さん"

    def fix(match: re.Match) -> str:
        name = match.group(2)
        said = re.search(rf"(?<![A-Za-z]){name}(?![A-Za-z])", known)  # also beside kana: 「妹のYukiが」
        kept = name == user_name or (said and not (match.re is _GREETING_VOCATIVE and name in own_names))
        return match.group(0) if kept else match.group(1) + name_here

    def fix_katakana(match: re.Match) -> str:
        name = match.group(2)
        kept = user_name.startswith(name) or (name in known and name not in own_names)
        return match.group(0) if kept else match.group(1) + name_here
    return _JA_VOCATIVE.sub(fix_katakana, _GREETING_VOCATIVE.sub(fix, _VOCATIVE.sub(fix, text)))
