"""How a reply opens: the openings held until their first sentence is whole and checked
(agent/character_guard.py), and the lead clause a Japanese or Chinese opening may hide them behind."""
from __future__ import annotations

import re
from typing import Sequence

from agent import sentences

# A first sentence that opens like this is held until it is whole and checked (an apology or a
# disclaimer, service talk, the first person — where the persona may take the user's part); any
# other streams as soon as its first characters rule these out.
RISKY_OPENINGS = ("申し訳", "すみませんが", "すいませんが", "ごめんなさい、私は", "私は", "私も", "私の", "私が", "僕", "俺", "わたし",
                   "お手伝い", "お役に", "何か", "ai", "人工知能", "我", "作为", "有什么", "저는", "제가", "나는", "내가", "우리", "무엇을",
                   "i'm sorry, but", "sure, i can help", "sure! i can help", "i can help with", "i'd be happy to help",
                   "i'm sorry but", "i apologi", "as an ", "as a ", "how can i", "how may i", "is there anything",
                   "if you have any", "feel free", "let me know", "i ", "i'", "my ", "we ", "we'", "our ",
                   "¿en qué", "en qué", "como ", "soy ", "yo ", "mi ", "comment puis", "en quoi", "en tant", "je ", "j'", "mon ",
                   "ma ", "wie kann", "als ", "ich ", "mein",  # talk about the reply itself, apologies before a "no access":
                   "here's a", "here is a", "here's my", "here is my", "hier ist", "voici", "aquí está", "aquí tienes",
                   "ecco", "aqui está", "以下", "다음은", "sorry", "lo siento", "désolé", "tut mir leid", "mi dispiace",
                   "desculp", "抱歉", "对不起", "죄송", "すみません",
                   # refusals (REFUSAL, agent/out_of_character.py)
                   "sinto muito", "perdón", "entschuldig", "scusa", "no puedo", "não posso", "non posso", "답변", "대답",
                   # a form's request for input, an invitation to ask more (SERVICE_TALK)
                   "can you provide", "could you provide", "could you please provide", "can you please provide", "podrías proporcionar",
                   "¿podrías proporcionar", "pourriez-vous", "könnten sie", "potresti fornir", "poderia fornecer", "poderia me fornecer",
                   "si tienes", "si necesitas", "estaré encantad", "si tu as", "si vous avez", "wenn du", "wenn sie", "se hai", "se tiver",
                   "se você tiver", "se precisar")


def opening_risk(text: str, openings: Sequence[str] = RISKY_OPENINGS) -> bool | None:
    """True if `text` opens like one of `openings` (lower-case), False once it cannot, None while
    undecided."""
    head = text.lstrip().lstrip("¡¿").lower().replace("’", "'")  # "¡Lo siento, pero no puedo ayudarte con eso."
    if any(head.startswith(o) for o in openings):
        return True
    return None if any(o.startswith(head) for o in openings) else False


# In Japanese and Chinese a short lead clause ("最近は、", 「今天，」) may open service talk: what follows it is
# judged as an opening too (「最近は、何かお手伝いできることがありましたか？」 streamed: bench conversation,
# dev-ja-speech, session 26). Longer than this, the first clause is the reply's own.
_LEAD_CLAUSE = re.compile(r"[^、，,。．！？!?\n]{1,6}[、，,]\s*")
_LEAD_CLAUSE_CHARS = 6


def risk_after_lead(text: str, openings: Sequence[str]) -> bool | None:
    """For a CJK reply's opening: `_opening_risk` of what follows a short lead clause — None while a
    lead clause may still be arriving, False once there is none."""
    lead = _LEAD_CLAUSE.match(text.lstrip())
    if lead is None:
        head = text.lstrip()
        return None if len(head) <= _LEAD_CLAUSE_CHARS and sentences.first_end(head, final=False) is None else False
    rest = text.lstrip()[lead.end():]
    return opening_risk(rest, openings) if rest else None
