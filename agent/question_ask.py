"""The night's open questions (seed 004 §8 好奇心, Phase B), asked apart from the dream: what the user
left open, drawn from the user's own words only, each with the words it comes from; and which open
questions those words answered. The job is persona/dream_job.py.

Asked inside the dream, the 1.5B model wrote questions the user never left open ("What is Noor's
favorite river?", "What does Noor think about working from home?") and then copied a filed question
into the next nights' insight, strategy and topic (bench nights, session 24). Here it sees only the
user's messages, numbered, and must copy the words that leave a thing open: a question whose words
the message does not hold, or which shares nothing with them, is not taken. Asked for what is still
open, it went through the messages in order, one question each ("What did Sato eat?": session 25);
so the messages it may ask about are those that point ahead (agent/relative_time.py `points_ahead`:
a day or a month to come), and the grammar lets it name only those.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Callable, Sequence

import constants
from agent.dream import answer_number, answer_text, object_list
from agent.echoes import squash
from agent.language import LANGUAGE_NAMES, is_question, message_language
from agent.prompt_builder import fit_to_budget
from agent.relative_time import points_ahead
from agent.role import content_units
from agent.sentences import split as split_sentences
from managers.open_questions import FILED_KINDS, OpenQuestion

CountTokens = Callable[[str], int]


def question_schema(ahead: Sequence[int]) -> dict:
    """New questions, each with the message it comes from (one of the numbers `ahead`) and the user's
    words that leave it open; the open questions the messages answered, with the words that answer them
    (no length bounds: the parser cuts)."""
    number, text = {"type": "integer"}, {"type": "string"}
    chosen = {"type": "integer", "enum": list(ahead)} if ahead else number
    return {"type": "object", "properties": {
        "open": object_list({"message": chosen, "words": text, "question": text},
                      min(constants.OPEN_QUESTIONS_PER_NIGHT, len(ahead)),
                      min(constants.OPEN_QUESTIONS_AT_LEAST_PER_NIGHT, len(ahead))),
        "answered": object_list({"number": number, "message": number, "words": text, "answer": text,
                           "kind": {"type": "string", "enum": list(FILED_KINDS)}, "about": text},
                          constants.OPEN_QUESTIONS_SHOWN),
    }, "required": ["open", "answered"]}


# The example of an open question, in the language the questions are written in (message, words, question):
# with the English one alone, the 1.5B model put a Japanese message's next sentence as the question
# (「何を話すかまだ全然決めてないんだよね。」, session 53). A relative with a name, as people speak of them.
_EXAMPLES = {
    "en": ("My brother Ken has his driving test next Monday.", "driving test next Monday",
           "How did Ken's driving test go?"),
    "ja": ("来週の月曜、弟のケンが運転免許の試験を受けるんだ。", "運転免許の試験を受ける", "ケンさんの運転免許の試験、どうだった？"),
    "zh": ("我弟弟小健下周一考驾照。", "下周一考驾照", "小健的驾照考试怎么样了？"),
    "ko": ("남동생 켄이 다음 주 월요일에 운전면허 시험을 봐.", "운전면허 시험을 봐", "켄의 운전면허 시험은 어떻게 됐어?"),
    "es": ("Mi hermano Ken tiene el examen de conducir el próximo lunes.", "el examen de conducir el próximo lunes",
           "¿Qué tal le fue a Ken en el examen de conducir?"),
    "fr": ("Mon frère Ken passe son permis lundi prochain.", "passe son permis lundi prochain",
           "Comment s'est passé le permis de Ken ?"),
    "de": ("Mein Bruder Ken hat nächsten Montag seine Fahrprüfung.", "nächsten Montag seine Fahrprüfung",
           "Wie lief Kens Fahrprüfung?"),
    "it": ("Mio fratello Ken ha l'esame di guida lunedì prossimo.", "l'esame di guida lunedì prossimo",
           "Com'è andato l'esame di guida di Ken?"),
    "pt": ("Meu irmão Ken faz o exame de direção na próxima segunda.", "exame de direção na próxima segunda",
           "Como foi o exame de direção do Ken?"),
}
_EXAMPLE_NAME = re.compile(r"\bKen\b|ケン(?![ァ-ヺー])|小健|켄")


def question_system(persona: str, user_name: str, language: str, ahead: Sequence[int]) -> str:
    written = LANGUAGE_NAMES.get(language, "the language of the messages")
    numbers = ", ".join(str(n) for n in ahead)
    message, words, question = _EXAMPLES.get(language, _EXAMPLES["en"])
    opening = (f"open: what is still to come in messages {numbers} — an event, a plan, a choice not made yet — each "
               f"with message: its number; words: the few words of it that say what is to come, copied exactly; "
               f"question: the question you will ask {user_name} once it has happened or been decided (how it went, "
               f"what {user_name} chose), in {written}. For example, from \"{message}\" the words \"{words}\" give "
               f"\"{question}\". " if ahead else "open: leave it empty. ")
    return (
        f"You are {persona}. Below are {user_name}'s own messages of recent days, numbered. {opening}answered: the "
        f"numbers of your open questions that a message answers, each with message (its number), words "
        f"({user_name}'s words that answer it, copied exactly), answer (in {written}) and kind: FACT (a fact about a "
        f"person, place or thing; about: its name), INSIGHT (an understanding of feelings or patterns) or SKIP "
        f"(nothing worth keeping). Leave answered empty when no message answers one.")


def fit_messages(messages: Sequence[str], room: int, count: CountTokens) -> list[str]:
    """The user's messages that fit in `room` tokens as numbered lines, the newest kept first (each cut to
    a share of the room when one alone would crowd out the rest), in their order."""
    share = max(room // max(len(messages), 1), room // 6)
    kept: list[str] = []
    for message in reversed(messages):
        text = fit_to_budget(" ".join(message.split()), share, count, "…")
        if count("\n".join([text, *kept])) + 4 * (len(kept) + 1) > room:
            break
        kept.insert(0, text)
    return kept


def ahead_of(messages: Sequence[str]) -> list[int]:
    """The numbers (from 1) of the messages that point ahead: the ones a question may come from."""
    return [n for n, message in enumerate(messages, 1) if points_ahead(message)]


def question_user(messages: Sequence[str], questions: Sequence[OpenQuestion], write_line: str = "") -> str:
    """The ask's material: the messages numbered from 1, the open questions numbered from 1."""
    parts = ["# Messages", *(f"{n}. {m}" for n, m in enumerate(messages, 1))]
    if questions:
        parts += ["", "# Your open questions", *(f"{n}. {q.text}" for n, q in enumerate(questions, 1))]
    if write_line:
        parts += ["", write_line]
    return "\n".join(parts)


@dataclass(frozen=True)
class NewQuestion:
    question: str
    words: str  # the user's words it comes from (kept as the question's context)


@dataclass(frozen=True)
class Answered:
    number: int
    answer: str
    kind: str
    about: str


@dataclass(frozen=True)
class QuestionResult:
    new: tuple[NewQuestion, ...] = ()
    answered: tuple[Answered, ...] = ()


def _int(value: object) -> int:
    return int(answer_number(value, 0))


def said_in(words: str, message: str) -> bool:
    """Whether `words` are the message's own: QUESTION_WORDS_SAID_SHARE of what they are about
    (agent/role.py `content_units`, the same stems whatever language each side reads as) is in it —
    copied, give or take a particle or an inflection."""
    wanted = content_units(words)
    return bool(wanted) and len(wanted & content_units(message)) >= constants.QUESTION_WORDS_SAID_SHARE * len(wanted)


def _about(text: str, names: Sequence[str]) -> set[str]:
    """What a text is about, for grounding: its content units but the names and one-character ones (何, 話); the
    parts of a hyphenated word apart ("Chemie-Abschlussprüfung" for "Abschlussprüfung in Chemie", session 53)."""
    named = set().union(*(content_units(n) for n in names if n.strip())) if names else set()
    return {u for u in content_units(text.replace("-", " ")) - named if len(u) > 1}


def _not_asked(question: str, messages: Sequence[str]) -> bool:
    """A question that is no question of the persona's: a sentence of a message copied (with a question mark put
    after 「何を話すかまだ全然決めてないんだよね」, session 53), or one naming the example's person, whom no message names."""
    said = squash(question)
    return (len(said) > 0 and any(said in squash(m) for m in messages)) or bool(
        _EXAMPLE_NAME.search(question) and not any(_EXAMPLE_NAME.search(m) for m in messages))


def _grounded(words: str, question: str, messages: Sequence[str], heard: set[str], names: Sequence[str]) -> bool:
    """The words are the user's (some message holds them: the model named the message ahead and took
    the thing's name from the one before — "Leila got two job offers" for "She'll decide by the end of
    the month"), and the question is about what the user said: it shares with the words or the messages
    what they are about (`heard`: the messages' `_about`), besides the names (the user's, the
    persona's), which every question has."""
    return (any(said_in(words, m) for m in messages)
            and bool(_about(question, names) & (_about(words, names) | heard)))


def _speaks_of(message: str, question: str, names: Sequence[str]) -> bool:
    """Whether the message shares with the open question what it asks about, besides the names: LoCoMo 42's
    night resolved "How did your sister's driving test go?" with "It's a beautiful shade of blonde that I
    love!" and filed it as a discovery (session 29). True when the question is not known."""
    return not question or bool(_about(question, names) & _about(message, names))


def first_question(text: str) -> str:
    """The first sentence of `text` that is a question: the 1.5B model ran on with four more
    ("How did your sister's nursing degree start? What did you do with the soup? …": session 25)."""
    return next((s.strip() for s in split_sentences(text) if is_question(s)), "")


def _message(messages: Sequence[str], number: int) -> str:
    return messages[number - 1] if 0 < number <= len(messages) else ""


def _loaded(answer: str) -> object:
    """The answer's JSON, or None; one cut off at the answer's room (a question that ran on, "¿Qué dijo el monitor
    sobre las pruebas del bloque? ¿Cómo lo llamó? ¿Cuándo? ¿Por qué? …" to the token limit, session 53) closed where
    it stopped: its whole items, and the first question of the one cut, stay."""
    try:
        return json.loads(answer)
    except json.JSONDecodeError:
        pass
    cut = answer.rstrip().rstrip("\\")
    for close in ('"}], "answered": []}', '}], "answered": []}', '], "answered": []}'):
        try:
            return json.loads(cut + close)
        except json.JSONDecodeError:
            continue
    return None


def parse_questions(answer: str, messages: Sequence[str], language: str, ahead: Sequence[int],
                    names: Sequence[str] = (), asked: Sequence[str] = ()) -> QuestionResult:
    """The new questions that are questions in `language` drawn from the words of the message they
    name, one of those that point `ahead`, and the answered ones whose words a message holds that
    speaks of what the question asks (`asked`: the open questions' texts, as numbered); an answer that
    is no such JSON gives nothing. `names`: the user's and the persona's, which are no common ground."""
    data = _loaded(answer)
    if not isinstance(data, dict):
        return QuestionResult()
    new, answered = [], []
    heard = _about(" ".join(messages), names)
    for item in data.get("open") if isinstance(data.get("open"), list) else []:
        if not isinstance(item, dict):
            continue
        question, words = first_question(answer_text(item.get("question"))), answer_text(item.get("words"))
        said = _int(item.get("message"))
        if (said in ahead and question and message_language(question) in ("", language)
                and _grounded(words, question, messages, heard, names) and not _not_asked(question, messages)):
            new.append(NewQuestion(question[: constants.OPEN_QUESTION_MAX_CHARS], words))
    for item in data.get("answered") if isinstance(data.get("answered"), list) else []:
        if not isinstance(item, dict) or _int(item.get("number")) <= 0:
            continue
        words, answer = answer_text(item.get("words")), answer_text(item.get("answer"))
        message = _message(messages, _int(item.get("message")))
        if answer and said_in(words, message) and _speaks_of(message, _message(asked, _int(item.get("number"))), names):
            kind = item.get("kind") if item.get("kind") in FILED_KINDS else ""
            answered.append(Answered(_int(item.get("number")), answer, kind, answer_text(item.get("about"))))
    return QuestionResult(tuple(new[: constants.OPEN_QUESTIONS_PER_NIGHT]), tuple(answered))
