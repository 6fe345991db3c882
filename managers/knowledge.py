"""The persona's knowledge base: uploaded documents, chunked, searchable.

Originals live in `knowledge/` (the source of truth); chunks are items of kind "knowledge" in
`memory/memory.db` (source `knowledge/<name>`: never the same source as a log file); vectors
are in a separate, dynamic `index/knowledge.faiss` (seed 004 "動的インデックス"). The persona
reaches it with the `search_knowledge_base` tool, and automatic recall consults it when a message
is clearly about a document (persona/knowledge_recall.py, issue 12 item 5).
Chunk keys carry the chunk's hash: only new chunks are embedded (batches, progress, checkpoints).
`index/knowledge-keys.json` records each vector's item key: stale vectors are never served.
"""
from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable

import constants
from managers.documents import (MAX_DOCUMENT_BYTES, DocumentRejected, base_name, chunk_text, extract_text,
                                query_terms, stored_name)
from managers.embeddings import Embedder, EmbedderUnavailable
from managers.memory_db import Item, MemoryDB, StoredItem, file_signature
from managers.store import UnsafeNameError, atomic_write_bytes, atomic_write_text, safe_child, validate_name
from managers.vector_index import Checkpoints, VectorIndex

log = logging.getLogger(__name__)

# === Tunables (to move into constants.py) =======================================================
KNOWLEDGE_SEARCH_K = 5  # hits returned by default (seed 004 presents 7 of 10; chunks are longer)
KNOWLEDGE_CANDIDATES = 10  # seed 004 "インデックスあたり取得数 10件": candidates per path before fusion
KNOWLEDGE_DENSE_WEIGHT = 0.6  # fusion of min-max normalised scores; meaning first,
KNOWLEDGE_LEXICAL_WEIGHT = 0.4  # exact words (names, part numbers) second
# ================================================================================================

KIND = "knowledge"
SOURCE_PREFIX = "knowledge/"
Progress = Callable[[str, float], None]  # message, fraction done (0..1)


class KnowledgeError(ValueError):
    """A knowledge-base request that cannot be done; the message is for the user."""


@dataclass(frozen=True)
class KnowledgeReport:
    name: str  # as stored in knowledge/
    original_name: str
    kind: str
    pages: int
    chunks: int
    embedded: int  # chunks embedded by this call: 0 when the same content was there already
    already_present: bool


@dataclass(frozen=True)
class KnowledgeDoc:
    name: str
    size: int  # bytes
    chunks: int
    added: datetime  # when the file was stored (its modification time)
    indexed: bool


@dataclass(frozen=True)
class KnowledgeHit:
    text: str
    document: str
    chunk: int  # 1-based position of the chunk in its document
    score: float  # fused, 0..1, higher is better (min-max over the hits: the best is always near 1)
    # The absolute signals behind it, for deciding whether the best hit is relevant at all:
    dense: float = 0.0  # cosine between the query and the chunk (0: no vector)
    lexical: float = 0.0  # raw BM25 of the chunk for the query's words (0: no word matched)


@dataclass(frozen=True)
class ReindexReport:
    documents: int
    changed: int
    chunks_added: int
    chunks_removed: int
    embedded: int
    failed: tuple[tuple[str, str], ...]  # (document, reason)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _minmax(scored: list[tuple[int, float]]) -> dict[int, float]:
    if not scored:
        return {}
    low, high = min(s for _, s in scored), max(s for _, s in scored)
    return {i: (s - low) / (high - low) if high > low else 1.0 for i, s in scored}


class KnowledgeBase:
    """Mutations are serialised by one lock; `search` takes only the stores' own locks, so the
    persona can search while a long upload is being embedded."""

    def __init__(self, character_root: Path, embedder: Embedder, max_bytes: int = MAX_DOCUMENT_BYTES,
                 db: MemoryDB | None = None):
        self.root = character_root
        self.folder = character_root / "knowledge"
        self.embedder = embedder
        self.max_bytes = max_bytes
        # memory.db is shared with the memory indexer when the service opens both (one connection,
        # one in-memory item table); on its own the knowledge base opens it.
        self._owns_db = db is None
        self.db = db or MemoryDB(character_root / "memory" / "memory.db")
        self._keys_path = character_root / "index" / "knowledge-keys.json"
        self._vectors: VectorIndex | None = None
        self._keys: dict[int, str] = {}  # vector id -> the item key it was embedded from
        self.work_lock = threading.RLock()  # every change; closing the persona takes it too
        self._open_lock = threading.Lock()

    def close(self) -> None:
        if self._owns_db:  # a shared connection is closed by whoever opened it
            self.db.close()

    def _open(self) -> tuple[VectorIndex, dict[int, str]]:
        with self._open_lock:
            if self._vectors is None:
                self._vectors = VectorIndex(self.root / "index" / "knowledge.faiss", self.embedder.name,
                                            self.embedder.dim)
                try:
                    self._keys = {int(k): v for k, v in json.loads(self._keys_path.read_text("utf-8")).items()}
                except (OSError, ValueError, AttributeError):
                    self._keys = {}  # every vector without a known key is re-embedded
            return self._vectors, self._keys

    def add_file(self, path: Path, original_name: str, progress: Progress | None = None) -> KnowledgeReport:
        """Store and index one uploaded file; raises DocumentRejected with the reason."""
        progress = progress or (lambda message, fraction: None)
        # Held from the first read: renaming or deleting the persona is refused, not half-done, meanwhile.
        with self.work_lock:
            self.db.ensure_open()
            progress(f"Reading {base_name(original_name)}", 0.0)
            document = extract_text(Path(path), original_name, self.max_bytes)
            raw = Path(path).read_bytes()
            digest = _digest(raw)
            name, present = self._place(stored_name(original_name), digest)
            if not present:
                atomic_write_bytes(safe_child(self.folder, name), raw)
            progress(f"Splitting {name} into chunks", 0.05)
            chunks, _, _ = self._sync(name, digest, document.text)
            embedded = self._embed_missing(progress, 0.1)
            self.db.mark_source(SOURCE_PREFIX + name, digest, chunks, complete=True,
                                signature=file_signature(safe_child(self.folder, name)))
        log.info("Knowledge %s: %d chunks, %d embedded", name, chunks, embedded)
        return KnowledgeReport(name, original_name, document.kind, document.pages, chunks, embedded,
                               present and embedded == 0)

    def _place(self, wanted: str, digest: str) -> tuple[str, bool]:
        """The name to store under (a numeric suffix on a collision), and whether it is there already."""
        stem, suffix = wanted[: len(wanted) - len(Path(wanted).suffix)], Path(wanted).suffix
        for n in range(1, 1000):
            tail = f"-{n}{suffix}" if n > 1 else suffix
            candidate = stem[: constants.MAX_NAME_LENGTH - len(tail)] + tail
            target = safe_child(self.folder, candidate)
            if not target.exists():
                return candidate, False
            if target.is_file() and _digest(target.read_bytes()) == digest:
                return candidate, True
        raise KnowledgeError(f"Too many documents named like {wanted}; rename the file and add it again.")

    def _sync(self, name: str, digest: str, text: str) -> tuple[int, int, int]:
        """Make the items of `name` match `text`: (chunks, items added, items removed)."""
        source = SOURCE_PREFIX + name
        items = [Item(f"kb:{name}:{n}:{_digest(c.encode('utf-8'))[:8]}", KIND, source, c)
                 for n, c in enumerate(chunk_text(text), start=1)]
        keys = {item.item_key for item in items}
        old = {s.item.item_key for s in self._stored().values() if s.item.source == source}
        stale = [k for k in old if k not in keys]
        if stale:
            self._drop_vectors(self.db.remove_keys(stale))
        added = len(self.db.add_items([item for item in items if item.item_key not in old]))
        self.db.mark_source(source, digest, len(items), complete=False)
        return len(items), added, len(stale)

    def _stored(self) -> dict[int, StoredItem]:  # every knowledge item: a few thousand at most
        return self.db.get(self.db.all_ids((KIND,)))

    def _drop_vectors(self, ids: list[int]) -> None:
        vectors, keys = self._open()
        vectors.remove(ids)
        for i in ids:
            keys.pop(i, None)

    def _embed_missing(self, progress: Progress, start: float) -> int:
        vectors, keys = self._open()
        stored = self._stored()
        valid = {i for i in vectors.ids() if i in stored and keys.get(i) == stored[i].item.item_key}
        self._drop_vectors(sorted(vectors.ids() - valid))  # stale: deleted, or memory.db was rebuilt
        missing = sorted(set(stored) - valid)
        batch, checkpoints = constants.EMBED_BATCH_SIZE, Checkpoints(self._save)
        for first in range(0, len(missing), batch):
            ids = missing[first:first + batch]
            vectors.add(ids, self.embedder.embed_documents([stored[i].item.text for i in ids]))
            keys.update((i, stored[i].item.item_key) for i in ids)
            done = first + len(ids)
            progress(f"Embedding chunks {done}/{len(missing)}", start + (1 - start) * done / len(missing))
            checkpoints.tick()
        self._save()
        return len(missing)

    def _save(self) -> None:
        vectors, keys = self._open()
        if vectors.dirty:
            present = vectors.ids()
            vectors.save()
            atomic_write_text(self._keys_path, json.dumps({str(i): k for i, k in keys.items() if i in present}))

    def _forget(self, name: str) -> int:
        ids = self.db.remove_source(SOURCE_PREFIX + name)
        self._drop_vectors(ids)
        self._save()
        return len(ids)

    def delete(self, name: str) -> int:
        """Remove a document, its chunks and their vectors; returns how many chunks went."""
        with self.work_lock:
            self.db.ensure_open()
            try:
                target = safe_child(self.folder, name)
            except UnsafeNameError as exc:
                raise KnowledgeError(str(exc)) from exc
            removed = self._forget(target.name)
            if not target.is_file() and not removed:
                raise KnowledgeError(f"There is no document named {name} in the knowledge base.")
            target.unlink(missing_ok=True)
            log.info("Knowledge %s deleted (%d chunks)", target.name, removed)
            return removed

    def reindex(self, progress: Progress | None = None) -> ReindexReport:
        """Bring items and vectors in line with the knowledge folder; unchanged files cost nothing."""
        progress = progress or (lambda message, fraction: None)
        with self.work_lock:
            self.db.ensure_open()
            with self._open_lock:
                self._vectors = None  # reload from disk: a deleted index file is rebuilt
            files = self._files()
            by_source = Counter(stored.item.source for stored in self._stored().values())
            changed, added, removed, failed, synced = 0, 0, 0, [], []
            for number, path in enumerate(files, start=1):
                progress(f"Checking {path.name} ({number}/{len(files)})", 0.1 * number / len(files))
                source = SOURCE_PREFIX + path.name
                changed_file = self.db.changed_file(source, path, _digest, stored_items=by_source.get(source, 0))
                if changed_file is None:
                    continue
                digest, signature = changed_file.content_hash, changed_file.signature
                changed += 1
                try:
                    validate_name(path.name)
                    document = extract_text(path, path.name, self.max_bytes)
                except (DocumentRejected, UnsafeNameError) as exc:
                    failed.append((path.name, str(exc)))
                    removed += self._forget(path.name)
                    continue
                chunks, plus, minus = self._sync(path.name, digest, document.text)
                added, removed = added + plus, removed + minus
                synced.append((source, digest, chunks, signature))
            for source in sorted(set(by_source) - {SOURCE_PREFIX + p.name for p in files}):
                removed += self._forget(source[len(SOURCE_PREFIX):])
            embedded = self._embed_missing(progress, 0.1)
            for source, digest, chunks, signature in synced:
                self.db.mark_source(source, digest, chunks, complete=True, signature=signature)
            progress(f"Knowledge base up to date ({len(files)} documents)", 1.0)
            return ReindexReport(len(files), changed, added, removed, embedded, tuple(failed))

    def _files(self) -> list[Path]:
        if not self.folder.is_dir():
            return []
        return sorted(p for p in self.folder.iterdir() if p.is_file() and not p.name.startswith("."))

    def documents(self) -> list[KnowledgeDoc]:
        docs = []
        for path, info in ((p, p.stat()) for p in self._files()):
            state = self.db.source_state(SOURCE_PREFIX + path.name)
            complete = state is not None and state.complete
            docs.append(KnowledgeDoc(path.name, info.st_size, state.items if complete else 0,
                                     datetime.fromtimestamp(info.st_mtime).astimezone(), complete))
        return docs

    def search(self, query: str, k: int = KNOWLEDGE_SEARCH_K) -> list[KnowledgeHit]:
        """Hybrid search: dense (knowledge.faiss) and lexical (FTS5), min-max normalised, weighted."""
        text = query.strip()
        if not text or k <= 0:
            return []
        vectors, keys = self._open()
        dense: list[tuple[int, float]] = []
        if len(vectors):
            try:
                dense = vectors.search(self.embedder.embed_query(text), KNOWLEDGE_CANDIDATES)
            except EmbedderUnavailable as exc:
                log.warning("Knowledge search without vectors: %s", exc)
        lexical = self.db.lexical_search(query_terms(text), (KIND,), KNOWLEDGE_CANDIDATES)
        stored = self.db.get(sorted({i for i, _ in dense} | {i for i, _ in lexical}))
        dense = [(i, s) for i, s in dense if i in stored and keys.get(i) == stored[i].item.item_key]
        lexical = [(i, s) for i, s in lexical if i in stored and stored[i].item.kind == KIND]
        d, w = _minmax(dense), _minmax(lexical)
        fused = {i: KNOWLEDGE_DENSE_WEIGHT * d.get(i, 0.0) + KNOWLEDGE_LEXICAL_WEIGHT * w.get(i, 0.0)
                 for i in set(d) | set(w)}
        best = sorted(fused, key=lambda i: (-fused[i], i))[:k]
        cosines, bm25 = dict(dense), dict(lexical)
        return [self._hit(stored[i], fused[i], cosines.get(i, 0.0), bm25.get(i, 0.0)) for i in best]

    def has_documents(self) -> bool:
        """Whether any document is stored (a directory listing: cheap enough for every turn)."""
        return bool(self._files())

    @staticmethod
    def _hit(stored: StoredItem, score: float, dense: float = 0.0, lexical: float = 0.0) -> KnowledgeHit:
        document, chunk, _ = stored.item.item_key.removeprefix("kb:").rsplit(":", 2)
        return KnowledgeHit(stored.item.text, document, int(chunk), round(score, 4), round(float(dense), 4),
                            round(float(lexical), 4))
