"""A thought on the persona's mind, denied in the reply.

After a long silence the prompt tells the persona what it has wondered since ("On your mind": the
night's top open question, agent/drives.py `opening_line`). Asked "Evening, Ark! Anything on your
mind?" with "Has Leila decided?" there, the embedded 1.5B model answered "I'm sorry, but I don't have
any specific questions or thoughts to share." (§4 dev-en-sister-offers, sessions 51–53). Such an
opening is asked for again, with the thought in the retry's line (agent/reply_rules.py); one that
speaks of the thought ("Nothing special, but did Leila decide?") stays.
"""
from __future__ import annotations

import re

from agent.role import content_units

# Saying one has nothing on one's mind, no thoughts or questions, nothing in particular — in the supported languages.
_NOTHING_ON_MIND = re.compile(
    r"\bnothing (?:much |really |in particular |special |specific )?(?:on my mind|to share|in particular|special"
    r"|specific)\b|\bnot (?:much|a lot|really anything) on my mind\b|\bi have no (?:\w+ )?(?:thoughts|questions)\b"
    r"|\bi (?:don't|do not) have (?:any|anything|much)(?: \w+){0,4}? (?:on my mind|thoughts?|questions?|to share)\b"
    r"|\bi haven't (?:really )?been thinking about anything\b"
    r"|\bno tengo nada (?:\w+ )?(?:en mente|que compartir|en particular|especial)\b|\bnada (?:en particular|especial)\b"
    r"|\bno tengo (?:ningún|ninguna|ningunos|ningunas) (?:\w+ )?(?:pensamientos?|preguntas?|ideas?)\b"
    r"|\bje n'ai rien (?:de (?:spécial|particulier)|en (?:tête|particulier)|à partager)\b|\brien de (?:spécial|particulier)\b"
    r"|\bje n'ai (?:pas de|aucune?) (?:\w+ )?(?:pensées?|questions?)\b"
    r"|\bnichts (?:besonderes|bestimmtes)\b|\bich habe (?:nichts|keine) (?:\w+ )?(?:im kopf|auf dem herzen|gedanken|fragen)\b"
    r"|\b(?:niente|nulla) di (?:speciale|particolare)\b|\bnon ho (?:niente|nulla) (?:in mente|da condividere)\b"
    r"|\bnon ho (?:\w+ )?(?:pensieri|domande)\b"
    r"|\bnada de especial\b|\bnada em particular\b|\bnão tenho nada (?:em mente|a compartilhar|de especial)\b"
    r"|\bnão tenho (?:nenhuma? )?(?:pensamentos|perguntas)\b"
    r"|特に(?:何も)?(?:ない|ありません|なし)|何も(?:考えていない|考えてない|考えていません|ありません|ないです|ないよ)"
    r"|(?:考えていること|考えてること|気になること|思っていること)(?:は|が)?(?:特に)?(?:ない|ありません)"
    r"|没(?:有)?什么(?:特别的)?(?:想法|问题|可说|要说)|没有(?:特别的)?(?:想法|问题)|没(?:有)?在想什么"
    r"|특별히 없|별로 없|(?:생각|질문)(?:이|은|는)? (?:특별히 )?없",
    re.IGNORECASE,
)
# How such a sentence opens (lower-case), beyond the openings the guard always holds ("i ", "je ", "ich "…):
# held until it is whole and checked while a thought is on the persona's mind.
DENIAL_OPENINGS = ("nothing", "not much", "not really", "there's nothing", "there is nothing", "nada", "no tengo",
                   "rien", "je n'ai", "nichts", "ich habe", "niente", "nulla", "non ho", "não tenho", "特に", "何も",
                   "いや", "没", "별로", "특별히")


def denies_the_thought(sentence: str, thought: str) -> bool:
    """Whether `sentence` says the persona has nothing on its mind while `thought` is there, and does not
    speak of it (shares none of what it is about)."""
    return bool(thought and _NOTHING_ON_MIND.search(sentence)) and not content_units(sentence) & content_units(thought)
