"""Automatic recall that also consults the persona's knowledge base (issue 12, item 5).

A `Searcher` around the memory searcher: when the persona has documents, the message is looked
up in them too, and the chunks that pass `agent.knowledge_recall.chunk_is_relevant` join the
recalled items ahead of the memories, labelled with their document, within the room the prompt's
dynamic section has for recalled items.
"""
from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime
from typing import Callable

import constants
from agent.knowledge_recall import CountTokens, best_item, chunk_is_relevant, combine, knowledge_item
from agent.retrieval import RetrievalResult, Searcher
from managers.documents import query_terms
from managers.embeddings import EmbedderUnavailable
from managers.knowledge import KnowledgeBase, KnowledgeHit

log = logging.getLogger(__name__)


def recall_room(budget_family: str) -> int:
    """Tokens the recalled items may take: the dynamic budget less what comes before them."""
    return constants.PROMPT_BUDGETS[budget_family]["dynamic"] - constants.KNOWLEDGE_DYNAMIC_RESERVE_TOKENS


def _why(hit: KnowledgeHit) -> str:
    return f"document · cosine {hit.dense:.2f} · bm25 {hit.lexical:.1f}"


class KnowledgeRecall:
    def __init__(self, memories: Searcher, knowledge: Callable[[], KnowledgeBase], count_tokens: CountTokens,
                 room: int, max_chunks: int):
        self.memories = memories
        self.knowledge = knowledge
        self.count = count_tokens
        self.room = room
        self.max_chunks = max_chunks

    def relevant_hits(self, message: str) -> list[KnowledgeHit]:
        """The knowledge base's best hits for the message if one passes the gate (none without documents)."""
        knowledge = self.knowledge()
        if not knowledge.has_documents():
            return []
        try:
            hits = knowledge.search(message, constants.KNOWLEDGE_RECALL_CANDIDATES)
        except EmbedderUnavailable as exc:
            log.warning("Knowledge base left out of recall: %s", exc)
            return []
        # The gate says whether the message is about the documents at all; then the passage is
        # picked from the best few hits, relevant or not (the best sentence may be in the second).
        if not any(chunk_is_relevant(h.dense, h.lexical) for h in hits):
            return []
        return hits[: constants.KNOWLEDGE_RECALL_PASSAGE_CHUNKS]

    def __call__(self, message: str, now: datetime) -> RetrievalResult:
        result = self.memories(message, now)
        hits = self.relevant_hits(message)
        if not hits:
            return result
        terms = query_terms(message)
        first = best_item([(h.document, h.chunk, h.text, _why(h), h.score) for h in hits], terms, self.room,
                          self.count)
        if first is None:
            return result
        items, left = [first], self.room - self.count(f"- {first.text}") - 1
        for hit in hits:  # more chunks where the budget has room for them (remote models)
            if len(items) >= self.max_chunks:
                break
            if f"knowledge/{hit.document} #{hit.chunk}" == first.source:
                continue
            item = knowledge_item(hit.document, hit.chunk, hit.text, terms, left, self.count, _why(hit), hit.score)
            if item is None:
                break
            items.append(item)
            left -= self.count(f"- {item.text}") + 1
        return replace(result, items=combine(items, result.items, self.room, self.count))
