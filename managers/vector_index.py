"""A FAISS inner-product index keyed by memory.db item ids (derived, rebuildable): exact while
small, inverted-file once large.

Vectors are L2-normalised, so inner product is cosine similarity (higher = closer), set
explicitly rather than relying on FAISS's L2 default. The embedder's name and dimension are
stored beside the index; an index built by another embedder is not loaded (it is rebuilt).
"""
from __future__ import annotations

import heapq
import json
import logging
import threading
import time
from dataclasses import dataclass
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
    """FAISS brings its own OpenMP runtime. One query's search and the small adds and removes gain
    nothing from more threads, which would only spin beside the embedder's. The setting is per
    calling thread, hence called where FAISS is asked to work."""
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


_NOWHERE, _MAIN, _FRESH = 0, 1, 2  # where an id's vector is kept


class VectorIndex:
    """Exact (a flat matrix) while small. Once it holds `constants.ANN_MIN_ITEMS` vectors the
    memory indexer partitions it (`partition_if_large`): an inverted-file index whose search reads
    only the lists nearest the query. Vectors added after that go to a flat "fresh" tier searched
    exactly, until it is large enough to partition everything again: lists trained before a topic
    existed found under half of its messages (LoCoMo with 100k distractors, BENCHMARKS.md §1).
    How a query's cosines spread over all stored vectors (`spread`) is exact at any size: it
    comes from running moments."""

    def __init__(self, path: Path, embedder_name: str, dim: int):
        self.path = path
        self.meta_path = path.with_suffix(".json")
        self.fresh_path = path.with_suffix(".fresh.faiss")
        self.embedder_name = embedder_name
        self.dim = dim
        self.scan_threads = constants.SCAN_BLAS_THREADS.get(embedder_name.split(":")[0], 1)
        self._lock = threading.RLock()
        self._index = self._load() or self._empty()
        self._fresh = (self._load_fresh() or self._empty()) if self.partitioned else None
        self._changes = 0  # every add, remove or clear: a partition built meanwhile is stale
        self.unsaved_changes = 0  # vectors added or removed since the last save
        self._where = np.zeros(0, dtype=np.int8)  # by id: _NOWHERE, _MAIN or _FRESH
        self._moments: Moments | None = None
        self._take_stock()

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
        index = self._read(self.path)
        if index is not None and _is_partitioned(index):
            _tune(faiss.extract_index_ivf(index))
        return index

    def _load_fresh(self):
        """The fresh tier saved beside a partitioned index (vectors it lacks are embedded again)."""
        return self._read(self.fresh_path) if self.fresh_path.exists() else None

    @staticmethod
    def _read(path: Path):
        try:
            return faiss.read_index(str(path))
        except RuntimeError as exc:
            log.warning("Vector index %s is unreadable (%s); it will be rebuilt", path, exc)
            return None

    def _parts(self) -> list[tuple[int, object]]:
        return [(_MAIN, self._index)] + ([(_FRESH, self._fresh)] if self._fresh is not None else [])

    def _take_stock(self) -> None:
        """Where each id's vector is, and the moments of all stored vectors (caller holds the lock
        or owns the index). An id saved in both tiers (a crash between the two saves) keeps one."""
        parts = {place: _contents(index, self.dim) for place, index in self._parts()}  # one copy each
        if _FRESH in parts:
            # The fresh tier is saved first, so its copy is the newer one (an id SQLite gave again).
            main_ids, main_vectors = parts[_MAIN]
            twice = np.isin(main_ids, parts[_FRESH][0])
            if twice.any():
                self._index.remove_ids(main_ids[twice])
                parts[_MAIN] = main_ids[~twice], main_vectors[~twice]
        self._where = np.zeros(0, dtype=np.int8)
        for place, (ids, _) in parts.items():
            self._mark(ids, place)
        self._moments = Moments.of(np.concatenate([vectors for _, vectors in parts.values()]))

    @property
    def dirty(self) -> bool:
        return self.unsaved_changes > 0

    @property
    def partitioned(self) -> bool:
        return _is_partitioned(self._index)

    def __len__(self) -> int:
        return sum(int(index.ntotal) for _, index in self._parts())

    def _mark(self, ids: np.ndarray, place: int) -> None:
        if place != _NOWHERE and len(ids) and ids.max() >= len(self._where):
            grown = np.zeros(max(int(ids.max()) + 1, 2 * len(self._where)), dtype=np.int8)
            grown[:len(self._where)] = self._where
            self._where = grown
        self._where[ids[ids < len(self._where)]] = place

    def _places(self, ids: np.ndarray) -> np.ndarray:
        inside = (ids >= 0) & (ids < len(self._where))
        places = np.zeros(len(ids), dtype=np.int8)
        places[inside] = self._where[ids[inside]]
        return places

    def _has(self, ids: np.ndarray) -> np.ndarray:
        return self._places(ids) != _NOWHERE

    def add(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        if len(ids) == 0:
            return
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        ids = np.asarray(ids, dtype=np.int64)
        _one_faiss_thread()
        with self._lock:
            self._remove(ids)  # re-adding replaces
            place, index = self._parts()[-1]  # the fresh tier once partitioned
            index.add_with_ids(vectors, ids)
            self._mark(ids, place)
            self._moments = self._moments.plus(vectors)
            self._changes += 1
            self.unsaved_changes += len(ids)

    def remove(self, ids: Sequence[int]) -> None:
        if len(ids):
            _one_faiss_thread()
            with self._lock:
                self._remove(np.asarray(ids, dtype=np.int64))
                self.unsaved_changes += len(ids)

    def _remove(self, ids: np.ndarray) -> None:
        places = self._places(ids)
        stored = ids[places != _NOWHERE]
        if len(stored):
            self._moments = self._moments.minus(self._vectors(stored))
            for place, index in self._parts():
                if (places == place).any():
                    index.remove_ids(ids[places == place])
            self._mark(stored, _NOWHERE)
            self._changes += 1

    def _vectors(self, stored_ids: np.ndarray) -> np.ndarray:
        """The vectors of ids known to be stored, in order (caller holds the lock)."""
        _one_faiss_thread()  # FAISS reconstructs over 1,000 ids on all its threads
        stored_ids = np.ascontiguousarray(stored_ids, dtype=np.int64)
        places = self._places(stored_ids)
        out = np.empty((len(stored_ids), self.dim), dtype=np.float32)
        for place, index in self._parts():
            here = places == place
            if here.any():
                out[here] = index.reconstruct_batch(np.ascontiguousarray(stored_ids[here]))
        return out

    def search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The k best (id, inner product), best first: exact while the index is flat; once it is
        partitioned, from the lists nearest the query and an exact scan of the fresh tier.

        A flat search is a BLAS mat-vec over FAISS's own storage (a view, no copy): for one query
        about 3x faster than the flat search of the portable faiss-cpu wheel (BENCHMARKS.md), on the
        embedder kind's BLAS threads (constants.SCAN_BLAS_THREADS)."""
        query = np.asarray(query, dtype=np.float32).reshape(-1)
        if k <= 0:
            return []
        with self._lock:
            found: list[tuple[int, float]] = []
            for _, index in self._parts():
                if index.ntotal == 0:
                    continue
                if _is_partitioned(index):
                    _one_faiss_thread()
                    scores, ids = index.search(query.reshape(1, -1), min(k, int(index.ntotal)))
                    found += [(i, s) for i, s in zip(ids[0].tolist(), scores[0].tolist()) if i >= 0]
                else:
                    ids, matrix = _flat_storage(index, self.dim)
                    with _blas().limit(limits=self.scan_threads, user_api="blas"):
                        scores = matrix @ query
                    found += top_k(ids.copy(), scores, k)
        return heapq.nlargest(k, found, key=lambda pair: pair[1])  # both tiers' hits, merged

    def cosines(self, ids: Sequence[int] | np.ndarray, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(the ids among these that have a vector, ascending; their inner products with `query`)."""
        wanted = np.unique(np.asarray(ids, dtype=np.int64))
        query = np.asarray(query, dtype=np.float32).reshape(-1)
        with self._lock:
            stored = wanted[self._has(wanted)]
            vectors = self._vectors(stored) if len(stored) else np.zeros((0, self.dim), dtype=np.float32)
        return stored, vectors @ query

    def spread(self, query: np.ndarray) -> tuple[float, float]:
        """(mean, standard deviation) of the query's inner products with every stored vector."""
        with self._lock:
            return self._moments.spread(np.asarray(query, dtype=np.float64).reshape(-1))

    def get(self, ids: Sequence[int]) -> dict[int, np.ndarray]:
        """The stored vectors of these ids (absent ids are left out)."""
        wanted = np.asarray(list(ids), dtype=np.int64)
        with self._lock:
            stored = wanted[self._has(wanted)]
            return dict(zip(stored.tolist(), self._vectors(stored))) if len(stored) else {}

    def contents(self) -> tuple[np.ndarray, np.ndarray]:
        """(ids, vectors) of everything stored, copied."""
        with self._lock:
            parts = [_contents(index, self.dim) for _, index in self._parts()]
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])

    def ids(self) -> set[int]:
        with self._lock:
            return set(np.flatnonzero(self._where).tolist())

    def needs_partition(self, min_items: int = constants.ANN_MIN_ITEMS) -> bool:
        """Whether `partition_if_large` would partition the index now: a flat index of `min_items`
        vectors, or a fresh tier grown to `min_items`."""
        with self._lock:
            unpartitioned = self._fresh if self._fresh is not None else self._index
            return int(unpartitioned.ntotal) >= min_items

    def partition_if_large(self, min_items: int = constants.ANN_MIN_ITEMS,
                           build: Callable[..., object] | None = None, pause: Callable[[], None] = lambda: None) -> bool:
        """Partition every vector into `_list_count` inverted lists (`needs_partition` says when),
        leaving an empty fresh tier. The lists are trained and filled outside the lock (seconds at
        100k: searches go on meanwhile); if the index changed in that time, it is left as it was
        and the next call tries again. True if it was partitioned."""
        with self._lock:
            if not self.needs_partition(min_items):
                return False
            changes = self._changes
            ids, vectors = self.contents()
        build = build or partitioned_index
        started = time.perf_counter()
        lists = _list_count(len(ids))
        index = build(ids, vectors, lists, pause)
        with self._lock:
            if changes != self._changes:
                return False
            self._index, self._fresh = index, self._empty()
            self._mark(ids, _MAIN)
            self._changes += 1
            self.unsaved_changes += 1
        log.info("Vector index %s partitioned into %d lists (%d vectors, %.1f s)", self.path, lists, len(ids),
                 time.perf_counter() - started)
        return True

    def save(self) -> None:
        with self._lock:
            if not self.dirty:
                return
            # The fresh tier first: a crash between the two writes leaves an id in both at worst.
            if self._fresh is not None:
                atomic_write_bytes(self.fresh_path, faiss.serialize_index(self._fresh).tobytes())
            else:
                self.fresh_path.unlink(missing_ok=True)
            atomic_write_bytes(self.path, faiss.serialize_index(self._index).tobytes())
            atomic_write_text(self.meta_path, json.dumps({"embedder": self.embedder_name, "dim": self.dim}))
            self.unsaved_changes = 0

    def clear(self) -> None:
        with self._lock:
            # At least one change, so even clearing an empty index writes its file and meta.
            self.unsaved_changes += max(1, len(self))
            self._index, self._fresh = self._empty(), None
            self._changes += 1
            self._take_stock()


@dataclass(frozen=True)
class Moments:
    """Count, sum and sum of outer products of a set of vectors: enough for the mean and spread
    of any query's inner products with all of them, with no scan (qᵀΣxxᵀq = Σ(x·q)²)."""
    count: int
    total: np.ndarray  # (dim,) float64
    outer: np.ndarray  # (dim, dim) float64

    @classmethod
    def of(cls, vectors: np.ndarray) -> "Moments":
        vectors = np.asarray(vectors, dtype=np.float32)
        outer = np.zeros((vectors.shape[1],) * 2, dtype=np.float64)
        # Float32 products (a float64 product doubles the ~1 s at 100k); chunk sums add in float64.
        # The z-score it feeds is shown to one decimal: the ~0.2 % error in the spread is invisible.
        for start in range(0, len(vectors), 8192):
            chunk = vectors[start:start + 8192]
            outer += (chunk.T @ chunk).astype(np.float64)
        return cls(len(vectors), vectors.sum(axis=0, dtype=np.float64), outer)

    def plus(self, vectors: np.ndarray, sign: int = 1) -> "Moments":
        change = Moments.of(vectors)
        return Moments(self.count + sign * change.count, self.total + sign * change.total,
                       self.outer + sign * change.outer)

    def minus(self, vectors: np.ndarray) -> "Moments":
        return self.plus(vectors, sign=-1)

    def spread(self, query: np.ndarray) -> tuple[float, float]:
        if self.count <= 0:
            return 0.0, 1.0
        mean = float(self.total @ query) / self.count
        variance = float(query @ self.outer @ query) / self.count - mean * mean
        return mean, max(variance, 0.0) ** 0.5


def partitioned_index(ids: np.ndarray, vectors: np.ndarray, lists: int, pause: Callable[[], None] = lambda: None):
    """An inverted-file index of these vectors with `lists` lists, trained on a sample of them.

    The k-means runs one iteration at a time (FAISS's own IVF training, spherical, its 10
    iterations), calling `pause` before each: training takes seconds on two cores at 100k, and a
    reply being generated meanwhile gets the cores after at most one iteration."""
    faiss.omp_set_num_threads(constants.ANN_TRAIN_THREADS)
    try:
        index = faiss.index_factory(vectors.shape[1], f"IVF{lists},Flat", faiss.METRIC_INNER_PRODUCT)
        ivf = faiss.extract_index_ivf(index)
        sample = np.random.default_rng(0).choice(len(vectors), min(len(vectors), lists * constants.ANN_TRAIN_POINTS_PER_LIST),
                                                 replace=False)
        training = np.ascontiguousarray(vectors[np.sort(sample)], dtype=np.float32)
        centroids = None
        for _ in range(ivf.cp.niter):
            pause()
            kmeans = faiss.Kmeans(vectors.shape[1], lists, niter=1, spherical=ivf.cp.spherical, seed=ivf.cp.seed,
                                  max_points_per_centroid=ivf.cp.max_points_per_centroid)
            kmeans.train(training, init_centroids=centroids)
            centroids = kmeans.centroids
        ivf.quantizer.add(centroids)
        ivf.is_trained = index.is_trained = True
        pause()
        ivf.set_direct_map_type(faiss.DirectMap.Hashtable)
        _tune(ivf)
        index.add_with_ids(vectors, ids)
    finally:
        _one_faiss_thread()
    return index


def _is_partitioned(index) -> bool:
    return not isinstance(index, faiss.IndexIDMap2)


def _list_count(total: int) -> int:
    """Inverted lists for `total` vectors: the power of two nearest constants.ANN_LISTS_PER_ROOT * √total."""
    return 1 << max(0, round(np.log2(max(1.0, constants.ANN_LISTS_PER_ROOT * total ** 0.5))))


def _tune(ivf) -> None:
    ivf.nprobe = max(1, ivf.nlist // constants.ANN_PROBE_DIVISOR)


def _flat_storage(index, dim: int) -> tuple[np.ndarray, np.ndarray]:
    """(ids, vectors) of a flat index: views of FAISS's own storage, valid while it is unchanged."""
    total = int(index.ntotal)
    flat = faiss.downcast_index(index.index)
    return (faiss.rev_swig_ptr(index.id_map.data(), total),
            faiss.rev_swig_ptr(flat.get_xb(), total * dim).reshape(total, dim))


def _contents(index, dim: int) -> tuple[np.ndarray, np.ndarray]:
    """(ids, vectors) of everything stored, copied, in storage order."""
    total = int(index.ntotal)
    if total == 0:
        return np.zeros(0, dtype=np.int64), np.zeros((0, dim), dtype=np.float32)
    if not _is_partitioned(index):
        ids, matrix = _flat_storage(index, dim)
        return ids.copy(), matrix.copy()
    invlists = faiss.extract_index_ivf(index).invlists
    ids, vectors = [], []
    for number in range(invlists.nlist):
        size = invlists.list_size(number)
        if size:
            ids.append(faiss.rev_swig_ptr(invlists.get_ids(number), size).copy())
            codes = faiss.rev_swig_ptr(invlists.get_codes(number), size * invlists.code_size)
            vectors.append(codes.view(np.float32).reshape(size, dim).copy())
    return np.concatenate(ids), np.concatenate(vectors)


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
