"""A reply engages with the message: a greeting, a "Sure!" or the user's name alone says nothing.

「今日は仕事で大きなプレゼンがあって、すごく緊張したよ。」 got 「こんにちは！」 once the guard had cut the
echo after it, and a question about a kept fact got "Sure, Ken!" (issue 18). So the reply guard
holds an opening that says nothing until a sentence with something in it follows, and a reply that
ends having said nothing is asked for again.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Sequence

import constants
from agent.language import is_question, sure_language

# Greetings, fillers and acknowledgements in the supported languages: words that carry no answer.
FILLERS = frozenset("""
sure ok okay yes yeah yep yup of course hi hello hey hiya well oh ah ahh aw aww right great cool nice
hmm got it thanks thank you alright indeed certainly absolutely good morning evening afternoon night
welcome back there wow yay haha lol
hola buenos buenas días tardes noches sí claro vale bueno genial gracias
bonjour bonsoir salut coucou oui d'accord ok merci super bien
hallo guten tag morgen abend ja klar gut super danke
olá oi sim bom dia ciao buongiorno buonasera certo grazie sì
はい うん ええ そう そうだね そうですね そっか なるほど 了解 オッケー こんにちは こんばんは おはよう おはようございます
やあ ありがとう ありがとうございます わあ わー へえ へー おお お疲れ様 おつかれ どういたしまして
你好 您好 好的 是的 嗯 对 哇 晚上好 早上好 谢谢 好 不客气
네 예 응 그래 안녕 안녕하세요 와 좋아요 감사합니다 고마워 천만에요
""".split()) | frozenset(
    # The persona saying who it is ("I'm Ark.", 「アークです」, "Je suis Ark.") answers nothing either:
    # with the names taken out, only these are left.
    """i i'm am it it's is this me je suis moi c'est soy es yo ich bin sono sou
    私 僕 わたし は です だよ 我 是 저는 나는 입니다 이에요 예요""".split())
# Salutations alone ("Hello!", "¡Hola, Diego!", 「こんにちは、ハルカさん！」): a reply may show one at once,
# before what follows is judged — fitting whatever follows. "Good night" is left out: it may be a
# farewell that ends the reply.
_SALUTATIONS = frozenset("""
hi hello hey hiya morning afternoon evening hola buenos buenas días tardes noches bonjour bonsoir
salut coucou hallo guten tag morgen abend olá oi bom boa dia tarde ciao buongiorno buonasera salve
こんにちは こんばんは おはよう おはようございます やあ 你好 您好 晚上好 早上好 안녕 안녕하세요
""".split())
# Leave-takings: a reply may end on one, but kept as a memory, "Night, Ark!" or 「おやすみ！」 tells nothing
# and took the memories' few lines from the evening's news (§4 en-weeks-pottery, session 22).
FAREWELLS = frozenset("""
goodnight night bye goodbye see you later soon sleep well sweet dreams take care tomorrow
adiós adios hasta luego mañana chao chau nos vemos
bonne nuit au revoir à bientôt demain
gute nacht tschüss tschüs bis bald später schlaf schön
boa noite tchau até logo amanhã
buonanotte arrivederci ci vediamo domani
おやすみ おやすみなさい またね じゃあね また明日 さようなら
晚安 再见 拜拜 明天见
잘자 잘 자요 안녕히 주무세요 내일 봐요
""".split())
_WITH_SALUTATIONS = frozenset("good there".split())  # "Good morning", "Hi there": not greetings alone
_ADDRESS_SUFFIXES = frozenset("さん ちゃん くん 君 님 씨".split())  # after a name taken out
_WORD = re.compile(r"[\w'’]+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]")
# Japanese and Korean fillers are often written without spaces ("はい、そうだね！"): their words are
# taken out of a CJK run as substrings, longest first.
CJK_FILLERS = sorted((f for f in FILLERS if _CJK.search(f)), key=len, reverse=True)
# What says nothing as a memory: the fillers and the leave-takings (`tells_nothing`)
_NOTHING_TO_RECALL = FILLERS | FAREWELLS
_CJK_NOTHING_TO_RECALL = sorted((f for f in _NOTHING_TO_RECALL if _CJK.search(f)), key=len, reverse=True)


def content_size(text: str, names: Sequence[str] = (), fillers: frozenset[str] = FILLERS,
                 cjk_fillers: Sequence[str] = CJK_FILLERS) -> int:
    """What a reply says once names, fillers and punctuation are taken out: words in spaced
    scripts, characters in Japanese, Chinese and Korean (`cjk_fillers`: the CJK ones of `fillers`,
    longest first)."""
    text = _without_names(text, names)
    size = 0
    for word in _WORD.findall(text):
        if word in fillers:
            continue
        if _CJK.search(word):
            for filler in cjk_fillers:
                word = word.replace(filler, "")
            size += sum(1 for c in word if _CJK.match(c))
        else:
            size += 1
    return size


def reaction_alone(sentence: str, language: str, user_names: Sequence[str] = ()) -> bool:
    """An opening sentence that reacts and says nothing yet ("¡Qué bien!", "Super !", "That's great, Ken!",
    「お疲れ様！」), which the reply guard shows at once to something told, as a greeting: whole (it ends with
    "!" or "."), in the message's `language`, naming no one but the user ("¡Hola Lucía!" to Diego is held), and no
    leave-taking, which may end the reply. Held instead, the sentence after it was judged whole before either was
    shown: "¡Qué bien! Terminar tu primera carrera de 10K es un gran logro, ¿cómo te sentiste…?" showed nothing
    until the reply's end (bench conversation, session 34)."""
    said = sentence.strip()
    names = [word for word in _WORD.findall(said)[1:] if word[:1].isupper() and word != "I"]
    return (said[-1:] in "!！.。" and not says_goodbye(said) and sure_language(said) in ("", language)
            and all(name in user_names for name in names))


def says_goodbye(text: str) -> bool:
    """A leave-taking word in it ("Good night, Theo!", 「おやすみ！」): a reply may end on it. Any word of
    FAREWELLS counts ("Well done!" too): a sentence so read is only held, as before, never lost."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return (any(word in FAREWELLS for word in _WORD.findall(folded))
            or any(farewell in folded for farewell in FAREWELLS if _CJK.search(farewell)))


def _without_names(text: str, names: Sequence[str]) -> str:
    """The text normalised and case-folded, with the names taken out."""
    text = unicodedata.normalize("NFKC", text).casefold()
    for name in names:
        if name.strip():
            text = text.replace(unicodedata.normalize("NFKC", name.strip()).casefold(), " ")
    return text


def only_greets(text: str, names: Sequence[str] = ()) -> bool:
    """Salutations alone, with the user's `names` at most ("Hi Ken!", 「こんにちは、ハルカさん！」)."""
    words = _WORD.findall(_without_names(text, names))
    allowed = _SALUTATIONS | _WITH_SALUTATIONS | _ADDRESS_SUFFIXES
    return any(w in _SALUTATIONS for w in words) and all(w in allowed for w in words)


# A salutation and one word after a comma: whoever that word names, it is only called by it. A capitalised
# Latin-script name is left to the vocative rules ("Hey, John!" to Sam opens an answer, said to Sam).
_GREETING_AND_ONE_WORD = re.compile(r"^\s*(?P<greeting>[^,，、]+)[,，、]\s*(?P<called>[\w'’]+)[\s!！.。~〜]*$")


def greets_someone(text: str, names: Sequence[str] = ()) -> bool:
    """Salutations and one word said to someone ("안녕하세요, 아크!", "Hello, friend!"): the persona's
    name as the user writes it in Korean is none the app knows, and 「안녕하세요, 아크!」 was the last
    answer shown to 「내 카페 이름이 뭐였지?」 after two repairs (§4 dev-ko-cafe, session 45)."""
    if only_greets(text, names):
        return True
    called = _GREETING_AND_ONE_WORD.match(unicodedata.normalize("NFKC", text))
    return bool(called) and not called.group("called")[:1].isupper() and only_greets(called.group("greeting"), names)


def greets_in(text: str, language: str, names: Sequence[str] = ()) -> bool:
    """Salutations alone (`only_greets`) that are not surely of another language than `language`: a
    greeting the reply guard may show at once. "Nabend!" was answered "Good evening!", shown before the
    German retries (§4 dev-de-brot, every run since session 36): held, it is judged with what follows."""
    return only_greets(text, names) and sure_language(text) in ("", language)


def says_nothing(text: str, names: Sequence[str] = (), least: int = 1) -> bool:
    """Only greetings, fillers and names ("Hello!", 「こんにちは！」, "Sure, Ken!", 「うん、そうだね」), a greeting
    said to anyone (`greets_someone`) — or,
    with `least` above 1, fewer words of content than that ("That's great!")."""
    return content_size(text, names) < least or greets_someone(text, names)


def tells_nothing(text: str, names: Sequence[str] = ()) -> bool:
    """As a memory: only greetings, fillers, leave-takings and names ("Night, Ark!", "Goodnight!",
    「おやすみ、アーク」) — nothing to recall it for."""
    return content_size(text, names, _NOTHING_TO_RECALL, _CJK_NOTHING_TO_RECALL) < 1


def least_to_say(user_text: str, language: str) -> int:
    """The content (words; characters in Japanese, Chinese, Korean) the reply's opening must carry
    to be shown: something — and to something told at length rather than asked, more than a
    short exclamation (a long message about the user's day got "Wow!" and nothing else)."""
    dense = language in ("ja", "zh", "ko")
    told = content_size(user_text)
    if is_question(user_text) or told < (constants.TOLD_AT_LENGTH_CJK if dense else constants.TOLD_AT_LENGTH_WORDS):
        return 1
    return constants.SHORT_REACTION_CJK if dense else constants.SHORT_REACTION_WORDS


def leads_in(text: str) -> bool:
    """Whether the text ends on a colon: it leads into what follows ("5. **Routine**:", "Here are some tips:")."""
    return text.rstrip().endswith((":", "："))


def without_dangling_colon(text: str) -> str:
    """The text without a last sentence that leads into what never came ("Hier ist Annas Antwort:" as the
    whole reply, "Sì, Sara! La tua nonna diceva sempre:" — §4, session 47)."""
    from agent.sentences import split

    return "".join(split(text.rstrip())[:-1]) if leads_in(text) else text


# A question that a yes or a no answers ("Is it likely that Nate has friends besides Joanna?", "Do Jon and Gina start
# businesses out of what they love?", 「明日は晴れるかな？」): it opens with no question word (Chinese, Japanese and
# Korean have none anywhere), offers no "A or B", and asks for nothing one remembers, knows or can tell or do ("Do
# you remember what I was nervous about?", "Can you recommend a book?": a bare "Yes." answers nothing there).
_WH = {
    "en": r"what|where|when|who|whom|whose|which|why|how", "de": r"was|wo|wann|wer|wen|wem|welch\w*|warum|wieso|wie",
    "es": r"qué|dónde|cuándo|quién\w*|cuál\w*|cómo|cuánt\w*|que|donde|cuando|quien|cual|como",
    "fr": r"où|quand|qui|quel\w*|pourquoi|comment|combien|quoi|que|qu'", "it": r"cosa|dove|quando|chi|qual\w*|perché|come|quant\w*|che",
    "pt": r"o que|onde|quando|quem|qual|quais|porque|por que|como|quant\w*|que",
}
_ASKS_FOR_CONTENT = {language: re.compile(words, re.I) for language, words in {
    "en": r"\b(?:or(?! no\b)|remember|recall|know|tell|told|talk(?:ed)?|sa(?:y|id)|guess|mention(?:ed)?|(?:can|could|would|will) (?:you|u))\b",
    "de": r"\b(?:oder(?! nicht| nein)|erinnerst|weißt|kannst|könntest|würdest)\b",
    "es": r"\b(?:o(?! no\b)|recuerdas|acuerdas|sabes|puedes|podrías)\b",
    "fr": r"\b(?:ou(?! pas| non)|souviens|rappelles|sais|peux|pourrais)\b",
    "it": r"\b(?:o(?! no\b)|ricordi|sai|puoi|potresti)\b",
    "pt": r"\b(?:ou(?! não)|lembra\w*|sabe|pode|poderia)\b",
    "ja": r"何|なに|なん|どこ|いつ|誰|だれ|どう|どの|どれ|なぜ|どんな|いくつ|いくら|それとも|覚えて|知って|教えて|くれる|もらえる",
    "zh": r"什么|什麼|哪|谁|誰|几|幾|多少|怎么|怎麼|为什么|為什麼|还是|還是|记得|記得|知道|告诉|告訴|能不能|可以",
    "ko": r"뭐|무엇|무슨|어디|언제|누구|누가|왜|어떻게|몇|어느|아니면|기억|알아|알고|줄래|줄 수|주세요",
}.items()}
_OPENS_WITH_WH = {language: re.compile(rf"^\W*(?:(?:and|so|ok|und|also|y|et|e|então)\W+)?(?:{words})\b", re.I)
                  for language, words in _WH.items()}
# What a bare yes is made of, in the nine languages ("Yes.", "Of course!", 「はい。」, "네!")
_YES = frozenset("yes yeah yep yup of course certainly absolutely definitely sí claro oui bien sûr ja natürlich klar"
                 " sim certo sì はい うん ええ 是的 是 对 对的 네 예 응".split())


def asks_yes_or_no(text: str, language: str) -> bool:
    """Whether `text`, in `language`, is a question a bare yes or no answers (none of `_ASKS_FOR_CONTENT`'s words)."""
    content, text = _ASKS_FOR_CONTENT.get(language), unicodedata.normalize("NFKC", text)
    opens_with_wh = _OPENS_WITH_WH.get(language)
    return (content is not None and is_question(text) and not content.search(text)
            and not (opens_with_wh and opens_with_wh.search(text)))


def yes_alone(text: str, names: Sequence[str] = ()) -> str:
    """`text` ended by a full stop if it is nothing but a yes, and names ("Yes" → "Yes.", "Yes, Caroline!", 「はい」 →
    「はい。」), else "": the answer to a yes-or-no question, not a filler — held as one, it was asked for again until
    the model said no (§5, session 48: "Yes." to "Do Jon and Gina start businesses out of what they love?" became
    "No, …"); the reply goes on from it, after its stop ("Yes . It's important…" without one)."""
    words = _WORD.findall(_without_names(text, names))
    if not words or not all(word in _YES for word in words):
        return ""
    said = text.rstrip()
    return said if said.endswith((".", "!", "?", "。", "！", "？", "…", "~")) else said + ("。" if _CJK.search(said) else ".")
