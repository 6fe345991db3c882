"""Whether a message tells of a choice not made yet ("I honestly don't know yet", 「出るかどうかまだ迷ってる」,
"no sé si aceptar"): a thing left open that names no day, which a persona asks about afterwards (what
the user chose). The night's questions come only from messages that point ahead (agent/question_ask.py);
with no date in it, the user's indecision gave no question at all (bench nights, session 25). In the nine
languages the app replies in; a question put to the persona ("Do you know if…?", 「要不要喝茶？」) or not
knowing what was meant ("I don't know what you mean") is no choice of the user's.
"""
from __future__ import annotations

import re

_UNDECIDED = re.compile("|".join((
    # English
    r"\b(?:don'?t|do not|doesn'?t) know (?:yet|if|whether|which)\b|\bdunno (?:if|whether|which)\b",
    r"\bnot (?:sure|certain) (?:yet|if|whether|which)\b|\bunsure (?:if|whether|which|about)\b",
    r"\b(?:haven'?t|have not|hasn'?t|not|never) (?:yet |really )?(?:decided|made up (?:my|our|her|his) mind)\b",
    r"\bundecided\b|\b(?:can'?t|cannot|couldn'?t) (?:decide|choose|make up my mind)\b|\btorn (?:between|about|on)\b|\bstill torn\b",
    r"\bon the fence\b|\b(?:have|need|got) to (?:choose|decide) (?:between|whether|if|which)\b",
    r"\b(?:thinking|wondering) (?:about )?whether\b",
    # Japanese
    r"迷って|迷う|迷い中|迷ってる|決めて(?:い)?ない|決まって(?:い)?ない|決まらない|決められない|どうしよう|悩んで(?:い|る)|検討中|考え中",
    r"(?:する|行く|出る|受ける|やる|買う|借りる|引っ越す)かどうか",
    # Chinese
    r"还没(?:有)?(?:决定|想好)|還沒(?:有)?(?:決定|想好)|犹豫|猶豫|拿不定|(?:不知道|在想|考虑|考慮|想想)(?:要不要|该不该|該不該)|纠结|糾結",
    # Korean
    r"고민(?:중|이야|이에요|하고|돼|된다|하는)|아직 (?:모르겠|결정)|결정(?:을)? 못|망설|할지 말지|할까 말까",
    # Spanish
    r"\bno s[ée] (?:todav[ií]a |a[úu]n )?si\b|\b(?:todav[ií]a|a[úu]n) no (?:lo )?(?:he decidido|decid[íi]|s[ée])\b",
    r"\bdudando\b|\bindecis[oa]\b|\bno me decido\b|\btengo que (?:decidir|elegir)\b",
    # French
    r"\bje ne sais (?:pas|toujours pas) (?:encore )?si\b|\bj'?h[ée]site\b|\bpas encore d[ée]cid[ée]\b|\bind[ée]cise?\b",
    r"\bje dois (?:choisir|d[ée]cider)\b",
    # German
    r"\bwei(?:ß|ss) (?:noch )?nicht,? ob\b|\bunentschlossen\b|\bnoch nicht entschieden\b|\b[üu]berlege noch\b",
    r"\bmuss mich (?:noch )?entscheiden\b",
    # Italian
    r"\bnon so (?:ancora )?se\b|\bindecis[oa]\b|\bnon ho ancora deciso\b|\bdevo (?:decidere|scegliere)\b|\bsono in dubbio\b",
    # Portuguese
    r"\bn[ãa]o sei (?:ainda )?se\b|\bainda n[ãa]o decidi\b|\bem d[úu]vida\b|\btenho (?:que|de) (?:decidir|escolher)\b",
)), re.IGNORECASE)
_ASKED = re.compile(r"^\s*(?:do|does|did|can|could|would|will) you\b.*\?\s*$|^\s*(?:你|妳|您).{0,12}(?:要不要|吗|嗎).*[?？]\s*$",
                    re.IGNORECASE)


def undecided(text: str) -> bool:
    """Whether the message tells of the user's choice not made yet (not a question put to the persona)."""
    return bool(_UNDECIDED.search(text)) and not _ASKED.match(text)
