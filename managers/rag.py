"""The RAG manager's indexing side: chat logs, episodes, dream insights and diaries → items
(the knowledge base is indexed apart, managers/knowledge.py).

Incremental: a source (one log file, the episode file, ...) is re-read only when its content hash
changed. A log's item keys are message ids, so re-reading it adds only the entries not yet
indexed, and an edit or a deletion in the log replaces or removes its target's item; the other
sources list all their items each time (`managers/memory_sources.py`), and what a file no longer
holds leaves the index, as do the items of a file that is gone. Embedding happens in batches, with
a checkpoint every INDEX_CHECKPOINT_SECONDS; items that are in memory.db but not yet in the vector index are
embedded on the next run, so an interrupted indexing resumes where it stopped.
"""
from __future__ import annotations

import hashlib
import logging
import re
import threading
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable, Sequence

import constants
from managers.chat_log import DELETE_TAG, EDIT_TAG, LogEntry, parse_log_text, spoken_text
from managers.embeddings import Embedder
from managers.memory_db import Item, MemoryDB
from managers.memory_sources import MEMORY_SOURCE_PREFIX, SourceUnreadable, memory_sources
from managers.vector_index import Checkpoints, VectorIndex

log = logging.getLogger(__name__)
Progress = Callable[[str, float], None]  # message, fraction done (0..1)
# Recorded with the embedder's name: vectors of another version of the embedded text are rebuilt.
# v2: "speaker: message" without the date heading (BENCHMARKS.md §2, indexing throughput).
EMBEDDED_TEXT_VERSION = "text-v2"
# Derived files earlier versions wrote that nothing reads any more (window vectors: recall now
# averages the message vectors' scores over each window).
RETIRED_INDEX_FILES = ("memory-window.faiss", "memory-window.json")
MEMORY_KINDS = ("current_log", "log_archive", "episodic_memory", "dream_insight", "diary")
NIGHT_KINDS = frozenset({"episodic_memory", "dream_insight", "diary"})  # written by the night from the log


def _content_hash(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()[:16]


def _no_progress(message: str, fraction: float) -> None:
    pass


@dataclass(frozen=True)
class IndexReport:
    sources_seen: int
    sources_changed: int
    items_added: int
    items_removed: int
    vectors_added: int
    unreadable: tuple[str, ...] = ()  # why a source could not be read (it was left as it is)


@dataclass(frozen=True)
class Source:
    """One indexed file. `read(content, now)` gives its items and the keys its changes retire;
    a `complete` source lists all its items, so a key it no longer lists is retired too."""
    name: str
    path: Path
    read: Callable[[bytes, str], tuple[list[Item], list[str]]]
    complete: bool


def log_item_text(entry: LogEntry) -> str:
    """What the persona is shown for one message: who said it, when, and what (the words only: a
    recalled "🛠️ edit core memory (append)" line read as something someone said)."""
    when = entry.ts.strftime("%Y-%m-%d") if entry.ts else ""
    head = f"[{when}] {entry.name}" if when else entry.name
    return f"{head}: {spoken_text(entry.text)}"


_ITEM_HEAD = re.compile(r"^(?:\[\d{4}-\d{2}-\d{2}\] )?[^:\n]{1,60}: ")


def said_in(item_text: str) -> str:
    """The words of a `log_item_text` line, without its date and speaker."""
    return _ITEM_HEAD.sub("", item_text, count=1)


def session_keys(entries: Sequence[LogEntry], gap: timedelta) -> dict[str, str]:
    """Entry id → session key: a new session starts after a silence longer than `gap`."""
    keys: dict[str, str] = {}
    current, previous = "", None
    for entry in entries:
        if entry.ts is None:
            keys[entry.id] = current
            continue
        if previous is None or entry.ts - previous > gap:
            current = entry.ts.strftime("%Y%m%dT%H%M%S")
        keys[entry.id] = current
        previous = entry.ts
    return keys


def items_from_log(entries: Sequence[LogEntry], source: str) -> tuple[list[Item], list[str]]:
    """Items for the dialogue entries of one log file, and the keys its edits/deletions retire."""
    dialogue = [e for e in entries if e.is_dialogue]
    sessions = session_keys(dialogue, timedelta(minutes=constants.SESSION_GAP_MINUTES))
    positions = {e.id: n for n, e in enumerate(dialogue)}
    items: dict[str, Item] = {}
    retired: list[str] = []
    for entry in entries:
        if entry.is_dialogue:
            items[entry.id] = Item(entry.id, "current_log", source, log_item_text(entry), entry.name,
                                   (entry.id,), entry.ts.isoformat() if entry.ts else "", 0.0, entry.text,
                                   sessions[entry.id], positions[entry.id])
            if entry.meta.get("replaces"):
                retired.append(entry.meta["replaces"])
        elif entry.name in (EDIT_TAG, DELETE_TAG) and entry.meta.get("target"):
            target = entry.meta["target"]
            retired.append(target)
            previous = items.pop(target, None)
            if entry.name == EDIT_TAG and previous is not None:
                heading = previous.text.split(": ", 1)[0]
                items[target] = replace(previous, item_key=f"{target}@{entry.id}",
                                        text=f"{heading}: {entry.text}", body=entry.text)
    return list(items.values()), [k for k in retired if k not in items]


def _remove_retired_indexes(index_dir: Path) -> None:
    for name in RETIRED_INDEX_FILES:
        try:
            (index_dir / name).unlink()
            log.info("Removed %s (derived, no longer used)", index_dir / name)
        except FileNotFoundError:
            pass


class MemoryIndexer:
    def __init__(self, character_root: Path, embedder: Embedder, db: MemoryDB | None = None,
                 partition_from: int = constants.ANN_MIN_ITEMS,
                 clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc)):
        self.root = character_root
        self.clock = clock  # dates a diary chunk when it is first indexed
        self.embedder = embedder
        self.partition_from = partition_from  # vectors at which search becomes approximate
        self.db = db or MemoryDB(character_root / "memory" / "memory.db")
        self._vectors: VectorIndex | None = None
        self._open_lock = threading.Lock()  # one VectorIndex, however many threads ask first
        self.work_lock = threading.Lock()  # one indexing run at a time; closing the persona takes it too
        # Whether every live item had a vector at the end of the last run. Until then (and after any
        # failed run) the next run compares all ids with the index (~140 ms at 100k on a slow VM);
        # after that it embeds only the items the run added (edits and deletions make new items).
        self._complete = False

    @property
    def vectors(self) -> VectorIndex:
        with self._open_lock:
            if self._vectors is None:
                vectors = VectorIndex(self.root / "index" / "memory.faiss",
                                      f"{self.embedder.name}|{EMBEDDED_TEXT_VERSION}", self.embedder.dim)
                _remove_retired_indexes(self.root / "index")
                if self.db.created and len(vectors):
                    # memory.db was deleted and made anew: its row ids no longer match these vectors.
                    vectors.clear()
                    vectors.save()
                self._vectors = vectors
            return self._vectors

    def log_files(self) -> list[Path]:
        logs = self.root / "logs"
        return sorted(logs.glob("[0-9][0-9][0-9][0-9]-[0-9][0-9].txt")) if logs.exists() else []

    def sources(self) -> list[Source]:
        """Every file recall reads: the monthly logs, then the episodes, dream diary and diaries."""
        def log_reader(name: str):
            return lambda raw, now: items_from_log(parse_log_text(raw.decode("utf-8", errors="replace"), name), name)

        def memory_reader(source):
            return lambda raw, now: (source.read(raw, now), [])

        return ([Source(p.name, p, log_reader(p.name), complete=False) for p in self.log_files()]
                + [Source(s.name, s.path, memory_reader(s), complete=True) for s in memory_sources(self.root)])

    def update(self, progress: Progress = _no_progress, pause: Callable[[], None] = lambda: None) -> IndexReport:
        with self.work_lock:
            self.db.ensure_open()
            sources = self.sources()
            now = self.clock().isoformat(timespec="seconds")
            changed = added = removed = 0
            unreadable: list[str] = []
            new_row_ids: list[int] = []
            # A failure anywhere in this run (rows added, vectors not) means comparing everything next time.
            was_complete, self._complete = self._complete, False
            for number, source in enumerate(sources, start=1):
                changed_file = self.db.changed_file(source.name, source.path, _content_hash)
                if changed_file is None:
                    continue
                changed += 1
                progress(f"Reading {source.name} ({number}/{len(sources)})", 0.1 * number / max(1, len(sources)))
                try:
                    items, retired = source.read(changed_file.raw, now)
                except SourceUnreadable as exc:  # its items so far stay; it is read again once it changes
                    log.warning("%s", exc)
                    unreadable.append(str(exc))
                    continue
                current_keys = {i.item_key for i in items}
                stale = list(retired) + (self.db.keys_of_source(source.name) if source.complete else [])
                # An edited message has a new key; its older item (by message id) is retired.
                stale += [i.message_ids[0] for i in items if i.message_ids and i.item_key != i.message_ids[0]]
                stale = [k for k in set(stale) if k not in current_keys]
                if stale:
                    removed += self._remove(self.db.remove_keys(stale))
                known = self.db.ids_by_key([i.item_key for i in items])
                new_ids = self.db.add_items([i for i in items if i.item_key not in known])
                new_row_ids += new_ids
                added += len(new_ids)
                self.db.mark_source(source.name, changed_file.content_hash, len(items), complete=True,
                                    signature=changed_file.signature)
            present = {s.name for s in sources}
            for name in self.db.source_names(MEMORY_SOURCE_PREFIX):
                if name not in present:  # an episode file or diary that was deleted
                    removed += self._remove(self.db.remove_source(name))
            vectors_added = self._embed_missing(new_row_ids if was_complete else None, progress, pause)
            return IndexReport(len(sources), changed, added, removed, vectors_added, tuple(unreadable))

    def _remove(self, row_ids: list[int]) -> int:
        self.vectors.remove(row_ids)
        return len(row_ids)

    def _embed_missing(self, new_ids: list[int] | None, progress: Progress, pause: Callable[[], None]) -> int:
        """Embed the items without a vector: `new_ids` (the items this run added), or with None
        every live item the index lacks (after a start, a failed run, a lost or rebuilt index)."""
        if new_ids is None:
            live, stored = set(self.db.all_ids(MEMORY_KINDS)), self.vectors.ids()
            # A vector whose item is gone (a crash before the index was saved; SQLite then gives
            # the next item that id) would stand for the wrong text: dropped, re-embedded below.
            self.vectors.remove(sorted(stored - live))
            missing = sorted(live - stored)
        else:
            missing = sorted(new_ids)
        done, checkpoints = 0, Checkpoints(self.vectors.save)
        for start in range(0, len(missing), constants.EMBED_BATCH_SIZE):
            pause()  # background indexing waits while a reply is being generated
            batch = missing[start:start + constants.EMBED_BATCH_SIZE]
            stored = self.db.get(batch)
            ids = [i for i in batch if i in stored]
            vectors = self.embedder.embed_documents([stored[i].item.embedding_text for i in ids])
            self.vectors.add(ids, vectors)
            done += len(ids)
            progress(f"Embedding memories {done}/{len(missing)}", 0.1 + 0.9 * done / len(missing))
            checkpoints.tick()
        if self.vectors.needs_partition(self.partition_from):  # once large, and when its fresh tier is
            pause()
            progress("Organising the memory index for fast search", 0.99)
            if self.vectors.partition_if_large(self.partition_from, pause=pause):
                self.vectors.save()  # seconds of training not to be redone at the next start
        self._complete = True
        self._persist()
        if missing:
            progress(f"Indexed {done} memories", 1.0)
        return done

    def _persist(self, force: bool = False) -> None:
        """Write the vector indexes once enough has changed (or when asked, at shut-down).

        A whole FAISS file is rewritten per save (~150 MB each at 100k messages, ~1.5 s), too
        much after every turn. Vectors not yet saved are not lost: memory.db lists every item,
        and the next update embeds whatever the loaded index lacks.
        """
        if force or self.vectors.unsaved_changes >= constants.INDEX_SAVE_MIN_CHANGES:
            self.vectors.save()

    def flush(self) -> None:
        with self.work_lock:
            self._persist(force=True)

    def rebuild(self, progress: Progress = _no_progress, pause: Callable[[], None] = lambda: None) -> IndexReport:
        """Delete the derived indexes and build them again from the log files."""
        with self.work_lock:
            self.db.ensure_open()
            self.db.clear_kinds(MEMORY_KINDS)
            self.vectors.clear()
            self.vectors.save()
            self._complete = False
        return self.update(progress, pause)
