"""The user's life stays the user's: a reply sentence that tells what the user said about
themself as the persona's own ("I adopted a puppy" after "We adopted a puppy!", 「私はスパイスから
カレーを作りました」 after 「初めてスパイスからカレーを作った」) is found and put right.

The embedded 1.5B model does this in about one turn in eight of conversations it was not tuned on (issue 18):
the history and the recalled lines hold the user's first person, and it continues in it. Such a sentence is
said back as the user's where the language allows a plain swap of the person ("I/my/we" → "you/your",
「私は」 → 「ハルカさんは」, 我 → 你), and left out elsewhere.

A sentence is a claim when it is in the first person, is not addressed to the user (no "you", no user's
name), is not a negation, a wish or a "me too", and most of its content words are of one the user wrote.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from typing import Collection, Iterable, Sequence

import constants
from agent import german_verbs, sentences
from agent.hangul import HANGUL_WORD as _HANGUL_WORD, korean_units, plain_past_statement
from agent.memory_lines import stem as _stem

# The first person in each language, one table: the words ("I" only in capitals — Italian's "i" is
# an article; "US" is a country), from which the patterns and the streaming look-ahead are made.
_FIRST_PERSON_BY_LANGUAGE = {
    "en": ("i'm", "i've", "i'd", "i'll", "my", "me", "mine", "myself", "we", "we're", "we've", "we'd", "we'll", "our",
           "ours", "ourselves"),
    "es": ("yo", "mi", "mis", "me", "nosotros", "nosotras", "nuestro", "nuestra", "nuestros", "nuestras"),
    "fr": ("je", "moi", "mon", "ma", "mes", "nous", "notre", "nos"),
    "de": ("ich", "mein", "meine", "meinen", "meinem", "meiner", "mir", "mich", "wir", "unser", "unsere", "uns"),
    "pt": ("eu", "meu", "minha", "meus", "minhas", "nós", "nosso", "nossa"),
    "it": ("io", "mi", "mio", "mia", "miei", "mie", "noi", "nostro", "nostra"),
}
_CASE_KEPT = {"en": r"\b(?-i:I|us)\b|", "fr": r"\bj'|"}  # spelled in one case only, or not a whole word
_FIRST_PERSON_WORDS_BY_LANGUAGE = {
    language: _CASE_KEPT.get(language, "") + r"\b(?:" + "|".join(map(re.escape, words)) + r")\b"
    for language, words in _FIRST_PERSON_BY_LANGUAGE.items()}
_CJK_FIRST_PERSON = ("私", "僕", "俺", "わたし", "あたし", "我", "나는", "내가", "저는", "제가", "우리")
# Korean "my" before a noun (내 카페, 제 이름; not 안내 or 문제): "내 카페 이름이 뭐였지?" got "내 카페
# 이름은 '파란 고양이'입니다" (bench conversation, session 18).
_KO_MY = r"(?<![가-힣])(?:내|제)(?= )|(?<![가-힣])(?:나의|저의)"
_CJK_FIRST_PERSON_WORDS = "|".join(_CJK_FIRST_PERSON) + r"|うち(?:は|の|が)|" + _KO_MY
_FIRST_PERSON = re.compile("|".join((*_FIRST_PERSON_WORDS_BY_LANGUAGE.values(), _CJK_FIRST_PERSON_WORDS)), re.IGNORECASE)
_FIRST_PERSON_IN = {language: re.compile(f"{words}|{_CJK_FIRST_PERSON_WORDS}", re.IGNORECASE)
                    for language, words in _FIRST_PERSON_WORDS_BY_LANGUAGE.items()}
# "You" itself, and the forms that speak to the user (a name with さん, German "Sie", 님).
_YOU = (r"\b(?:you|your|yours|yourself|you're|you've|you'd|you'll|tú|tu|tus|te|usted|ti|toi|ton|ta|tes|vous|votre|vos"
        r"|du|dein|deine|deinen|dir|dich|ihr|você|voce|seu|sua|tuo|tua)\b|あなた|君|きみ|お前|你|您|너|네가|당신")
_SAYS_YOU = re.compile(_YOU, re.IGNORECASE)
# An honorific after a name speaks to someone; inside a common word it does not (たくさん "a lot", お母さん,
# 赤ちゃん, 손님 "customer", 선생님 "teacher"): 「첫 손님이 아이스 아메리카노 두 잔이랑 크루아상을 샀어.」 — the
# user's message told back as the persona's own — passed as said to the user (bench conversation, session 27).
_HONORIFIC = (r"(?<!たく)(?<!お父)(?<!お母)(?<!お兄)(?<!お姉)(?<!じい)(?<!ばあ)(?<!おじ)(?<!おば)(?<!奥)さん"
              r"|(?<!赤)ちゃん|くん|(?<!손)(?<!선생)(?<!사장)(?<!부모)(?<!하느)(?<!하나)님")
_SECOND_PERSON = re.compile(_YOU + r"|\bsie\b|" + _HONORIFIC, re.IGNORECASE)
# Languages that leave the subject out. In Spanish, Italian and Portuguese the person is in the verb
# ("Sì, ho fatto l'ultimo esame" to "Oggi ho dato l'ultimo esame"): their first-person auxiliaries and
# copulas (unambiguous ones only: Italian "sono" is also "they are"), and the Spanish and Portuguese
# "we" endings. In Japanese it is nowhere: a past-tense statement with no subject tells a doing as the
# speaker's (「来月から札幌に転勤しました。」 to 「来月から札幌に転勤することになりました。」) — taken as such only
# in a reaction to something told, since the answer to the user's question about their own past is
# said the same way (「来週の土曜日は友達の結婚式でした。」), and only in the past: 「猫が好きです」 in the
# present is the persona's own taste (conversations outside the development set, issue 18).
# The simple past's "I" too: Spanish "compré" / "aprendí", Portuguese "comprei" ("El otro día compré una
# bicicleta…" to "¿qué fue lo que me compré?", bench conversation, session 20), less the nouns and
# adverbs spelled like one.
_ES_NOT_PRETERITE = ("café|bebé|josé|puré|comité|porqué|canapé|consomé|bidé|aquí|allí|ahí|maní|rubí|esquí|jabalí|"
                     "colibrí|bisturí|frenesí|israelí|iraní|iraquí|marroquí|paquistaní|saudí|bengalí")
_PT_NOT_PRETERITE = "vôlei|jóquei|hóquei|pônei"
# The simple past's "I": (stem)(ending), one pattern per language (`_preterite_as_users` swaps it).
_PRETERITE_I = {"es": rf"\b(?!(?:{_ES_NOT_PRETERITE})\b)(\w{{3,}})([éí])\b",
                "pt": rf"\b(?!(?:{_PT_NOT_PRETERITE})\b)(\w{{3,}})(ei)\b"}
# The irregular verbs whose form is the first person's alone, and that form said of the user (Spanish
# "tú", Portuguese "você", Italian "tu"): "Ayer hice una tarta" / "Fiz um bolo" / "Devo restituire i
# libri" took the user's part unseen while "compré" and "ho fatto" were caught. Not the forms another
# person shares (Portuguese "disse", "quis"; Italian "sono"), nor the wishes ("voglio").
_IRREGULAR_I = {
    "es": {"hice": "hiciste", "tuve": "tuviste", "estuve": "estuviste", "pude": "pudiste", "puse": "pusiste",
           "supe": "supiste", "quise": "quisiste", "vine": "viniste", "dije": "dijiste", "traje": "trajiste",
           "conduje": "condujiste", "anduve": "anduviste", "vi": "viste"},
    "pt": {"fiz": "fez", "tive": "teve", "estive": "esteve", "pude": "pôde", "pus": "pôs", "vim": "veio", "vi": "viu"},
    "it": {"devo": "devi", "vado": "vai", "faccio": "fai", "ho dovuto": "hai dovuto"},
}
# Italian "sono" + a singular participle is the first person ("sono andata"; "they" would be "sono andati").
_IT_SONO_PARTICIPLE = (r"\bsono(?=\s+(?:(?:appena|già|gia|ancora|finalmente|anche|davvero|proprio|sempre|mai|poi)\s+)?"
                       r"\w+(?:at|ut|it|ss|tt|st)[oa]\b)")  # "sono appena tornata" too (bench conversation, session 22)
_FEELING = r"(?!(?:gust|encant|apetec|interes|import|molest|preocup|parec|piac|manc|sembr|pla[iî]|int[ée]ress)\w*)"
# "Tú me dijiste…", "Mi hai detto…", "Tu m'as dit…": a "you" doing it to "me" ("sei": a "sono" swapped already; §4, s. 42)
_YOU_VERB = {"es": r"\w*(?:s|ste)\b", "it": r"(?!sei\b)\w*i\b", "fr": r"(?:as|avais|avez|aviez|dis|disais|dites|racontes)\b"}
_TOLD_ME_BY_YOU = {language: re.compile(me + _YOU_VERB[language]) for language, me in
                   {"es": r"\b[Mm]e\s+", "it": r"\b[Mm]i\s+", "fr": r"\b[Mm](?:e\s+|['’])"}.items()}
# The object "me" is the user's, but not "mi chiamo", a feeling ("Me encanta…" is the persona's liking) or a "you" doing it.
OBJECT_ME = {"es": r"\b[Mm]e\b(?=\s+(?!\w{3,}o\b)(?!" + _YOU_VERB["es"] + ")" + _FEELING + r"\w)",
             "it": r"\b[Mm]i\b(?=\s+(?!\w{3,}o\b)(?!" + _YOU_VERB["it"] + ")" + _FEELING + r"\w)",
             "fr": r"\b[Mm]e\b(?=\s+(?!" + _YOU_VERB["fr"] + ")" + _FEELING + r"\w)|\b[Mm]['’](?!" + _YOU_VERB["fr"] + ")" + _FEELING + r"(?=\w)"}
_IT_HO_BY_ESSERE = r"\bho(?=\s+(?:andat|venut|tornat|partit|uscit|arrivat|entrat|rimast|stat|nat|cadut|diventat)[oaie]\b)"


def _words(forms) -> str:
    return "|".join(sorted(forms, key=len, reverse=True))


_FIRST_PERSON_VERBS = {
    "es": re.compile(r"\b(?:he|hemos|voy|estoy|estamos|soy|somos|fui|fuimos|tengo|tenemos|estaba|estábamos|tenía|teníamos|"
                     + _words(_IRREGULAR_I["es"]) + r")\b|\b\w{2,}(?:amos|imos)\b|" + _PRETERITE_I["es"], re.IGNORECASE),
    "it": re.compile(r"\b(?:ho|abbiamo|siamo|sto|stiamo|ero|eravamo|avevo|avevamo|" + _words(_IRREGULAR_I["it"]) + r")\b|"
                     + _IT_SONO_PARTICIPLE, re.IGNORECASE),
    "pt": re.compile(r"\b(?:tenho|temos|estou|estamos|sou|somos|fui|fomos|estava|estávamos|tinha|tínhamos|"
                     + _words(_IRREGULAR_I["pt"]) + r")\b|\b\w{2,}(?:amos|emos|imos)\b|" + _PRETERITE_I["pt"], re.IGNORECASE),
}
_JA_PAST_STATEMENT = re.compile(r"(?:ました|でした|(?<!ん)(?<!の)[たっ]た|(?<![んの])た)[。！!]*\s*$")
_JA_SUBJECT = re.compile(r"[^\s、。「」]が(?![、,，])")
# The persona speaking of itself, not taking the user's part: negations, wishes, "me too".
_NOT_A_CLAIM = re.compile(
    r"\b(?:never|not|no|don't|didn't|haven't|hasn't|can't|won't|wish|hope|want|wanna|would love|'d love|too|also"
    r"|as well|either|someday|maybe|if|nunca|jamás|jamais|pas|nie|nicht|kein|keine|también|aussi|auch|anche|anch'io"
    r"|também|non|não|nem"
    # remembering what the user told is the persona's part: "I remember the shrimp allergy" (not in
    # Japanese or Korean, where 「私はエビのアレルギーがあるという情報を覚えています」 quotes a clause whose
    # subject is 私: said back, 「ハルカさんは…という情報を覚えています」 is right)
    r"|remember|recall|recuerdo|acuerdo|souviens|rappelle|erinnere|ricordo|lembro)\b"
    # Japanese "me too" is 私も: a も after anything else is the user's own "also" said back (「木の棚も作ってみた」,
    # dev-ja-veranda, session 30).
    r"|n't\b|ない|なかった|ません|たい|かも|いつか|(?:私|僕|俺|わたし|あたし|自分)も|没|不(?![过错少久断仅管])|想|也|要是|안 |못 |싶|도 ",
    re.IGNORECASE)
_REMEMBERING = re.compile(r"remember|recall|recuerdo|acuerdo|souviens|rappelle|erinnere|ricordo|lembro", re.IGNORECASE)
# The first person as subject or owner ("I", "my grandfather", "mi abuelo", a verb in it), not as the one told ("you
# told me", "mi hai detto", "me contaste"): what a remembered clause holds when it is a memory of the speaker's own.
_TOLD_TO_ME = {"me", "us", "mir", "mich", "moi", "uns", "mi"}
_OWN_IN = {language: re.compile(
    ("(?-i:\\bI\\b)|" if language == "en" else "") + r"\b(?:" + "|".join(
        re.escape(w) for w in words if w not in _TOLD_TO_ME or (language, w) == ("es", "mi")) + r")\b"
    + ("|" + _FIRST_PERSON_VERBS[language].pattern if language in _FIRST_PERSON_VERBS else ""), re.IGNORECASE)
    for language, words in _FIRST_PERSON_BY_LANGUAGE.items()}
_OWN = re.compile(r"(?-i:\bI\b)|\b(?:my|mine|we|our)\b|私|僕|俺|我", re.IGNORECASE)
# Portuguese "no" is "in the" ("no sábado"), not a negation.
_NOT_A_CLAIM_PT = re.compile(_NOT_A_CLAIM.pattern.replace("|no|", "|", 1), re.IGNORECASE)
_STOPWORDS = frozenset("""
the and but for with that this have has had was were are is been being just really very then than they them
their there here what when where which who will would could should about into onto from over under after before
again also some any all each more most much such only out off too now today yesterday tomorrow week weekend
it's its got get gets going went like one two lot lots thing things way day still even well yes yeah okay sure
wow hey hello so so a an to of in on at it as by or be do did done my me mine i i'm i've i'd i'll we our us
first last time really finally
you your yours yourself you're you've you'd you'll she her hers he him his he's she's how why
con per che una uno del della dei delle alla nel nella sul molto anche come più lei lui loro noi voi tuo tua tuoi tue
suo sua suoi
las los por para que una unos unas del con muy pero como más usted ustedes ella ellas ellos nosotros nosotras
vosotros cómo
les des une pour avec dans sur par que qui est très mais comme plus vous votre vos toi ton tes nous notre nos lui
elle elles ils leur comment aussi
und der die das ein eine einen mit für auf aus bei sehr aber wie noch auch sie ihr ihre ihm ihn wir unser unsere
dein deine deinem deinen deiner dich dir
com uma para por que dos das nos nas muito mas como mais você vocês ela elas ele eles nós seu sua seus suas
""".split())  # the function words (pronouns and question words among them) of the Latin-script languages the app
# replies in: "How did your sister's driving test go?" shared "how" and "your" with the day's messages and
# passed as drawn from them (bench episodes, LoCoMo 42, session 28)
_LATIN_WORD = re.compile(r"[a-z\u00c0-\u024f]+(?:['’-][a-z\u00c0-\u024f]+)*")
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_NUMBER = re.compile(r"(?<![\d.,])\d{2,}(?![\d])")
_KANA = re.compile(r"[\u3040-\u30ff]")
_JA_UNIT = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u30a0-\u30ff]+")
_QUOTED = re.compile(r"「[^」]*」|『[^』]*』|\"[^\"]*\"|“[^”]*”")
_PERSONAL_HAN = frozenset("我你您他她的了是在有")


FIRST_PERSON_WORDS = ("i", "us", "j'", *{w for words in _FIRST_PERSON_BY_LANGUAGE.values() for w in words})
_LAST_WORD = re.compile(r"[A-Za-z'’]+$")


_JOINING = ("and", "y", "e", "ed", "et", "und")  # "Ana y yo comimos…": the user's "we" as the persona's (session 41)
_NAME_MID_SENTENCE = re.compile(r"(?<=[^\s.!?¡¿。！？]\s)[A-ZÀ-Ý][a-zà-ÿ]+")


def names_spoken_of(user_texts: Sequence[str]) -> frozenset[str]:
    """Capitalised words the user wrote inside a sentence: the people (and places) they spoke of."""
    return frozenset(name for text in user_texts for name in _NAME_MID_SENTENCE.findall(text))


def joins_someone_with_the_speaker(text: str, names: Collection[str]) -> bool | None:
    """For the start of a sentence: True when it is a name of `names`, "and" and a word in the first person;
    False while it may still become that ("Ana", "Ana y", "Ana y y"); None when it cannot."""
    words = text.split()
    if not words or words[0] not in names:  # "Ana, …" (spoken to or about) is no subject joined
        return None
    words = [w.strip(",;:") for w in words]
    last_whole = text[-1:].isspace() or len(words) > 3
    joining = words[1].lower() if len(words) > 1 else ""
    if joining not in _JOINING:  # "Ana", or "Ana a…" on its way to "and"
        return False if len(words) == 1 or (len(words) == 2 and not last_whole and any(
            j.startswith(joining) for j in _JOINING)) else None
    if len(words) == 2:
        return False
    third = words[2].lower().replace("’", "'")
    if third in FIRST_PERSON_WORDS and (last_whole or words[2] == "I"):
        return True
    return False if not last_whole and any(w.startswith(third) for w in FIRST_PERSON_WORDS) else None


def speaks_of_oneself(text: str, language: str = "") -> bool:
    """Whether the text has a word in the first person ("What did I buy?", 「私が作った料理」), or, in a
    `language` whose verbs carry the person, such a verb ("E cosa devo fare giovedì?")."""
    bare = _QUOTED.sub(" ", text)
    verbs = _FIRST_PERSON_VERBS.get(language)
    return bool(_FIRST_PERSON.search(bare) or (verbs is not None and verbs.search(bare)))


# What belongs to the one spoken to: in the user's message, the persona's ("What's your favourite
# thing?", 「あなたの好きな…」, 你的爱好). Not "you" itself: "Do you remember what I cooked?" asks about
# the user. French and Spanish "tu" are left out (a subject too: "tu te souviens"), and Korean 네 (also "yes").
_YOUR = re.compile(r"\b(?:your|yours|yourself|ton|ta|tes|votre|vos|dein|deine|deinen|deinem|deiner|deines|tuo|tua|tuoi"
                   r"|tue|teu|tus|tuyo|tuya)\b|(?:あなた|君|きみ)(?:の|は|が|も)|你的|您的|너의|당신의|당신은",
                   re.IGNORECASE)


def asks_about_the_persona(text: str, persona_names: Sequence[str] = ()) -> bool:
    """Whether the user's message is about the persona too: a second-person possessive, or one of its
    names as the topic or owner ("Ark's", 「アークの」, 「アークは料理に興味ある？」). "Thanks, Ark." is not."""
    bare = _QUOTED.sub(" ", text)
    if _YOUR.search(bare):
        return True
    return any(re.search(r"(?<![A-Za-z0-9])" + re.escape(name) + r"(?:['’]s\b|の|は|が|も|의|는|은|가|的)", bare, re.IGNORECASE)
               for name in persona_names if name.strip())


def first_person_at(text: str, language: str = "") -> tuple[int | None, bool]:
    """Where the first word in the first person starts in `text`, and whether it surely is one (a last word
    still arriving may become one: "m…" → "my", 「わた…」), else (None, False): a streaming reply holds from a sure
    one until its sentence is checked. `language`: the reply's, whose verbs may carry the person."""
    sure = [m.start() for m in _FIRST_PERSON.finditer(text) if m.end() < len(text) or _HAN.search(m.group(0))
            or _HANGUL_WORD.search(m.group(0)) or _KANA.search(m.group(0))]
    sure += [i for i in (text.find(w) for w in _CJK_FIRST_PERSON) if i >= 0 and i + 1 < len(text) or
             (i >= 0 and text[i:] in ("私", "僕", "俺", "我"))]
    verbs = _FIRST_PERSON_VERBS.get(language)  # "ho fatto": the person is in the verb
    sure += [m.start() for m in verbs.finditer(text) if m.end() < len(text)] if verbs is not None else []
    unsure = []
    held = german_verbs.verb_before_ich(text) if language == "de" else None  # "fahre ich": its verb held with it
    if held is not None:
        (sure if any(i > held for i in sure) else unsure).append(held)
    tail = _LAST_WORD.search(text)
    if tail and any(w.startswith(tail.group(0).lower().replace("’", "'")) for w in FIRST_PERSON_WORDS):
        unsure.append(tail.start())
    for word in _CJK_FIRST_PERSON:  # 「わた」 at the end may become 「わたし」
        for size in range(1, len(word)):
            if text.endswith(word[:size]):
                unsure.append(len(text) - size)
    if sure and (not unsure or min(sure) <= min(unsure)):
        return min(sure), True
    return (min(unsure), False) if unsure else (None, False)


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def content_units(sentence: str) -> set[str]:
    """What a sentence is about: Latin words (no function words, light suffix strip), kanji and katakana runs,
    Chinese character pairs, Korean words without their endings (agent/hangul.py)."""
    text = _norm(sentence)
    units: set[str] = set()
    if _HAN.search(text) and not _KANA.search(text):  # Chinese: no spaces, so character pairs
        run = "".join(c if _HAN.match(c) and c not in _PERSONAL_HAN else " " for c in text)
        units |= {w[i:i + 2] for w in run.split() for i in range(len(w) - 1)}
    elif _KANA.search(text):
        units |= {u for u in _JA_UNIT.findall(text) if u not in ("私", "僕", "俺", "今日", "昨日")}
    units |= korean_units(text)
    units |= {_unit_of_word(w) for w in _LATIN_WORD.findall(text) if len(w) >= 3 and w not in _STOPWORDS}
    units |= set(_NUMBER.findall(text))  # "28", "60 km": the same figure is the same fact
    return units


# A participle's or an adjective's ending (it, es, pt, fr), or an infinitive's ("Pour courir le premier
# semi-marathon, j'ai pris…" to "j'ai couru mon premier semi-marathon": §4 dev-fr-quand, session 44), where at
# least four letters stay before it.
_ROMANCE_ENDING = re.compile(r"(?<=\w{4})(?:[aiu]t[aeio]s?|[aiu]d[ao]s?|ées?|és?|[aeiou]s?|[aei]r)$")


def _unit_of_word(word: str) -> str:
    """A Latin word's stem, without a final "e": "hike", "hiked" and "hiking" are one unit ("I was
    excited to hike on Mt. Takao" told the user's "hiking on Mt. Takao" as the persona's, and
    streamed: bench conversation, session 19) — and without the gender, number and participle endings
    of the Romance languages: the user's "sono stanca morta" came back as the persona's 「Mi sento
    stancata e morta.」 (bench conversation, session 27), as "cansada" comes back "cansado"."""
    stemmed = _stem(word)
    stemmed = stemmed[:-1] if stemmed.endswith("e") and len(stemmed) > 3 else stemmed
    ending = _ROMANCE_ENDING.search(stemmed)
    return stemmed[:ending.start()] if ending else stemmed


def told_units(user_texts: Iterable[str]) -> list[set[str]]:
    """The content of each sentence the user wrote that tells something (questions to the persona
    tell nothing of the user's own)."""
    told = []
    for text in user_texts:
        for sentence in sentences.split(text):
            if sentence.rstrip().endswith(("?", "？")) and not _FIRST_PERSON.search(sentence):
                continue
            units = content_units(sentence)
            if len(units) >= constants.ROLE_MIN_SHARED_UNITS:
                told.append(units)
    return told


# The first person put in place of the persona's name (`persona_as_speaker`), by language.
_SPEAKER = {"en": "I", "ja": "私", "zh": "我", "ko": "나", "es": "yo", "fr": "je", "de": "ich", "pt": "eu", "it": "io"}


def _named_as(sentence: str, persona: str, by: str, possessive: str = "") -> str:
    """The sentence with the persona's name replaced by `by` (and "Ark's" by `possessive`, if given)."""
    name = persona.strip()
    if not name:
        return sentence
    # a Latin name ends where Latin letters do (「ARKは」: no word boundary before は)
    bounded = re.escape(name) if _HAN.search(name) or _KANA.search(name) else rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])"
    if possessive:
        sentence = re.sub(bounded + r"['’]s(?![A-Za-z])", possessive, sentence, flags=re.IGNORECASE)
    return re.sub(bounded, by, sentence, flags=re.IGNORECASE)


def persona_as_speaker(sentence: str, persona: str, language: str) -> str:
    """The sentence with the persona's name in the first person, so that a memory telling the user's
    doings as the persona's by name reads as the claim it is ("Ark mentioned that the kitchen is
    tiny and the rent is 150 pounds more" of Noor's flat; 「ARKは上司の森さんが話しやすい人で」 of Yui's new
    boss: bench nights, sessions 23–24). English "Ark's" becomes "my"."""
    return _named_as(sentence, persona, _SPEAKER.get(language, "I"), "my" if language == "en" else "")


def persona_as_user(sentence: str, persona: str, user_name: str) -> str:
    """The sentence with the user's name where the persona's was: what a memory told by the persona's
    name was the user's ("Noor mentioned that the kitchen is tiny")."""
    return _named_as(sentence, persona, user_name) if user_name.strip() else sentence


def says_you(sentence: str) -> bool:
    """Whether the sentence has a "you" in it (not a name with さん: 「ユイさんは…」 names the user)."""
    return bool(_SAYS_YOU.search(_QUOTED.sub(" ", sentence)))


def tells_own_life(sentence: str, user_texts: Sequence[str], user_names: Sequence[str] = (),
                   language: str = "") -> bool:
    """Whether a sentence of the persona's tells something of its own: in the first person, no "you" in it,
    not the user's facts as its own ("FYI, I finished another pottery project - want to see a pic?" does). A
    night asked to tell the persona's day from all it said gave it Noor's cello practice (bench nights, session 23)."""
    bare = sentence.strip()
    if not bare or says_you(bare) or not speaks_of_oneself(bare, language):
        return False
    return not takes_users_part(bare, user_texts, user_names, language)


def goes_with_own_life(sentence: str, user_texts: Sequence[str], user_names: Sequence[str] = (),
                       language: str = "") -> bool:
    """Whether a sentence with no person in it belongs with the persona's own story told beside it
    ("Last night was amazing! We celebrated my daughter's birthday with a concert…"): no question, not
    spoken to the user, and not the user's facts."""
    bare = sentence.strip()
    return bool(bare) and not bare.endswith(("?", "？")) and not addresses_the_user(bare, user_names) \
        and not speaks_of_oneself(bare, language) and not takes_users_part(bare, user_texts, user_names, language)


def addresses_the_user(sentence: str, user_names: Sequence[str] = ()) -> bool:
    """Whether the sentence speaks to the user: in the second person, or by their name."""
    return bool(_SECOND_PERSON.search(_QUOTED.sub(" ", sentence))
                or any(name.strip() and _norm(name) in _norm(sentence) for name in user_names))


# Words for `confirms_users_words`: a Han character alone (Chinese writes 我的 and 你的 unspaced),
# a run of kana, a word of letters (with its apostrophe: "I'm", "j'ai"), a number.
_PERSON_TOKEN = re.compile(r"[\u3400-\u9fff]|[\u3040-\u30ff]+|[^\W\d_]+(?:['’][^\W\d_]+)*|\d+")


def confirms_users_words(sentence: str, user_text: str) -> bool:
    """Whether the sentence is the persona's own act on the user's words: aligned word by word with the
    message, its "your" where the message's "my" is, and words of its own saying what the persona does ("I
    noted that your dentist appointment is on Thursday at 4pm." to "Can you note that my dentist appointment
    is on Thursday at 4pm?", 「好的，我记住了你的号码是A1024。」 to 「我的号码是A1024。」): a confirmation, not
    the message said back (bench conversation, session 19) — the swap alone ("He chewed one of your shoes!") is."""
    heard, said = _PERSON_TOKEN.findall(user_text), _PERSON_TOKEN.findall(sentence)
    matcher = difflib.SequenceMatcher(None, [w.casefold() for w in heard], [w.casefold() for w in said], autojunk=False)
    changed = [(heard[i1:i2], said[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]

    def first(words: Sequence[str]) -> int:
        return sum(bool(_FIRST_PERSON.fullmatch(w)) for w in words)

    def second(words: Sequence[str]) -> int:
        return sum(bool(_SECOND_PERSON.fullmatch(w)) for w in words)
    # in place ("my" where "your" is), or, where the alignment of unspaced Chinese goes astray, by count
    swapped = first(heard) and (any(first(theirs) and second(ours) for theirs, ours in changed)
                                or second(said) > second(heard))
    # the persona's own words: a first person where the message had others ("Can you note" → "I noted"),
    # or more people spoken of than the message had (「我的…」 → 「我记住了你的…」: the 我 aligns with the user's)
    return bool(swapped) and (any(first(ours) for _, ours in changed)
                              or first(said) + second(said) > first(heard) + second(heard))


# What a name is ("Lake George, a beautiful lake in the Pacific Northwest") is no part of the claim: its words hid the
# user's kayaking on Lake George told as the persona's own (§4 dev-en-switch, session 46).
_APPOSITIVE = re.compile(r"(\b[A-ZÀ-Þ][\w'’-]*),\s+(?i:a|an|the|un|una|une|ein|eine|um|uma|il|el|la|le)\s+[^,.;!?]*")
# Where one clause gives way to another: a cause or a contrast ("…, but…", 「…ため、」, 「…けど」).
_CLAUSE_BREAK = re.compile(r"[;；，]|(?<=ため)|(?<=ので)|(?<=けど)|(?<=から、)|(?<=が、)|(?<=但是)|(?<=因为)"
                           r"|,\s*(?=(?:but|so|because|pero|porque|mais|car|aber|weil|ma|perché|mas)\b)", re.IGNORECASE)


def _in_the_first_person(bare: str, language: str, reacting: bool) -> bool:
    """Whether the sentence speaks of its speaker: by a word in the first person, by a verb in it
    (Spanish, Italian, Portuguese), or, in a Japanese or Korean reaction, by a past statement with no subject
    (「수영 강습을 처음 받았어요.」 to "I had my first swimming lesson yesterday": dev-ko-suyeong, session 44)."""
    if _FIRST_PERSON_IN.get(language, _FIRST_PERSON).search(bare):
        return True
    verbs = _FIRST_PERSON_VERBS.get(language)
    if verbs is not None:
        return bool(verbs.search(bare))
    if language == "ko":
        return reacting and plain_past_statement(bare)
    return (language == "ja" and reacting and bool(_JA_PAST_STATEMENT.search(bare))
            and not _JA_SUBJECT.search(bare))


def takes_users_part(sentence: str, user_texts: Sequence[str], user_names: Sequence[str] = (),
                     language: str = "", reacting: bool = False) -> bool:
    """Whether `sentence` (of a reply in `language`, "" when unknown) tells as the persona's own
    what the user said about themself in one of `user_texts`. `reacting`: the reply is to
    something told, not to a question (see _FIRST_PERSON_VERBS)."""
    bare = _QUOTED.sub(" ", sentence)
    if _owns_users_thing(bare, user_texts, " ".join(_QUOTED.findall(sentence))):
        return True
    # Clause by clause: a "maybe" or "not" of another clause does not excuse this one
    # (「私はエビのアレルギーがあるため、…食べれないかもしれません」: the allergy is told as the persona's).
    negation = _NOT_A_CLAIM_PT if language == "pt" else _NOT_A_CLAIM
    # A "not" the user said too excuses nothing ("Ich habe die Kisten noch nicht ausgepackt.": §4, session 37).
    heard = _negations_told(bare, user_texts, negation) if negation.search(bare) else set()
    said = [clause for clause in _CLAUSE_BREAK.split(bare) if not _excused(clause, negation, heard, language)]
    if _speaks_to_user(bare, user_texts) or any(name and _norm(name) in _norm(bare) for name in user_names):
        return False
    told = told_units(user_texts)
    reacting = reacting or _japanese_topic_is_self(said, told, language)
    claiming = [clause for clause in said if _in_the_first_person(clause, language, reacting)]
    mine = content_units(_APPOSITIVE.sub(r"\1", " ".join(claiming)))
    if len(mine) < constants.ROLE_MIN_SHARED_UNITS:
        return False
    for units in told:
        shared = shared_units(mine, units)
        if len(shared) >= constants.ROLE_MIN_SHARED_UNITS and (
                len(shared) >= constants.ROLE_SHARED_SHARE * min(len(mine), len(units))
                or len(shared) >= constants.ROLE_SHARED_UNITS_ENOUGH):
            return True
    return False


def _excused(clause: str, negation: re.Pattern, heard: set[str], language: str) -> bool:
    """A negation, wish or "me too" the user did not say themself excuses the clause; remembering does only
    while what is remembered is not told in the first person: "Recuerdo que mi abuelo me enseñó a andar en bici…"
    to "Me acuerdo de cuando mi abuelo me enseñó…" is the user's childhood told as the persona's (§4, session 40)."""
    for found in negation.finditer(clause):
        if _REMEMBERING.fullmatch(found.group(0)):  # the user's own "I remember" said too excuses it as much
            if not _OWN_IN.get(language, _OWN).search(clause[found.end():]):
                return True
        elif found.group(0).casefold() not in heard:
            return True
    return False


def shared_units(mine: set[str], told: set[str]) -> set[str]:
    """`mine`'s units that are `told`'s, or part of one or holding one where a run of kanji or kana is a
    unit (ピアノ and ピアノ教室, 試験 and 資格試験: 「私はピアノを始めました。」, §4, session 37)."""
    return {u for u in mine if u in told or (not u.isascii() and len(u) >= 2 and any(
        not t.isascii() and len(t) >= 2 and (u in t or t in u) for t in told))}


def _negations_told(sentence: str, user_texts: Sequence[str], negation: re.Pattern) -> set[str]:
    """The negation words (lower-case) of the user's sentences about the same things as `sentence`."""
    about = content_units(negation.sub(" ", sentence))
    return {w.casefold() for text in user_texts for told in sentences.split(text)
            if about & content_units(negation.sub(" ", told)) for w in negation.findall(told)}


def _japanese_topic_is_self(clauses: Sequence[str], told: Sequence[set[str]], language: str) -> bool:
    """Whether a Japanese clause makes the persona the topic with the user's own words (私のアレルギー; `told`: the
    units of the user's sentences): its clauses with no subject are its too (「私のアレルギーが無かったので、…」)."""
    if language != "ja" or not told:
        return False
    words = set().union(*told)
    return any(_JA_SELF.search(clause) and content_units(clause) & words for clause in clauses)


def users_part_said_back(sentence: str, user_texts: Sequence[str], user_names: Sequence[str], language: str,
                         reacting: bool = False) -> str | None:
    """The sentence said back as the user's if it tells the user's part as the persona's: "" where the
    language allows no plain swap, None if it is no such sentence."""
    if not takes_users_part(sentence, user_texts, user_names, language, reacting):
        return None
    return as_users(sentence, language, user_names[0] if user_names else "") or ""


_HONORIFIC_ONLY = re.compile(_HONORIFIC)
_NAME_BEFORE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u30a1-\u30fc\uac00-\ud7af]+$")


def _speaks_to_user(sentence: str, user_texts: Sequence[str]) -> bool:
    """Whether the sentence is said to the user: a "you", or an honorific after a name — but not one
    the user wrote with that honorific, who is someone the user spoke of (「上司の森さんが…」: Yui's boss,
    and 「…上司の森さんが話しやすい人で安心した。」 told as the persona's passed as said to the user:
    bench nights, session 27)."""
    for said in _SECOND_PERSON.finditer(sentence):
        name = _NAME_BEFORE.search(sentence[:said.start()]) if _HONORIFIC_ONLY.fullmatch(said.group(0)) else None
        if name is None or not any(name.group(0) + said.group(0) in text for text in user_texts):
            return True
    return False


def _owns_users_thing(said: str, user_texts: Sequence[str], quoted: str = "") -> bool:
    """The user's own thing with the persona's possessive, beside another word of the same message ("Mochi is my
    puppy" to "I adopted a puppy called Mochi"; "…my sister Lena lands at 6:40", §4, session 19), with a "not" or
    without ("Ich habe noch nicht mehr in meinem Brot drin.") — or, if the user called it theirs too, beside a
    word of `quoted`, the quotes: 'Ma boulangerie est appelée "Le Fournil Bleu".' (§4, session 42)."""
    mine, owned, named = content_units(said), _possessed_units(said), content_units(quoted) if quoted else set()
    for text in user_texts if owned else ():  # no possessive of the persona's: nothing to compare
        units = content_units(text)
        if owned & units and len(mine & units) >= constants.ROLE_MIN_SHARED_UNITS:
            return True
        if named and owned & _possessed_units(text) and len((mine | named) & units) >= constants.ROLE_MIN_SHARED_UNITS:
            return True
    return False


def claims_users_own(text: str, user_texts: Sequence[str]) -> bool:
    """Whether `text` calls "mine" a thing the user called theirs ("I will keep working on my novel"
    to "the first draft of my novel"). For the night's strategy and goals, where the persona has no
    novel of its own to speak of; a reply may ("my cat does that too" is the persona's own)."""
    owned = _possessed_units(text)
    return bool(owned) and any(owned & _possessed_units(said) for said in user_texts)


def _possessed_units(text: str) -> set[str]:
    return {u for m in _POSSESSED.finditer(text) for u in content_units(next(g for g in m.groups() if g))}


# A first-person possessive and the words after it (私の子犬, my puppy, 我的小狗, mon chien…; "mon grand-père" whole, not
# "grand"); Japanese "our" too: 「私達の猫」 ("our cat") of the user's 「うちの猫」 is theirs (§4, session 37).
_JA_MY = r"(?:(?:私|僕|俺|わたし|あたし)(?:達|たち)?|うち|我々)の"
_POSSESSED = re.compile(_JA_MY + r"([^、。！？\s]{1,8})|我(?:们)?的([^，。！？\s]{1,6})"
                        r"|\b(?:my|our|mi|mis|nuestr[oa]s?|mon|ma|mes|notre|nos|mein\w*|unser\w*|mio|mia|miei|mie|"
                        r"meu|minha|meus|minhas)\s+((?:\w+(?:[-'’]\w+)*\s+){0,2}\w+(?:[-'’]\w+)*)", re.IGNORECASE)


_EN_SWAP = {"i": "you", "i'm": "you're", "i've": "you've", "i'd": "you'd", "i'll": "you'll", "my": "your",
            "me": "you", "mine": "yours", "myself": "yourself", "we": "you", "we're": "you're", "we've": "you've",
            "we'd": "you'd", "we'll": "you'll", "our": "your", "ours": "yours", "us": "you", "ourselves": "yourselves",
            "am": "are"}
_EN_PRONOUN = re.compile(r"\b(?:(?i:i'm|i've|i'd|i'll|we're|we've|we'd|we'll)|I|(?i:my|me|mine|myself|we|our|ours)|us|"
                         r"(?i:ourselves))\b(?:\s+(?i:am|was)\b)?")
# 「私は」, 「私、」 (a topic too), and 私 before any case particle: 「え、それは私からベランダにミニトマトの苗を植えたんです。」
# had its start shown before 私 arrived and no swap, so the user's planting went out as the persona's (§4, session 30).
_JA_SELF = re.compile(r"(?:私|僕|俺|あたし|わたし)(?:[、，](?=\S)|(?=[はがのもにとをでへ]|から|より|まで))")
_ZH_SELF = re.compile(r"我们|我")


# The persona's short clause before "that" ("Ich weiß, dass…", session 20) stays, not a duty ("tengo que…", session 40).
_STANCE = re.compile(r"\s*(?:(?!(?:tengo|tenemos|tenía|teníamos|tuve|tuvimos|tendré|tendremos|tenho|temos|tinha|tínhamos|tive|tivemos|terei|teremos|hay)\b)[^\W\d_]+[,\s]+){1,3}?(?:dass|that|que|qu'|che)\s+", re.IGNORECASE)


def as_users(sentence: str, language: str, user_name: str, opens_sentence: bool = True) -> str | None:
    """The sentence said back as the user's ("I adopted a puppy!" → "You adopted a puppy!"), or None where a plain
    swap of the person would not read right (the caller leaves it out). `opens_sentence`: a whole sentence, not the rest
    of one begun. One that speaks to the user has its possessives swapped ("…when my sister lands" → "…your sister…")."""
    told_me = language in _TOLD_ME_BY_YOU and _TOLD_ME_BY_YOU[language].search(sentence)
    if told_me or _SECOND_PERSON.search(_QUOTED.sub(" ", sentence)):  # "Me dijiste…": what the user told the persona
        return _possessives_as_users(sentence, language, user_name) or (sentence if told_me else None)
    stance = _STANCE.match(sentence)
    if stance and opens_sentence:  # "Ich weiß, dass mein Bruder…": the knowing is the persona's, the brother the user's
        rest = as_users(sentence[stance.end():], language, user_name, opens_sentence=False)
        return sentence[:stance.end()] + rest if rest else None
    if language == "en":
        def swap(match: re.Match) -> str:
            words = match.group(0).split()
            out = [_EN_SWAP.get(w.lower().replace("’", "'"), w) for w in words]
            if len(words) == 2 and words[1].lower() == "was":
                out[1] = "were"
            if (match.start() == 0 and opens_sentence) or sentence[:match.start()].rstrip().endswith((".", "!", "?", '"')):
                out[0] = out[0][0].upper() + out[0][1:]
            return " ".join(out)
        return _EN_PRONOUN.sub(swap, sentence.replace("’", "'"))
    if language == "ja" and user_name:
        swapped = _JA_SELF.sub(lambda m: f"{user_name}さんは" if m.group(0)[-1] in "、，" else f"{user_name}さん",
                               _JA_POSSESSIVE.sub(f"{user_name}さんの", sentence))  # 「私達の猫」 too
        return swapped if swapped != sentence else None
    if language == "zh":
        return _ZH_SELF.sub(lambda m: "你们" if m.group(0) == "我们" else "你", sentence)
    if language == "ko":
        you = f"{user_name}님" if user_name else "당신"
        swapped = _KO_SELF.sub(lambda m: you + _KO_PARTICLE[m.group(0)[-1]], sentence)
        if swapped == sentence and not _FIRST_PERSON.search(sentence):  # no subject (plain_past_statement)
            return f"{you}은 {sentence.lstrip()}" if user_name else None
        return None if _FIRST_PERSON.search(swapped) else swapped
    swaps = _SECOND_PERSON_SWAPS.get(language)
    if swaps is None:
        return None
    if language == "de":  # "fahre ich" → "fährst du", "wir singen" → "ihr singt"
        sentence = german_verbs.as_second_person(sentence)
    if language == "it":  # "sono andata" → "sei andata" (only there: "sono" is also "they are"); the model's "Ho andato"
        sentence = re.sub(_IT_SONO_PARTICIPLE + "|" + _IT_HO_BY_ESSERE, lambda m: "Sei" if m.group(0)[0] in "SH" else "sei",
                          sentence, flags=re.IGNORECASE)  # is "Sei andato" (dev-it-biblioteca, session 40)
    if language in OBJECT_ME:  # "mi abuelo me enseñó" → "te enseñó" (§4 dev-es-bici, session 41); not "me llamo"
        sentence = re.sub(OBJECT_ME[language], lambda m: ("T" if m.group(0)[0] == "M" else "t") + m.group(0)[1:], sentence)
    # A plain swap of the words in the first person that have one ("Mi gata…" → "Tu gata…", "J'ai mangé" → "Tu as
    # mangé"); a sentence with a first person left over ("me acuerdo") is not said back.
    def swap(match: re.Match) -> str:
        word = match.group(0)
        new = swaps[word.lower().replace("’", "'")]
        return new[0].upper() + new[1:] if word[0].isupper() else new
    pattern = r"(?<![\w'])(?:" + "|".join(re.escape(k) for k in sorted(swaps, key=len, reverse=True)) + r")(?![\w'])"
    swapped = _preterite_as_users(re.sub(pattern, swap, sentence.replace("’", "'"), flags=re.IGNORECASE), language)
    verbs, rest = _FIRST_PERSON_VERBS.get(language), _TALKED_TOGETHER.sub(" ", swapped)
    left = _FIRST_PERSON_IN[language].search(rest) or (verbs is not None and verbs.search(rest))
    return None if left else swapped


# "We talked" is the persona's and the user's together: "hablamos sobre mi monitor" is said back as "hablamos sobre tu
# monitor", not left out (§4 dev-es-weeks-escalada, session 53).
_TALKED_TOGETHER = re.compile(r"\b(?:hablamos|charlamos|conversamos|platicamos|falamos)\b", re.IGNORECASE)


# The simple past's "I" said of the user, spelling kept: Spanish "compré" → "compraste", "llegué" → "llegaste", "empecé"
# → "empezaste", "aprendí" → "aprendiste"; Portuguese (to "você") "comprei" → "comprou", "comecei" → "começou".
_PRETERITE = {language: re.compile(pattern, re.IGNORECASE) for language, pattern in _PRETERITE_I.items()}
_PRETERITE_SPELLING = {"es": (("gu", "g"), ("qu", "c"), ("c", "z")), "pt": (("gu", "g"), ("qu", "c"), ("c", "ç"))}


def _preterite_as_users(sentence: str, language: str) -> str:
    pattern = _PRETERITE.get(language)
    if pattern is None:
        return sentence

    def swap(match: re.Match) -> str:
        stem, ending = match.group(1), match.group(2).lower()
        if ending != "í":  # -ar verbs: the stem's spelling follows the new vowel
            stem = next((stem[: -len(old)] + new for old, new in _PRETERITE_SPELLING[language]
                         if stem.lower().endswith(old)), stem)
        return stem + {"é": "aste", "í": "iste", "ei": "ou"}[ending]
    return pattern.sub(swap, sentence)


# Korean: the first person with its particle, or "my", as the user (님 and 당신 end in a consonant).
_KO_SELF = re.compile(r"(?<![가-힣])(?:나는|저는|내가|제가|나의|저의)|(?<![가-힣])(?:내|제)(?= )")
_KO_PARTICLE = {"는": "은", "가": "이", "의": "의", "내": "의", "제": "의"}


# The first-person possessives, and what says them of the user, by language.
_POSSESSIVE_SWAPS = {
    "en": {"my": "your", "our": "your", "mine": "yours"},
    "es": {"mi": "tu", "mis": "tus", "nuestro": "vuestro", "nuestra": "vuestra"},
    "fr": {"mon": "ton", "ma": "ta", "mes": "tes", "notre": "votre", "nos": "vos"},
    "de": {"mein": "dein", "meine": "deine", "meinen": "deinen", "meinem": "deinem", "meiner": "deiner",
           "unser": "euer", "unsere": "eure", "unseren": "euren", "unserem": "eurem"},
    "it": {"mio": "tuo", "mia": "tua", "miei": "tuoi", "mie": "tue"},
    "pt": {"meu": "seu", "minha": "sua", "meus": "seus", "minhas": "suas"},
}
_JA_POSSESSIVE = re.compile(_JA_MY)
_KO_POSSESSIVE = re.compile(_KO_MY)


def _possessives_as_users(sentence: str, language: str, user_name: str) -> str | None:
    """The sentence with its first-person possessives said of the user; None where none was swapped."""
    if language == "ja":
        swapped = _JA_POSSESSIVE.sub(f"{user_name}さんの" if user_name else "あなたの", sentence)
    elif language == "zh":
        swapped = sentence.replace("我们的", "你们的").replace("我的", "你的")
    elif language == "ko":
        swapped = _KO_POSSESSIVE.sub(f"{user_name}님의" if user_name else "당신의", sentence)
    elif language in _POSSESSIVE_SWAPS:
        swaps = _POSSESSIVE_SWAPS[language]
        pattern = r"(?<![\w'])(?:" + "|".join(sorted(swaps, key=len, reverse=True)) + r")(?![\w'])"
        swapped = re.sub(pattern, lambda m: (swaps[m.group(0).lower()].capitalize() if m.group(0)[0].isupper()
                                             else swaps[m.group(0).lower()]), sentence, flags=re.IGNORECASE)
    else:
        return None
    return swapped if swapped != sentence else None


# Possessives, and the auxiliaries of the past tenses users ask about ("What did I bake?").
_SECOND_PERSON_SWAPS = {
    "es": {"mi": "tu", "mis": "tus"},
    "fr": {"mon": "ton", "ma": "ta", "mes": "tes", "j'ai": "tu as", "je suis": "tu es", "j'étais": "tu étais",
           "j'avais": "tu avais", "moi": "toi"},
    "de": {"mein": "dein", "meine": "deine", "meinen": "deinen", "meinem": "deinem", "meiner": "deiner",
           "ich habe": "du hast", "ich hab": "du hast", "habe ich": "hast du", "ich bin": "du bist", "bin ich": "bist du",
           "ich war": "du warst", "war ich": "warst du", "ich hatte": "du hattest", "mir": "dir", "mich": "dich",
           "wir": "ihr", "unser": "euer", "unsere": "eure", "unseren": "euren", "unserem": "eurem",
           "unserer": "eurer", "unseres": "eures", "uns": "euch"},
    # "io sei" is "io sono" after its participle's "sono" → "sei" (as_users): "io sono stata" → "tu sei stata"
    "it": {"mio": "tuo", "mia": "tua", "miei": "tuoi", "mie": "tue", "io ho": "tu hai", "io sei": "tu sei", "ho": "hai",
           "sto": "stai", "ero": "eri", "avevo": "avevi", "abbiamo": "avete", "siamo": "siete", "eravamo": "eravate"},
    "pt": {"meu": "seu", "minha": "sua", "meus": "seus", "minhas": "suas", "estou": "está", "sou": "é", "fui": "foi",
           "tenho": "tem", "estava": "estava", "tinha": "tinha"},
}
_SECOND_PERSON_SWAPS["es"].update({"he": "has", "estoy": "estás", "soy": "eres", "fui": "fuiste", "tengo": "tienes",
                                   "estaba": "estabas", "tenía": "tenías"})
for _language, _forms in _IRREGULAR_I.items():
    _SECOND_PERSON_SWAPS[_language].update(_forms)
