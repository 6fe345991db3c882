"""German verbs said of the user instead of the speaker: "ich" → "du" and "wir" → "ihr" with the verb beside
them in its own form ("Am Samstag fahre ich zu meiner Oma" → "Am Samstag fährst du zu deiner Oma").

German puts the finite verb right before or after its subject ("ich fahre", "fahre ich", in a main clause's
second place), so the verb next to the pronoun is the one that changes; a sentence whose "ich" stands beside
no verb this module knows keeps it, and the caller (agent/role.py) leaves that sentence out.
"""
from __future__ import annotations

import re

# First person singular → second person singular: the common verbs whose stem changes, the modals and
# "sein"/"haben"/"werden" (present and simple past). Inseparable prefixes keep the change ("verlasse").
_IRREGULAR_DU = {
    "bin": "bist", "habe": "hast", "hab": "hast", "war": "warst", "hatte": "hattest", "werde": "wirst",
    "wurde": "wurdest", "kann": "kannst", "konnte": "konntest", "muss": "musst", "musste": "musstest",
    "will": "willst", "wollte": "wolltest", "darf": "darfst", "soll": "sollst", "mag": "magst", "weiß": "weißt",
    "tue": "tust", "tu": "tust", "fahre": "fährst", "laufe": "läufst", "schlafe": "schläfst", "trage": "trägst",
    "halte": "hältst", "lasse": "lässt", "falle": "fällst", "fange": "fängst", "wasche": "wäschst",
    "lade": "lädst", "rate": "rätst", "backe": "bäckst", "sehe": "siehst", "lese": "liest", "esse": "isst",
    "gebe": "gibst", "nehme": "nimmst", "spreche": "sprichst", "treffe": "triffst", "helfe": "hilfst",
    "vergesse": "vergisst", "werfe": "wirfst", "breche": "brichst", "sterbe": "stirbst", "empfehle": "empfiehlst",
    "stehle": "stiehlst", "messe": "misst", "trete": "trittst", "gelte": "giltst",
    # the simple past of strong verbs: "-st" after the bare form
    "ging": "gingst", "kam": "kamst", "fuhr": "fuhrst", "sah": "sahst", "lief": "liefst", "traf": "trafst",
    "fand": "fandest", "gab": "gabst", "nahm": "nahmst", "blieb": "bliebst", "schrieb": "schriebst",
    "sprach": "sprachst", "flog": "flogst", "stand": "standest", "saß": "saßest", "aß": "aßest", "las": "last",
}
_PREFIXES = ("be", "ver", "er", "ent", "zer", "ge", "emp", "miss", "über", "unter", "hinter", "wider")
# Lower-case words ending in -e beside "ich" that are no verbs: adverbs, determiners, conjunctions, and the
# adjectives said after "bin" ("weil ich müde bin").
_NOT_VERBS = frozenset(
    "gerne heute alleine lange gerade ganze eine keine meine deine seine ihre unsere eure jene diese jede welche "
    "manche alle viele wenige einige beide andere ohne ehe solange bitte ebenso müde böse leise weise blöde feige "
    "träge schade nahe".split())
_WORD = r"[a-zäöüß]+"
_ANY_WORD = r"[A-Za-zÄÖÜäöüß][a-zäöüß]*"  # a verb opening a sentence is capitalised
_ICH = re.compile(rf"(?:\b({_ANY_WORD})(\s+))?\b([Ii]ch)\b(?:(\s+)({_WORD})\b)?")
_VERB_ICH = re.compile(rf"\b({_ANY_WORD})\s+ich\b")
# "wir" takes the verb's -en form, "ihr" its -t form ("Wir singen unser Konzert…" → "Ihr singt euer Konzert…",
# bench conversation, session 15: the user's choir said as the persona's).
_WIR_VERB = re.compile(r"\b(wir)\s+(\w+(?:en|ern|eln)|sind)\b", re.IGNORECASE)
_VERB_WIR = re.compile(r"\b(\w+(?:en|ern|eln)|sind)\s+(wir)\b", re.IGNORECASE)


def du_form(verb: str) -> str | None:
    """The "du" form of a verb in its "ich" form (present or simple past), or None if `verb` is no such form
    this module knows: fahre → fährst, arbeite → arbeitest, reise → reist, machte → machtest, ging → gingst."""
    word = verb.lower()
    if word in _NOT_VERBS or not re.fullmatch(_WORD, word):
        return None
    for prefix in ("", *_PREFIXES):
        if word.startswith(prefix) and word[len(prefix):] in _IRREGULAR_DU:
            return _cased(verb, prefix + _IRREGULAR_DU[word[len(prefix):]])
    if len(word) < 3 or not word.endswith("e"):
        return None
    stem = word[:-1]
    if stem.endswith(("t", "d")) or re.search(r"[^aeiouäöülrhmn][mn]$", stem):
        ending = "est"  # arbeite → arbeitest, atme → atmest
    elif stem.endswith(("s", "ß", "z", "x")):
        ending = "t"  # reise → reist, tanze → tanzt
    else:
        ending = "st"
    return _cased(verb, stem + ending)


def _cased(original: str, word: str) -> str:
    return word[0].upper() + word[1:] if original[0].isupper() else word


def _verb_before(text: str, match: re.Match, group: int) -> str | None:
    """The "du" form of the word of `match`'s `group` before an "ich", if it is a verb: in lower case, or
    capitalised where it opens a sentence ("Fahre ich…?"; a noun is capitalised anywhere: "Wochenende")."""
    word = match.group(group)
    opens = not text[:match.start(group)].strip() or text[:match.start(group)].rstrip()[-1] in ".!?:;\"„«"
    return du_form(word) if word and (word[0].islower() or opens) else None


def verb_before_ich(text: str) -> int | None:
    """Where a verb in the "ich" form starts that stands right before "ich" in `text` ("Am Samstag fahre
    ich"), or before where an "ich" may still arrive (the text ends "fahre ", "fahre i"): a streaming
    reply holds from it, so the verb is said back with its subject."""
    for match in _VERB_ICH.finditer(text):
        if _verb_before(text, match, 1) is not None:
            return match.start()
    arriving = re.search(rf"\b({_WORD})\s+(?:i|ic)?$", text, re.IGNORECASE)
    return arriving.start() if arriving and du_form(arriving.group(1)) is not None else None


def as_second_person(sentence: str) -> str:
    """`sentence` with "ich" and "wir" beside a verb said to the user: "ich fahre" → "du fährst", "fahre ich"
    → "fährst du", "wir singen" → "ihr singt". An "ich" beside no known verb stays."""
    def du(match: re.Match) -> str:
        before, gap, ich, space, after = match.groups()
        verb = _verb_before(sentence, match, 1) if before else None
        if verb is not None:  # "fahre ich", the verb's second place, first: "bin ich müde"
            return verb + gap + "du" + (space or "") + (after or "")
        verb = du_form(after) if after else None
        if verb is None:
            return match.group(0)
        return (before or "") + (gap or "") + _cased(ich, "du") + space + verb
    sentence = _WIR_VERB.sub(lambda m: f"{m.group(1)} {_ihr_form(m.group(2))}", sentence)
    sentence = _VERB_WIR.sub(lambda m: f"{_ihr_form(m.group(1))} {m.group(2)}", sentence)
    return _ICH.sub(du, sentence)


def _ihr_form(verb: str) -> str:
    """The present or past "ihr" form of a verb in its "wir" form: singen → singt, arbeiten → arbeitet,
    wandern → wandert, hatten → hattet, sind → seid."""
    if verb.lower() == "sind":
        return verb[0] + "eid"
    if verb.lower().endswith(("ern", "eln")):
        return verb[:-1] + "t"
    stem = verb[:-2]
    return stem + ("et" if stem.lower().endswith(("t", "d")) else "t")
