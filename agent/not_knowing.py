"""A question about the user's own life answered "I don't know" while the user told it.

The embedded 1.5B model answered "Where was my interview again?" with "I apologize, but I don't have
the information about where your interview took place." with the interview at the museum in the
window and in the recalled memories, and 「Sag mal, weißt du noch, wer von meiner Familie im Juni
heiratet?」 with "Ich weiß nicht, wer von meiner Familie im Juni heiratet." beside the kept note
about Felix (bench conversation, session 17). Such an opening is asked for again, pointed at what
the user told; when the user never said anything about it, "I don't know" is the honest answer and
stays (the reply rules ask for it).
"""
from __future__ import annotations

import re
from datetime import date
from typing import Iterable

from agent.language import is_question
from agent.memory_lines import terms
from agent.query_planner import proper_nouns
from agent.role import speaks_of_oneself
from agent.time_period import named_period

# Saying one does not know or remember, or has no information about it, in the supported languages.
_NOT_KNOWING = re.compile(
    r"\bi (?:don't|do not|can't|cannot) (?:know|remember|recall)\b|\bi(?:'m| am) not sure\b"
    r"|\bi (?:don't|do not) have (?:the |any |that |this |enough )?(?:information|details|info|record)\b"
    r"|\bi (?:don't|do not) have (?:the |any |that )?(?:exact|specific|precise|detailed) \w+"
    r"|\bi have no (?:information|idea|record|details)\b|\bno (?:information|details) (?:about|on)\b"
    # not able to remember at all: "non ho la capacità di ricordare le tue ultime interazioni" to a question
    # about a note kept that day (bench conversation dev-it-napoli, session 22)
    r"|\bi (?:don't|do not) have (?:the )?(?:ability|capacity|capability) to (?:remember|recall)\b"
    r"|\bi(?:'m| am) (?:not able|unable) to (?:remember|recall)\b"
    r"|\bno (?:tengo (?:la )?capacidad de|puedo) (?:recordar|acordarme)\b"
    r"|\bje n'ai pas la capacité de (?:me souvenir|me rappeler|retenir)\b|\bje ne peux pas me (?:souvenir|rappeler)\b"
    r"|\bich kann mich (?:\w+ ){0,2}?nicht (?:\w+ )?erinnern\b|\bich habe nicht die fähigkeit,? (?:mich )?(?:\w+ ){0,3}?zu erinnern"
    r"|\bnon ho (?:la )?capacità di ricordar(?:e|ti|lo|la|mi)\b|\bnon (?:posso|riesco a) ricordar(?:e|lo|la|mi)\b"
    r"|\bnão (?:tenho (?:a )?capacidade de|consigo|posso) (?:me )?lembrar\b"
    r"|\bno (?:lo )?sé\b|\bno (?:lo )?recuerdo\b|\bno me acuerdo\b|\bno tengo (?:la |esa |ninguna )?información\b|\bno tengo (?:suficientes |los |esos )(?:detalles|datos)\b"
    r"|\bje ne (?:le )?sais pas\b|\bje ne m'en souviens pas\b|\bje ne me (?:le )?rappelle pas\b|\bje n'ai (?:pas|aucune) d?'?informations?\b"
    r"|\bich weiß (?:es |das )?nicht\b|\bweiß ich nicht\b|\bich erinnere mich nicht\b|\bkeine informationen\b|\bich habe keine ahnung\b|^\W*keine ahnung\b"
    r"|\bnon (?:lo )?so\b|\bnon (?:me lo )?ricordo\b|\bnon ho (?:alcuna |nessuna )?(?:informazion[ei]|idea)\b"
    r"|\bnon ho (?:alcun|nessun) ricordo\b|\bnon ho la (?:minima|più pallida) idea\b"
    # no memory of it ("non ho memoria di dove…": dev-it-napoli, session 37)
    # and in the plural ("no tengo recuerdos de conversaciones pasadas": dev-es-weeks-escalada, session 37)
    r"|\bnon ho (?:alcuna |nessuna )?memori[ae]\b|\bnon ho (?:alcun |nessun )?ricordi\b"
    r"|\bi (?:have no |(?:don't|do not) have (?:any |a )?)(?:memory|memories|recollections?)\b"
    r"|\bno tengo (?:ningún |ninguna )?(?:recuerdos?|memoria)\b"
    r"|\bje n'ai (?:aucun |pas de )?souvenirs?\b|\bkeine erinnerung(?:en)?\b"
    r"|\bnão tenho (?:nenhuma )?(?:memórias?|lembranças?)\b"
    r"|\bnão (?:o )?sei\b|\bnão me lembro\b|\bnão tenho (?:essa |a |nenhuma )?informaç"
    # not sure, as English "I'm not sure" ("Ich bin nicht sicher, ob…" with the dated dentist's line in front of
    # it: dev-de-wann, session 44)
    r"|\bich bin (?:mir )?(?:\w+ )?nicht (?:ganz )?sicher\b|\bno estoy (?:\w+ )?segur[oa]\b|\bje ne suis pas (?:\w+ )?sûre?\b"
    r"|\bnon sono (?:\w+ )?sicur[oa]\b|\bnão tenho (?:\w+ )?certeza\b|\bnão estou (?:\w+ )?segur[oa]\b"
    r"|不确定|확실하지 않|확실치 않|確かではありません|定かではありません"
    r"|(?:わかりません|分かりません|わからない|分からない|知りません|知らない|覚えていません|覚えてない|思い出せません"
    r"|覚えられません|記憶できません|記憶することができません|覚えることができません"
    r"|情報(?:が|は)(?:ありません|ない))"
    r"|不知道|不记得|不清楚|没有(?:相关|这方面的)?(?:信息|资料|记录)|记不(?:起|清)|无法(?:记住|记得|回忆)|不能记住"
    r"|모르|기억(?:이|나지) (?:안|않|없)|기억이 안|정보가 없|기억할 수 없"
    # not having the information, with an article or an adjective between ("non ho l'informazione necessaria",
    # "I don't have the necessary information", "je n'ai pas les informations nécessaires")
    r"|\b(?:i (?:don't|do not) have|no tengo|je n'ai pas|non ho|ich habe (?:\w+ )?(?:nicht|keine)|não tenho)\b[^.!?。,;:]{0,30}?"
    r"(?:\binformation|informazion[ei]\b|\binformación\b|\binformations?\b|\binformationen\b|\binformaç"
    r"|\bdetalles\b|\bdettagli\b|\bdétails\b|\bdetalhes\b|\beinzelheiten\b)",
    re.IGNORECASE,
)
# How such a sentence opens (lower-case), beyond the openings the guard always holds (agent/character_guard.py:
# "i ", "je ", "ich ", the apologies…): held until it is whole and checked, when the user told it. A bare "No, "
# too: "No, no lo recuerdo." streamed at once (§4 dev-es-weeks-escalada, session 53).
NOT_KNOWING_OPENINGS = ("no,", "nein,", "non,", "não,", "いいえ", "unfortunately", "perdón", "perdona", "pardon",
                        "entschuldig", "scusa", "no sé", "no lo sé", "no recuerdo", "no me acuerdo", "leider", "non lo so", "non so", "non ricordo", "não sei",
                        "não me lembro", "ごめん", "覚えて", "わかりません", "分かりません", "わからない", "知りません",
                        "知らない", "不知道", "不记得", "不好意思", "미안", "모르", "기억")
# The words of asking someone to remember or tell ("again", "do you remember", 覚えてる, 记得): shared
# with what the user said earlier, they say nothing about whether it holds the answer.
_ASKING_WORDS = frozenset("""
remember recall again know tell said say told remind
recuerdas acuerdas sabes dije dijiste otra vez
souviens rappelles sais dit déjà encore
weißt noch nochmal mal erinnerst gesagt
ricordi sai detto ancora
lembra lembras sabe disse
""".split())
_ASKING_CJK = re.compile(r"覚え|知っ|記憶|前に|この前|记得|记住|知道|以前|기억|알아")


def says_it_does_not_know(sentence: str) -> bool:
    """Whether the sentence says the persona does not know, remember or have the information."""
    return bool(_NOT_KNOWING.search(sentence))


_HIRAGANA_ONLY = re.compile(r"[\u3040-\u309f]+")


def _telling_terms(text: str, named: frozenset[str] | set[str] = frozenset()) -> set[str]:
    """The words that carry what a sentence is about: no asking words, no first person ("meiner",
    「私が」), no grammar (a pair of hiragana), no short Latin words ("did", "got", "day") but for a noun
    or name the sentence writes capitalised inside it, or one of `named` ("Sag mal, wann war ich noch
    mal im Zoo?" was answered "Ich weiß nicht genau…" with the zoo day recalled: §4 dev-de-mitwem,
    session 53)."""
    named = {*named, *(word.lower() for word in proper_nouns(text, most=None))}
    return {t for t in terms(text) if t.lower() not in _ASKING_WORDS and not _ASKING_CJK.search(t)
            and not speaks_of_oneself(t) and not _HIRAGANA_ONLY.fullmatch(t)
            and (len(t) >= 4 or not t.isascii() or (len(t) == 3 and t in named))}


def told_before(question: str, user_said: Iterable[str], language: str = "", names: Iterable[str] = ()) -> bool:
    """Whether `question` asks about the user's own life and something the user said earlier (in the
    window or the recalled memories) shares a word of substance with it: "Where was my interview
    again?" after "Just had my second interview at the museum". `language`: the question's, whose
    verbs may carry the person ("E cosa devo fare giovedì, te lo ricordi?"); `names`: the user's and
    the persona's, which say nothing of what is asked ("Hey Ark, …" and "Hallo Ark, hier ist Lena…")."""
    if not is_question(question) or not speaks_of_oneself(question, language):
        return False
    asked = _telling_terms(question) - {term for name in names for term in terms(name)}
    if not asked:
        return False
    return any(asked & _telling_terms(said, asked) for said in user_said if said.strip() and said.strip() != question.strip())


# Languages that leave the subject out of a question about one's own day: 「火曜日に何話したっけ？」.
_SUBJECT_LEFT_OUT = frozenset({"ja"})


def asks_of_a_day_told(question: str, days_told: Iterable[date], today: date | None, language: str = "") -> bool:
    """Whether `question` asks about the user's own day gone by that it names ("What did we talk about
    yesterday?", "¿De qué charlamos el martes por la noche?", 「火曜日に何話したっけ？」) and the user said
    something on it (`days_told`: the days of what the user said in the window and the recalled memories).
    Such a question names nothing the user told, so `told_before` cannot see it; the 1.5B model answered
    "No, no lo recuerdo." with that Tuesday's talk recalled under its weekday (§4 dev-es-weeks-escalada,
    sessions 51–52)."""
    if not is_question(question) or not (speaks_of_oneself(question, language) or language in _SUBJECT_LEFT_OUT):
        return False
    period = named_period(question, today)
    return period is not None and any(period.start <= day <= period.end for day in days_told)
