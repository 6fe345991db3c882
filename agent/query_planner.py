"""retrieval_node's planner: RAG query words, 0–3 KEYWORD proper nouns, and an INTENT.

Two paths with one result type: a rule-based planner (always available, no LLM, used by the
benchmark) and an LLM planner whose output is forced into JSON (grammar/JSON schema on the
local model) and validated; a malformed or failed LLM answer falls back to the rules.
"""
from __future__ import annotations

import json
import logging
import re
import unicodedata
from dataclasses import dataclass, replace
from datetime import date
from typing import Callable

import constants
from agent.language import LATIN_LANGUAGES, function_words, sure_language
from agent.time_period import Period, named_period
from managers.lexical import LATIN_LETTERS, WORD_TOKEN, is_latin_word

log = logging.getLogger(__name__)

INTENTS = ("emotional", "factual", "technical", "temporal", "relational")

_EN_STOP = set("""
a an the of to in on at for and or but is are was were be been being do does did i you he she it we they me my your
his her its our their what when where who whom which how why that this those these with from by as about into than then
so if not no yes can could would should will shall may might must have has had having there here just also very really
any some all more most other such only own same too s t don't didn't doesn't isn't wasn't aren't tell remember recall
know think said say says talk talked mentioned ever
""".split())
_JA_PARTICLES = re.compile(r"[はがをにでとのへもやかねよなだ]|です|ます|でした|ました|って|けど|から|まで|より")
_INTENT_RULES: tuple[tuple[str, re.Pattern], ...] = (
    ("temporal", re.compile(r"\bwhen\b|\bhow long\b|\bwhat (?:year|month|day|date|time)\b|\blast (?:week|month|year)\b|"
                            r"\byesterday\b|\brecently\b|\bfirst time\b|いつ|最近|昨日|先週|先月|去年|何年|何月|何日", re.I)),
    ("emotional", re.compile(r"\bfeel|\bfelt\b|\bhappy\b|\bsad\b|\bupset\b|\bexcited\b|\bproud\b|\bscared\b|\blove\b|"
                             r"嬉し|うれし|悲し|楽し|怖|寂し|さみし|気持ち|感じ|好き", re.I)),
    ("relational", re.compile(r"\brelationship\b|\bfriend|\bfamily\b|\bpartner\b|\bhusband\b|\bwife\b|\bmother\b|"
                              r"\bfather\b|\bkids?\b|\bchildren\b|関係|友達|友人|家族|彼氏|彼女|夫|妻|母|父", re.I)),
    ("technical", re.compile(r"\bhow (?:to|do i)\b|\bsetting|\bconfig|\bversion\b|\binstall|\berror\b|\bbug\b|"
                             r"設定|方法|やり方|バージョン|インストール|エラー", re.I)),
)


@dataclass(frozen=True)
class QueryPlan:
    rag_query: str
    keywords: tuple[str, ...]
    intent: str
    source: str  # "rules" or "llm"
    period: Period | None = None  # the stretch of time the message names ("in July 2022", 「先月」)
    about_oneself: bool = False  # the message speaks of its writer ("What did I cook?"): their own words hold it


def _stopwords(text: str) -> set[str] | frozenset[str]:
    """English stopwords, and the small words of the text's own language when it is surely another
    Latin-script one ("que", "les", "und"): only then, as "son" or "die" are English words too."""
    language = sure_language(text)
    if language in LATIN_LANGUAGES and language != "en":
        return _EN_STOP | function_words(language)
    return _EN_STOP


# "The other day" says "recently", not what to search for: "What did I buy the other day?" recalled "Long
# day. My neighbour's dog barked half the night." before "I bought a secondhand record player" (§4, session 38).
_VAGUE_TIME = re.compile(r"\bthe other (?:day|night|week)\b|\bl['’]autre (?:jour|soir)\b|\bel otro día\b|\bla otra noche\b"
                         r"|\bl['’]altr[oa] (?:giorno|sera)\b|\b(?:o )?outro dia\b|\bneulich\b|\bletztens\b"
                         r"|この前|こないだ|先日|前几天|前两天|요전에|며칠 전에?", re.IGNORECASE)


def content_words(text: str) -> list[str]:
    """Words worth searching for: no stopwords, no particles, no 1-letter Latin-script tokens;
    accented words whole ("Müller", "café"), Hangul words as written; no "the other day"."""
    text = _VAGUE_TIME.sub(" ", unicodedata.normalize("NFKC", text))
    stop = _stopwords(text)
    words = []
    for token in WORD_TOKEN.findall(text):
        if re.fullmatch(r"[\u3040-\u309f]+", token):
            continue  # hiragana runs are mostly grammar
        if is_latin_word(token) and (token.lower() in stop or len(token) < 2):
            continue
        words.append(token)
    return words


_POSSESSIVE = re.compile(r"['’]s?$")


def proper_nouns(text: str, most: int | None = constants.KEYWORD_MAX_TERMS) -> list[str]:
    """Capitalised words not at a sentence start, katakana words, and names before さん/くん/ちゃん
    (the first `most`; None: all)."""
    text = unicodedata.normalize("NFKC", text)
    found: list[str] = []
    capitalised = rf"(?<![.!?]\s)(?<!^)(?<![{LATIN_LETTERS}'’])([A-ZÀ-ÖØ-Þ][{LATIN_LETTERS}'’\-]+)"
    for match in re.finditer(capitalised, text):
        word = _POSSESSIVE.sub("", match.group(1))  # "Ross's" is Ross; "Ross" keeps its s
        if word.lower() not in _EN_STOP and word not in found:
            found.append(word)
    found += [m for m in re.findall(r"([\u3400-\u9fff]{1,4})(?:さん|くん|君|ちゃん|様)", text) if m not in found]
    found += [m for m in re.findall(r"([\uac00-\ud7af]{2,4})(?:씨|님)", text) if m not in found]
    found += [m for m in re.findall(r"[\u30a0-\u30ff]{2,}", text) if m not in found and m != "ー"]
    return found[:most]


def classify_intent(text: str) -> str:
    for intent, pattern in _INTENT_RULES:
        if pattern.search(text):
            return intent
    return "factual"


def rule_plan(message: str, today: date | None = None) -> QueryPlan:
    """`today`: the day the message is read, for the period it names (none without it)."""
    words = content_words(message)
    return QueryPlan(" ".join(words) or message.strip(), tuple(proper_nouns(message)), classify_intent(message), "rules",
                     named_period(message, today))


PLANNER_SCHEMA = {
    "type": "object",
    "properties": {
        "rag": {"type": "string"},
        "keywords": {"type": "array", "items": {"type": "string"}, "maxItems": constants.KEYWORD_MAX_TERMS},
        "intent": {"type": "string", "enum": list(INTENTS)},
    },
    "required": ["rag", "keywords", "intent"],
}

PLANNER_PROMPT = (
    "You prepare a memory search for a companion chat. Given the user's message, answer with JSON: "
    '"rag": search words incl. synonyms and related words; "keywords": 0-3 proper nouns or exact phrases '
    'only (names, places, titles), no common words; "intent": one of ' + ", ".join(INTENTS) + "."
)


def parse_llm_plan(raw: str, message: str) -> QueryPlan:
    """Validate the LLM's JSON; anything malformed falls back to the rules."""
    try:
        data = json.loads(raw[raw.index("{"): raw.rindex("}") + 1])
        rag = str(data["rag"]).strip()
        keywords = tuple(str(k).strip() for k in data.get("keywords", []) if str(k).strip())
        intent = str(data["intent"]).strip().lower()
    except (ValueError, KeyError, TypeError):
        log.info("Planner output was not valid JSON; using the rule-based planner")
        return rule_plan(message)
    if intent not in INTENTS or not rag:
        return rule_plan(message)
    keywords = tuple(k for k in keywords if len(k) <= 40)[: constants.KEYWORD_MAX_TERMS]
    return QueryPlan(rag, keywords, intent, "llm")


def plan(message: str, complete_json: Callable[[str, str, dict], str] | None, today: date | None = None) -> QueryPlan:
    """One planner call if an LLM is given (`complete_json(system, user, schema)`), else rules;
    the period the message names is read by rules either way."""
    if complete_json is None:
        return rule_plan(message, today)
    try:
        raw = complete_json(PLANNER_PROMPT, message, PLANNER_SCHEMA)
    except Exception as exc:  # noqa: BLE001 - any provider failure must fall back, never block a reply
        log.warning("Planner call failed (%s); using the rule-based planner", type(exc).__name__)
        return rule_plan(message, today)
    return replace(parse_llm_plan(raw, message), period=named_period(message, today))
