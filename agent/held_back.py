"""What the attempts the guard held back may still give the user when every attempt failed.

A notice that the persona found no words is the worst reply (§4 counts it empty). Before it, an
attempt's held-back greeting may be shown, or the user's own words an attempt told as the persona's,
said back as the user's.
"""
from __future__ import annotations

from typing import Sequence

from agent import role, sentences
from agent.engagement import says_nothing
from agent.language import LATIN_LANGUAGES, SCRIPTS, script_of_letters, sure_language
from agent.out_of_character import breaks_character, claims_user_name

# The scripts a reply in each script's languages may open with (agent/language.py SCRIPTS): Han
# characters alone may be Japanese (今日は…) or Chinese.
SCRIPT_FITS = {"ja": ("ja", "han"), "zh": ("han",), "ko": ("ko",), "latin": ("latin",)}


def _may_show(text: str, language: str, names: Sequence[str], user_names: Sequence[str]) -> bool:
    """In the reply's language, in character, and not taking the user's name."""
    if breaks_character(text, names) or claims_user_name(text, user_names):
        return False
    fits = SCRIPT_FITS.get(SCRIPTS.get(language, ""), ())
    if fits and script_of_letters(text) not in fits:
        return False
    return language not in LATIN_LANGUAGES or sure_language(text) in ("", language)


def greeting_held_back(held_back: Sequence[str], language: str, names: Sequence[str] = (),
                       user_names: Sequence[str] = (), least: int = 1) -> str:
    """The first of the attempts' held-back openings that is a greeting or filler alone, or a
    reaction shorter than `least` (what a reply to the message must carry), and may be shown
    ("Olá!", 「希望健康！」), or "": when every attempt failed, a greeting beats a notice instead of a
    reply (bench conversation, session 15: "Tudo ótimo!", "Olá!" and an echo held back, and the chat
    showed that the model had found no words; session 19: 「希望健康！」 between two echoes)."""
    for text in (t.strip() for t in held_back):
        if text and says_nothing(text, names, max(least, 1)) and _may_show(text, language, names, user_names):
            return text
    return ""


def users_words_held_back(held_back: Sequence[str], language: str, user_said: Sequence[str],
                          names: Sequence[str] = (), user_names: Sequence[str] = ()) -> str:
    """The first held-back sentence that told the user's own words as the persona's, said back as the
    user's where the language allows a plain swap, or "". Asked "¿Qué hice ayer para mi padre?", the
    first attempt said the user's "Ayer hice una tarta de queso…" and the next two a line of the prompt
    and a speaker's label: the user got the notice (§4, session 37, dev-es-tarta) where "Ayer hiciste una
    tarta de queso para el cumpleaños de tu padre." answers."""
    for text in (t.strip() for t in held_back):
        first = sentences.split(text)[0].strip() if text else ""
        said_back = role.users_part_said_back(first, user_said, user_names, language, reacting=True) if first else ""
        if said_back and _may_show(said_back, language, names, user_names):
            return said_back
    return ""
