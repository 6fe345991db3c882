"""Dreaming (seed 004 §5 夢日記, 睡眠時処理): the pure parts of the night's reflection — its level by
dates, the days it looks back over (what fits the model's context), the one schema-forced ask
(insight, strategy, log entry, goal updates, entity updates), its parser, and the check a strategy
passes before it goes into every prompt. The open questions are asked apart, from the user's words
only (agent/question_ask.py). The job is persona/dream_job.py.
"""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Callable, Sequence

import constants
from agent.episodes import without_quotes
from agent.grounding import grounded
from agent.language import LANGUAGE_NAMES, latin_words, message_language, script_of_letters, write_in
from agent.night_claims import users_doing_taken
from agent.prompt_builder import fit_to_budget
from agent.recap import only_recaps
from agent.role import claims_users_own, takes_users_part
from managers.episodes import Episode
from managers.goals import LONG, SHORT, Goal, GoalsMeta, days_since

CountTokens = Callable[[str], int]
LEVEL_TASKS = {  # seed 004 省察レベル: 日次 / 週次 / 月次
    1: "a daily reflection: look back on the latest conversations and find one insight",
    2: "a weekly reflection: look for patterns across the week, and adjust your short-term goals",
    3: "a monthly reflection: re-examine what you value, and review your long-term goals",
}


def level_for(today: date, meta: GoalsMeta) -> int:
    """3 when REFLECTION_LEVEL3_DAYS have passed since the last level 3, else 2 when
    REFLECTION_LEVEL2_DAYS have passed since the last level 2 (or 3), else 1. With no such date yet,
    the days count from the first dream; the first dream of all is level 1."""
    since3 = days_since(meta.last_level3_date or meta.first_dream_date, today)
    if since3 is not None and since3 >= constants.REFLECTION_LEVEL3_DAYS:
        return 3
    since2 = days_since(max(meta.last_level2_date, meta.last_level3_date) or meta.first_dream_date, today)
    return 2 if since2 is not None and since2 >= constants.REFLECTION_LEVEL2_DAYS else 1


def days_to_reflect(episodes: Sequence[Episode], level: int, today: date, last_dream_day: str) -> list[Episode]:
    """The episodes the level looks back over, newest first: level 1 the days after the last dream's
    (at most DREAM_LOOKBACK_DAYS[1]), levels 2 and 3 the last 7 or 30 days (weeks included)."""
    usable = [e for e in episodes if not e.deleted and not e.is_milestone and e.summary.strip() and e.last_day < today.isoformat()]
    if level == 1:
        chosen = [e for e in usable if e.last_day > last_dream_day]
    else:
        since = (today - timedelta(days=constants.DREAM_LOOKBACK_DAYS[level])).isoformat()
        chosen = [e for e in usable if e.last_day >= since]
    chosen.sort(key=lambda e: e.last_day, reverse=True)
    return chosen[: constants.DREAM_LOOKBACK_DAYS[level]]


def day_line(episode: Episode) -> str:
    star = " ★" if episode.starred else ""
    return f"- [{episode.date}]{star} {' '.join(episode.summary.split())}"


def fit_days(episodes: Sequence[Episode], last_dream_day: str, room: int, count: CountTokens) -> list[str]:
    """The day lines that fit in `room` tokens, in date order: when not all fit whole, each is cut to an
    equal share (never below a tenth of the room), and the new days, then the ★ days, then the newest
    are kept first."""
    if not episodes:
        return []
    lines = {e.id: day_line(e) for e in episodes}
    share = max(room // len(episodes), room // 10)
    if count("\n".join(lines.values())) > room:
        lines = {k: fit_to_budget(v, share, count, "…") for k, v in lines.items()}
    ranked = sorted(episodes, key=lambda e: (e.last_day <= last_dream_day, not e.starred,
                                             [-ord(c) for c in e.last_day]))
    kept: list[Episode] = []
    for episode in ranked:
        if count("\n".join(lines[e.id] for e in [*kept, episode])) <= room:
            kept.append(episode)
    return [lines[e.id] for e in sorted(kept, key=lambda e: e.last_day)]


# --- the ask --------------------------------------------------------------------------------
def object_list(properties: dict, most: int, least: int = 0) -> dict:
    """A schema's list of `least` to `most` objects, every property required (the night's asks)."""
    return {"type": "array", "minItems": least, "maxItems": most,
            "items": {"type": "object", "properties": properties, "required": list(properties)}}


_STRATEGY_KEY = "how_I_will_be_with_"


def strategy_key(user_name: str) -> str:
    """The strategy's name in the ask: what it is, with the user's name ("how_I_will_be_with_Noor"). Asked
    for a "strategy", the 1.5B model wrote the user's own plan as the persona's ("I will focus on practicing
    regularly" for Noor's cello; 0 of 8 strategies labelled ok, bench nights, session 26); the name of the
    field is the last thing it reads before it writes one. In ASCII letters (accents dropped; "the_user" for a
    name with none): a schema's property names go to remote providers too, which may allow no more."""
    ascii_name = unicodedata.normalize("NFKD", user_name).encode("ascii", "ignore").decode()
    return _STRATEGY_KEY + ("_".join(re.findall(r"[A-Za-z0-9]+", ascii_name)) or "the_user")


def dream_schema(user_name: str = "") -> dict:
    """One object: the seed's four diary fields (the strategy named by `strategy_key`), then the updates
    (no length bounds: llama.cpp turns a repetition bound into grammar rules; the parser cuts)."""
    items = object_list  # short, for the table below
    number, text = {"type": "integer"}, {"type": "string"}
    goals_most = constants.DREAM_GOALS_PER_NIGHT
    key = strategy_key(user_name)
    return {"type": "object", "properties": {
        "trigger_topic": text, "insight": text, key: text, "log_entry": text,
        "new_goals": items({"goal": text, "term": {"type": "string", "enum": [SHORT, LONG]}, "priority": number}, goals_most),
        "completed_goals": items({"number": number, "note": text}, goals_most),
        "abandoned_goals": items({"number": number, "reason": text}, goals_most),
        "entity_updates": items({"name": text, "fact": text}, constants.DREAM_ENTITY_UPDATES_PER_NIGHT),
    }, "required": ["trigger_topic", "insight", key, "log_entry", "new_goals", "completed_goals",
                    "abandoned_goals", "entity_updates"]}


def dream_system(persona: str, user_name: str, level: int, language: str) -> str:
    written = LANGUAGE_NAMES.get(language, "the language of your days")
    limit = (f" Keep at most {constants.GOAL_MAX_SHORT} short-term goals: abandon the ones that matter least."
             if level >= constants.GOAL_LEVEL_FOR_LIMIT else "")
    return (
        f"You are {persona}, dreaming: in your sleep you reflect on your recent days with {user_name}. This is "
        f"{LEVEL_TASKS[level]}. Write everything in {written}, as {persona}, only from what the days and "
        f"{user_name}'s own words below say. "
        f"trigger_topic: a few words for what the dream is about. insight: what you understood about {user_name} or "
        f"about the two of you, in one to three sentences. {strategy_key(user_name)}: one sentence naming "
        f"{user_name}: how you will be with {user_name} from now on. log_entry: the dream itself, one or two sentences. new_goals: goals of "
        f"your own (short_term or long_term, priority 1 highest to 5), none if you have enough. completed_goals: "
        f"the numbers of your goals the days achieved; when one is achieved, mark it without hesitation. "
        f"abandoned_goals: the numbers of goals that no longer matter, with the reason.{limit} entity_updates: new "
        f"facts about people, places or things the days name (who did what stays theirs). Leave a list empty when "
        f"nothing fits.")


def dream_user(today: date, day_lines: Sequence[str], goals: Sequence[Goal], language: str = "",
               user_words: Sequence[str] = (), user_name: str = "") -> str:
    """The ask's material: the days, the user's own words of the new days (`user_words`, as they said
    them: the episodes are the model's reading of them), goals numbered from 1; the last line asks for
    the days' `language` (`write_in`). Neither the strategy until now nor the open questions are shown:
    the 1.5B model wrote them again as the new strategy, the insight and the topic, night after night
    (bench nights, sessions 24 and 25); each night's reflection is drawn from the days."""
    parts = [f"Date: {today.isoformat()}", "# Your recent days", *day_lines]
    if user_words:
        parts += ["", f"# What {user_name} told you", *(f"- {w}" for w in user_words)]
    if goals:
        parts += ["", "# Your goals", *(f"{n}. ({'long' if g.term == LONG else 'short'}-term) {g.goal}"
                                        for n, g in enumerate(goals, 1))]
    if write_in(language):
        parts += ["", write_in(language)]
    return "\n".join(parts)


@dataclass(frozen=True)
class DreamResult:
    trigger_topic: str
    insight: str
    strategy: str
    log_entry: str
    new_goals: tuple[tuple[str, str, int], ...] = ()  # (goal, term, priority)
    completed_goals: tuple[tuple[int, str], ...] = ()  # (number, note)
    abandoned_goals: tuple[tuple[int, str], ...] = ()  # (number, reason)
    entity_updates: tuple[tuple[str, str], ...] = ()  # (name, fact)


def answer_text(value: object, field: str = "") -> str:
    """A text of a JSON answer, its whitespace runs one space ("" for anything else), cut to the field's
    DREAM_FIELD_CHARS."""
    text = " ".join(value.split()) if isinstance(value, str) else ""
    most = constants.DREAM_FIELD_CHARS.get(field)
    return text[:most] if most else text


def answer_number(value: object, default: float) -> float:
    """A number of a JSON answer (`default` for anything else, a boolean too)."""
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else default


def _items(data: dict, key: str) -> list[dict]:
    value = data.get(key)
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _strategy_of(data: dict) -> object:
    """The strategy of an answer, by the name it was asked by (`strategy_key`) or the seed's."""
    return next((v for k, v in data.items() if k.startswith(_STRATEGY_KEY)), data.get("strategy"))


def parse_dream(answer: str) -> DreamResult | None:
    """The reflection, or None for an answer that is no such JSON or has no insight."""
    try:
        data = json.loads(answer)
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict) or not answer_text(data.get("insight")):
        return None
    return DreamResult(
        trigger_topic=answer_text(data.get("trigger_topic"), "trigger_topic"),
        insight=answer_text(data.get("insight"), "insight"),
        strategy=answer_text(_strategy_of(data), "strategy"), log_entry=answer_text(data.get("log_entry"), "log_entry"),
        new_goals=tuple((answer_text(i.get("goal")), i.get("term") if i.get("term") in (SHORT, LONG) else SHORT,
                         int(answer_number(i.get("priority"), 3)))
                        for i in _items(data, "new_goals") if answer_text(i.get("goal")))[: constants.DREAM_GOALS_PER_NIGHT],
        completed_goals=tuple((int(answer_number(i.get("number"), 0)), answer_text(i.get("note")))
                              for i in _items(data, "completed_goals")),
        abandoned_goals=tuple((int(answer_number(i.get("number"), 0)), answer_text(i.get("reason")))
                              for i in _items(data, "abandoned_goals")),
        entity_updates=tuple((answer_text(i.get("name")), answer_text(i.get("fact"))) for i in _items(data, "entity_updates")
                             if answer_text(i.get("name")) and answer_text(i.get("fact")))[: constants.DREAM_ENTITY_UPDATES_PER_NIGHT],
    )


def copies_the_days(text: str, days_text: str) -> bool:
    """Whether a field of the dream is mostly the days' own sentences again (agent/episodes.py
    `without_quotes`: sentence by sentence, EPISODE_QUOTE_SHARE of its word n-grams in a day's
    line), not a reflection on them: the 1.5B model's insight, strategy and dream were the day's
    episode copied (bench nights, ja-yui-days, session 14)."""
    own = without_quotes(text, days_text.splitlines())
    return bool(text.strip()) and len(own) < constants.DREAM_OWN_WORDS_SHARE * len(text.strip())


def strange_words(text: str, days_text: str, language: str) -> list[str]:
    """In a field of a Japanese, Chinese or Korean dream, the words in Latin letters the days do not
    have: the 1.5B model wrote ユイ as "UI" and then dreamt of improving a user interface (bench
    nights, ja-yui-days, session 24). In a Latin-script language a new word is no such sign."""
    if language not in ("ja", "zh", "ko"):
        return []
    known = {w.casefold() for w in latin_words(days_text)}
    return list(dict.fromkeys(w for w in latin_words(text) if w.casefold() not in known))


COPIED, OTHER_LANGUAGE, STRANGE_WORDS, UNGROUNDED = "copied", "other_language", "strange_words", "ungrounded"


def dream_material(days_text: str, user_texts: Sequence[str], system: str) -> str:
    """What a dream may speak of (agent/grounding.py): the days it was shown, the user's own words of
    those days, and the ask itself ("understood", "dream")."""
    return "\n".join([days_text, *user_texts, system])


def grounded_text(text: str, material: str, names: Sequence[str]) -> str:
    """A field of the dream without the sentences its material lacks (agent/grounding.py)."""
    return grounded(text, material, names).kept if text.strip() else ""


def why_dream_again(result: DreamResult, days_text: str, language: str, material: str = "",
                    names: Sequence[str] = ()) -> tuple[str, ...]:
    """Why the night asks once more (none when it need not): the insight or the dream itself copies
    the days (`copies_the_days`), is in another language than the days' (the 1.5B model wrote
    every Japanese night's dream in English, told "Write everything in Japanese": bench nights,
    ja-yui-days, session 23), a field has words in Latin letters the days do not (`strange_words`),
    or nothing of the insight is left once what its `material` lacks is left out (`grounded_text`)."""
    fields = (result.insight, result.log_entry)
    reasons = []
    if material and not grounded_text(result.insight, material, names):
        reasons.append(UNGROUNDED)
    if any(copies_the_days(text, days_text) for text in fields):
        reasons.append(COPIED)
    if any(message_language(text) not in ("", language) for text in fields):
        reasons.append(OTHER_LANGUAGE)
    if any(strange_words(text, days_text, language) for text in (*fields, result.trigger_topic, result.strategy)):
        reasons.append(STRANGE_WORDS)
    return tuple(reasons)


def dream_again(user: str, user_name: str, language: str, reasons: Sequence[str]) -> str:
    """The ask once more, with what went wrong: the days copied, another language, names the days do
    not write that way, an insight the days do not bear out (each that did)."""
    notes = {OTHER_LANGUAGE: f"Your last answer was not in {LANGUAGE_NAMES.get(language, 'the language of the days')}.",
             STRANGE_WORDS: f"Your last answer had words the days do not have. Write {user_name} and every name as "
                            f"the days write them.",
             COPIED: "Your last answer copied sentences of the days above.",
             UNGROUNDED: f"Your last insight said things the days do not say. Say only what the days tell of {user_name}."}
    note = " ".join(notes[r] for r in notes if r in reasons) or notes[COPIED]
    return (f"{user}\n\n# Once more\n{note} The insight is what you understood about {user_name}, the strategy how "
            f"you will be with {user_name}, the log entry a dream: each in your own new words, not the days' "
            f"sentences.\n{write_in(language)}")


def strategy_ok(strategy: str, language: str, user_name: str, days_text: str, user_texts: Sequence[str] = (),
                persona_names: Sequence[str] = ()) -> bool:
    """A strategy goes into every prompt only when it is there, in the persona's language (the days'),
    a resolution rather than a recap of the days (agent/recap.py: judged in English and Japanese), a
    copy of them (`copies_the_days`) or the user's own facts (`user_texts`) taken as the persona's, and
    about this user: it names them, as the ask says ("I will continue to practice regularly", which
    named nobody, was the user's cello practice taken as the persona's: bench nights, session 24), and no
    piece of it tells the user's doing as the persona's (by `persona_names` or in the first person)."""
    if not strategy.strip():
        return False
    said_in = message_language(strategy)
    if said_in != language and not (said_in == "" and script_of_letters(strategy) == script_of_letters(
            {"ja": "あ", "zh": "中", "ko": "한"}.get(language, "a"))):
        return False
    if only_recaps(strategy, language, user_name) or copies_the_days(strategy, days_text):
        return False
    return about_the_user(strategy, user_name, user_texts, language, persona_names)


def about_the_user(text: str, user_name: str, user_texts: Sequence[str], language: str,
                   persona_names: Sequence[str] = ()) -> bool:
    """A night text (strategy, goal) is about this user — it names them, as the ask says — and does not
    take the user's own doing (`user_texts`: the user's words) as the persona's (`takes_users_part`, or
    the user's thing called "mine"), nor in any of its pieces (agent/night_claims.py: the name that
    makes the text about the user excuses no other clause of it)."""
    if not user_name.strip() or user_name.strip().casefold() not in text.casefold():
        return False
    return not (takes_users_part(text, user_texts, (user_name,), language) or claims_users_own(text, user_texts)
                or users_doing_taken(text, user_name, user_texts, language, persona_names))


def goal_ok(goal: str, user_name: str, user_texts: Sequence[str], language: str,
            persona_names: Sequence[str] = ()) -> bool:
    """A goal the night may add: about this user — it names them — and not the user's own doing taken
    as the persona's (`takes_users_part`, or the user's thing called "mine"). Goals that named nobody
    were the user's: "Practice regularly", "Seek help when needed" for Noor's cello practice, then
    shown to the next nights' dreams, which wrote them into the strategy (bench nights, session 25)."""
    return about_the_user(goal, user_name, user_texts, language, persona_names)


_KATAKANA_WORD = re.compile(r"[\u30a1-\u30fa][\u30a1-\u30fc]*")


def misspelt_names(text: str, names: Sequence[str], known_text: str) -> tuple[str, ...]:
    """Katakana words of `text` that are one of the persona's katakana `names` misspelt: the same first
    kana, at most NAME_MISSPELLING_EDITS apart, and never written in `known_text` (the days, the ask),
    so no word the user used. Told in Japanese to write "as Ark", the 1.5B model wrote アーケー for
    the persona its user calls アーク, and gave it Yui's transfer (bench nights, session 27)."""
    katakana = [n for n in names if _KATAKANA_WORD.fullmatch(n)]
    found = {word for word in _KATAKANA_WORD.findall(text) if word not in katakana and word not in known_text
             and any(word[0] == n[0] and _edits(word, n) <= constants.NAME_MISSPELLING_EDITS for n in katakana)}
    return tuple(sorted(found))


def _edits(a: str, b: str) -> int:
    """Levenshtein distance: the insertions, deletions and substitutions between two short words."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]
