"""Keeps a reply in character while it streams: a later sentence that steps out of the persona (help-desk talk, "as an AI
language model", a line written as someone's turn "Ken: …") or that repeats the user's own words back ends the reply
there and is never shown; a later sentence that restates the user's message is left out.

The embedded 1.5B model closes many Japanese replies with a help-desk line (「何かお手伝いできることがあれば…」) after an
answer that was fine (shared/notes/conversation-probe.md; naming such phrases in the prompt made it write more of
them, and token bans hit common Japanese). A companion is a friend, not a help desk, so the app drops that sentence and
what follows it. The first sentence streams at once (the time to the first word matters) unless it opens like an
apology or a disclaimer, or is so far a copy of the user's words, or the caller asks for it to be held (a Japanese
reply to something the user told rather than asked, where service talk opened the reply); then it is held and checked.
Held service talk or a disclaimer is left out and the next sentence opens the reply ("Sure, I can help with that! Try a
lentil soup." shows the soup: asked again, three seeds running opened with the same line, and the chat showed a
notice); any other failure shows nothing and the reply is asked for again. Each later sentence is shown when it is
complete and passed the check. Sentence ends: 。！？!? and "." before a space, or a line break.
"""
from __future__ import annotations

import logging
import re
from typing import Sequence

import constants
from agent import role, sentences, vocatives
from agent.not_knowing import NOT_KNOWING_OPENINGS, says_it_does_not_know, told_before
from agent.echoes import (ECHO_MIN_CHARS, after_interjections, echo_arriving, echoes, repeats_earlier_reply, restates,
                          says_again, squash, users_words_said_back)
from agent.engagement import (CJK_FILLERS, FILLERS, asks_yes_or_no, content_size, greets_in, least_to_say, only_greets,
                              reaction_alone, leads_in, says_goodbye, says_nothing, tells_nothing, without_dangling_colon,
                              yes_alone)
from agent.language import (LATIN_LANGUAGES, SCRIPTS, in_other_latin_language, is_question, script_of_letters,
                            sure_language, surely_chinese, surely_in)
from agent.held_back import SCRIPT_FITS
from agent.memory_lines import is_day_heading
from agent.on_mind import DENIAL_OPENINGS, denies_the_thought
from agent.out_of_character import (REFUSAL, SERVICE_TALK, asks_for_name, breaks_character, claims_user_name,
                                    says_the_instructions, user_name_openings)
from agent.reply_openings import RISKY_OPENINGS, opening_risk, risk_after_lead


# A sentence that is a piece of the turn's context this long, or a whole line of it (the reminder), is
# the prompt said back; a shorter piece is an answer quoted from it ("0800 556 713" from a document's passage was
# taken for a copy and the question got an empty-reply notice: bench docqa, session 9).
CONTEXT_COPY_MIN_CHARS = 40
# An opening that is so far this many letters of an instruction, from anywhere in it, is held until it is whole.
INSTRUCTION_PIECE_MIN_CHARS = 4
# A sentence opening that answers the one before it; after that one is left out it answers nothing.
_CONNECTIVES = ("however", "but", "that said", "still", "though", "anyway", "nevertheless", "pero", "sin embargo",
                "mais", "cependant", "aber", "jedoch", "però", "tuttavia", "mas", "porém", "でも", "しかし", "ただ",
                "けれど", "但是", "不过", "可是", "하지만", "그런데")
_CONNECTIVE = re.compile(rf"(?:{'|'.join(_CONNECTIVES)})(?:[,，、]\s*|\s+)", re.IGNORECASE)
_CONNECTIVE_ARRIVING = re.compile(
    "|".join(f"{re.escape(c[:i])}" for c in _CONNECTIVES for i in range(1, len(c) + 1)) + "|", re.IGNORECASE)
# The first letters of a reply tell its script: held until this many letters (or the first kana or
# Hangul), then a reply in another script than the user's message is asked for again (「Wow, John! …」
# to a Japanese message, a Japanese reply to a Korean one).
LANGUAGE_DECIDED_LETTERS = 6
# Among Latin-script languages the first letters tell nothing ("Oh", "Super"): a reply to a Spanish,
# French, German, Portuguese or Italian message is judged on its first sentence at most, and asked
# for again only when that sentence is surely in another language (constants.LANGUAGE_REPLY_MIN_SCORE).


def _joint_after(shown: str) -> str:
    """What goes between a sentence shown and the next: nothing after Japanese or Chinese punctuation."""
    return "" if shown.rstrip()[-1:] in "。！？、，" else " "


def _script_of(text: str, sentence_ended: bool = False) -> str:
    """The script of a reply's first letters (agent/language.script_of_letters): kana or Hangul
    decide at once, Han characters or Latin letters once there are LANGUAGE_DECIDED_LETTERS or the
    first sentence has ended ("Olá!"); "" until then."""
    letters = "".join(c for c in text if c.isalpha())[:LANGUAGE_DECIDED_LETTERS]
    script = script_of_letters(letters)
    return script if script in ("ja", "ko") or len(letters) >= LANGUAGE_DECIDED_LETTERS or sentence_ended else ""


def _end(text: str, final: bool = False) -> int | None:
    """Where the first piece of `text` ends (a colon before a space ends a piece too: "Here are
    some tips for house-training a puppy: take him out after meals." restates the question only up
    to it), or None while it has not ended. `final`: nothing more will come, so the rest is a piece."""
    end = sentences.first_end(text, final=final, colon=True)
    return len(text) if end is None and final and text.strip() else end


_PARTIAL_WORD = re.compile(r"[\w'’]+$")


def _may_say_nothing(text: str, names: Sequence[str], least: int = 1) -> bool:
    """Whether what has arrived of an opening is still only greetings, fillers and names (its last
    word may still be growing into one: "Hel…", 「こんにち…」)."""
    if least > 1:  # a growing word only adds content: hold while there is too little so far
        return content_size(text, names) < least
    partial = _PARTIAL_WORD.search(text)
    done = text[: partial.start()] if partial else text
    if not says_nothing(done, names):
        return False
    if partial is None:
        return True
    word = partial.group(0).casefold()
    if any(f.startswith(word) for f in FILLERS) or any(n.strip().casefold().startswith(word) for n in names if n.strip()):
        return True
    # Japanese and Chinese run on without spaces: 「サクラで…」 may still become 「サクラです」 — what is left
    # once names and whole fillers are taken out must still be the start of a filler.
    for name in names:
        if name.strip():
            word = word.replace(name.strip().casefold(), "")
    for filler in CJK_FILLERS:
        word = word.replace(filler, "")
    return not word or any(f.startswith(word) for f in FILLERS)


class SentenceGate:
    """Feed the model's text as it streams; get back the text that may be shown.

    The text is judged one character at a time, so what is shown never depends on how the model's
    output was cut into pieces. After `blocked` is set the reply is over: the caller stops
    generating. If nothing had been shown by then, the caller asks for the reply again.
    """

    def __init__(self, names: Sequence[str] = (), user_text: str = "", language: str = "", context: str = "",
                 user_names: Sequence[str] = (), hold_first_sentence: bool = False, persona_name: str = "",
                 user_said: Sequence[str] = (), release_fillers: bool = False, leave_out_echoes: bool = False,
                 persona_said: Sequence[str] = (), greet_early: bool = False, greeted: str = "",
                 most_chars: int | None = None, instructions: Sequence[str] = (), day_told: bool = False,
                 thought: str = ""):
        """`names`: who may not open a line ("Ken: …"); `language`: the user's message's ("en", "ja", "zh"; "" checks
        none); `context`: the turn's context message, which is never to be said back; `user_names`: the user's names
        (from Settings, or introduced in the conversation), never taken by the persona as its own;
        `hold_first_sentence`: the first sentence is shown only once whole and checked, whatever it opens with;
        `persona_name`: the persona's own name, taken off as a label when the reply opens with it and a colon ("Ark:
        …"); `user_said`: what the user told earlier in the conversation (their facts stay theirs, agent/role.py);
        `release_fillers`: a reply of greetings and fillers alone is shown at the end (the last attempt) instead of
        being asked for again; `leave_out_echoes`: an opening that says the user's message back is left out and the
        reply goes on from what follows it (a retry, whose end of reply is held back for a while: the 1.5B model said
        「今天工作确实很忙，但总算到了周五。」 and stopped); on the last attempt, if nothing followed, it is shown said back as the
        user's rather than a notice instead of a reply; `persona_said`: the persona's last replies — a sentence said
        there already is left out ("Certo! Sono Marco. Ho preso 28 esami oggi…" twice running); `greet_early`: an
        opening salutation ("¡Hola, Diego!") is shown at once, what follows it judged whole; `greeted`: the greeting
        an earlier attempt showed (this one's is left out; what it shows follows that); `most_chars`: the reply ends
        at its last whole sentence within this many characters (`full`); `instructions`: the reply's own instruction
        lines, never to be said back in other words; `day_told`: the message asks of a day gone by the user told of;
        `thought`: what the prompt says is on the persona's mind (agent/on_mind.py), never to be denied."""
        self._hold_first = hold_first_sentence
        self._said_before = [squash(s) for reply in persona_said for s in sentences.split(reply)]
        self._said_again = lambda text: repeats_earlier_reply(text, self._said_before, self._script, self._user_names)
        self._own_labels = tuple(f"{persona_name.strip()}{colon}".lower() for colon in (":", "：")) if persona_name.strip() else ()
        self._names, self._user_names = tuple(names), tuple(n for n in user_names if n.strip())
        # Names say nothing in a reply, unless the user asked for one ("What's your name?" — "Ark!").
        self._all_names = () if asks_for_name(user_text) else tuple({*self._names, *self._user_names, persona_name} - {""})
        self._asked_name = asks_for_name(user_text)
        self._risky_openings = RISKY_OPENINGS + user_name_openings(self._user_names)
        self._user_text = user_text
        self._user_said = tuple(user_said) + (user_text,)
        # Asked about something the user told before: "I don't know" is held, checked and asked for again.
        self.answers_told = day_told or told_before(user_text, user_said, language,
                                                    (*self._names, *self._user_names, persona_name))
        if self.answers_told:
            self._risky_openings += NOT_KNOWING_OPENINGS
        self._thought, self.denied_thought = thought, False  # a first sentence denying it is asked for again
        if thought:
            self._risky_openings += DENIAL_OPENINGS
        self.not_knowing = False  # the opening said it did not know what the user had told
        # openings left out as service talk or a refusal ("Come posso aiutarti oggi?"): a retry may not open
        # with them again (after "Ciao Giulia!" the 1.5B model wrote that line three attempts running)
        self.left_out_openings: list[str] = []
        self.took_name = False  # a sentence that only took the user's name as the persona's was left out
        # Names the user spoke of may be addressed ("Thanks, Yuki!" when the user spoke of Yuki); not those of the
        # recalled lines' other speakers, nor those the user called someone by ("That's great, John!" to Ken, who had
        # written "Thanks, John!": bench conversation, session 30).
        self._known_names_text = "\n".join((vocatives.spoken_of(self._user_said), *self._names, persona_name))
        self._own_names = tuple(set(self._names) - set(self._user_names))  # never the listener's after a greeting
        self._spoken_of = role.names_spoken_of((*self._user_said, context))  # who may join the persona as a subject
        self._language = language
        self._release_fillers = release_fillers
        self._leave_out_echoes = leave_out_echoes
        self._least = least_to_say(user_text, language)  # content an opening carries to be shown
        self._reacting = not is_question(user_text)  # to something told (agent/role.py: a subject left out)
        self._yes_or_no = asks_yes_or_no(user_text, language)  # a bare "Yes." answers it
        self._left_out_echo = ""  # the opening echo left out, if one was
        self._after_left_out = False  # a sentence of service talk was left out: what opens now follows nothing
        self._heard = squash(user_text)
        self._heard_before = tuple(squash(t) for t in self._user_said[:-1])
        self._script = SCRIPTS.get(language, "")
        # Not English: judged until a sentence is surely in the message's language (the first one held till then)
        self._latin_language = language if language in LATIN_LANGUAGES and language != "en" else ""
        self._context = squash(context)
        self._context_lines = {squash(line) for line in context.splitlines() if not is_day_heading(line)} - {""}  # "when…?"
        self._instructions = tuple(instructions)
        self._instruction_lines = tuple(squash(i) for i in instructions)
        self._named = tuple({*self._names, *self._user_names, persona_name} - {""})
        self._pending = ""
        self._fillers = ""  # opening sentences that say nothing, held until one that does follows
        self._first_done = False
        self._streaming = False  # the first sentence has started to be shown
        self._first_shown = ""  # what of the streaming first sentence is shown so far
        self._first_person_held = False  # its rest is held from a word in the first person
        self._greet_early = greet_early
        self._greeted = greeted  # the greeting shown (by an earlier attempt or this one)
        self.greeting = ""  # the greeting this attempt showed at once
        self._joint = _joint_after(greeted) if greeted else ""  # between the greeting and what follows it
        self.blocked = ""  # the sentence that ended the reply, if one did
        self._most_chars = most_chars
        self._shown, self._left_out_after_lead = "", ""  # what feed showed; a first sentence left out after its 「はい、」
        self._lead_in = ""  # a later sentence ending in ":", held until what it leads into is shown (`most_chars`)
        self.full = False  # the reply reached `most_chars`: it is over, and nothing is wrong with it
        self.repaired = 0  # sentences said back as the user's, or left out, for taking the user's part

    # --- checks ----------------------------------------------------------------------
    def _offends(self, sentence: str) -> bool:
        said = squash(sentence)
        return (breaks_character(sentence, self._names) or echoes(sentence, self._user_text)
                or claims_user_name(sentence, self._user_names, self._asked_name)
                or says_the_instructions(sentence, self._instructions, self._named, self._user_text)
                or (len(said) >= ECHO_MIN_CHARS and said in self._context
                    and (len(said) >= CONTEXT_COPY_MIN_CHARS or said in self._context_lines)
                    and not self._told_back(sentence)))

    def _told_back(self, sentence: str) -> bool:
        """Asked about what the user told, their recalled line copied is the answer once said back as theirs
        (`_own_part`): "El jueves tengo que llevar el coche al taller…", word for word the memory, was held
        back as a copy of the prompt three attempts running to "¿qué tengo que hacer el jueves?" (dev-es-taller, s. 40)."""
        return self.answers_told and bool(role.users_part_said_back(
            sentence, self._user_said, self._user_names, self._language, self._reacting))

    def _in_another_language(self, sentence: str) -> bool:
        """Surely in another Latin-script language than the message's; one surely in its own decides the language."""
        if self._latin_language and surely_in(sentence, self._latin_language):
            self._latin_language = ""
        return bool(self._latin_language) and in_other_latin_language(sentence, self._latin_language)

    def _opens_a_context_line(self, text: str) -> bool:
        """Whether `text` so far is the start of one of the context's longer lines, or a piece of an
        instruction (the retry's line said back from its middle: 「Giulia te l'ha già detto; rispondi con quello che
        ti ha detto.」 streamed past the check of whole sentences; bench conversation dev-it-napoli, session 27)."""
        said = squash(after_interjections(text))
        if len(said) >= INSTRUCTION_PIECE_MIN_CHARS and any(said in line for line in self._instruction_lines):
            return True
        return len(said) >= ECHO_MIN_CHARS and any(
            len(line) >= CONTEXT_COPY_MIN_CHARS // 2 and line.startswith(said) for line in self._context_lines)

    def _addressed(self, text: str, shown: str = "") -> str:
        """`text` with the user addressed by their own name, not one the model made up; `shown`: what
        of its sentence is on screen already, read before it ("Kyoto" makes ", Japan." a place, not
        a name said to the user: alone, ", Japan." became ", Ken.")."""
        if not self._user_names:
            return text
        whole = vocatives.addressed_rightly(shown + text, self._user_names[0], self._known_names_text, self._own_names)
        return whole[len(shown):] if whole.startswith(shown) else self._addressed(text)

    def _own_part(self, sentence: str) -> str:
        """The sentence, or, when it tells the user's own facts as the persona's, the sentence said
        back as the user's ("" where the language allows no plain swap: it is left out); addressed
        to the user by their own name."""
        if not role.takes_users_part(sentence, self._user_said, self._user_names, self._language, self._reacting):
            if self._says_earlier_words_back(sentence):
                self.repaired += 1
                logging.getLogger(__name__).info("The user's earlier words said back, left out: %r", sentence[:80])
                return ""
            return self._addressed(self._users_words_theirs(sentence))
        self.repaired += 1
        repaired = role.as_users(sentence, self._language, self._user_names[0] if self._user_names else "")
        log_text = repaired if repaired is not None else "(left out)"
        logging.getLogger(__name__).info("The user's part told as the persona's own: %r → %r", sentence[:80], log_text[:80])
        if repaired is None and not self._streaming:  # the opening, left out: a retry may not open with it ("Eu corri
            self.left_out_openings.append(sentence)  # os 10 km em 58 minutos." three attempts running, session 36)
        return repaired or ""

    def _users_words_theirs(self, sentence: str) -> str:
        """The sentence with runs of the user's own words in their first person said back as theirs."""
        theirs = users_words_said_back(sentence, self._user_said, self._language,
                                        self._user_names[0] if self._user_names else "")
        self.repaired += theirs != sentence
        return theirs

    def _says_earlier_words_back(self, sentence: str) -> bool:
        """The sentence is one of the user's earlier messages (or recalled lines) again, not said to them
        and more than a greeting: 「오늘 드디어 작은 카페를 열었어.」 — the user's first message, word for word —
        answered "what was my café called?" (Korean drops the "I" the role check looks for; bench
        conversation dev-ko-cafe, session 27)."""
        return (not role.addresses_the_user(sentence, self._user_names) and not tells_nothing(sentence, self._names)
                and any(says_again(sentence, earlier) for earlier in self._user_said[:-1]))

    def _said_back_as_theirs(self, sentence: str) -> str:
        """On the last attempt, the user's own sentence told back in the persona's first person
        (「我今天工作特别忙，总算到周五了。」 to 「今天工作特别忙，不过总算到周五了。」, after two attempts that
        copied it): said back as the user's (「你今天工作特别忙…」) rather than a notice instead of a reply;
        "" otherwise."""
        if not self._release_fillers or not echoes(sentence, self._user_text) or breaks_character(sentence, self._names) \
                or claims_user_name(sentence, self._user_names, self._asked_name):
            return ""
        repaired = role.users_part_said_back(sentence, self._user_said, self._user_names, self._language, self._reacting)
        if repaired:
            self.repaired += 1
        return repaired or ""

    def _not_said_before(self, opening: str) -> str:
        """The opening, and the fillers held before it, without what the last replies said (「好的，我会记住。」)."""
        if self._said_again(self._fillers):
            self._fillers = ""
        return "".join(p for p in sentences.split(opening) if not self._said_again(p))

    def _copying(self, text: str) -> bool:
        """So far the user's own words, letter for letter, after an opening "Yes, " or 「はい、」."""
        said = squash(after_interjections(text))
        return bool(said) and said in self._heard

    def _copying_earlier(self, text: str) -> bool:
        """So far one of the user's earlier messages, letter for letter (`_says_earlier_words_back`)."""
        said = squash(after_interjections(text))
        return bool(said) and any(said in heard for heard in self._heard_before)

    def _copied_enough(self, text: str) -> bool:
        """A copy under way (`_copying`) that is surely the message said back before its sentence
        ends: it has taken ECHO_DECIDED_SHARE of a message of at least twice ECHO_MIN_CHARS letters
        (the caller asks only for something told: an answer takes up the question's words, "Yes, my
        sister's birthday is…" to "When is my sister's birthday?").
        Waiting for its end cost a second of the model's writing before each retry (「호두는 회색
        줄무늬가 있는 두 살짜리 고양이야.」 copied whole; bench conversation, session 23)."""
        copied, whole = len(squash(after_interjections(text))), len(self._heard)
        # a short message, or one copied whole so far, waits for the end: "I love hiking too!" agrees
        return whole >= 2 * ECHO_MIN_CHARS and constants.ECHO_DECIDED_SHARE * whole <= copied < whole

    # --- streaming -------------------------------------------------------------------
    def feed(self, delta: str) -> str:
        shown = "".join(self._feed_char(c) for c in delta)
        self._shown += shown
        return shown

    def _feed_char(self, char: str) -> str:
        if self.blocked or self.full:
            return ""
        self._pending += char
        shown: list[str] = []
        if not self._streaming and not self._first_done:
            decided = self._decide_opening()
            if decided is None:  # hold: it may still be a disclaimer or a copy of the user's words
                return ""
            shown.append(decided)
        if self._streaming and not self._first_done:
            shown.append(self._stream_first())
        if self._first_done:
            shown.append(self._later_sentences())
        return "".join(shown)

    def _stream_first(self, final: bool = False) -> str:
        """The first sentence, shown as it comes — up to a word in the first person: from there it
        is held until the sentence is whole, then shown, or said back as the user's when it tells
        the user's facts as the persona's (「前回、私はスパイスからカレーを作りました」: 「前回、」 is out
        before 「私は」 arrives)."""
        end = _end(self._pending, final)
        if end is None and not self._first_person_held and not after_interjections(self._first_shown).strip():
            joined = role.joins_someone_with_the_speaker(self._pending, self._spoken_of)
            if joined is not None:  # "Ana y yo comimos…": held from its start, judged whole
                self._first_person_held = joined
                return ""
        if end is None:
            # A final "." or ":" (or 。 before its 」) may end the sentence; the next character tells: held till then
            cut = len(self._pending) - sentences.undecided_tail(self._pending)
            person, sure = role.first_person_at(self._pending, self._language)
            cut = min(cut, person) if person is not None else cut
            vocative = vocatives.VOCATIVE_ARRIVING.search(self._pending)  # ", Jo…": whose name it is tells
            cut = min(cut, vocative.start()) if vocative else cut
            if self._first_person_held:
                cut = 0
            self._first_person_held = self._first_person_held or sure
            shown, self._pending = self._pending[:cut], self._pending[cut:]
            shown = self._addressed(shown, self._first_shown)
            self._first_shown += shown
            return shown
        rest, self._pending = self._pending[:end], self._pending[end:]
        self._first_done = True
        whole = self._first_shown + rest
        own = (sentences.split(whole) or [whole])[-1]  # the sentence itself, without the greetings shown before it
        if not self._first_person_held or not role.takes_users_part(own, self._user_said, self._user_names, self._language, self._reacting):
            theirs = self._users_words_theirs(whole)
            rest = theirs[len(self._first_shown):] if theirs.startswith(self._first_shown) else rest
            return self._addressed(rest, self._first_shown)
        self.repaired += 1
        repaired = role.as_users(rest, self._language, self._user_names[0] if self._user_names else "",
                                 opens_sentence=not self._first_shown.strip())
        logging.getLogger(__name__).info("The user's part told as the persona's own: %r → %r", whole[:80], repaired)
        if repaired is None:
            if not after_interjections(self._first_shown).strip():  # nothing of it shown yet but a "Sì, ": left out,
                self._left_out_after_lead = whole  # what follows goes on ("Sì, io sono stata…": dev-it-napoli, session 31)
                return ""
            return self._addressed(rest, self._first_shown)  # its start is shown: a whole sentence beats a fragment
        return repaired

    def _greet(self, end: int, final: bool) -> str | None:
        """The opening salutation `_pending[:end]`: shown at once (`greet_early`), or left out when a
        greeting was shown already; the opening goes on from what follows it."""
        sentence, self._pending = self._pending[:end], self._pending[end:]
        if not self._greeted:
            if not self._greet_early:  # held with the fillers, as any opening that says nothing
                self._fillers += sentence
                return self._decide_opening(final) if self._pending.strip() else None
            self.greeting = self._greeted = self._addressed(sentence).strip()
            self._joint = _joint_after(self.greeting)
            rest = self._decide_opening(final) if self._pending.strip() else None
            return self.greeting + (rest or "")
        return self._decide_opening(final) if self._pending.strip() else None

    def _refuse(self, sentence: str) -> str | None:
        """The opening `sentence` fails: the reply ends (`blocked`) with nothing shown, so it is asked
        for again — or, on the last attempt, with the greeting held before it ("Good morning,
        Maya!" rather than a notice instead of a reply)."""
        self.blocked, self._pending = self._fillers + sentence, ""
        if self._release_fillers and self._fillers.strip():
            return self._open_with("").rstrip()
        return None

    def _open_with(self, text: str) -> str:
        """The reply's first words are shown: with them, the held greetings that came before."""
        held, self._fillers = self._addressed(self._fillers), ""
        after_greeting, self._joint = self._joint, ""  # what follows a greeting shown before
        if not held or not text.strip():
            opened = held + text
        else:
            opened = held.rstrip() + _joint_after(held) + text.lstrip()
        return after_greeting + opened.lstrip() if after_greeting else opened

    def _decide_opening(self, final: bool = False) -> str | None:
        """While nothing is shown: None to keep holding, else the text to show now (and the
        stream goes on); sets `blocked` when the opening fails (nothing shown: ask again)."""
        if not self._fillers:
            self._pending = self._pending.lstrip()  # nothing shown yet: a reply does not open with blanks
        if self._after_left_out:
            # "As an AI, I have no preferences. However, rainy days…": with the first sentence left
            # out, the reply does not open with the word that answered it.
            if not final and (_CONNECTIVE_ARRIVING.fullmatch(self._pending) or _CONNECTIVE.fullmatch(self._pending)):
                return None
            self._after_left_out = False
            opening = _CONNECTIVE.match(self._pending)
            if opening and self._pending[opening.end():].strip():
                rest = self._pending[opening.end():]
                self._pending = rest[:1].upper() + rest[1:]
        if self._own_labels:
            head = self._pending.lower()
            label = next((label for label in self._own_labels if head.startswith(label)), None)
            if label is None and any(label.startswith(head) for label in self._own_labels):
                return None  # "Ar…" may still become "Ark:"
            self._own_labels = ()  # decided: the label, if any, goes
            if label is not None:
                self._pending = self._pending[len(label):].lstrip()
                if not self._pending:
                    return None
        if self._script:
            script = _script_of(self._fillers + self._pending, _end(self._pending, final) is not None)
            if not script and not final:
                return None
            if script and script not in SCRIPT_FITS[self._script]:  # another language: nothing shown, ask again
                self.blocked, self._pending = self._pending, ""
                return None
            if self._script == "ja" and script == "han":  # Japanese, or Chinese (「我也喜欢咖喱！」): its first sentence tells
                end = _end(self._pending, final)
                if end is None:
                    return None
                if surely_chinese(self._pending[:end]):
                    self.blocked, self._pending = self._pending[:end], ""
                    return None
        end = _end(self._pending, final)
        if self._latin_language:
            said = self._fillers + (self._pending[:end] if end is not None else self._pending)
            if end is None and sure_language(said) != self._latin_language:
                return None  # not sure yet: the first sentence may tell
            if self._in_another_language(said):  # nothing shown: asked again
                self.blocked, self._pending = said, ""
                return None
        # A greeting or "Sure!": held until something follows.
        # A reaction shown at once ("¡Qué pena!") is judged with what follows it, as one opening — alone,
        # "¿Cómo estás?" was too little to show after a long message, and together they had been enough.
        reaction = self._greeted if self._greeted and not only_greets(self._greeted, self._user_names) else ""
        opening = reaction + self._fillers
        whole = opening + self._pending[:end] if end is not None else ""
        if ((says_nothing(whole, self._all_names, self._least) or self._takes_leave(whole)) if end is not None
                else _may_say_nothing(opening + self._pending, self._all_names, self._least)):
            if end is None:
                return None
            if self._offends(self._pending[:end]):
                if self._only_takes_name(self._pending[:end]):  # "Hi! Ich bin Lena." to Lena: left out
                    self.took_name, self.repaired = True, self.repaired + 1
                    self._pending = self._pending[end:]
                    return self._decide_opening(final) if self._pending.strip() else None
                return self._refuse(self._pending[:end])
            if not self._fillers and (greets_in(self._pending[:end], self._language, self._user_names)
                                      or self._greet_early and not self._greeted and self._reacting
                                      and reaction_alone(self._pending[:end], self._language, self._user_names)):
                return self._greet(end, final)
            self._fillers += self._pending[:end]
            self._pending = self._pending[end:]
            return self._decide_opening(final) if self._pending.strip() else None
        if self._copying(self._fillers + self._pending):  # so far the user's own words, letter for letter
            if end is not None and len(squash(after_interjections(self._fillers + self._pending[:end]))) >= ECHO_MIN_CHARS:
                if self._leave_out_echoes and self._pending[:end].strip():
                    return self._leave_out(end, final)
                self.blocked, self._pending = self._fillers + self._pending[:end], ""
            elif (end is None and self._reacting and not self._leave_out_echoes
                  and self._copied_enough(self._fillers + self._pending)):
                self.blocked, self._pending = self._fillers + self._pending, ""  # asked again now, not at its end
            return None
        # After a held greeting the next piece is judged whole too ("Sure! Here are some tips for
        # house-training a puppy: …" restates the question and is left out).
        # After an "Oh, " or "Yes, " the opening is judged as if it opened there ("Oh, ich glaube das Spaghetti…",
        # said a second time, streamed where "Ich glaube…" would have been held: bench conversation, session 18).
        risk = True if self._hold_first or self._fillers or self._greeted else opening_risk(after_interjections(self._pending),
                                                                             self._risky_openings)
        if risk is False and self._script in ("ja", "zh"):
            risk = risk_after_lead(after_interjections(self._pending), self._risky_openings)
            if risk is None and end is not None:
                risk = False  # the sentence ended within its lead: nothing more to wait for
        if risk is False:  # its words may still be the user's message said back: held until that is told
            # (not the persona's last replies: an answer says again what a reply told — 「아침에 한강에서
            # 5킬로 뛰었어요.」 to "where did I run?" was left out for it, bench conversation, session 18)
            risk = echo_arriving(self._pending[:end] if end is not None else self._pending, self._user_text,
                                 self._all_names)
            if risk is None and end is not None:
                risk = True
        if risk is False and self._opens_a_context_line(self._pending):
            risk = True  # a line of the prompt on its way back (a retry's instruction): judged whole
        if risk is False and self._copying_earlier(self._pending):
            risk = True  # so far an earlier message of the user's, letter for letter: judged whole
        if risk is not False:  # judged on its whole first sentence
            if end is None:
                return None
            first = self._pending[:end]
            if self._leave_out_echoes and self._only_echoes(first):
                return self._leave_out(end, final)
            said_back = self._said_back_as_theirs(first)
            if said_back:  # the last attempt: the user's words said back as theirs are shown
                first = said_back
            elif self._offends(first):
                if SERVICE_TALK.search(first) or REFUSAL.search(first):
                    # service talk, a disclaimer, a refusal: left out, what follows opens
                    self.left_out_openings.append(first)
                    self._pending = self._pending[end:]
                    self._after_left_out = True
                    return self._decide_opening(final) if self._pending.strip() else None
                return self._refuse(first)
            elif self.took_name and echo_arriving(first, self._user_text):
                # After "Ich bin Lena." was left out, the user's story goes on as the persona's own
                # ("Hello! I'm Ken. Just back from Mt. Takao!"): asked again, pointed at the user's name.
                return self._refuse(first)
            elif self.answers_told and not self._release_fillers and says_it_does_not_know(first):
                self.not_knowing = True  # asked again, pointed at what the user told
                return self._refuse(first)
            elif not self._release_fillers and denies_the_thought(first, self._thought):
                self.denied_thought = True  # asked again, with the thought
                return self._refuse(first)
            else:
                first = self._own_part(first)
            self._pending = self._pending[end:]
            first = first if said_back else self._not_said_before(first)
            if not said_back and (not first.strip() or restates(first, self._user_text)):
                # left out: what follows opens
                return self._decide_opening(final) if self._pending.strip() else None
            self._streaming = self._first_done = True
            return self._open_with(first)
        # Its own words: the first sentence streams from here.
        self._streaming = True
        return self._open_with("")

    def _only_takes_name(self, sentence: str) -> bool:
        """The sentence, saying nothing else, has the persona take the user's name ("Ich bin Lena.",
        「나 지수야.」 — how the 1.5B model opened three attempts running to a user who introduced
        themself, bench conversation, session 17); it is not out of character otherwise."""
        return claims_user_name(sentence, self._user_names, self._asked_name) and not breaks_character(sentence, self._names)

    def _only_echoes(self, sentence: str) -> bool:
        """The sentence says the user's message back, and does nothing worse."""
        return (echoes(sentence, self._user_text) and not breaks_character(sentence, self._names)
                and not claims_user_name(sentence, self._user_names, self._asked_name))

    def _leave_out(self, end: int, final: bool) -> str | None:
        """The opening echo (`_pending[:end]`) is left out; what follows opens the reply."""
        self._left_out_echo = self._left_out_echo or self._pending[:end]
        self._pending = self._pending[end:]
        return self._decide_opening(final) if self._pending.strip() else None

    def _echo_said_back(self) -> str:
        """The left-out echo, as the user's (「你今天工作特别忙…」), where it plainly is: said back
        in the second person or swapped from the first; "" otherwise."""
        echo = self._left_out_echo.strip()
        if not echo or claims_user_name(echo, self._user_names, self._asked_name):
            return ""  # "Sou o Rafael, sou brasileiro…" names the user only to take their name
        said_back = role.users_part_said_back(echo, self._user_said, self._user_names, self._language, self._reacting)
        if said_back is not None:
            return said_back
        return echo if role.addresses_the_user(echo, self._user_names) else ""

    def _later_sentences(self, final: bool = False) -> str:
        shown: list[str] = []
        while not self.blocked:
            end = _end(self._pending, final)
            if end is None:
                break
            sentence, self._pending = self._pending[:end], self._pending[end:]
            # Asked about what they told, "je n'ai pas d'information…" after an answer ends it (dev-fr-loire, session 41)
            if self._offends(sentence) or self._in_another_language(sentence) or (
                    self.answers_told and says_it_does_not_know(sentence)):
                self.blocked, self._pending = sentence, ""
                break
            if self._most_chars is not None and (len(self._shown) + sum(map(len, shown)) + len(self._lead_in)
                                                 + len(sentence.rstrip()) > self._most_chars):
                self.full, self._pending = True, ""  # a held lead-in goes too: it would end the reply on a ":"
                break
            sentence = self._own_part(sentence)
            # A restated question, or a sentence said in a reply before, is left out; the reply goes on.
            if restates(sentence, self._user_text) or self._said_again(sentence):
                continue
            if self._most_chars is not None and not final and (
                    leads_in(sentence) or (self._lead_in and not sentence.strip())):
                self._lead_in += sentence  # "5. **Monitor Their Environment**:" is shown with what it leads into
                continue
            shown.append(self._lead_in + sentence)
            self._lead_in = ""
        return "".join(shown)

    def flush(self) -> str:
        """The rest, once the model has finished: shown if it passes the check."""
        if self.blocked or self.full:
            self._pending = ""
            return ""
        shown = ""
        if not (self._streaming and not self._first_done) and (kept := without_dangling_colon(self._pending)) != self._pending:
            self._left_out_after_lead, self._pending = self._left_out_after_lead or self._pending[len(kept):], kept
        if not self._streaming and not self._first_done:
            if not self._pending.strip():
                return self._said_nothing()
            decided = self._decide_opening(final=True)
            if self.blocked:
                return decided or ""
            if decided is None:
                if self._pending.strip() and self._copying(self._pending) and len(squash(self._pending)) >= ECHO_MIN_CHARS:
                    self.blocked, self._pending = self._pending, ""
                    return ""
                if not self._pending.strip():
                    return self._said_nothing()
                decided = self._open_with("")
                self._streaming = True
            shown = decided
        if self._streaming and not self._first_done:
            shown += self._stream_first(final=True)
        shown += self._later_sentences(final=True)
        if self._lead_in and not (self.blocked or self.full):  # the model ended on it: it leads into nothing
            self._left_out_after_lead, self._lead_in = self._left_out_after_lead or self._lead_in, ""
        whole = (self._shown + shown).strip()  # a reply streamed to its end on a colon leads into nothing either
        if not self._release_fillers and not (self.blocked or self.full) and (leads_in(whole) or (
                self._left_out_after_lead and says_nothing(whole, self._all_names, least=2))):  # 「はい、」 alone (dev-ja-veranda,
            # s. 43), "Sure thing." to "Any tips?": asked again, going on from it as from a greeting
            self.greeting, self.blocked = whole, self._left_out_after_lead or whole
        return shown

    def _takes_leave(self, opening: str) -> bool:
        """A leave-taking and nothing else while the user is not leaving: 「さようなら！」 to 「こんばんは！今日は公園で桜を
        見てきたよ。」 was the whole reply (the README's start, session 53). Held as a filler: asked again if nothing follows."""
        return (bool(self._user_text.strip()) and tells_nothing(opening, self._all_names) and says_goodbye(opening)
                and not says_goodbye(self._user_text))

    def _said_nothing(self) -> str:
        """Nothing but greetings and fillers: asked again, or shown on the last attempt; a bare yes to a yes-or-no question
        is shown, and the reply asked again going on from it (its answer kept)."""
        held, self._pending = self._fillers, ""
        if echo := self._echo_said_back() if self._release_fillers else "":
            self.repaired += 1
            return self._open_with(echo)
        if held and (self._release_fillers or self._yes_or_no and (yes := yes_alone(held, self._all_names))):
            self._fillers = held if self._release_fillers else yes
            shown = self._open_with("")
            self.greeting, self.blocked = (self.greeting, self.blocked) if self._release_fillers else (shown.strip(),) * 2
            return shown
        self._fillers, self.blocked = "", held or self._left_out_echo or " "
        return ""
