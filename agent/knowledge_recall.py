"""Whether an uploaded document's chunk joins automatic recall, and how it is shown.

Pure: the caller (persona/knowledge_recall.py) searches the knowledge base and passes in the
best hits' absolute signals, the query's words, a token counter and the room it has. The chunk's
text is quoted data, labelled with its document's name (`(from manual.pdf) …`), with reply tags
neutralised (`strip_user_tags`, as the knowledge tool's `as_data`), never an instruction.
"""
from __future__ import annotations

import re
from typing import Callable, Sequence

import constants
from agent.prompt_builder import fit_to_budget
from agent.reply_tags import strip_user_tags
from agent.sentences import split as sentence_split
from agent.retrieval import RetrievedItem

CountTokens = Callable[[str], int]
ELLIPSIS = "…"
_HEADING = re.compile(r"^#+\s*")


def chunk_is_relevant(cosine: float, bm25: float) -> bool:
    """The knowledge-recall gate, on a chunk's absolute signals: its dense cosine to the message,
    and its raw BM25 for the message's words (constants: KNOWLEDGE_RECALL_*, calibrated on the
    doc-QA set)."""
    if cosine >= constants.KNOWLEDGE_RECALL_MIN_COSINE:
        return True
    return cosine >= constants.KNOWLEDGE_RECALL_SUPPORTED_COSINE and bm25 >= constants.KNOWLEDGE_RECALL_MIN_BM25


def sentences(text: str) -> list[str]:
    """The chunk's sentences and lines, headings without their '#' marks."""
    parts = (_HEADING.sub("", part.strip()) for part in sentence_split(text))
    return [part for part in parts if part]


def _needles(term: str) -> list[str]:
    """What marks a query word in a sentence: a latin word without its ending ('lubricated' →
    'lubricat'), a Japanese run as its character pairs ('最大何日' → '最大', '大何', '何日': the
    run holds the question word, the document the number)."""
    term = term.lower()
    if term.isascii():
        for ending in ("ing", "ed", "es", "s"):
            if term.endswith(ending) and len(term) - len(ending) >= 4:
                return [term[: -len(ending)]]
        return [term]
    return [term[i:i + 2] for i in range(len(term) - 1)] if len(term) > 2 else [term]


def _term_weights(parts: Sequence[str], terms: Sequence[str]) -> dict[str, float]:
    """A query word found in fewer sentences says more about which sentence answers: the topic
    ('Kestrel K7', '防災訓練') is everywhere, the asked-for thing ('everyday', '集合場所') once."""
    lowered = [p.lower() for p in parts]
    weights: dict[str, float] = {}
    for term in dict.fromkeys(t for t in terms if t.strip()):
        needles = _needles(term)
        for needle in needles:  # a word split in pairs weighs as much as one word
            found = sum(needle in p for p in lowered)
            if found:
                weights[needle] = weights.get(needle, 0.0) + 1.0 / (found * len(needles))
    return weights


def _grown(parts: Sequence[str], best: int, room: int, count: CountTokens) -> str:
    """Sentence `best` with its neighbours, the next one first, while they fit `room` tokens."""
    chosen = fit_to_budget(parts[best], room, count, ELLIPSIS)
    if chosen != parts[best]:
        return chosen
    first, last, grown = best, best, True
    while grown:
        grown = False
        for first_, last_ in ((first, last + 1), (first - 1, last)):
            if 0 <= first_ and last_ < len(parts):
                candidate = " ".join(parts[first_:last_ + 1])
                if count(candidate) <= room:
                    first, last, chosen, grown = first_, last_, candidate, True
                    break
    return chosen


def best_passage(chunks: Sequence[str], terms: Sequence[str], room: int, count: CountTokens) -> tuple[int, str]:
    """Which chunk to show and what of it fits `room` tokens: the chunk holding the sentence with
    the most (and rarest) query words, ties going to the better-ranked chunk; all of it if it fits,
    else that sentence grown with its neighbours. (-1, '') when nothing fits."""
    split = [sentences(text) for text in chunks]
    if room <= 0 or not any(split):
        return -1, ""
    weights = _term_weights([s for parts in split for s in parts], terms)
    scored = [(sum(w for t, w in weights.items() if t in s.lower()), -c, -i)
              for c, parts in enumerate(split) for i, s in enumerate(parts)]
    _, chunk, sentence = max(scored)
    parts = split[-chunk]
    whole = " ".join(parts)
    text = whole if count(whole) <= room else _grown(parts, -sentence, room, count)
    return (-chunk, text) if text else (-1, "")


def excerpt(text: str, terms: Sequence[str], room: int, count: CountTokens) -> str:
    """The part of one chunk that fits `room` tokens (`best_passage` over that chunk alone)."""
    return best_passage([text], terms, room, count)[1]


def label(document: str) -> str:
    return f"(from {document}) "


def knowledge_item(document: str, chunk: int, text: str, terms: Sequence[str], room: int, count: CountTokens,
                   why: str, score: float) -> RetrievedItem | None:
    """The recalled item for one chunk, labelled, within `room` tokens as a prompt line ('- ' + text);
    None when not even a few words of it would fit."""
    return best_item([(document, chunk, text, why, score)], terms, room, count)


def best_item(hits: Sequence[tuple[str, int, str, str, float]], terms: Sequence[str], room: int,
              count: CountTokens) -> RetrievedItem | None:
    """The one recalled item for the relevant hits (document, chunk number, text, why, score), best
    ranked first: the chunk `best_passage` picks, labelled with its document, as data (reply tags
    neutralised), within `room` tokens as a prompt line ('- ' + text); None if nothing fits."""
    if not hits:
        return None
    rooms = [room - count("- " + label(document)) for document, *_ in hits]
    # One room for all: the longest label's (names differ by a few tokens at most).
    which, body = best_passage([strip_user_tags(text) for _, _, text, _, _ in hits], terms, min(rooms), count)
    if which < 0:
        return None
    document, chunk, _, why, score = hits[which]
    return RetrievedItem(label(document) + body, f"knowledge/{document} #{chunk}", score, why)


def combine(knowledge: Sequence[RetrievedItem], memories: Sequence[RetrievedItem], room: int,
            count: CountTokens) -> tuple[RetrievedItem, ...]:
    """Document excerpts first (they passed the relevance gate), then the memories that still fit
    whole in the room, so the prompt's budget never cuts an excerpt short. Without excerpts the
    memories are left as they were (the prompt builder fits them as before)."""
    if not knowledge:
        return tuple(memories)
    kept = list(knowledge)
    used = sum(count(f"- {item.text}") + 1 for item in kept)
    for item in memories:
        cost = count(f"- {item.text}") + 1
        if used + cost <= room:
            kept.append(item)
            used += cost
    return tuple(kept)
