"""A FAISS inner-product index keyed by memory.db item ids (derived, rebuildable).

Vectors are L2-normalised, so inner product is cosine similarity (higher = closer), set
explicitly rather than relying on FAISS's L2 default. The embedder's name and dimension are
stored beside the index; an index built by another embedder is not loaded (it is rebuilt).
"""
from __future__ import annotations

import json
import logging
import threading
import time
from functools import cache
from pathlib import Path
from typing import Callable, Sequence

import faiss
import numpy as np
from threadpoolctl import ThreadpoolController

import constants
from managers.store import atomic_write_bytes, atomic_write_text

log = logging.getLogger(__name__)


def _one_faiss_thread() -> None:
    """FAISS brings its own OpenMP runtime. The app never searches with FAISS (the scan is numpy's),
    so its threads would only parallelise small adds and removes, then spin beside the embedder.
    The setting is per calling thread, hence called where FAISS is asked to work."""
    faiss.omp_set_num_threads(1)


@cache
def _blas() -> ThreadpoolController:
    """The process's BLAS libraries (found once: finding them scans every loaded library)."""
    return ThreadpoolController()


def top_k(ids: np.ndarray, scores: np.ndarray, k: int) -> list[tuple[int, float]]:
    """The k best (id, score) pairs, best first (ties keep storage order)."""
    k = min(k, len(ids))
    if k <= 0:
        return []
    top = np.argpartition(-scores, k - 1)[:k]
    top = top[np.argsort(-scores[top], kind="stable")]
    return list(zip(ids[top].tolist(), scores[top].tolist()))


class VectorIndex:
    def __init__(self, path: Path, embedder_name: str, dim: int):
        self.path = path
        self.meta_path = path.with_suffix(".json")
        self.embedder_name = embedder_name
        self.dim = dim
        self.scan_threads = constants.SCAN_BLAS_THREADS.get(embedder_name.split(":")[0], 1)
        self._lock = threading.RLock()
        self._index = self._load() or self._empty()
        self.unsaved_changes = 0  # vectors added or removed since the last save

    def _empty(self):
        return faiss.IndexIDMap2(faiss.IndexFlatIP(self.dim))

    def _load(self):
        if not (self.path.exists() and self.meta_path.exists()):
            return None
        try:
            meta = json.loads(self.meta_path.read_text())
        except (OSError, json.JSONDecodeError):
            return None
        if meta.get("embedder") != self.embedder_name or meta.get("dim") != self.dim:
            log.info("Vector index %s was built by %s; it will be rebuilt", self.path, meta.get("embedder"))
            return None
        try:
            return faiss.read_index(str(self.path))
        except RuntimeError as exc:
            log.warning("Vector index %s is unreadable (%s); it will be rebuilt", self.path, exc)
            return None

    @property
    def dirty(self) -> bool:
        return self.unsaved_changes > 0

    def __len__(self) -> int:
        return int(self._index.ntotal)

    def add(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        if len(ids) == 0:
            return
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        _one_faiss_thread()
        with self._lock:
            self._index.remove_ids(np.asarray(ids, dtype=np.int64))  # re-adding replaces
            self._index.add_with_ids(vectors, np.asarray(ids, dtype=np.int64))
            self.unsaved_changes += len(ids)

    def remove(self, ids: Sequence[int]) -> None:
        if len(ids):
            _one_faiss_thread()
            with self._lock:
                self._index.remove_ids(np.asarray(ids, dtype=np.int64))
                self.unsaved_changes += len(ids)

    def scan(self, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(ids, inner products) of every stored vector, in storage order: an exact scan.

        The scan is a BLAS mat-vec over FAISS's own storage (a view, no copy): for one query
        it is about 3x faster than the flat search of the portable faiss-cpu wheel (BENCHMARKS.md).
        It runs on the embedder kind's BLAS threads (constants.SCAN_BLAS_THREADS).
        """
        query = np.asarray(query, dtype=np.float32).reshape(-1)
        with self._lock:
            total = int(self._index.ntotal)
            if total == 0:
                return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float32)
            flat = faiss.downcast_index(self._index.index)
            matrix = faiss.rev_swig_ptr(flat.get_xb(), total * self.dim).reshape(total, self.dim)
            with _blas().limit(limits=self.scan_threads, user_api="blas"):
                scores = matrix @ query
            ids = faiss.rev_swig_ptr(self._index.id_map.data(), total).copy()
        return ids, scores

    def search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The k best (id, inner product), best first, like IndexFlatIP's own search."""
        return top_k(*self.scan(query), k)

    def get(self, ids: Sequence[int]) -> dict[int, np.ndarray]:
        """The stored vectors of these ids (absent ids are left out)."""
        found: dict[int, np.ndarray] = {}
        with self._lock:
            for item_id in ids:
                try:
                    found[item_id] = self._index.reconstruct(int(item_id))
                except (RuntimeError, KeyError):
                    continue
        return found

    def ids(self) -> set[int]:
        with self._lock:
            if self._index.ntotal == 0:
                return set()
            return set(faiss.vector_to_array(self._index.id_map).tolist())

    def save(self) -> None:
        with self._lock:
            if not self.dirty:
                return
            data = faiss.serialize_index(self._index)
            atomic_write_bytes(self.path, data.tobytes())
            atomic_write_text(self.meta_path, json.dumps({"embedder": self.embedder_name, "dim": self.dim}))
            self.unsaved_changes = 0

    def clear(self) -> None:
        with self._lock:
            # At least one change, so even clearing an empty index writes its file and meta.
            self.unsaved_changes += max(1, int(self._index.ntotal))
            self._index = self._empty()


class Checkpoints:
    """When a long embedding run saves its index: once `interval_s` of work has passed since the
    last save. Counting batches (the seed's "every few batches") saved a 200 MB index every
    0.5 s once the embedder became fast: at 100k messages the saves took a third of the run."""

    def __init__(self, save: Callable[[], None], interval_s: float = constants.INDEX_CHECKPOINT_SECONDS,
                 clock: Callable[[], float] = time.monotonic):
        self._save, self._interval_s, self._clock = save, interval_s, clock
        self._last = clock()

    def tick(self) -> None:
        """Call after each batch: saves if the interval has passed."""
        if self._clock() - self._last >= self._interval_s:
            self._save()
            self._last = self._clock()
