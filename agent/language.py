"""Which language a message is written in: the reply comes in the same one.

By script first. Hangul is Korean. Kana are Japanese when they carry a real share of the message:
"I love ramen (ラーメン) so much" stays English, 「今日はNetflixでドラマ見た」 is Japanese (units are
words: a Latin or Hangul word is one, CJK_CHARS_PER_WORD kana or Han characters are one). Han
characters without kana are Chinese, except a short run with no Chinese-only character (了解,
大丈夫), which the conversation or the persona's language hint decides. Among Latin-script messages,
by the small words people write in each language and its letters (ñ ¿ ¡, ç œ «, ß ä ö ü, ã õ, ò ù).
A message with too little to tell by ("ok", "lol", "😊") takes the language of the user's recent
messages, else the persona's first listed language.

Pure functions of the text: the caller passes the recent messages and the hint (persona/session.py
works the turn's language out once and the prompt carries it).
"""
from __future__ import annotations

import re
import unicodedata
from typing import Sequence

import constants
from agent.sentences import split as split_sentences

# The languages the app replies in, by the English names its prompts use for them.
LANGUAGE_NAMES = {"ja": "Japanese", "en": "English", "zh": "Chinese", "ko": "Korean", "es": "Spanish",
                  "fr": "French", "de": "German", "pt": "Portuguese", "it": "Italian"}

LATIN_LANGUAGES = ("en", "es", "fr", "de", "pt", "it")
LANGUAGES = ("ja", "zh", "ko") + LATIN_LANGUAGES
# The script a reply in each language is written in (agent/character_guard.py checks its opening).
SCRIPTS = {"ja": "ja", "zh": "zh", "ko": "ko", **{lang: "latin" for lang in LATIN_LANGUAGES}}

_KANA = re.compile(r"[\u3041-\u309f\u30a0-\u30fa\u30fc-\u30ff\u31f0-\u31ff]")
_HAN = re.compile(r"[\u3005\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_HANGUL_RUN = re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]+")
_LATIN_LETTER = r"A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff"
_LATIN_WORD = re.compile(rf"[{_LATIN_LETTER}]+(?:['’][{_LATIN_LETTER}]+)*")

# Characters written in Chinese and (almost) never in Japanese: function words (的 吗 呢 你 很) and
# simplified or traditional forms Japanese writes otherwise (这/這 說 们/們 对/對 谢 欢 时 见 话 气).
_CHINESE_ONLY = frozenset("的吗呢吧你您们這这么麼啊哦嗯很她说說谢给让讓对對哪怎咱嗎們还"
                          "欢时东车门见话认识电视语觉经过开关长买卖书饭现问题气爱热样")
# Japanese forms that differ from both simplified and traditional Chinese (気 not 气/氣, 駅 not 站/驛).
_JAPANESE_ONLY = frozenset("々気楽駅円県売読広対続様両図変単戦")

# The small words a message in each language is made of, as people write them in a chat
# (lower-case; a word in several lists counts for each of them in part).
_WORDS = {
    "en": """i me my mine you your yours he him his she her it its we us our they them their the a an and or but
        so because if when what where who why how which that this these those is am are was were be been have has
        had do does did don't doesn't didn't can can't could would should will won't not yes to of in on at for
        with from about just really very too also today yesterday tomorrow tonight thanks thank please hi hello
        hey i'm it's that's i've i'll i'd you're there here some any all got get went going want think know like
        love was what's let's maybe anyway still good night morning sounds great thing""",
    "es": """el la los las lo un una unos unas y o pero que qué de del al en con por para sin es son soy eres está
        estoy están estás estaba era fue ser estar hay tengo tiene tienes tenía he ha hemos muy mucho mucha más
        también ya yo tú tu mi mis su sus me te se le nos esto eso este esta ese esa aquí hoy ayer mañana ahora
        cuando donde dónde cómo como porque quiero gracias hola sí bueno vale creo puedo fui voy vamos hice nada
        algo pues no sé a buenas buenos noches días""",
    "fr": """le la les un une des du de au aux et ou mais donc que qui quoi ce cet cette ces c'est est sont suis
        était être ai as avons avez ont j'ai je tu il elle on nous vous ils elles moi toi lui leur mon ma mes ton
        ta tes son sa ses notre votre pas ne plus très trop aussi déjà encore avec pour dans sur chez en
        aujourd'hui hier demain maintenant comment pourquoi où quand bonjour bonsoir salut merci oui non ça bien
        vraiment fait peux veux vais y d'accord bonne nuit""",
    "de": """der die das den dem des ein eine einen einem einer und oder aber doch ich du er sie es wir ihr mich
        mir dich dir uns euch mein meine meinen dein deine sein seine ist bin bist sind war waren hat habe hast
        haben hatte nicht kein keine auch noch schon sehr nur wie was wer wo wann warum weil wenn dass mit für auf
        aus bei von zu zum zur im am um heute gestern morgen jetzt hier danke bitte hallo ja nein gut mal gerade
        viel ganz gute guten nacht geht's gibt's""",
    "pt": """o a os as um uma e ou mas que de do da dos das no na nos nas em com para por pelo pela é são sou
        está estou estão estava era foi ser tenho tem tinha eu você vocês ele ela nós meu minha meus minhas seu
        sua me te se isso isto este esta esse essa aqui hoje ontem amanhã agora quando onde como porque muito
        muita mais também já não sim obrigado obrigada olá oi tudo bem bom vou fui né boa noite""",
    "it": """il lo la i gli le un uno una e o ma che di del della dei degli delle da dal dalla in nel nella con
        per su sul è sono sei siamo era stato essere ho hai ha abbiamo io tu lui lei noi voi loro mi ti ci si mio
        mia miei mie tuo tua suo sua non più molto anche già ancora oggi ieri domani adesso ora quando dove come
        perché cosa grazie ciao sì buongiorno buonasera bene questo questa quello quella sto stai sta vado buona notte
        c'è c'era c'erano com'è dov'è cos'è po'""",
}


def _languages_of_words(lists: dict[str, str]) -> dict[str, tuple[str, ...]]:
    found: dict[str, tuple[str, ...]] = {}
    for lang, words in lists.items():
        for word in words.split():
            found[word] = tuple(dict.fromkeys(found.get(word, ()) + (lang,)))
    return found


_WORD_LANGUAGES = _languages_of_words(_WORDS)  # a constant table: word -> the languages it is written in

# Letters and marks that belong to some of the languages, and how much each occurrence counts.
_LETTERS = {
    "ñ": {"es": 2}, "¿": {"es": 2}, "¡": {"es": 2}, "á": {"es": .5, "pt": .5}, "í": {"es": .5, "pt": .5},
    "ó": {"es": .5, "pt": .5}, "ú": {"es": .5, "pt": .5},
    "ç": {"fr": .75, "pt": .75}, "œ": {"fr": 2}, "«": {"fr": 1}, "»": {"fr": 1}, "î": {"fr": 1}, "û": {"fr": 1},
    "ë": {"fr": 1}, "ï": {"fr": 1}, "ê": {"fr": .5, "pt": .5}, "â": {"fr": .5, "pt": .5}, "ô": {"fr": .5, "pt": .5},
    "ß": {"de": 2}, "ä": {"de": 1.5}, "ö": {"de": 1.5}, "ü": {"de": 1},
    "ã": {"pt": 2}, "õ": {"pt": 2},
    "è": {"fr": .5, "it": .5}, "à": {"fr": .4, "it": .3, "pt": .3}, "ì": {"it": 1}, "ò": {"it": 1}, "ù": {"it": .5, "fr": .5},
    "é": {"es": .25, "fr": .25, "pt": .25, "it": .25},
}
# Elisions: "j'ai", "qu'il" are French, "l'amico", "dell'anno" Italian, "I'm", "don't" English.
_ELISION_BEFORE = {"j": "fr", "c": "fr", "qu": "fr", "n": "fr", "s": "fr", "m": "fr", "t": "fr", "jusqu": "fr",
                   "lorsqu": "fr", "puisqu": "fr", "l": "fr it", "d": "fr it", "dell": "it", "all": "it",
                   "dall": "it", "nell": "it", "sull": "it", "un": "it", "quest": "it", "quell": "it"}
_ELISION_AFTER = {"m": "en", "s": "en", "re": "en", "ll": "en", "ve": "en", "d": "en", "t": "en"}


def is_cjk(char: str) -> bool:
    """A kana or Han character: the scripts that make a message Japanese or Chinese."""
    return bool(_KANA.match(char) or _HAN.match(char))


_QUESTION = re.compile(r"[?？]|(?:ですか|ますか|かな|だっけ|っけ|の|吗|呢)[。]?\s*$")


def is_question(text: str) -> bool:
    """A question mark, or a Japanese or Chinese sentence-final question particle."""
    return bool(_QUESTION.search(text.strip()))


def _latin_scores(words: Sequence[str], text: str) -> dict[str, float]:
    scores = dict.fromkeys(LATIN_LANGUAGES, 0.0)
    for word in words:
        langs = _WORD_LANGUAGES.get(word.replace("’", "'"))
        if not langs and ("'" in word or "’" in word):
            before, _, after = word.replace("’", "'").partition("'")
            langs = tuple((_ELISION_BEFORE.get(before) or _ELISION_AFTER.get(after) or "").split())
        for lang in langs or ():
            scores[lang] += 1 / len(langs)
    for char in text:
        for lang, weight in _LETTERS.get(char, {}).items():
            scores[lang] += weight
    return scores


def _latin_language(words: Sequence[str], text: str,
                    min_score: float = constants.LANGUAGE_MIN_SCORE) -> tuple[str, tuple[str, ...]]:
    """(the language, "" when not sure; the languages close to the best, for the context to choose)."""
    scores = _latin_scores(words, text)
    best = max(LATIN_LANGUAGES, key=lambda lang: scores[lang])  # ties: the earlier in LATIN_LANGUAGES
    if scores[best] <= 0:
        return "", ()
    close = tuple(lang for lang in LATIN_LANGUAGES if scores[lang] >= constants.LANGUAGE_CLOSE_SHARE * scores[best])
    sure = scores[best] >= min_score and len(close) == 1
    return (best if sure else ""), close


def _han_language(text: str, han: int) -> str:
    """Han characters with no kana: "zh", "ja", or "" for a short run either could write (了解)."""
    chars = set(text)
    if chars & _CHINESE_ONLY:
        return "zh"
    if chars & _JAPANESE_ONLY:
        return "ja"
    return "" if han <= constants.LANGUAGE_SHORT_HAN_CHARS else "zh"


def _own_language(text: str, min_score: float = constants.LANGUAGE_MIN_SCORE) -> tuple[str, tuple[str, ...], str]:
    """The message's language by itself: (the language, or "" when it cannot tell; the languages it
    may be in, () when any; the likeliest of those, or the script's languages joined by "/" when
    it is too short to tell)."""
    text = unicodedata.normalize("NFKC", text)
    kana, han = len(_KANA.findall(text)), len(_HAN.findall(text))
    hangul = len(_HANGUL_RUN.findall(text))
    words = [w.lower() for w in _LATIN_WORD.findall(text)]
    cjk = (kana + han) / constants.CJK_CHARS_PER_WORD
    if not (cjk or hangul or words):
        return "", (), ""
    if hangul >= max(cjk, len(words)):
        return "ko", (), "ko"
    if cjk >= len(words):  # a Japanese or Chinese sentence with a few Latin words in it ("Netflixで見た")
        if kana:
            return "ja", (), "ja"
        language = _han_language(text, han)
        return (language, (), language) if language else ("", ("ja", "zh"), "zh")
    language, close = _latin_language(words, text.lower(), min_score)
    if language:
        return language, (), language
    if len(words) > constants.LANGUAGE_SHORT_LATIN_WORDS:  # a sentence, but no clear clue: a Latin-script language
        close = close or LATIN_LANGUAGES
        return "", close, close[0]
    return "", (), "/".join(LATIN_LANGUAGES)  # "ok", "lol": too short to tell


def hint_parts(hint: str) -> list[str]:
    """The codes a persona's language hint lists ("ja/en", "es, en"), lower-case, in its order; any of
    them may be a code the app does not know (the page tells the user so before it saves one)."""
    return [part for part in (p.strip().lower() for p in re.split(r"[/,;\s]+", hint)) if part]


def message_language(text: str, recent: Sequence[str] = (), hint: str = "") -> str:
    """One of LANGUAGES, or "" when neither the message nor its context tells.

    `recent`: the user's earlier messages in this conversation, oldest first; `hint`: the persona's
    languages ("ja/en", character.json). A message too short to tell ("ok", "😊") takes the
    language the user last wrote in, else the hint's first (of those written in its script: "ok"
    with "ja/en" is English); one that may be in a few languages (了解: Japanese or Chinese; a
    sentence with no clear clue) the latest of those the user wrote in, else the first of those the
    hint lists, else the likeliest."""
    language, possible, likeliest = _own_language(text)
    if language:
        return language
    earlier = [lang for lang in (_own_language(t)[0] for t in reversed(recent)) if lang]
    hinted = [lang for lang in hint_parts(hint) if lang in LANGUAGES]
    if possible:
        return next((lang for lang in earlier + hinted if lang in possible), likeliest)
    in_script = [lang for lang in hinted if lang in likeliest.split("/")]
    return (earlier + in_script + hinted + [""])[0]


def surely_chinese(text: str) -> bool:
    """Han characters with no kana and some that only Chinese writes (喜欢, 你, 的): not Japanese."""
    return not _KANA.search(text) and bool(set(unicodedata.normalize("NFKC", text)) & _CHINESE_ONLY)


def function_words(language: str) -> frozenset[str]:
    """The small words of a Latin-script language (not worth searching memory for), or none."""
    return frozenset(_WORDS.get(language, "").split())


def sure_language(text: str, min_score: float = constants.LANGUAGE_MIN_SCORE) -> str:
    """The text's language when the text alone tells it (a Latin-script language with at least
    `min_score` of clues and no other close), else "": for judging a reply, where no context helps."""
    return _own_language(text, min_score)[0]


def in_other_latin_language(sentence: str, language: str) -> bool:
    """Whether a reply's sentence is surely in another Latin-script language than `language`."""
    found = sure_language(sentence, constants.LANGUAGE_REPLY_MIN_SCORE)
    return found in LATIN_LANGUAGES and found != language


def surely_in(sentence: str, language: str) -> bool:
    """Whether a reply's sentence is surely in `language` (as sure as `in_other_latin_language` is of another)."""
    return sure_language(sentence, constants.LANGUAGE_REPLY_MIN_SCORE) == language


def latin_words(text: str) -> list[str]:
    """The words in Latin letters, as written."""
    return _LATIN_WORD.findall(text)


def script_of_letters(text: str) -> str:
    """The script its letters are in: "ko" (Hangul), "ja" (kana), "han" (Han characters only:
    Japanese or Chinese), "latin", "other" (Cyrillic, Thai…), or "" (no letters)."""
    letters = [c for c in unicodedata.normalize("NFKC", text) if c.isalpha()]
    if any(_HANGUL_RUN.match(c) for c in letters):
        return "ko"
    if any(_KANA.match(c) for c in letters):
        return "ja"
    if any(_HAN.match(c) for c in letters):
        return "han"
    if not letters:
        return ""
    return "latin" if all(_LATIN_WORD.match(c) for c in letters) else "other"


# The scripts a name may be written in for each language's reply: a Japanese reply told to speak as
# "Ark" wrote the persona as 「アーケー」 (bench conversation dev-mixed-osaka, session 27).
_NAME_SCRIPTS = {"ja": ("ja", "han"), "zh": ("han",), "ko": ("ko",), **{lang: ("latin",) for lang in LATIN_LANGUAGES}}


def name_for(language: str, names: Sequence[str]) -> str:
    """Of a persona's `names` (its own first, then its others), the first written in a script of
    `language`'s: アーク of ("Ark", "アーク") for "ja"; the first name when none is, or for no language."""
    names = [n for n in names if n.strip()]
    if not names:
        return ""
    scripts = _NAME_SCRIPTS.get(language, ())
    return next((n for n in names if script_of_letters(n) in scripts), names[0])


_ASIDE = re.compile(r"\[[^\]]*\]")  # "[shares a photo of …]": what was shown, not said


def only_asks(text: str) -> bool:
    """A message that asks and tells nothing: it ends with a question, and every sentence before
    it is a question too or an exclamation of a few words ("Wow, looks great! Is that your third one?")."""
    sentences = [s.strip() for s in split_sentences(_ASIDE.sub("", text).strip())]
    if not sentences or not re.search(r"[?？]$", sentences[-1]):
        return False
    return all(re.search(r"[?？]$", s) or is_exclamation(s) for s in sentences[:-1])


def is_exclamation(sentence: str) -> bool:
    """A sentence of a word or two, or of a few ending in "!": "Hey Jon!", "Thanks!", 「ありがとう！」."""
    spaced = not (_KANA.search(sentence) or _HAN.search(sentence))  # "¡Qué bien!" counts words like English
    words = len(sentence.split()) if spaced else len(sentence) // 3
    return words <= 2 or (words <= 4 and bool(re.search(r"[!！]$", sentence)))


# The last line of a night's ask, in the days' language: told only in the English system message, the
# 1.5B model dreamt a Japanese user's nights in English (bench nights, ja-yui-days, session 23), and
# wrote a Spanish, French or German day's episode in English (session 51; German only once told "not
# in English": two German days of our own, session 51).
_WRITE_IN = {"en": "Write every field in English.", "ja": "すべての欄を日本語で書く。", "zh": "所有内容都用中文写。",
             "ko": "모든 항목을 한국어로 쓰기.", "es": "Escribe todo en español.", "fr": "Écris tout en français.",
             "de": "Schreib alles auf Deutsch, nicht auf Englisch.", "pt": "Escreva tudo em português.",
             "it": "Scrivi tutto in italiano."}


def write_in(language: str) -> str:
    """The ask's last line: every field in `language` ("" for a language the app has no line for)."""
    return _WRITE_IN.get(language, "")
