""""Please remember …" told from everything else by its grammar, in nine languages.

A request to keep something is addressed to the persona (imperative, a polite request, "can
you …", "I need you to …"), in the mood of asking, with a verb of keeping (remember, note, write
down, keep in mind, remind me, don't forget; 覚えておいて, メモして, 忘れないで; 记住, 帮我记一下, 别忘了;
기억해 줘, 메모해 둬, 잊지 마; recuerda, apunta, no olvides; souviens-toi, note, n'oublie pas;
merk dir, notier, vergiss nicht; ricordami, segnati, non dimenticare; lembra, anota, não esquece). It is not: the user's own memory ("I remember", 覚えてる, 我记得,
기억나, je me souviens), a question about memory ("Do you remember…?", "Remember when…?", 覚え
てる？), a quote or reported speech ('she told me to remember', 「忘れないで」って言われた), a
negation ("you don't need to remember this"), a hedge ("keep in mind I'm just guessing"), or a
request about someone else ("remind my husband…"). Pure functions of the text.

Latin-script grammars are tried at the start of a clause, after fillers ("oh and", "bitte") and a
form of asking ("could you", "¿puedes", "tu peux", "kannst du"): a subject before the verb makes it
a statement. The CJK grammars (agent/keep_grammar_cjk.py) find the request form itself (te-form +
request ending, 帮我/请 + 记, -해 줘/둬), and then the same vetoes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from agent.keep_forms import KeepRequest, inside_quote as _inside_quote, sentence_before as _sentence_before
from agent.keep_grammar_cjk import chinese_request, declined_in_cjk, japanese_request, korean_request


# --- Latin-script languages -----------------------------------------------------------------
_FUNCTION_WORDS = {
    "en": "the a an to is are my i you that it and of in on me this for your i'm don't can please at with "
          "be was so im",
    "es": "el la los las de que y mi mis es en un una por me te lo se no con para del al tengo soy está "
          "esto eso q",
    "fr": "le la les de des du que et mon ma mes est un une je tu pas ça pour avec c'est j'ai il s'il "
          "qu'il au ne suis nous vous ton ta tes sont",
    "de": "der die das und ist ich du mein meine nicht dass mir dir es ein eine bitte am um zu mit "
          "auf ich's den dem",
    "it": "il lo la gli di che è un una per con mi ti mio mia non sono ho del della al alla ci anche questo "
          "devo domani oggi favore questa quella col delle dei degli nel nella sul sulla dal dalla",
    "pt": "o os as de que é um uma por para com meu minha não eu você do da no na ao isso tenho estou "
          "preciso amanhã hoje favor",
}
_FUNCTION_SETS = {lang: frozenset(words.split()) for lang, words in _FUNCTION_WORDS.items()}
_LETTERS = {"es": re.compile(r"[ñ¿¡]"), "fr": re.compile(r"[çœàèùêâîôûëï]"), "de": re.compile(r"[äöüß]"),
            "pt": re.compile(r"[ãõç]"), "it": re.compile(r"\bè\b|[ìò]")}


def latin_languages(text: str, close: bool = False) -> list[str]:
    """The Latin-script languages a sentence may be in, by its function words and letters: those
    that score best (several on a tie) — or, `close`, every one that scores at least half the best,
    best first (a short request scores little: "Preciso que você lembre que eu calço 41" has one
    clue of French, its ç, against two of Portuguese). ("Note que…" is French, "Note that…" English.)"""
    words = re.findall(r"[a-zà-ÿœ']+", text.lower())
    scores = {lang: sum(w in vocab for w in words) for lang, vocab in _FUNCTION_SETS.items()}
    for lang, letters in _LETTERS.items():
        scores[lang] += 2 * len(letters.findall(text.lower()))
    best = max(scores.values())
    order = ("en", "es", "fr", "de", "it", "pt")
    if close:
        return sorted((lang for lang in order if scores[lang] >= best / 2 and (scores[lang] > 0 or best == 0)),
                      key=lambda lang: -scores[lang])
    return [lang for lang in order if scores[lang] == best]


def latin_language(text: str) -> str:
    """The one language of `latin_languages` ("en" first on a tie)."""
    return latin_languages(text)[0]


@dataclass(frozen=True)
class _Latin:
    language: str
    fillers: re.Pattern  # discourse words a request may open with
    ask: re.Pattern  # forms of asking that lead to the verb ("could you", "¿puedes")
    verb: re.Pattern  # groups: recall (remember-type), keep (note-type), remind (remind me), forget
    link: re.Pattern  # what joins the request to what is kept ("that", ":", "que", "dass")
    after_recall: re.Pattern  # after a remember-type verb: it asks or reminisces ("when", "what")
    hedge: re.Pattern  # commentary, not a fact to keep ("I'm just guessing")
    reported: re.Pattern  # someone else's words ("says", "told me")
    question_ask: re.Pattern  # an "ask" that only wonders ("will you")


_EN = _Latin(
    "en",
    re.compile(r"(?:(?:hey|hi|oh|ah|ok|okay|so|and|also|btw|by the way|anyway|one more thing|just|well|now|"
               r"alright|right|yeah|yes|please|pls|plz|kindly|oh and|and also|either way|anyways?|before i forget|"
               r"just so you know|fyi|new rule|actually|from now on|do me a fav(?:ou?r|or) and|"
               r"bro|dude|mate|buddy|dear friend|dear|friend|hun|sis|yo|ay+|ayo|ugh|omg|lol|hmm|um|umm)[,!:]?\s+)*", re.I),
    re.compile(r"(?:(?:would you mind\s+|(?:would|could|will) (?:you|u) be able to\s+|"
               r"(?<=please )(?:you|u)\s+(?:can\s+|could\s+)?|(?<=please )to\s+|(?:would (?:you|u) )?mind\s+(?=\w+ing\b)|"
               r"(?:can|could|would|will|won't)\s+(?:you|u|ya)\s+(?:to\s+)?(?:please\s+|pls\s+|also\s+|just\s+)*|"
               r"it'?d help(?: (?:a lot|me|so much))? if (?:you|u)\s+|"
               r"(?:i|i'd|id)\s+(?:need|want|like|would like|'d like)\s+you\s+to\s+|i'?d like you to\s+|"
               r"make sure (?:you\s+|to\s+)?|be sure to\s+|try to\s+|"
               r"you (?:should|need to|have to|must|gotta)\s+(?:probably\s+|really\s+|maybe\s+|definitely\s+)?|"
               r"i'?d (?:love|like|appreciate) it if (?:you|u)\s+(?:could\s+|would\s+|can\s+)?|"
               r"(?:are|r) (?:you|u) able to\s+)){1,2}"
               r"(?:please\s+)?", re.I),
    # the verb and its typos (rember, remmeber, rmbr); a past form only after "if you" ("if you kept in mind")
    re.compile(r"(?P<recall>r(?:e?m){1,2}e?be?r+(?:ing)?|rmb|memori[sz](?:e|ing)|(?:(?<=if you )|(?<=if u ))remembered)\b"
               r"|(?P<keep>(?:make|take|keep|making|taking|keeping) a (?:mental )?note|(?:keep|make) a record(?: of)?"
               r"|file (?:(?:this|that|it) )?away|not(?:e|ing)(?:\s+(?:it|this|that))?\s+down|note|noting"
               r"|(?:jot|jotting)(?:\s+(?:it|this|that))?\s+down|(?:write|writing)(?:\s+(?:it|this|that))?\s+down"
               r"|(?:keep|keeping|bear) in mind|(?:keep|bookmark) (?:(?:it|this|that) )?in (?:the back of )?(?:your |ur )?"
               r"(?:mind|memory|head|brain)|keep (?:(?:it|this|that) )?on (?:file|record)|keep(?:ing)? track(?: of)?"
               r"|(?:(?<=if you )|(?<=if u ))(?:kept in mind|noted(?: down)?|saved|stored|wrote down)"
               r"|commit (?:(?:this|that|it) )?to (?:your )?memory|for future reference|for your records"
               r"|(?:(?:just )?so )?(?:you|u) (?:have|got) (?:it|this|that) on (?:file|record)|(?:(?:just )?so )?(?:you|u)(?:'ve| have)? got (?:it|this|that) for (?:later|next time|the future)"
               r"|bookmark (?:this|that|it)"
               r"|(?:(?:just )?so )?(?:you|u) (?:remember|know) (?:(?:it|this|that) )?for (?:next time|later|the future)"
               r"|(?:hold|holding) (?:on ?to|onto) (?:this|that|it|my)\b|(?:hang|hanging) on ?to (?:this|that|it|my)\b"
               r"|(?:sav(?:e|ing)|stor(?:e|ing)|log(?:ging)?|record(?:ing)?)(?=\s+(?:this|that|it|the fact|my|somewhere)\b)"
               r"|keep (?:this|that|it)(?= for (?:later|me|the future))|lock (?:this|that|it) in"
               r"|(?:add|put) (?:(?:this|that|it) )?(?:in|into|to|on) (?:your (?:memory|notes|notepad|list)|what (?:you|u) know))\b"
               r"|(?P<remind>remind (?:me|us))\b"
               r"|(?P<forget>(?:don'?t|do not|never|not) (?:you )?(?:forget|lose track of)|don'?t let (?:me|us) forget)\b", re.I),
    re.compile(r"(?:\s+(?:that|the fact(?: that)?|(?:this|it)(?!['’]|\s+(?:is|was|will|would|might|may|can|could|has|had|"
               r"should|must|does|did|needs|seems|looks|goes|takes|gets)\b)|of this|of that|of|about|for later|for me|"
               r"(?:in|into|to) (?:your|ur) (?:memory|notes|head|brain|mind)|somewhere(?: (?:in|on) (?:that|your|ur) \w+(?: of yours)?)?|"
               r"please|too|as well|ok|okay|one thing)\b)*"
               r"\s*[:,\-—–]?\s*", re.I),
    re.compile(r"(?:when|how|what|where|who|whom|which|why|if|whether|the (?:time|day|night|moment)s?|us"
               r"|this conversation|this chat|everything|anything|all (?:of )?(?:this|that)|any of this)\b"
               r"|me\b(?!\s+\w+(?:'s|s')\s+(?:\w+\s+)?(?:is|are|was|were)\b)", re.I),
    re.compile(r"\b(?:guess(?:ing)?|not sure|unsure|(?:might|could|may) (?:\w+ )?be (?:\w+ )?(?:wrong|mistaken)|"
               r"(?:might|could|may) be misremembering|(?:just|only) (?:my|an?) (?:opinion|impression|guess|feeling|take)|"
               r"i think|probably|maybe|no expert|not an expert|estimate|roughly|i suppose|just saying|it might|"
               r"i'm not certain|(?:grain|pinch) of salt|(?:just|only) (?:asking|curious|wondering)|hypothetical(?:ly)?|"
               r"i'?m no (?!longer\b|more\b)\w+(?=\s*(?:,|but\b|so\b|$)))\b", re.I),
    re.compile(r"\b(?:say|says|said|saying|tell|tells|told|ask|asks|asked|keeps? (?:telling|saying)|wrote|reminds|"
               r"reminded)\b", re.I),
    re.compile(r"^(?:will|won't)\s+(?:you|u|ya)\s+(?!please)", re.I),
)
_ES = _Latin(
    "es",
    re.compile(r"(?:(?:oye|oiga|mira|bueno|y|ah|oh|ey|eh|wey|güey|guey|tío|tía|amigo|amiga|mi niñ[oa]|mi amor|cariño|mij[oa]|corazón|cielo|vale|ok|también|además|por cierto|otra cosa|"
               r"por favor|che|para (?:la próxima(?: vez)?|después|luego|más adelante|el futuro)(?: que \w+)?|hazme un favor y|haz(?:me)? el favor y|así que|asi que|entonces|por eso|pues)[,!]?\s+)*", re.I),
    re.compile(r"(?:¿\s*)?(?:(?:me\s+|te\s+|se\s+)?(?:puedes|podrías|podrias|puede|podría|podés|podes)\s+(?:por favor\s+)?|"
               r"(?:te importa(?:ría)?|(?:me )?(?:haces|harías|harias|hace|haría|haria) el favor de)\s+|"
               r"(?:necesito|quiero|quisiera|me gustaría|me gustaria|te pido|le pido|te ruego|le ruego) que\s+)", re.I),
    re.compile(r"(?P<recall>recuérda(?:lo|la)|recuerda(?:lo|la)|recuerda|recuerde|recuerden|acuérden(?:se|lo)|acuerden(?:se|lo)|recordá|recordad|acuérdate|acuerdate|acordate|acuérdese|recordar|acordarte"
               r"|recuerdes|recordaras|memoriza|memorizar|memorice|memorices|memorícelo|memorízalo"
               r"|(?:te |se )?acord(?:aras|ases|ara|ase|arás)|(?:te |se )acuerd(?:es|e|as)|recuerdas)\b"
               r"|(?P<keep>apúnta(?:lo|la|melo|te)|apunta(?:lo|la|melo)?|apunte|apuntar(?:lo)?|apuntes|anóta(?:lo|la|te|telo)"
               r"|anota(?:lo|la|te|telo)?|registra(?:lo|la)?|registre|registrar(?:lo)?|anote|anotar(?:lo)?|anotes|tom(?:a|e|ar) nota|guárda(?:lo|la|melo)|guarda(?:lo|la)?"
               r"(?=\s+(?:esto|eso|que|q|lo)\b|[,.!]|$)|guardar(?:lo)?|(?:ten|tenga|tener|tengas) en cuenta|graba(?:lo)?"
               r"|guárda(?:te|telo)|guarda(?:te|telo)|qu[ée]da(?:te|se) con (?:est[eoa]|es[eoa])(?: (?:dato|info|información|nombre|número))?|qu[ée]da(?:telo|tela|selo)"
               r"|(?:que )?te qued(?:aras|ases|es) con (?:est[eoa]|es[eoa])|(?:ten|tenga)(?:lo|la)? (?:apuntad|anotad|guardad)[oa]s?"
               r"|guard(?:a|e)(?=\s+(?:el|la|los|las|mi|mis)\s+[^:.!?]{1,40}:)"
               r"|(?:ten|tenga|tener|tengas)(?:lo|la)? presente|tom(?:es|en) nota|(?:dejes|dejaras) (?:guardado|anotado)"
               r"|guárdame|guardame|tenlo en cuenta|tenla en cuenta|téngalo en cuenta|grába(?:te|telo)|graba(?:te|telo)"
               r"|guarde en su memoria|guardes en tu memoria|guárdalo en tu memoria|te quedes con (?:este dato|esto)"
               r"|anotes|apuntes|guardes|anotá(?:lo|la)?|apuntá(?:lo|la)?|guardá(?:lo|la)?|anóta(?:me|melo)|anota(?:me|melo)"
               r"|agénda(?:lo|la|te|telo)|agenda(?:lo|la|te|telo)|agendá(?:lo|la|te)|quéda(?:te|se) con (?:el|la|los|las) \w+"
               r"|(?:me )?(?:lo|la) guard(?:as|ás|arías|arias)|pon(?:lo|la|me)? en (?:tus|tu) (?:notas|lista|memoria|libreta)"
               r"|(?:añáde|añade|agréga|agrega)(?:lo|la)? a (?:tus|tu) (?:notas|lista|memoria|libreta))\b"
               r"|(?P<remind>recuérda(?:me|melo|nos)|recuerda(?:me|melo)|me recuerdas que|recordarme)\b"
               r"|(?P<forget>no (?:te |se |lo |)olvid(?:es|e)|q(?:ue)? no se te olvide|no se te olvide|(?:que )?no se te vaya a olvidar)\b",
               re.I),
    re.compile(r"(?:\s+(?:que|q|de que|de|esto|eso|lo|por favor|también|en (?:tu|tus) \w+)\b)*\s*[:,]?\s*", re.I),
    re.compile(r"(?:cuando|cómo|como|dónde|donde|quién|quien|lo que|la vez|el día|qué)\b", re.I),
    re.compile(r"\b(?:quizá|quizás|tal vez|a lo mejor|puede que|suposición|supongo|me equivoque|equivoco|"
               r"no estoy segur[oa]|creo que|probablemente|yo que tú|yo que tu|si yo fuera tú)\b", re.I),
    re.compile(r"\b(?:dice|decía|decia|dijo|dicen|pidió|pidio|pide|pedía|me dijo|nos dijo|suelta|soltó|solto)\b", re.I),
    re.compile(r"^$"),
)
_FR = _Latin(
    "fr",
    re.compile(r"(?:(?:et|alors|bon|oh|ah|hé|eh|dis donc|dis|donc|(?:é|e)coute(?: bien)?|ok|aussi|au fait|sinon|d'ailleurs|s'il te plaît|"
               r"stp|et au fait|ah et au fait|wesh|bon ben|ben|bah|allez|tiens|coucou|salut|hey|yo|aille|je (?:te|vous) (?:confie|donne|dis|file|passe))[,!]?\s+)*", re.I),
    re.compile(r"(?:(?:est[- ]ce que\s+)?(?:tu peux|tu pourrais|vous pouvez|vous pourriez|tu veux bien|tu voudrais bien)\s+|"
               r"(?:peux|pourrais)-tu\s+|(?:pouvez|pourriez)-vous\s+|j'ai besoin que tu\s+|"
               r"(?:je veux|jveux|j'aimerais|je voudrais|je souhaite|j'aimerais bien) que (?:tu|vous)\s+(?:te\s+|t'|vous\s+)?|"
               r"(?:ça|ca) (?:te|vous) (?:dérangerait|derangerait|dérange|derange) de\s+|"
               r"je vous saurais gré de\s+(?:bien vouloir\s+)?|(?:ce serait|ça serait|ca serait) (?:bien|cool|sympa|top|gentil|super) que (?:tu|vous)\s+(?:te\s+|t'|vous\s+)?|(?:merci de|pense à|pensez à)\s+|"
               r"il faudrait que (?:tu|vous)\s+|tu me\s+(?:l[ea]\s+|l['’]\s*)?(?=retiens|notes|gardes|mémorises|enregistres))"
               r"(?:bien\s+|stp\s+|s'il te plaît\s+)?", re.I),
    re.compile(r"(?P<recall>souviens[- ]toi|souvenez[- ]vous|rapp?ell?e[- ]toi|rappelez[- ]vous|te souvenir|vous souvenir|te rappeler"
               r"|retiens(?:-le|-la)?|retien|retenez(?:-le|-la)?|retenir|retiennes|mémorise(?:-le|-la)?|mémorisez|mémoriser"
               r"|souviennes|rappelles|(?:tu )?te souviens|(?:vous )?vous souvenez|t'en souvenir|vous en souvenir|t'en rappeler)(?![\w-])"
               r"|(?P<keep>note(?:z)?(?:-le|-la)?|noter|notes|pren(?:ds|ez|dre) note|gard(?:e|ez|er|es)(?:-le|-la|-les)? (?:ça |cela |bien )?"
               r"(?:en (?:tête|tete|mémoire|memoire)|à l'esprit|dans (?:un coin de )?(?:ta|votre) (?:tête|tete|mémoire|memoire))"
               r"|mets-(?:toi|vous) (?:ça|cela|bien ça) (?:dans la tête|en tête)|met(?:s|tez) (?:ça |cela )?dans (?:un coin de )?(?:ta|votre) (?:mémoire|memoire|tête|tete)"
               r"|met(?:s|tez)(?:-toi|-vous)? (?:ça|ca|cela|ceci|le|la|les) de côté"
               r"|gard(?:e|ez|er|es) (?:(?:ça|cela|ceci|le|la) )?(?:quelque part|pour (?:plus tard|la prochaine fois|la suite|après)|de côté)"
               r"|(?:(?<=me le )|(?<=me la )|(?<=me l')|(?<=me l’))gardes?|m[ée]mo(?: pour (?:toi|vous))?(?=\s*:)|enregistre(?:z|r)?(?=\s+(?:ça|cela|que|le|ceci)\b|\s*:)|écris(?:-le)?"
               r"|ajoute(?:z)? (?:ça |cela )?(?:à|a) (?:tes|vos) notes|ajoute(?:z)? (?:ça |cela )?(?:à|a) ce que (?:tu sais|vous savez)|(?:(?:un truc|une chose|une info|un détail|un petit truc|une petite info) )?(?:à|a) (?:retenir|noter|garder en (?:tête|tete|mémoire|memoire))"
               r"(?=\s*(?:[:!.]|stp\b|svp\b|s'il\b|$)))(?![\w-])"
               r"|(?P<remind>rappelle-moi|rappelez-moi|me rappeler)(?![\w-])"
               r"|(?P<forget>(?:n'|n)?oubli(?:e|ez) pas)\b", re.I),
    re.compile(r"(?:\s+(?:que\b|qu'|bien\b|ça\b|cela\b|ceci\b|une chose\b|un truc\b|de\b|d'|s'il te plaît\b|stp\b|dans (?:un coin de )?(?:ta|votre) (?:tête|tete|mémoire|memoire)\b|"
               r"s'il vous plaît\b))*"
               r"\s*[:,]?\s*", re.I),
    re.compile(r"(?:quand|comment|où|ce que|ce qu'|qui|si|du jour|de la fois|c'est quoi|qu'est-ce|quel|quelle)\b", re.I),
    re.compile(r"\b(?:pas sûr|pas certain|je crois|je pense|peut-être|me tromper|il me semble|probablement|"
               r"je suppose|je devine)\b", re.I),
    re.compile(r"\b(?:dit|disait|dis|disent|a dit|demandé|demande|demandait|répète|répétait)\b", re.I),
    re.compile(r"^$"),
)
_DE = _Latin(
    "de",
    re.compile(r"(?:(?:und|also|oh|ach|hey|ey|hör mal|ok|okay|übrigens|noch was|ah|na|ja|bitte|deshalb|darum|daher)[,!]?\s+)*", re.I),
    # … and the few small words a German ask puts before its verb ("kannst du dir bitte für später merken";
    # not a noun, which is what is to be kept: "dass du dir meine Lieblingsband merkst")
    re.compile(r"(?:(?:kannst|kanst|kannste|könntest|würdest|magst|möchtest) (?:du )?(?:dir |mir |das |es )*|(?:den|die|das|dies)(?: \w+)? bitte (?=(?:merk|notier|speicher|aufschreib)en\b)|(?:das|dies|es) (?:kannst|darfst|solltest|sollst) du dir |"
               r"(?:können|könnten|würden) Sie (?:sich |mir )?|"
               r"(?:ich (?:möchte|will|brauche|hätte gerne?)|(?:es )?wär(?:e|')? (?:echt |wirklich |total |sehr |so )?(?:lieb|nett|super|toll|schön|cool|gut|klasse|prima|hilfreich)|mir wär'?s recht|"
               r"ich würde mich freuen),? (?:dass|wenn) (?:du|Sie) (?:dir |sich )?|"
               r"ich bitte (?:dich|Sie),?\s+(?:dir |sich )?|chasch(?:t)? (?:du )?(?:dir )?)"
               r"(?-i:(?:(?!nicht\b|nie\b|niemals\b)(?:[a-zäöüß]\S*|Folgendes|(?:(?<=mein )|(?<=meine )|(?<=meinen )|(?<=unser )|(?<=unsere ))[A-ZÄÖÜ]\S*)\s+){0,4}?)(?=(?:merk|speicher|abspeicher|notier|behalt|aufschreib|eintrag)\w*\b)", re.I),
    re.compile(r"(?P<recall>merk(?:e|')? (?:dir|da|euch)|merken Sie sich|merken(?: könntest| würdest)?|merkst"
               r"|merke(?=\s*[,:]|\s+(?:dass|das|des|es|mal|bitte)\b)"
               r"|erinnerst du dich|behalt(?:e|en)?(?: (?:das|es|dies|bitte))* im "
               r"(?:Kopf|Hinterkopf|Gedächtnis)|denk(?:e|t)? (?:dran|daran)|erinner(?:e)? dich(?: \w+){0,3}? (?:dran|daran)|denken Sie daran|dran denken|daran denken)\b"
               r"|(?P<keep>notier(?:e|en|t)?|vermerk(?:e|en|t)?|schreib(?:e|t)?(?: (?:dir|das|es|bitte|mal))* auf|aufschreiben"
               r"|speicher(?: mal| bitte| dir| das| es| ruhig| einfach)* ab|speicher(?:e|n)?(?= (?:das|dir|es|bitte)\b|\s*:)|(?:ab)?speichern|leg(?: dir| das| es| bitte| mal)* ab(?=\s*[:,.!]|$)|halt(?: mal| bitte)* fest"
               r"|trag(?:e|t)?(?: (?:dir|das|es|bitte|mal))* ein|einträgst|eintragen"
               r"|(?:heb|bewahr)(?:e|t)?(?: (?:dir|da|das|des|es|bitte|mal))* auf)\b"
               r"|(?P<remind>erinner(?:e|n)? (?:mich|uns)|erinnern Sie mich)\b"
               r"|(?P<forget>vergiss(?:t)? (?:(?:es|bitte|das|aber) )*(?:nicht|nich|net|ned)|vergessen Sie nicht|nicht vergessen|vergesst nicht)\b", re.I),
    re.compile(r"(?:\s+(?:das|es|dies|bitte|dir|daran|dran|doch|mal|auch|eins|folgendes|ruhig|einfach)\b)*\s*[:,]?\s*", re.I),
    re.compile(r"(?:wie|was|wann|wo|wer|ob|als)\b", re.I),
    re.compile(r"\b(?:vielleicht|glaube|vermute|rate|nicht sicher|irren|wahrscheinlich|schätze|meine ich)\b", re.I),
    re.compile(r"\b(?:sagt|sagte|gesagt|meinte|meint|sagen|gebeten|bat)\b", re.I),
    re.compile(r"^$"),
)
_IT = _Latin(
    "it",
    re.compile(r"(?:(?:ehi|ehm|oh|ah|allora|e|ok|okay|senti|comunque|anche|inoltre|poi|ah già|già|a proposito|"
               r"per favore|per piacere|mi raccomando|cmq|dai|uè|ue|ué|ao|aò|eh|zì|zio|tesoro|amore|fra|raga|ti lascio|ecco|quindi|perciò|percio|dunque)[,!]?\s+)*", re.I),
    re.compile(r"(?:(?:mi\s+)?(?:puoi|potresti|può|potrebbe)\s+(?:per favore\s+)?|(?:mi fai il favore di|ti dispiace)\s+|"
               r"(?:ho bisogno|voglio|vorrei) che (?:tu\s+)?(?:ti\s+)?|(?:una cosa che\s+)?(?:vorrei|voglio) (?:che\s+)?(?:tu\s+)?(?=(?:tenessi|ricordassi|segnassi|annotassi|memorizzassi|salvassi|prendessi)\b)|tu\s+(?=(?:ricorda|segna|annota|memorizza|tieni|salva)(?:ti|telo|lo|la)?\b)|(?:ti|le|vi) chiedo (?:\w+mente\s+|solo\s+|soltanto\s+|per favore\s+)?di\s+|(?:ti|la|vi) prego di\s+|(?:volevo|vorrei|posso) chieder(?:ti|le|vi) (?:\w+mente\s+)?di\s+|ti va di\s+)", re.I),
    re.compile(r"(?P<recall>ricorda(?:ti|telo|tela|tene)?|ricordatevi|ricordate|ricordare(?:ti|telo)?|ricordarti|si ricordi|memorizza(?:re|lo)?"
               r"|ricordi|ricordassi|memorizzi|memorizzassi|tenessi a mente|tenessi presente|segnassi|annotassi|salvassi|prendessi nota"
               r"|tieni(?:lo|melo|telo)? a mente|tenere a mente|tienilo in mente|(?:fissa|metti)(?:ti|telo)(?: bene)? in (?:testa|mente))(?![\w'])"
               r"|(?P<keep>segna(?:ti|telo|tela|lo|la|te)?|mi segni(?=\s+che\b)|segnar(?:e|ti|telo|lo)|annota(?:ti|lo|la)?|annotar(?:e|ti|lo)|prendi nota"
               r"|prendere nota|(?:scrivi(?:lo|la|ti|telo)?|scriver(?:e|ti|telo|lo))(?!\s+a\s)|salva(?:lo|la)?(?=\s+(?:questo|che|il|la|da qualche parte)\b|[,:.!]|$)"
               r"|salva(?:ti|telo|melo)(?=\s+(?:questo|questa|quest'|'?sta|che|il|la)\b|\s*:)|salvar(?:e|lo)|appunta(?:ti|telo|lo|la)?"
               r"|metti(?:ti)? (?:da parte|in memoria)(?=\s+(?:questo|questa|quest'|'?sta)\b)|appuntar(?:e|ti|lo)"
               r"|tieni presente|tenere presente|tienil[oa] presente|tenetelo presente|(?:te|me) l[oa] segni(?=\s*[:,.!]|\s+che\b|$)"
               r"|conserva(?:lo|la|telo)?(?=\s+(?:questo|questa|quest'|che|il|la|l')|\s*:)"
               r"|aggiungi(?:lo|la)? (?:\w+ ){0,2}(?:alle|ai|a) (?:cose che sai|tue note|tuoi appunti|tua memoria)|(?:me |te )?l[oa] tieni(?: tu)?(?: a mente| in memoria)?(?=\s*[?!.,:]|\s+ok\b|$)|tien(?:i|ite)l[oa] in memoria"
               r"|(?:un'info|un'informazione|una cosa|un dato|una nota|un appunto) da (?:ricordare|segnare|salvare|tenere a mente)(?=\s*:))(?![\w'])"
               r"|(?P<remind>ricorda(?:mi|melo|ci)|ricordarmi|ricordarmelo)(?![\w'])"
               r"|(?P<forget>(?:non|nn) (?:te lo |te la |ti )?(?:dimenticare|scordare)|nun te scurd[àa]|(?:non|nn) (?:dimenticarti|scordarti|dimenticartelo|scordartelo))(?![\w'])", re.I),
    re.compile(r"(?:\s+(?:che\b|ke\b|di\b|d'|questo\b|questa cosa\b|'?sta cosa\b|questa info\b|per favore\b|x favore\b|anche\b|bene\b))*\s*[:,]?\s*", re.I),
    # … or it asks to remind someone else ("Ricorda a mio marito di…")
    re.compile(r"(?:quando|come|dove|chi|cosa|che cosa|il giorno|la volta|quella volta|quel giorno|se)\b"
               r"|a\s+(?!me\b|noi\b)\w+(?:\s+\w+)?\s+di\b", re.I),
    re.compile(r"\b(?:forse|credo|penso|potrei sbagliar\w*|non sono sicur[oa]|probabilmente|mi sembra|suppongo|"
               r"magari)\b", re.I),
    re.compile(r"\b(?:dice|diceva|detto|disse|dicono|chiesto|chiede|chiedeva|ripete|ripeteva)\b", re.I),
    re.compile(r"^$"),
)
_PT = _Latin(
    "pt",
    re.compile(r"(?:(?:ei|ô|oi|olá|ola|olha|olhe|bom|e|ah|oh|ok|também|aliás|além disso|por favor|por falar nisso|"
               r"então|ah é|ah, e|mano|mana|amg|miga|véi|vei|cara|querid[oa]|amig[oa]|meu|minha|por isso|pois|fica sabendo|fique sabendo|fica a saber)[,!]?\s+)*", re.I),
    re.compile(r"(?:(?:será que\s+)?(?:você\s+|vc\s+|tu\s+)?(?:pode|podes|poderia|poderias|podia|podias|consegue|consegues)\s+(?:por favor\s+)?(?:me\s+)?|"
               r"(?:preciso|quero|queria|gostaria) que (?:você\s+|vc\s+|tu\s+)?(?:se\s+|te\s+)?|"
               r"(?:queria|quero|gostaria de) pedir(?:-te|-lhe| a você| pra você)? que\s+|(?:me )?faz(?: um)? favor(?:,)?\s+(?:de\s+|e\s+)?"
               r"|importa(?:s-te|-se)? de\s+(?:te\s+|se\s+)?)", re.I),
    re.compile(r"(?P<recall>lembr(?:a|e)-se|lembra-te|se lembre|lembre|lembra|lembrar|lembrasse|lembres|memoriza(?:r)?|memorize|memorizes"
               r"|guard(?:a|e) na (?:memória|cabeça)|guarda aí|guarde aí|tenh(?:a|as) em mente|tem em mente|guard(?:a|e) em mente"
               r"|grav(?:a|e|ar)(?:\s+(?:isso|isto))?(?=\s|[,:.!]|$))(?![\w-])"
               r"|(?P<keep>anot(?:a|e|ar)(?:\s+a[íi])?|apont(?:a|e|ar)(?:\s+a[íi])?|tom(?:a|e|ar|asse|asses) nota"
               r"|fica(?:r)? (?:guardado|anotado|registrado)|deix(?:a|e) (?:anotado|guardado|registrado)|escrev(?:e|a|er)(?:\s+a[íi])?(?!\s+(?:pra|para|pro|ao|à)\s)|salv(?:a|e|ar)(?=\s+(?:isso|isto|que|a|o|a[íi]|esse|este|essa|esta)\b|[,:.!]|$)"
               r"|guard(?:a|e|ar|asse|asses)(?=\s+(?:isso|isto|uma coisa|a[íi]|pra mim|para mim|que)\b|\s+(?:esse|este|essa|esta) (?:info|informação|dado)\b|\s+(?:esse|este|essa|esta) \w+(?= pra mim| para mim| por favor| contigo| com você| com vc|\s*:))"
               r"|registr(?:a|e|ar)|regist(?:a|e|ar)(?=\s+(?:a[íi]|isso|isto|que)\b|\s*:)|(?:registr|regist|anot|guard|apont)(?:asses|asse)"
               r"|(?:bot|põ|ponh|met)(?:a|e)(?:\s+(?:isso|isto))?\s+na (?:memória|memoria|cabeça|mente)"
               r"|(?:(?<=pode )|(?<=podia )|(?<=poderia )|(?<=podes )|(?<=podias ))guardar(?=\s+(?:que|(?:o|a|os|as|meu|minha|meus|minhas)\s+(?!coisas\b|tudo\b)\w+)))(?![\w-])"
               r"|(?P<remind>me lembr(?:a|e|ar)|lembr(?:a|e)-me)(?![\w-])"
               r"|(?P<forget>não (?:se |te )?esque(?:ce|ça|ças)|nao (?:se )?esquece|não vá esquecer)(?![\w-])", re.I),
    re.compile(r"(?:\s+(?:que\b|de\b|disso\b|disto\b|isso\b|isto\b|por favor\b|também\b|aí\b|ai\b|tu\b|você\b|vc\b|(?:na|no|nas|nos) (?:tua|sua|teu|seu) \w+))*"
               r"\s*[:,]?\s*", re.I),
    # … or it asks to remind someone else ("Lembra o meu irmão de trazer…")
    re.compile(r"(?:quando|como|onde|quem|o que|do dia|da vez|daquele|daquela|de quando|dele|dela|se)\b"
               r"|(?:o|a)\s+(?!gente\b)\w+(?:\s+\w+)?\s+de\s+\w+(?:ar|er|ir)\b", re.I),
    re.compile(r"\b(?:talvez|acho que|não tenho certeza|posso estar errad[oa]|provavelmente|suponho|me parece|"
               r"não sei se)\b", re.I),
    re.compile(r"\b(?:disse|diz|dizia|falou|fala|falava|pediu|pede|pedia|mandou)\b", re.I),
    re.compile(r"^$"),
)
LATIN_GRAMMARS = {g.language: g for g in (_EN, _ES, _FR, _DE, _IT, _PT)}
_CLAUSE_START = re.compile(r"(?:[.!?;:,—–…()\[\]\"“”«»„¿¡~]|[^\w\s'’@#&%$€£¥+\-*/=<>|\\^`])+\s*|\s[-–]\s+|\b(?:and|so|but|y|e|pero|mas|ma|così|cosi|então|entao|et|mais|und|aber)\s+"
                           r"|(?<=\w)\s+(?=don'?t let (?:me|us) forget\b)",  # "…is october 9 dont let me forget it"
                           re.I)
# A commentary verb: "keep in mind", "note that" say how to take what follows, as often as they ask to keep it.
_COMMENTARY = re.compile(r"^(?:keep|keeping|bear|note|noting|ten|tenga|tener|tengas|note|notez|gard|denk|behalt"
                         r"|tieni|tenere|lembr)", re.I)


def _latin_forms(text: str) -> Iterator[tuple[KeepRequest, bool]]:
    """Each form of a request at a clause start, sentence by sentence, in each Latin-script language the
    sentence may be in (best first), and whether it is vetoed (a question, a hedge, advice, someone else's words…)."""
    for found in re.finditer(r"[^.!?]+[.!?]*", text):
        start, end = found.span()
        sentence = text[start:end]
        for language in latin_languages(sentence, close=True):
            grammar = LATIN_GRAMMARS[language]
            starts = [start] + [start + m.end() for m in _CLAUSE_START.finditer(sentence)]
            for clause in dict.fromkeys(starts):
                clause += len(text[clause:end]) - len(text[clause:end].lstrip())  # a sentence after another opens with a space
                position = grammar.fillers.match(text, clause, end).end()
                ask = grammar.ask.match(text, position, end)
                verb = grammar.verb.match(text, ask.end() if ask else position, end)
                if verb is None:
                    continue
                kept_from = grammar.link.match(text, verb.end(), end).end()
                if _SUBJECT_AFTER.get(language, _NEVER).match(text, verb.end()):
                    kept_from = max(kept_from, _ASKED_ONE.match(text, verb.end(), end).end())
                rest = text[kept_from:end]
                yield KeepRequest(language, clause, kept_from), _vetoed(grammar, text, clause, verb, ask, rest, sentence)


def _latin_request(text: str) -> KeepRequest | None:
    return next((form for form, vetoed in _latin_forms(text) if not vetoed), None)


def declined_request(text: str) -> bool:
    """Whether the Latin-script grammars read a request's form in `text` and then ruled it out: "Keep in
    mind I might be wrong", "Recuerda que no estás sola", "Do you remember…?". A second reader
    (agent/keep_classifier.py) is not asked about these: the grammar knows why they ask nothing."""
    if _ADDRESSED_TO_SOMEONE.match(text) or any(vetoed for _, vetoed in _latin_forms(text)):
        return True  # "@Lena kannst du dir merken…": asks Lena
    if _TOLD_NOT_ASKED.search(text):
        return True  # "I still remember the smell of my grandad's workshop", "bitte NICHT speichern": nothing asked
    return declined_in_cjk(text)


# The user's own remembering, in the six Latin-script languages: a memory told, not a request; the user's own
# forgetting; a verb of keeping negated
_TOLD_NOT_ASKED = re.compile(
    r"\b(?:i|we)\s+(?:(?:still|really|totally|clearly|vividly|always|just|do|can|will always|'ll always|ll always)\s+)*remember\b"
    r"|\b(?:je|j)\s*(?:me|m['’])\s*(?:souviens|rappelle)\b(?!\s+(?:pas|plus|jamais|jms)\b)|\bjme souviens\b(?!\s+(?:pas|plus|jamais)\b)"
    r"|\bich\s+(?:erinnere|erinner)\s+mich\b(?!\s+nicht\b)|\bich weiß noch\b(?!\s+nicht\b)"
    r"|(?<!no )(?<!nunca )\bme acuerdo\b|\b(?:yo|todavía|todavia|aún|aun|siempre)\s+recuerdo\b"
    r"|(?<!non )(?<!nn )\bmi ricordo\b|\b(?:io|ancora)\s+ricordo\b|\bricordo ancora\b"
    r"|(?<!não )(?<!nao )(?<!nunca )\b(?:eu\s+)?me lembro\b|\beu lembro\b|\b(?:ainda|sempre)\s+lembro\b|\blembro (?:até hoje|ainda|bem)\b"
    # … a task of the user's own to remember ("faudra que je retienne…"), or the user's own forgetting
    r"|\bi\s+(?:need|have|must|should|gotta|got to)\s+(?:to\s+)?remember\b|\bque je (?:retienne|note|me souvienne|me rappelle)\b"
    r"|\bje (?:dois|devrais|vais) (?:retenir|noter|me souvenir|me rappeler)\b|\bich (?:muss|sollte) mir\b[^.!?]{0,30}\bmerken\b"
    r"|\b(?:tengo|debo|necesito) que (?:acordarme|recordar|apuntarme|anotarme)\b|\b(?:devo|dovrei) (?:ricordarmi|segnarmi)\b"
    r"|\b(?:tenho|preciso|devo) (?:que |de )?(?:me )?lembrar\b"
    r"|\bi (?:totally |completely |just )?forgot\b|\bj'ai (?:encore |complètement )?oublié\b|\b(?:me olvidé|se me olvidó)\b"
    r"|\bich hab(?:e)?\b[^.!?]{0,30}\bvergessen\b|\bmi sono (?:\w+ )?(?:scordat|dimenticat)[oa]\b|\b(?:eu )?(?:me )?esqueci\b"
    # … a verb of keeping negated: "bitte NICHT speichern", "don't save this"
    r"|\b(?:don'?t|do not|please don'?t|no need to)\s+(?:save|store|note|write (?:\w+ )?down|record|log)\b|\bnicht\s+(?:speichern|merken|notieren|aufschreiben)\b"
    r"|\bne\s+(?:le\s+|la\s+|l')?(?:note|retiens|enregistre|garde)\s+pas\b|\bno (?:lo |la |me )?(?:guardes|apuntes|anotes|grabes|registres)\b"
    r"|\bnon (?:lo |la )?(?:salvare|segnare|annotare|memorizzare)\b|\bnão (?:precisa )?(?:salva|salvar|anota|anotar|grava|gravar)\b", re.I)


def _vetoed(grammar: _Latin, text: str, clause: int, verb: re.Match, ask: re.Match | None, rest: str,
            sentence: str) -> bool:
    if _inside_quote(text, verb.start()) or _reported(grammar, _sentence_before(text, verb.start())):
        return True
    wonders = ask and (grammar.question_ask.match(ask.group(0))
                       or _IF_WOULD.match(sentence) and ask.group(0).lower().startswith(("would", "würdest", "würden")))
    if wonders:
        return True  # "Will you remember this tomorrow?": it wonders, it does not ask
    recall_like = verb.group("recall") or verb.group("remind")
    if recall_like and grammar.after_recall.match(rest) and not (_holds_object(text, verb, rest) and _TIME_TO_RECALL.match(rest)):
        return True  # "Remember when we…?", "Remind me, what's…", "Do you remember me"
    # "remember X, yeah?" asks whether one does; "X. Remember that, yeah?" asks to keep X
    tags = (_AGREEMENT_TAG,) if verb.group("recall") and _without_tags(rest, (_YEAH_TAG,)).strip() \
        else (_AGREEMENT_TAG, _YEAH_TAG)
    asks_question = (_without_tags(sentence.rstrip(), tags).endswith("?")
                     or text[verb.end():].lstrip().startswith("?"))
    asks_whether_one_does = verb.group("recall") and not _FOR_LATER.match(text, verb.end())
    notes_that = verb.group(0).lower().startswith("merk") and _NOTES_WHAT_CAME.match(text, verb.end()) and clause > 0
    if asks_question and not ask and not _POLITE.search(sentence) and not notes_that and (
            asks_whether_one_does or _QUESTION_CLAUSE.search(rest) or _SUBJECT_AFTER.get(grammar.language, _NEVER).match(text, verb.end())):
        return True  # "Remember that movie?", "…keep in mind that…, would you still…?" ("…, keep track of that for me?" asks)
    if ask and asks_question and _WH_START.match(rest) and not _USERS_SIDE.get(grammar.language, _NEVER).search(rest):
        return True  # "tu peux retenir combien de trucs au max ?": what it can do, nothing to keep
    if _COMMENTARY.match(verb.group(0)) and grammar.hedge.search(rest):
        return True  # "Keep in mind I'm just guessing"
    if not ask and _NOT_ASKED.get(grammar.language, _NEVER).match(verb.group(0)) and not _POLITE_AFTER.match(rest):
        return True  # "Remembering all those names is hard", "Recordar esos días me hace feliz": a subject
    if (verb.group("recall") or verb.group("forget")) and _TO_DO.get(grammar.language, _NEVER).match(rest):
        return True  # "Just remember to pause and take care of yourself": advice to do, not a fact to keep
    if _NEGATED_AFTER.get(grammar.language, _NEVER).match(rest):
        return True
    if _advice(grammar.language, _without_tags(rest, (_AGREEMENT_TAG, _YEAH_TAG))) and not _kept_for(grammar.language, text, verb, rest):
        return True  # "Note that the roads might be icy, so take the bus": a warning with what to do about it
    told_before = _sentence_before(text, clause)
    if _points_back(text, verb) and len(told_before.split()) >= 3 and _advice(grammar.language, told_before):
        return True  # "Ánimo, que tú puedes con todo, no lo olvides nunca": what is pointed back at is advice
    if (_CONTINUES_CLAUSE.search(text[max(0, clause - 40):clause]) and not _POLITE.match(text, clause)
            and not _points_back(text, verb)):
        return True  # "…to find a little peace and remember life's beauty": a verb the clause before goes on with
    if _in_the_listeners_case(grammar.language, _sentence_before(text, ask.start() if ask else verb.start())):
        return True  # "If you ever feel lonely, remember: I'm here": what to do in the listener's case
    if _NAMED_ADVICE.search(text, max(0, clause - 30), clause):
        return True  # "Un consejo: apunta siempre las ideas…", "Pro tip: write it down": advice, named so
    return False


_NAMED_ADVICE = re.compile(r"\b(?:tip|advice|piece of advice|conseil|consejo|tipp|rat|ratschlag|consiglio|dica)\s*[:：]\s*$", re.I)
# "…so remember that, no point asking me about mornings": the kept fact is the one before the verb
_POINTS_BACK = re.compile(r"\s+(?:that|this|it|das|dies|esto|eso|ça|cela|questo|isso|isto)\b(?:\s+(?:for next time|for later|fürs nächste mal|"
                          r"für später|pour la prochaine fois|para la próxima|per la prossima volta|pra próxima))?\s*(?:[,.!;:?]|$)", re.I)
# A condition about the listener before the request ("Falls du je nach Köln fährst, merk dir eins: …") —
# unless it is the kind "if you can" of asking, or the condition is the user's ("when you see me next").
_LISTENERS_CASE = {
    "en": re.compile(r"\b(?:if|when(?:ever)?|in case)\s+(?:\w+\s+){0,2}?(?:you|u)\b", re.I),
    "de": re.compile(r"\b(?:wenn|falls|sobald)\s+(?:\w+\s+){0,2}?(?:du|Sie)\b", re.I),
    "es": re.compile(r"\b(?:si|cuando)\s+(?:\w+\s+){0,3}?(?:te|tú|tu|usted)\b", re.I),
    "fr": re.compile(r"\b(?:si|quand|lorsque)\s+(?:\w+\s+){0,2}?(?:(?:tu|vous)\b|t['’])|\b(?:si|quand|lorsqu)\s*'\s*(?:\w+\s+){0,2}?(?:tu|vous)\b", re.I),
    "it": re.compile(r"\b(?:se|quando)\s+(?:\w+\s+){0,2}?(?:tu|ti|te)\b", re.I),
    "pt": re.compile(r"\b(?:se|quando|caso)\s+(?:\w+\s+){0,2}?(?:você|vc|tu|te)\b", re.I),
}
_KIND_CONDITION = re.compile(r"\s+(?:can|could|don'?t mind|want|like|have a|get a|kannst|magst|willst|möchtest|puedes|quieres|importa"
                             r"|peux|veux|pouvez|voulez|puoi|va|vuoi|riesci|pode|puder|quiser|podes|puderes|importas?)\b", re.I)


def _in_the_listeners_case(language: str, before: str) -> bool:
    conditions = list(_LISTENERS_CASE.get(language, _NEVER).finditer(before))
    found = conditions[-1] if conditions else None  # the condition nearest the verb
    if not found or not before[found.end():].strip() or _USERS_SIDE[language].search(before, found.start()) \
            or _NOT_KNOWING.search(before, 0, found.start()):
        return False  # ("…if you kept in mind that…" is the ask itself)
    kind = _KIND_CONDITION.match(before, found.end())  # "if you want," asks kindly; "if you want to pass…" is a case
    return not (kind and _KIND_ALONE.match(before, kind.end()))


_NOT_KNOWING = re.compile(r"(?:no s[ée]|nose|ni idea|sais pas|sais plus|não sei|nao sei|non so|not sure|don'?t know|dunno|idk|wonder)\s*$", re.I)
_KIND_ALONE = re.compile(r"[\s,]*(?:(?:bien|ruhig|mal|please|por favor|per favore)\b[\s,]*)?$", re.I)


def _reported(grammar: _Latin, before: str) -> bool:
    """Someone's words before the request ("She told me: remember…"); the user's own "I said" of
    something earlier ("that thing I said earlier - save that") points at the fact, not at a quote."""
    for said in grammar.reported.finditer(before):
        a_call = not before[:said.start()].strip() and _A_CALL.match(before, said.end())  # "Dis, …", "Say, …", "Dis donc …"
        users_own = _USERS_OWN_WORDS.search(before, 0, said.start()) and not _TOLD_SOMEONE.match(before, said.end())
        if not (a_call or users_own):
            return True
    return False


_USERS_OWN_WORDS = re.compile(r"\bi\s+$", re.I)
_A_CALL = re.compile(r",|\s+(?:donc|voir)\b", re.I)
_TOLD_SOMEONE = re.compile(r"\s+(?:to|him|her|them|my|his)\b", re.I)


# After a remember/forget verb, "to" + a verb: what to do, not what to keep ("Remember to breathe",
# "Don't forget to prepare emotionally") — unless what to do is telling or asking the user.
_TO_DO = {"en": re.compile(r"^\s*to\s+(?!(?:remind|tell|ask|wake|call|text|message|check (?:on|in with)) (?:me|us)\b)\w+", re.I)}
# "…, ok?", "keep track of this for me yeah?": a tag that asks for agreement, not a question about what
# comes before it ("remember that film, right?" and "remember that film, yeah?" ask whether one does)
_AGREEMENT_TAG = re.compile(r"(?:^|[\s,]+)¿?(?:ok|okay|k|alright|pls|please|plz|got it|(?:would|will|could|can) (?:you|u)"
                            r"|ok là|tá bem|ta bem|tá bom|ta bom|está bem|tudo bem|de acuerdo|va bien|einverstanden|alles klar"
                            r"|tá|ta|né|vale|sí|hein|d'accord|d'acc|gell|gelle|ja|va bene|capito|okey)\s*[?？]+\s*$", re.I)
_YEAH_TAG = re.compile(r"(?:^|[\s,]+)(?:yeah|ya|yea)\s*\?+\s*$", re.I)


# "…, remember that for me?" asks to keep; "…, remember that?" asks whether one does
_FOR_LATER = re.compile(r"(?:\s+(?:that|this|it))?\s+for (?:me|later|the future)\b", re.I)
_SUBJECT_AFTER = {"de": re.compile(r"\s+(?:du|Sie|ihr)\b")}  # a German verb first, its subject after: a question
# "…ich kann ihn nicht leiden. Merkst du dir das?": noting what was just told asks to keep it ("Erinnerst du dich daran?" wonders)
_NOTES_WHAT_CAME = re.compile(r"\s+(?:du|Sie)\s+(?:dir|sich)\s+(?:das|dies|es)(?:\s+(?:bitte|mal|auch|doch))*\s*\?")
_WH_START = re.compile(r"\s*(?:how|what|where|who|when|which|why|combien|comment|pourquoi|quand|où|qui|quel(?:le)?s?|cuánt\w*|cómo"
                       r"|qué|dónde|quién|cuándo|quant\w*|come|cosa|dove|chi|quando|wie|was|wo|wer|wann|welch\w*|o que|onde"
                       r"|quem)\b", re.I)
# "Merkst du dir das bitte?": the one asked and the particles are the request's, not what is kept (nor advice to them)
_ASKED_ONE = re.compile(r"\s+(?:du|sie|ihr)(?:\s+(?:dir|dich|sich|euch))?(?:\s+(?:das|dies|es|bitte|mal|doch|auch|noch|eben)\b)*"
                        r"[\s,:]*(?:dass\b\s*)?", re.I)
_IF_WOULD = re.compile(r"\s*(?:if|falls|wenn)\b", re.I)  # "If I told you a secret, would you remember it?" wonders
_QUESTION_CLAUSE = re.compile(r"[,;]\s*(?:would|will|do|does|did|can|could|should|is|are|was|were|what|how|why|where|when|"
                              r"who|which)\b[^,;]*\?+\s*$", re.I)


def _without_tags(sentence: str, tags: tuple[re.Pattern, ...]) -> str:
    for tag in tags:
        sentence = tag.sub("", sentence)
    return sentence


# A word of asking kindly: "…mix this up so please remember…" asks again, and so does a question with one
# ("Merkst du dir das bitte?", "¿Te acuerdas de esto, por favor?")
_POLITE = re.compile(r"\b(?:please|pls|plz|bitte|por favor|porfa|porfi|per favore|perfavore|s'il (?:te|vous) pla[iî]t|stp|svp"
                     r"|pfv|pf|so (?:lieb|nett)|sii gentile|sé (?:tan )?amable|sois gentil(?:le)?|seja (?:tão )?gentil)\b", re.I)
# What is "kept" is advice to the listener, not a fact of the user's, when no one of the user's side is in
# it (no I, my, we): in English, it goes on with "so" and an imperative ("…, so take the bus"; "so you
# know" and "so no running" do not), it speaks of the listener ("write down your goals", "you can
# always…"), of everyone ("everyone learns at their own pace") or of something in the world that might
# come about ("prices may vary", "it's going to be hot"); in German and French, it speaks of the
# listener ("Merk dir eins: du bist stärker als du denkst", "…arrête de te prendre la tête").
_NOT_AN_IMPERATIVE = (r"(?:i|i'm|i'll|i've|i'd|im|ill|you|you're|you'll|we|we're|we'll|he|she|it|it's|they|"
                      r"there|that|this|my|your|our|his|her|their|the|a|an|no|not|nothing|everyone|someone|"
                      r"if|when|then|too|much|many|far|long|maybe)\b")
_ADVICE = {
    "en": re.compile(
        rf"(?:,\s*|\s)so\s+(?!{_NOT_AN_IMPERATIVE})(?:please\s+|just\s+)?[a-z]+\b(?!['’])"
        r"|\byou(?:r|rs|rself|['’](?:re|ll|ve|d))?\b"
        r"|^\s*(?:everyone|everybody|nobody|no one|people|things|life)\b"
        r"|^\s*(?:it|there|(?:the\s+)?(?-i:[a-z]+s))(?:['’]s|\s+(?:is|are))?\s+(?:might|may|could|going to|likely to)\b",
        re.I),
    "de": re.compile(r"\b(?:du|dich|dir|dein\w*|im leben|man (?:muss|sollte|darf))\b"
                     r"|^\s*(?:(?:vielleicht|lieber|besser|am besten)\s+)?(?:(?:bei|im|in|am|an|auf|mit|ohne|nach|vor)\s+\S+\s+){0,2}(?:nie|niemals|immer)\s+(?:\S+\s+){0,4}\w+en\b", re.I),
    "fr": re.compile(r"\b(?:tu|te|toi|ton|ta|tes|dans la vie|il faut|faut|on doit)\b|\bt'", re.I),
    "es": re.compile(r"\b(?:tú|tu|tus|estás|eres|tienes|puedes|vales|mereces|en la vida|hay que)\b", re.I),
    "it": re.compile(r"\b(?:tu|tuo|tua|tuoi|sei|hai|puoi|vali|meriti|nella vita|bisogna)\b", re.I),
    "pt": re.compile(r"\b(?:tu|você|vc|teu|tua|estás|és|podes|mereces|na vida|é preciso)\b", re.I),
}
_USERS_SIDE = {
    "en": re.compile(r"\b(?:i|i'm|i've|i'll|i'd|im|me|my|mine|myself|we|we're|we've|we'll|our|us)\b", re.I),
    "de": re.compile(r"\b(?:ich|mich|mir|mein\w*|wir|uns|unser\w*)\b", re.I),
    "fr": re.compile(r"\b(?:je|jsuis|me|moi|mon|ma|mes|nous|notre|nos)\b|\b[jm]'", re.I),
    "es": re.compile(r"\b(?:yo|me|mí|mi|mis|conmigo|nosotr[oa]s|nuestr\w*|soy|estoy|tengo)\b", re.I),
    "it": re.compile(r"\b(?:io|mi|me|mio|mia|miei|mie|noi|nostr\w*|ho)\b", re.I),
    "pt": re.compile(r"\b(?:eu|me|mim|meu|minha|meus|minhas|nós|nosso|nossa|a gente|tenho|estou|sou)\b", re.I),
}
# What the listener may do is never a fact to keep, whoever else is in it ("…you're allowed to disagree with me")
_LISTENER_MAY = {
    "en": re.compile(r"\s*you(?:['’]re| are)?\s+(?:allowed|don't have to|do not have to|needn't|deserve)\b", re.I),
    "fr": re.compile(r"\s*(?:tu n'as pas besoin|tu n'es pas obligée?|tu as le droit|tu mérites|tu peux toujours)\b", re.I),
    "de": re.compile(r"\s*(?:du musst nicht|du darfst|du brauchst (?:nicht|kein)|du verdienst|du hast es verdient)\b", re.I),
    "it": re.compile(r"\s*(?:che\s+)?(?:anche\s+)?(?:tu\s+)?(?:vali|meriti|non sei sol[oa]|puoi sempre|non devi)\b", re.I),
    "es": re.compile(r"\s*(?:que\s+)?(?:tú\s+|tu\s+)?(?:también\s+)?(?:vales|mereces|no estás sol[oa]|siempre puedes|no tienes que)\b", re.I),
    "pt": re.compile(r"\s*(?:que\s+)?(?:você\s+|vc\s+|tu\s+)?(?:também\s+)?(?:vale|vales|merece|mereces|não está sozinh[oa]|não estás sozinh[oa]|"
                     r"pode sempre|não precisa)\b", re.I),
}
# a negation after the verb and its object: "Bitte speicher das nicht"
_NEGATED_AFTER = {"de": re.compile(r"\s*(?:nicht|nie|bloß nicht|lieber nicht)\b", re.I)}


# What the keeping is for, after the user's own fact: "I'm gluten free, keep that in mind so you stop suggesting pasta".
_PURPOSE = re.compile(r"\s*(?:so(?: that)?|damit|sodass|para que|pra que|pour que|afin que|perch[eé]|cos[iì] (?:non|la prossima)"
                      r")\s", re.I)


# "Remember it when we talk about the weather", "ricordatelo quando parliamo di meteo": with its object said, a
# "when" says when to recall it; "Remember when we…?" asks about a time gone by.
_TIME_TO_RECALL = re.compile(r"\s*(?:when|whenever|next time|cuando|quand|lorsque|wenn|quando|da próxima vez)\b", re.I)
_OBJECT_CLITIC = re.compile(r"(?:lo|la|le|li|los|las|melo|mela|telo|tela|selo|sela)$", re.I)


def _holds_object(text: str, verb: re.Match, rest: str) -> bool:
    """Whether the request's verb has its object before `rest`: a word between them, or a clitic on the verb."""
    between = text[verb.end():text.find(rest, verb.end()) if rest else len(text)]
    said = re.sub(r"\b(?:that|que|dass|che)\b", " ", between, flags=re.I)  # a "that" opens what is kept
    return bool(re.search(r"\w", said)) or bool(_OBJECT_CLITIC.search(verb.group(0)))


def _kept_for(language: str, text: str, verb: re.Match, rest: str) -> bool:
    for_when = _TIME_TO_RECALL.match(rest) and _holds_object(text, verb, rest)  # "…, keep that in mind whenever you…"
    return bool(_PURPOSE.match(rest) or for_when or _points_back(text, verb)) and bool(_USERS_SIDE.get(language, _NEVER).search(text, 0, verb.start()))


def _points_back(text: str, verb: re.Match) -> bool:
    """The verb's object is the fact told before it: "remember that,", "Retiens-le", "te lo tieni"."""
    return bool(_POINTS_BACK.match(text, verb.end()) or re.search(r"(?:-le|-la|lo|la|telo|tela|melo)$", verb.group(0), re.I)
                or re.search(r"\s(?:that|this|it|das|dies|ça|cela|lo|la)\s", verb.group(0), re.I)
                or re.match(r"(?:te|me) l[oa] ", verb.group(0), re.I))


def _advice(language: str, rest: str) -> bool:
    if _LISTENER_MAY.get(language, _NEVER).match(rest):
        return True
    return bool(_ADVICE.get(language, _NEVER).search(rest)) and not _USERS_SIDE.get(language, _NEVER).search(rest)


# A clause opened by a bare "and"/"so" with no punctuation before it continues the one before ("energize
# us and remind us…"); after a comma, a stop or at the start of a message, "and" opens a request ("Oh
# and remember…", "Thanks, and remember…").
_CONTINUES_CLAUSE = re.compile(r"(?:^|\s)(?!(?:oh|ah|ok|okay|yes|yeah|hey|lieb|nett|gentile|amable|gentil|gentille|kind"
                               r"|listen|ascolta|senti|escucha|écoute|ecoute|hör|olha|ouve|bene|bbuono|bien|gut|carefully)\s)[A-Za-z'’]+\s+(?:and|so|y|e|et|und)\s+$", re.I)


# A verb that opens a clause as its subject, not as a request: a gerund or an infinitive with no
# form of asking before it ("Could you keep noting…" asks; "Noting things down is my habit" tells).
_NOT_ASKED = {
    "en": re.compile(r"\w+ing\b", re.I),
    "es": re.compile(r"\w+(?:ar|er|ir)(?:lo|la|los|las|te|me)?\b", re.I),
    "fr": re.compile(r"(?:retenir|noter|mémoriser|memoriser|se souvenir|oublier)\b", re.I),
    # … and a subjunctive that only follows a form of asking ("Vorrei che ti ricordassi…")
    "it": re.compile(r"\w+(?:are|ere|ire)\b|ricordi\b|\w+(?:assi|essi)\b|memorizzi\b", re.I),
    "pt": re.compile(r"\w+(?:ar|er|ir)\b|lembrasse\b|lembres\b|memorizes\b", re.I),
}
_NEVER = re.compile(r"(?!)")  # German: "Bitte merken!" and "Merken Sie sich…" ask with an infinitive
_POLITE_AFTER = re.compile(r"\s*(?:usted|vous)\b", re.I)


_ADDRESSED_TO_SOMEONE = re.compile(r"\s*@\S")


def find_request(text: str) -> KeepRequest | None:
    """The request to keep something in `text` (the first one), or None; a message that opens by
    @-naming someone ("@小李 记得…") asks them, not the persona."""
    if _ADDRESSED_TO_SOMEONE.match(text):
        return None
    found = [r for r in (_latin_request(text), japanese_request(text), chinese_request(text),
                         korean_request(text)) if r is not None]
    return min(found, key=lambda r: r.start) if found else None
