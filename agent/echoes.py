"""The user's message said back: an echo, a restatement, and an opening on its way to one.

The 1.5B model often answers by saying the user's words back ("Yes, I remember when my dad used to
play…" to "I remember when my dad used to play…"); the reply guard (agent/character_guard.py) asks
for such a reply again or leaves the sentence out. What counts as said back lives here.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from typing import Iterable, Sequence

import constants
from agent import sentences
from agent.engagement import FILLERS, only_greets, tells_nothing
from agent.language import is_question, message_language, script_of_letters
from agent.role import OBJECT_ME, addresses_the_user, as_users, confirms_users_words, speaks_of_oneself
from managers.cjk import bigrams, is_cjk

# An echo (the user's words said back: 「早起きしないといけないから、そろそろ寝るね。」 to that very
# message) is at least this many letters, copied or this similar to one of the user's sentences
# (difflib ratio: at 0.8 "Here are some tips for house-training a puppy:" counted as an echo of
# "Any tips for house-training a puppy?"; the conversation scorer applies 0.8 to the whole reply).
ECHO_MIN_CHARS = 10
# 0.85: 「私は暑すぎて何もしたくない。」 said back to 「今日は暑すぎて何もしたくない。」 is 0.89 (bench conversation,
# session 10); "Here are some tips for house-training a puppy:" to "Any tips…?" stays below, at 0.82.
ECHO_SIMILARITY = 0.85
ECHO_RESTATED_SHARE = 0.7


_INTERJECTION = re.compile(r"\s*([\w'’]+?)\s*[,，、!！.。]\s*")


def after_interjections(text: str) -> str:
    """`text` without the "Yes, " / 「はい、」 / "네, " it opens with: the model's way into saying the
    user's message back ("Yes, I remember when my dad used to play his old jazz records…" to "I
    remember when my dad used to play…", bench conversation, session 15)."""
    while True:
        match = _INTERJECTION.match(text)
        if not match or match.group(1).casefold() not in FILLERS:
            return text
        text = text[match.end():]


def squash(text: str) -> str:
    """Letters and digits only, case-folded: what an echo keeps of the user's words."""
    return "".join(c for c in unicodedata.normalize("NFKC", text).casefold() if c.isalnum())


_ALSO = re.compile(r"\b(?:too|also|as well|me neither|aussi|moi non plus|también|yo tampoco|auch|anche)\b|私も|僕も|俺も|我也|나도|저도",
                   re.IGNORECASE)


def echoes(sentence: str, user_text: str) -> bool:
    """Whether the sentence repeats the user's message (or one of its sentences) back."""
    said, heard = squash(after_interjections(sentence)), squash(user_text)
    if len(said) < ECHO_MIN_CHARS or not heard:
        return False
    if said in heard:
        return True
    if _ALSO.search(sentence):  # "I love hiking too!" to "I love hiking.": agreeing, not echoing
        return False
    if asks_it_back(sentence, user_text):
        return True
    if confirms_users_words(sentence, user_text):  # "…your dentist appointment…" to "…my dentist appointment…"
        return False
    parts = [part for part in sentences.split(user_text) if len(squash(part)) >= ECHO_MIN_CHARS]
    return (any(difflib.SequenceMatcher(None, said, squash(part)).ratio() >= ECHO_SIMILARITY for part in parts)
            or _said_back_in_units(sentence, {*parts, user_text}))


def asks_it_back(sentence: str, user_text: str) -> bool:
    """Whether the sentence asks the user's question back in the second person: "¿Qué tienes que hacer el
    jueves?" to "Oye, ¿qué tengo que hacer el jueves?" (dev-es-taller, session 39) is no answer, though its
    "tienes" where the message said "tengo" reads as a confirmation of the user's words to `echoes`."""
    if not is_question(user_text):
        return False
    language = message_language(user_text)
    parts = [(part, as_users(part, language, "")) for part in sentences.split(user_text)]
    for asking in (q for q in sentences.split(sentence) if is_question(q)):
        said, units = squash(after_interjections(asking)), _echo_units(after_interjections(asking), complete=True)
        for part, asked in parts:
            if asked and difflib.SequenceMatcher(None, said, squash(after_interjections(asked))).ratio() >= ECHO_SIMILARITY:
                return True
            # its words all the question's, fewer of them: "¿Qué compraste el otro día?" to "Oye, ¿qué fue lo que me
            # compré el otro día?" (§4 dev-es-bici, session 40; a word's first letters are its unit: compré, compraste)
            theirs = {u for text in (part, asked or "") for u in _echo_units(text, complete=True)}
            if len(units) >= constants.ECHO_UNITS_AT_LEAST and sum(u in theirs for u in units) >= (
                    constants.ECHO_UNIT_SHARE * len(units)):
                return True
    return False


def says_again(sentence: str, message: str) -> bool:
    """Whether the sentence is the message, or one of its sentences, again: an echo that carries most of
    what it copies. A piece of it is not — the answer drawn from what the user told ("Military aptitude
    test" from "I took the military aptitude test again last week.") is how a recall question is answered
    (bench qa, LoCoMo 41: six short answers were left out for it and came back as sentences, session 31)."""
    if not echoes(sentence, message):
        return False
    said = squash(after_interjections(sentence))
    around = [len(squash(part)) for part in (*sentences.split(message), message) if said in squash(part)]
    return not around or len(said) >= ECHO_RESTATED_SHARE * min(around)


def _said_back_in_units(sentence: str, messages: Iterable[str]) -> bool:
    """Most of the sentence's words are one message's and carry most of it: the message said back
    with its endings and particles changed (constants.ECHO_UNIT_SHARE)."""
    said = _echo_units(after_interjections(sentence), complete=True)
    if len(said) < constants.ECHO_UNITS_AT_LEAST:
        return False
    said_set = set(said)
    for message in messages:
        heard = _echo_units(message, complete=True)
        heard_set = set(heard)
        if (heard and sum(unit in heard_set for unit in said) >= constants.ECHO_UNIT_SHARE * len(said)
                and sum(unit in said_set for unit in heard) >= constants.ECHO_UNIT_SHARE * len(heard)):
            return True
    return False


_WORD_OR_RUN = re.compile(r"[^\W\d_]+|\d+")


def _echo_units(text: str, complete: bool) -> list[str]:
    """What an echo copies, unit by unit: a word's first letters (an inflection changes its end:
    "singt"/"singen", 「샀어」/「샀어요」), or a bigram of a Japanese/Chinese run. With `complete`
    False the text is still arriving and its last word, perhaps cut, is not counted."""
    text = unicodedata.normalize("NFKC", text).casefold()
    words = _WORD_OR_RUN.findall(text)
    units: list[str] = []
    for i, word in enumerate(words):
        unspaced = is_cjk(word) and script_of_letters(word) != "ko"  # Japanese or Chinese
        if unspaced:
            units += bigrams(word) or ([word] if complete else [])  # one character arriving tells nothing yet
        elif complete or i < len(words) - 1 or not text[-1:].isalnum():
            units.append(word[:constants.ECHO_WORD_PREFIX_HANGUL if script_of_letters(word) == "ko"
                              else constants.ECHO_WORD_PREFIX])
    return units


def echo_arriving(opening: str, user_text: str, names: Sequence[str] = ()) -> bool | None:
    """Whether a reply's opening, as it arrives, is on its way to saying the user's message back
    in other words ("Aquela água estava geladinha…" to "A água estava geladinha…", 「지수님, 다음 달에
    처음으로…」): True once most of its words are the message's, False once it has words of its own,
    None while too few have arrived to tell (at least two words). A yes or a name before it counts
    for neither."""
    if len(squash(user_text)) < ECHO_MIN_CHARS:  # "ㅋㅋㅋ", "Hi!": nothing to say back
        return False
    opening = after_interjections(opening.lstrip())
    for name in (n.strip() for n in names if n.strip()):
        opening = re.sub(re.escape(name) + r"\w*", " ", opening, flags=re.IGNORECASE)
    units = _echo_units(opening, complete=False)
    if len(units) < 2:  # one word tells nothing: "Aquela água…" to "A água…"
        return None
    heard = set(_echo_units(user_text, complete=True))
    share = sum(unit in heard for unit in units) / len(units)
    if share < constants.ECHO_ARRIVING_OWN_SHARE:
        return False
    if len(units) >= constants.ECHO_ARRIVING_UNITS and share >= constants.ECHO_ARRIVING_SHARE:
        return True
    return None if len(units) < constants.ECHO_ARRIVING_MAX_UNITS else share >= constants.ECHO_ARRIVING_SHARE


def restates(sentence: str, user_text: str) -> bool:
    """Whether the sentence carries most of the user's message ("Here are some tips for
    house-training a puppy:" to "Any tips for house-training a puppy?"): the conversation scorer's
    echo bar, a common run of 70 % of a message of 12 letters or more."""
    said, heard = squash(sentence), squash(user_text)
    if len(heard) < ECHO_MIN_CHARS or _ALSO.search(sentence):
        return False
    match = difflib.SequenceMatcher(None, said, heard, autojunk=False).find_longest_match(0, len(said), 0, len(heard))
    return match.size >= ECHO_RESTATED_SHARE * len(heard)


def told_openings(user_text: str, names: Sequence[str] = ()) -> tuple[str, ...]:
    """The sentences of the user's message a reply may not open with, nor take up after a lone "Yes, ":
    each one that tells something (not a greeting, not a question), from its first word on. The 1.5B
    model's commonest way into saying a message back is its first words ("We adopted a puppy
    yesterday, his…", 「今日仕事が早く終わったよ。」 to those very messages; bench conversation, session 36),
    each one a retry; a question's words are an answer's ("Do you remember…?" — "Yes, I do")."""
    if len(squash(user_text)) < ECHO_MIN_CHARS:  # "Hi!", "ㅋㅋㅋ": nothing to say back
        return ()
    openings = []
    for sentence in sentences.split(user_text):
        told = after_interjections(sentence.strip())
        if told and not is_question(told) and not tells_nothing(told, names):
            openings.append(told)
    return tuple(dict.fromkeys(openings))


# A sentence this similar to one of the persona's last replies' is said again: the conversation scorer
# counts a reply ≥ 0.9 like one of the last three as a repeat.
REPEAT_SIMILARITY = 0.9
# A Chinese, Japanese or Korean letter tells about what two or three Latin ones do: 「好的，我会记住。」 (6
# letters) said again to the next thing told passed the echoes' 10-letter floor (§4, session 36,
# dev-zh-climbing). Greetings keep that floor: 「こんにちは！」 on another day is no fault.
REPEAT_MIN_CJK_CHARS = 5


def repeats_earlier_reply(sentence: str, said_before: Sequence[str], script: str, user_names: Sequence[str] = ()) -> bool:
    """Whether `sentence`, of a reply in `script` ("ja", "zh", "ko", "latin"), is (nearly) one of
    the persona's last replies' sentences (`said_before`, squashed)."""
    said = squash(sentence)
    floor = ECHO_MIN_CHARS
    if script in ("ja", "zh", "ko") and not only_greets(sentence, user_names):
        floor = REPEAT_MIN_CJK_CHARS
    return len(said) >= floor and any(
        difflib.SequenceMatcher(None, said, before).ratio() >= REPEAT_SIMILARITY for before in said_before)


def says_me(text: str, language: str) -> bool:
    """Whether the text speaks of its speaker, as subject, owner or object ("m'emmenait", "me enseñó")."""
    return speaks_of_oneself(text, language) or (language in OBJECT_ME and re.search(OBJECT_ME[language], text) is not None)


_COPIED_WORDS_LEAST = 4  # "das ist mir wichtig": fewer words copied ("I love it") are anyone's
_WORD_AT = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?|\d+")


def users_words_said_back(sentence: str, user_texts: Sequence[str], language: str, user_name: str = "") -> str:
    """The sentence with each run of the user's own words copied in their first person said back in the second:
    "Dein Bruder Felix heiratet am 12. Juni, das ist mir wichtig." after "Merk dir bitte, dass mein Bruder …, das ist
    mir wichtig." is "…, das ist dir wichtig."; "Ton grand-père m'emmenait pêcher au lac d'Annecy…" after "mon
    grand-père m'emmenait pêcher au lac d'Annecy" is "Ton grand-père t'emmenait…". The sentence speaks to the user,
    which excuses it whole from the role check (agent/role.py; §4 dev-de-brot, session 40; dev-fr-souvenirs, session
    41). Four or more words in a row; a run with no plain swap, or in quotes, stays."""
    if not user_texts or not addresses_the_user(sentence) or re.search("[\"“”«»「」『』]", sentence):
        return sentence
    spans = [(m.start(), m.end()) for m in _WORD_AT.finditer(sentence)]
    words = [sentence[a:b].casefold().replace("’", "'") for a, b in spans]
    runs = set()
    for text in user_texts:
        heard = [w.casefold().replace("’", "'") for w in _WORD_AT.findall(text)]
        matcher = difflib.SequenceMatcher(None, words, heard, autojunk=False)
        runs |= {(b.a, b.a + b.size) for b in matcher.get_matching_blocks() if b.size >= _COPIED_WORDS_LEAST}
    out, at = [], 0
    for first, last in sorted(runs):
        start, end = spans[first][0], spans[last - 1][1]
        if start < at:
            continue
        copied = sentence[start:end]
        swapped = as_users(copied, language, user_name, opens_sentence=False) if says_me(copied, language) else None
        out += [sentence[at:start], swapped or copied]
        at = end
    return "".join(out) + sentence[at:]
