"""Common English irregular verbs: a base form with its past tense and past participle.

Recall's word search stems with Porter, which leaves "bought" apart from "buy": "What did I buy?"
did not reach "I bought a bike" (issue 18). Recall searches a verb with its other forms, and the
recap rule reads a sentence that opens in the past tense; both read this one table.
"""
from __future__ import annotations

from functools import lru_cache

# base: (past tense, past participle) — the verbs a person tells their day with.
IRREGULAR: dict[str, tuple[str, str]] = {
    "be": ("was", "been"), "become": ("became", "become"), "begin": ("began", "begun"),
    "bend": ("bent", "bent"), "bite": ("bit", "bitten"), "blow": ("blew", "blown"),
    "break": ("broke", "broken"), "bring": ("brought", "brought"), "build": ("built", "built"),
    "buy": ("bought", "bought"), "catch": ("caught", "caught"), "choose": ("chose", "chosen"),
    "come": ("came", "come"), "cost": ("cost", "cost"), "cut": ("cut", "cut"), "dig": ("dug", "dug"),
    "do": ("did", "done"), "draw": ("drew", "drawn"), "dream": ("dreamt", "dreamt"),
    "drink": ("drank", "drunk"), "drive": ("drove", "driven"), "eat": ("ate", "eaten"),
    "fall": ("fell", "fallen"), "feed": ("fed", "fed"), "feel": ("felt", "felt"),
    "fight": ("fought", "fought"), "find": ("found", "found"), "fly": ("flew", "flown"),
    "forget": ("forgot", "forgotten"), "forgive": ("forgave", "forgiven"), "freeze": ("froze", "frozen"),
    "get": ("got", "gotten"), "give": ("gave", "given"), "go": ("went", "gone"), "grow": ("grew", "grown"),
    "hang": ("hung", "hung"), "have": ("had", "had"), "hear": ("heard", "heard"), "hide": ("hid", "hidden"),
    "hit": ("hit", "hit"), "hold": ("held", "held"), "hurt": ("hurt", "hurt"), "keep": ("kept", "kept"),
    "know": ("knew", "known"), "lead": ("led", "led"), "learn": ("learnt", "learnt"),
    "leave": ("left", "left"), "lend": ("lent", "lent"), "lose": ("lost", "lost"), "make": ("made", "made"),
    "mean": ("meant", "meant"), "meet": ("met", "met"), "pay": ("paid", "paid"), "put": ("put", "put"),
    "read": ("read", "read"), "ride": ("rode", "ridden"), "ring": ("rang", "rung"), "rise": ("rose", "risen"),
    "run": ("ran", "run"), "say": ("said", "said"), "see": ("saw", "seen"), "sell": ("sold", "sold"),
    "send": ("sent", "sent"), "shake": ("shook", "shaken"), "shoot": ("shot", "shot"),
    "show": ("showed", "shown"), "shut": ("shut", "shut"), "sing": ("sang", "sung"), "sit": ("sat", "sat"),
    "sleep": ("slept", "slept"), "speak": ("spoke", "spoken"), "spend": ("spent", "spent"),
    "stand": ("stood", "stood"), "steal": ("stole", "stolen"), "swim": ("swam", "swum"),
    "take": ("took", "taken"), "teach": ("taught", "taught"), "tell": ("told", "told"),
    "think": ("thought", "thought"), "throw": ("threw", "thrown"), "understand": ("understood", "understood"),
    "wake": ("woke", "woken"), "wear": ("wore", "worn"), "win": ("won", "won"), "write": ("wrote", "written"),
}


@lru_cache(maxsize=1)
def _families() -> dict[str, tuple[str, ...]]:
    """Each form of the table → the base and its forms, base first. A form two verbs share (the
    participle "found" is also "to found"'s base) belongs to the verb whose table row lists it."""
    families: dict[str, tuple[str, ...]] = {}
    for base, forms in IRREGULAR.items():
        family = tuple(dict.fromkeys((base, *forms)))
        for form in family:
            families.setdefault(form, family)
    return families


def forms_of(word: str) -> tuple[str, ...]:
    """`word` (lower case) with the other forms of its verb, itself first; just the word when it
    is not an irregular verb's form."""
    word = word.lower()
    family = _families().get(word)
    if family is None:
        return (word,)
    return (word, *(form for form in family if form != word))
