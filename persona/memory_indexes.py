"""Each persona's memory index (memory.db + FAISS) and knowledge base, opened on first use, and the
recall a turn searches them with; the facade (persona/service.py) offers them to the UI.

One embedder serves every index (models are big), and one connection to memory.db per persona:
the knowledge base shares the indexer's.
"""
from __future__ import annotations

import functools
import logging
import random
import threading
from contextlib import ExitStack
from datetime import datetime
from typing import Callable

import constants
from agent.providers.base import ChatModel
from agent.retrieval import Searcher
from managers.embeddings import EmbedderUnavailable, beside_embedder
from managers.memory_db import StoreClosed
from managers.personas import PersonaError, PersonaManager
from persona.session import CharacterSession

log = logging.getLogger(__name__)


class MemoryIndexes:
    def __init__(self, personas: PersonaManager, embedder_kind: Callable[[], str], clock: Callable[[], datetime],
                 wait_while_replying: Callable[[], None], create_embedder: Callable[[str], object] | None = None):
        """`embedder_kind`: Settings' embedder, read when it is first needed; `wait_while_replying`:
        indexing yields the CPU to a reply being generated (2 cores are shared); `create_embedder`:
        makes the embedder of a kind (managers/embeddings.py's by default)."""
        self._personas = personas
        self._embedder_kind = embedder_kind
        self._clock = clock
        self._wait_while_replying = wait_while_replying
        self._create_embedder = create_embedder
        self._embedder = None
        self._embedder_lock = threading.Lock()
        self._indexers: dict[str, object] = {}
        self._knowledge: dict[str, object] = {}
        self._open_lock = threading.RLock()  # one indexer / knowledge base per persona
        self.status: dict[str, str] = {}  # per persona: the last indexing run, as the page shows it
        self._keep_reader = None  # (the embedder, the second reader of "please remember" made for it)

    def embedder(self):
        """The embedder every index of this app uses (one instance: models are big)."""
        with self._embedder_lock:
            if self._embedder is None:
                if self._create_embedder is None:
                    from managers.embeddings import create_embedder

                    self._create_embedder = create_embedder
                self._embedder = self._create_embedder(self._embedder_kind())
            return self._embedder

    def memory_index(self, persona: str):
        """The persona's memory indexer (memory.db + FAISS), opened on first use."""
        from managers.rag import MemoryIndexer

        character = self._personas.get(persona)
        with self._open_lock:
            if character.name not in self._indexers:
                self._indexers[character.name] = MemoryIndexer(character.root, self.embedder(), clock=self._clock)
            return self._indexers[character.name]

    def is_open(self, persona: str) -> bool:
        return persona in self._indexers

    def knowledge(self, persona: str):
        """The persona's knowledge base (uploaded documents), opened on first use."""
        from managers.knowledge import KnowledgeBase

        character = self._personas.get(persona)
        db = self.memory_index(character.name).db  # one connection to memory.db per persona
        with self._open_lock:
            if character.name not in self._knowledge:
                self._knowledge[character.name] = KnowledgeBase(character.root, self.embedder(), db=db)
            return self._knowledge[character.name]

    def update(self, persona: str, rebuild: bool = False, progress=None):
        """Index what is new in the persona's logs (or rebuild from scratch), reporting progress."""
        indexer = self.memory_index(persona)
        report_to = progress

        def progress(message: str, fraction: float) -> None:
            self.status[persona] = f"{message} ({fraction:.0%})"
            if report_to is not None:
                report_to(message, fraction)

        report = (indexer.rebuild(progress, self._wait_while_replying) if rebuild
                  else indexer.update(progress, self._wait_while_replying))
        held = len(indexer.vectors)
        self.status[persona] = " ".join((f"all {held} memories searchable" if held else "nothing to recall yet",
                                         *report.unreadable))
        return report

    def update_quietly(self, persona: str) -> None:
        try:
            self.update(persona)
        except (OSError, PersonaError, EmbedderUnavailable, StoreClosed) as exc:
            log.warning("Indexing %s failed: %s", persona, exc)
            self.status[persona] = f"Indexing failed: {exc}"

    def keep_reader(self):
        """The second reader of "please remember" (agent/keep_classifier.py) as `text -> bool`, once the
        embedder it was trained on is loaded; None before that, with another embedder, or without its
        weights (the grammar alone then). Made once: a turn asks about the user's last few messages too
        (a correction of a kept note), and each is embedded once, not every turn."""
        from agent.keep_classifier import load_classifier, mentions_keeping

        embedder = self._embedder
        if embedder is None:
            return None
        if self._keep_reader is not None and self._keep_reader[0] is embedder:
            return self._keep_reader[1]
        classifier = load_classifier()
        if classifier is None or getattr(embedder, "name", "") != classifier.embedder:
            self._keep_reader = (embedder, None)
            return None

        @functools.lru_cache(maxsize=constants.KEEP_SCAN_ENTRIES)  # the user messages a turn looks back at
        def likely(text: str) -> bool:
            if not mentions_keeping(text):
                return False
            vector = beside_embedder(embedder, lambda: embedder.embed_documents([text])[0])
            return classifier.asks_to_keep(text, vector)
        self._keep_reader = (embedder, likely)
        return likely

    def load_embedder_quietly(self) -> None:
        """Load the embedder and run it once, at start-up: with nothing new to index it was loaded
        by the first message instead, which then waited ~0.9 s more for its first token (bench
        conversation, session 19: every script's first turn)."""
        try:
            self.embedder().embed_query("warm-up")
        except EmbedderUnavailable as exc:
            log.warning("The embedder could not load: %s", exc)

    def complete_knowledge_quietly(self, persona: str) -> None:
        """Bring the knowledge base up to date at start-up: after an embedder switch its vector
        index starts empty, and only a re-index embeds the chunks again (unchanged files are
        skipped by their hash)."""
        try:
            report = self.knowledge(persona).reindex()
        except (OSError, PersonaError, EmbedderUnavailable, StoreClosed) as exc:
            log.warning("Re-indexing %s's knowledge base failed: %s", persona, exc)
            return
        if report.embedded:
            log.info("Knowledge base of %s: %d chunks embedded at start-up", persona, report.embedded)

    def recall(self, session: CharacterSession, complete_json=None, user_name: Callable[[], str] = str):
        """Recall over the persona's memories (persona/recall.py); `complete_json` plans it by one
        LLM call, None by rules; `user_name`: the name the user's messages are logged under."""
        from persona.recall import MemoryRecall

        return MemoryRecall(self.memory_index(session.character.name), random.Random(), complete_json,
                            exclude_ids=session.context_message_ids, user_name=user_name,
                            persona_name=session.character.name, persona_other_names=session.other_names)

    def searcher(self, session: CharacterSession, model: ChatModel, planned_by_llm: bool,
                 user_name: Callable[[], str] = str) -> Searcher:
        """What a turn searches: memories, and the persona's documents when it has any (issue 12, item 5)."""
        from persona.knowledge_recall import KnowledgeRecall, recall_room

        memories = self.recall(session, model.complete_json if planned_by_llm else None, user_name)
        return KnowledgeRecall(memories, lambda: self.knowledge(session.character.name), model.count_tokens,
                               recall_room(model.budget_family),
                               constants.KNOWLEDGE_RECALL_MAX_CHUNKS[model.budget_family])

    def close(self, name: str, closing: Callable[[], None]) -> None:
        """Close the persona's indexes (after `closing`, which drops what else the facade holds open),
        unless one of them is being written: PersonaError then, and nothing is closed."""
        stores = [s for s in (self._indexers.get(name), self._knowledge.get(name)) if s is not None]
        with ExitStack() as held:
            # The knowledge base shares the indexer's connection: closing it under a running upload
            # or indexing run would fail that run half-way.
            for store in stores:
                if not store.work_lock.acquire(blocking=False):
                    raise PersonaError(f"{name}'s memory or knowledge base is being indexed right now; "
                                       "try again when the progress shows it is done.")
                held.callback(store.work_lock.release)
            closing()
            self._knowledge.pop(name, None)
            indexer = self._indexers.pop(name, None)
            if indexer is not None:
                indexer.db.close()

    def flush(self) -> None:
        """Shut-down: write what the memory indexes hold in memory only."""
        with self._open_lock:
            indexers = list(self._indexers.values())
        for indexer in indexers:
            indexer.flush()
