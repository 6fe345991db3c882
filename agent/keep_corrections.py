"""Whether a message corrects a kept note: it changes that note's content, not just says "actually".

"Oh wait, it's been moved to Friday" after "my dentist appointment is on Thursday" corrects it (the
day slot gets a new value); 「やっぱり金曜日じゃなくて土曜日」 after 「金曜日に歯医者」 too (it names the old
value and a new one); "Actually, I love pizza" after "remember my locker is 317" does not: nothing of
the note is named and no slot of the note gets a new value. A correction says so (a marker: actually,
moved to, じゃなくて, 改到, 아니라, en realidad, en fait, doch…) and then either names something of the
note, or gives a new value of a kind the note holds (a day, a time, a date, a number, a name) while
pointing back at it ("it", それ, 那个…). Pure functions of the two texts.
"""
from __future__ import annotations

import re

from agent.keep_lines import note_of
from agent.language import message_language

_MARKER = re.compile(
    r"\b(?:actually|wait|sorry|oops|i meant|mixed (?:that|it|them) up|correction|scratch that|changed|moved|"
    r"rescheduled|postponed|pushed|instead|not \w+(?: \w+)? but|no longer|switched|turns out|my bad|i was wrong|"
    r"en realidad|perdón|perdona|me equivoqué|mejor dicho|cambió|cambiaron|cambiado|movieron|sino|ahora es|al final|"
    r"en fait|pardon|je me suis trompée?|plutôt|changé|déplacé|reporté|finalement|"
    r"eigentlich|sorry|doch|verschoben|geändert|sondern|stattdessen|ich meinte|korrektur)\b"
    r"|じゃなくて|ではなく|間違え|まちがえ|訂正|変更|変わった|ずれた|延期|やっぱり|移った|になった|ごめん"
    r"|改到|改成|改为|改為|更正|搞错|搞錯|其实|其實|记错|記錯|推迟|推遲|提前到|换成|換成|不是"
    r"|아니라|아니고|바뀌었|바꿨|변경|잘못|정정|미뤄|연기|미안",
    re.IGNORECASE,
)
_POINTS_BACK = re.compile(r"\b(?:it|that|this|its|lo|la|eso|le|ça|es|das|er|sie)\b|それ|あれ|その|那个|那個|它|그거|그건|그게",
                          re.IGNORECASE)
# "it's 318", "c'est 318", "es ist 318": a number said to be what "it" is.
_IS_NUMBER = re.compile(r"\b(?:it's|it is|it was|that's|that is|c'est|es ist|das ist|es|era|ist)\s+"
                        r"(?:actually\s+|really\s+|now\s+|en fait\s+|eigentlich\s+|doch\s+)?(?:number\s+|no\.?\s*)?\d",
                        re.IGNORECASE)
_WEEKDAY = re.compile(
    r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|lunes|martes|miércoles|jueves|viernes|sábado|"
    r"domingo|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|montag|dienstag|mittwoch|donnerstag|freitag|"
    r"samstag|sonntag)\b|[月火水木金土日]曜|(?:周|星期|礼拜|禮拜)[一二三四五六日天]|[월화수목금토일]요일", re.IGNORECASE)
_TIME = re.compile(r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm|h|uhr)\b|\d{1,2}(?::\d{2})?\s*(?:時|点|點|시)|\b\d{1,2}:\d{2}\b", re.I)
_NUMBER = re.compile(r"\d+")
_NAME = re.compile(r"(?<=[^.!?。！？\s]\s)[A-ZÀ-Ý][a-zà-ÿ]+|[ァ-ヶー]{2,}")
_STOP = frozenset(
    "the a an and or but my your his her our their is are was were be been it its that this to of in on at for with "
    "from by as so just now oh wait sorry actually not no yes i me you we they he she el la los las de del que y en "
    "un una es mi por con le les des du et est une je tu pas ce ça der die das und ist ich du nicht ein eine zu mit "
    "auf den dem im am um".split())


def _values(pattern: re.Pattern, text: str) -> set[str]:
    return {" ".join(m.group(0).lower().split()) for m in pattern.finditer(text)}


def _content_words(text: str) -> set[str]:
    words = {w for w in re.findall(r"[a-zà-ÿß]{3,}", text.lower()) if w not in _STOP}
    cjk = re.findall(r"[一-龥ァ-ヶー]{2,}|[\uac00-\ud7a3]{2,}", text)
    grams = {run[i:i + 2] for run in cjk for i in range(len(run) - 1)}
    return words | grams


def corrects(kept: str, message: str) -> bool:
    """Whether `message` revises the note of the kept line `kept` (or a bare note text)."""
    if not _MARKER.search(message):
        return False
    note = note_of(kept) or kept
    shared = _content_words(note) & _content_words(message)
    # German writes every noun with a capital: a capital there names nothing ("Das Wetter ist doch schön").
    slots = (_WEEKDAY, _TIME, _NUMBER) if message_language(message) == "de" else (_WEEKDAY, _TIME, _NUMBER, _NAME)
    for pattern in slots:
        old, new = _values(pattern, note), _values(pattern, message)
        # A bare "it" points back well enough for a day or a time; a number must share more with the
        # note ("Sorry, it took me 5 minutes" after "my locker is 317" corrects nothing).
        points_back = _POINTS_BACK.search(message) if pattern is not _NUMBER else _IS_NUMBER.search(message)
        if old and new - old and (shared or points_back or old & new):
            return True  # a slot of the note gets a new value
    return bool(shared) and bool(re.search(r"じゃなくて|ではなく|不是|아니라|\bnot\b|\bsino\b|\bmais\b|\bsondern\b",
                                           message, re.I))
