"""`memory/memory.db`: item metadata and lexical indexes (SQLite in WAL mode).

Derived data: everything here can be deleted and rebuilt from the character folder.
- `items`: one row per retrievable item with its provenance (source file, message ids,
  timestamp, type), arousal and access statistics.
- `items_fts`: FTS5 with the trigram tokenizer, so Japanese substrings of 3+ characters match.
- `items_grams`: FTS5 over the unigrams and bigrams of CJK runs (managers/cjk.py): ranking looks
  up a CJK term's bigrams there, and exact look-ups its 1–2-character terms (田中, 猫), which
  trigram cannot find.
- `sources`: what has been indexed, by content hash, so indexing is incremental and resumable.
Migrations are named, ordered and recorded; running them again is a no-op.
"""
from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Callable, Collection, Iterable, Sequence

import numpy as np

import constants
from managers import cjk, lexical
from managers.item_table import ItemTable, ScoringFields, TableRow

log = logging.getLogger(__name__)

MIGRATIONS: tuple[tuple[str, str], ...] = (
    ("001_items", """
        CREATE TABLE items (
            id INTEGER PRIMARY KEY,
            item_key TEXT NOT NULL UNIQUE,
            kind TEXT NOT NULL,
            source TEXT NOT NULL,
            text TEXT NOT NULL,
            speaker TEXT NOT NULL DEFAULT '',
            message_ids TEXT NOT NULL DEFAULT '[]',
            ts TEXT NOT NULL DEFAULT '',
            arousal REAL NOT NULL DEFAULT 0.0,
            access_count INTEGER NOT NULL DEFAULT 0,
            last_access TEXT NOT NULL DEFAULT '',
            archived INTEGER NOT NULL DEFAULT 0,
            body TEXT NOT NULL DEFAULT '',
            session TEXT NOT NULL DEFAULT '',
            position INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX items_source ON items(source);
        CREATE INDEX items_session ON items(source, session, position);
        CREATE VIRTUAL TABLE items_porter USING fts5(speaker, body, tokenize='porter unicode61');
        CREATE VIRTUAL TABLE window_porter USING fts5(body, tokenize='porter unicode61');
        CREATE VIRTUAL TABLE window_trigram USING fts5(body, tokenize='trigram');
        CREATE INDEX items_kind_ts ON items(kind, ts);
        CREATE VIRTUAL TABLE items_fts USING fts5(text, content='items', content_rowid='id', tokenize='trigram');
        CREATE VIRTUAL TABLE items_grams USING fts5(grams, tokenize='unicode61');
        CREATE TABLE sources (
            source TEXT PRIMARY KEY,
            content_hash TEXT NOT NULL,
            items INTEGER NOT NULL DEFAULT 0,
            complete INTEGER NOT NULL DEFAULT 0
        );
    """),
    # Window scores are now spread from message scores (recall.window_sums): full-text search
    # over window texts cost 60-120 ms per query at 100k messages (BENCHMARKS.md, scale).
    ("002_no_window_text", """
        DROP TABLE window_porter;
        DROP TABLE window_trigram;
    """),
    # Keyword search walks matches by time from either end (keyword_matches) and stops early.
    ("003_items_by_time", """
        CREATE INDEX items_ts ON items(ts, id);
    """),
    # Recall's window look-up (`neighbours`) answered from the index alone: no row read per neighbour.
    ("004_items_window", """
        CREATE INDEX items_window ON items(source, session, position, archived);
        DROP INDEX items_session;
    """),
    # Keyword search orders its matches by time in the item table now (session 6): the time index
    # only cost every insert a B-tree update.
    ("005_no_time_index", """
        DROP INDEX items_ts;
    """),
    # A source's size and modification time when it was last indexed: an unchanged file is then
    # not even read (every turn's update hashed every monthly log: ~10 MB at 100k messages).
    ("006_source_signature", """
        ALTER TABLE sources ADD COLUMN signature TEXT NOT NULL DEFAULT '';
    """),
    # The gram index is built from NFKC-normalised text (half-width katakana) and runs keep 々〆〇
    # (佐々木): every item's grams are computed again (`cjk_grams` is `cjk.index_grams`, see MemoryDB).
    ("007_cjk_grams_nfkc", """
        DELETE FROM items_grams;
        INSERT INTO items_grams(rowid, grams) SELECT id, cjk_grams(text) FROM items;
    """),
)

def id_chunks(ids: Sequence[int], size: int = 500) -> Iterable[tuple[list[int], str]]:
    """`ids` in chunks that fit an `IN (...)` list, each with its "?,?,…" placeholders."""
    for start in range(0, len(ids), size):
        chunk = list(ids[start:start + size])
        yield chunk, ",".join("?" * len(chunk))


def parse_ids(stored: str) -> tuple[str, ...]:
    """The stored JSON list of message ids. Our ids need no escaping, so the common case skips
    the JSON parser, which dominated fetching a few thousand recall candidates."""
    if "\\" in stored or not (stored.startswith('["') and stored.endswith('"]')):
        return tuple(json.loads(stored))
    return tuple(stored[2:-2].replace('", "', '","').split('","'))


def split_terms(terms: Sequence[str]) -> tuple[list[str], list[str]]:
    """For exact look-ups: (terms for the trigram index: 3+ characters; terms for the gram index:
    1–2 CJK characters). Other 1–2-character terms are dropped: trigrams cannot find them and they
    are not words."""
    return ([t for t in terms if len(t) >= 3], [t for t in terms if 0 < len(t) < 3 and cjk.is_cjk(t)])


def ranking_terms(terms: Sequence[str]) -> tuple[list[str], list[str]]:
    """For ranking: (terms for the trigram index: other terms of 3+ characters; terms for the gram
    index: every CJK term's `cjk.query_grams`, a repeated one kept). A long CJK term is ranked by
    its bigrams, not as one trigram phrase: a Chinese question is mostly one run that no message
    contains whole (BENCHMARKS.md, "CJK recall")."""
    grams = [g for t in terms if cjk.is_cjk(t) for g in cjk.query_grams(t)]
    return [t for t in terms if len(t) >= 3 and not cjk.is_cjk(t)], grams


LEXICAL_TABLES = ("items_fts", "items_porter", "items_grams")


# A search term: one word, or a word with its other forms ("buy", "bought"), matched as one term.
Term = str | tuple[str, ...]


def fts_phrase(term: Term) -> str:
    """A term as an FTS5 phrase (quotes doubled), so user text is never FTS syntax; a term's forms
    as phrases joined by OR."""
    if isinstance(term, tuple):
        return " OR ".join(fts_phrase(form) for form in term)
    return '"' + term.replace('"', '""') + '"'


@dataclass(frozen=True)
class Item:
    item_key: str
    kind: str  # current_log / log_archive / episodic_memory / dream_insight / diary / knowledge
    source: str
    text: str
    speaker: str = ""
    message_ids: tuple[str, ...] = ()
    ts: str = ""
    arousal: float = 0.0
    body: str = ""  # the message itself, without the "[date] speaker:" heading (lexical fields)
    session: str = ""  # items of one conversation session share it (windows stay inside it)
    position: int = 0  # order within its source

    @property
    def lexical_body(self) -> str:
        return self.body or self.text

    @property
    def embedding_text(self) -> str:
        """What the embedder reads: who said it and what, without the date heading, which cost
        ~30% of the embedding time of a chat message and carried no meaning for the model."""
        if not self.body:
            return self.text
        return f"{self.speaker}: {self.body}" if self.speaker else self.body


def file_signature(path: Path) -> str:
    """Size and modification time: equal means unchanged (an append or an edit changes either)."""
    info = path.stat()
    return f"{info.st_size}:{info.st_mtime_ns}"


@dataclass(frozen=True)
class SourceState:
    content_hash: str
    items: int
    complete: bool  # every item of it is stored (an interrupted upload is not)
    signature: str  # `file_signature` when it was indexed ('' unknown)


@dataclass(frozen=True)
class ChangedFile:
    raw: bytes
    content_hash: str
    signature: str  # to record with the source once it is indexed


@dataclass(frozen=True)
class StoredItem:
    id: int
    item: Item
    access_count: int = 0
    last_access: str = ""
    extra: dict = field(default_factory=dict)


class StoreClosed(RuntimeError):
    """Work on a persona's memory that waited while the persona was renamed or deleted."""

    def __init__(self):
        super().__init__("This persona was renamed or deleted meanwhile; nothing was changed. "
                         "Try again under its current name.")


class MemoryDB:
    def __init__(self, path: Path):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._conn.create_function("cjk_grams", 1, cjk.index_grams, deterministic=True)  # migration 007
        self._lock = threading.RLock()
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self.created = self._migrate()
        self._table: ItemTable | None = None  # filled on first use (`_items`)
        self._table_version = -1  # PRAGMA data_version the table matches
        # (table, term) -> (matches, items then): `terms_within_budget` counts a term again only
        # once the history has grown by TERM_COUNT_REFRESH_GROWTH (the budget needs no exact count).
        self._term_counts: OrderedDict[tuple[str, str], tuple[int, int]] = OrderedDict()
        self._match_lists = lexical.MatchCache(constants.LEXICAL_CACHE_IDS)
        self.closed = False

    def _items(self) -> ItemTable:
        """The in-memory item table, current (caller holds the lock). This connection's writes keep
        it current; a write by another connection (another process) changes `data_version`, and
        the table is read again."""
        version = self._conn.execute("PRAGMA data_version").fetchone()[0]
        if self._table is None or version != self._table_version:
            self._table = ItemTable(TableRow(*row) for row in self._conn.execute(
                "SELECT id, kind, source, session, position, speaker, ts, arousal FROM items WHERE archived = 0"))
            self._table_version = version
            self.forget_lexical_caches()
        return self._table

    def close(self) -> None:
        with self._lock:
            self.closed = True
            self._conn.close()

    def ensure_open(self) -> None:
        """Raise StoreClosed once closed (work that waited for a lock checks before it writes)."""
        if self.closed:
            raise StoreClosed()

    def _migrate(self) -> bool:
        """Apply pending migrations; True if the database was new (ids may repeat old ones)."""
        with self._lock:
            self._conn.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY)")
            done = {row[0] for row in self._conn.execute("SELECT name FROM migrations")}
            for name, sql in MIGRATIONS:
                if name in done:
                    continue
                self._conn.execute("BEGIN")
                for statement in filter(str.strip, sql.split(";")):
                    self._conn.execute(statement)
                self._conn.execute("INSERT INTO migrations(name) VALUES (?)", (name,))
                self._conn.execute("COMMIT")
            return not done

    # --- writing -------------------------------------------------------------------------
    def add_items(self, items: Sequence[Item]) -> list[int]:
        """Insert items (skipping keys already present); returns the new row ids in order."""
        ids: list[int] = []
        added: list[TableRow] = []
        with self._lock:
            self._conn.execute("BEGIN")
            try:
                for item in items:
                    cursor = self._conn.execute(
                        "INSERT OR IGNORE INTO items(item_key, kind, source, text, speaker, message_ids, ts, arousal,"
                        " body, session, position) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                        (item.item_key, item.kind, item.source, item.text, item.speaker,
                         json.dumps(list(item.message_ids)), item.ts, item.arousal, item.body, item.session,
                         item.position),
                    )
                    if cursor.rowcount != 1:
                        continue
                    row_id = int(cursor.lastrowid)
                    self._conn.execute("INSERT INTO items_fts(rowid, text) VALUES (?, ?)", (row_id, item.text))
                    self._conn.execute("INSERT INTO items_grams(rowid, grams) VALUES (?, ?)",
                                       (row_id, cjk.index_grams(item.text)))
                    self._conn.execute("INSERT INTO items_porter(rowid, speaker, body) VALUES (?, ?, ?)",
                                       (row_id, item.speaker, item.lexical_body))
                    ids.append(row_id)
                    added.append(TableRow(row_id, item.kind, item.source, item.session, item.position,
                                          item.speaker, item.ts, item.arousal))
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            if self._table is not None:
                self._table.add(added)
        return ids

    def remove_source(self, source: str) -> list[int]:
        with self._lock:
            rows = self._conn.execute("SELECT id, text FROM items WHERE source = ?", (source,)).fetchall()
            self._delete_rows(rows)
            self._conn.execute("DELETE FROM sources WHERE source = ?", (source,))
        return [row[0] for row in rows]

    def remove_keys(self, keys: Sequence[str]) -> list[int]:
        with self._lock:
            marks = ",".join("?" * len(keys))
            rows = self._conn.execute(f"SELECT id, text FROM items WHERE item_key IN ({marks})", list(keys)).fetchall()
            self._delete_rows(rows)
        return [row[0] for row in rows]

    def _delete_rows(self, rows) -> None:
        self._conn.execute("BEGIN")
        try:
            for row_id, text in rows:
                self._conn.execute("INSERT INTO items_fts(items_fts, rowid, text) VALUES ('delete', ?, ?)",
                                   (row_id, text))
                for table in ("items_grams", "items_porter"):
                    self._conn.execute(f"DELETE FROM {table} WHERE rowid = ?", (row_id,))
                self._conn.execute("DELETE FROM items WHERE id = ?", (row_id,))
            self._conn.execute("COMMIT")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        if rows:  # a deleted id can come back for other text; a term it held may now fit the budget
            self.forget_lexical_caches()
        if self._table is not None:
            self._table.remove([row_id for row_id, _ in rows])

    def mark_source(self, source: str, content_hash: str, items: int, complete: bool, signature: str = "") -> None:
        with self._lock:
            self._conn.execute(
                "INSERT INTO sources(source, content_hash, items, complete, signature) VALUES (?,?,?,?,?)"
                " ON CONFLICT(source) DO UPDATE SET content_hash=excluded.content_hash, items=excluded.items,"
                " complete=excluded.complete, signature=excluded.signature",
                (source, content_hash, items, int(complete), signature),
            )

    def source_names(self, prefix: str) -> list[str]:
        """The recorded sources whose name starts with `prefix`."""
        with self._lock:
            return [row[0] for row in self._conn.execute(
                "SELECT source FROM sources WHERE substr(source, 1, ?) = ?", (len(prefix), prefix))]

    def keys_of_source(self, source: str) -> list[str]:
        with self._lock:
            return [row[0] for row in self._conn.execute("SELECT item_key FROM items WHERE source = ?", (source,))]

    def changed_file(self, source: str, path: Path, digest: Callable[[bytes], str],
                     stored_items: int | None = None) -> ChangedFile | None:
        """The file's content if it changed since it was indexed as `source`, else None. An
        unchanged size and modification time mean unchanged, and the file is not even read; a file
        touched but not changed (same `digest`) is recorded with its new signature. With
        `stored_items`, a different count of stored items also means changed."""
        signature = file_signature(path)
        state = self.source_state(source)
        indexed = state is not None and state.complete and stored_items in (None, state.items)
        if indexed and state.signature == signature:
            return None
        raw = path.read_bytes()
        content_hash = digest(raw)
        if indexed and state.content_hash == content_hash:
            self.mark_source(source, content_hash, state.items, complete=True, signature=signature)
            return None
        return ChangedFile(raw, content_hash, signature)

    def source_state(self, source: str) -> SourceState | None:
        with self._lock:
            row = self._conn.execute("SELECT content_hash, items, complete, signature FROM sources WHERE source = ?",
                                     (source,)).fetchone()
        return SourceState(row[0], row[1], bool(row[2]), row[3]) if row else None

    def record_access(self, ids: Iterable[int], now: datetime) -> None:
        with self._lock:
            self._conn.executemany(
                "UPDATE items SET access_count = access_count + 1, last_access = ? WHERE id = ?",
                [(now.isoformat(timespec="seconds"), i) for i in ids],
            )

    # --- reading -------------------------------------------------------------------------
    def get(self, ids: Sequence[int]) -> dict[int, StoredItem]:
        if not ids:
            return {}
        found: dict[int, StoredItem] = {}
        with self._lock:
            for chunk, marks in id_chunks(ids):
                for row in self._conn.execute(
                    "SELECT id, item_key, kind, source, text, speaker, message_ids, ts, arousal, access_count,"
                    f" last_access, body, session, position FROM items WHERE id IN ({marks}) AND archived = 0", chunk,
                ):
                    item = Item(row[1], row[2], row[3], row[4], row[5], parse_ids(row[6]), row[7], row[8],
                                row[11], row[12], row[13])
                    found[row[0]] = StoredItem(row[0], item, row[9], row[10])
        return found

    def scoring_fields(self, ids: Sequence[int]) -> dict[int, ScoringFields]:
        """The live items' fields recall scores by (no texts read, no Item built)."""
        with self._lock:
            return self._items().scoring_fields(ids)

    def count(self, kind: str | None = None) -> int:
        with self._lock:
            if kind is None:
                return int(self._conn.execute("SELECT count(*) FROM items").fetchone()[0])
            return int(self._conn.execute("SELECT count(*) FROM items WHERE kind = ?", (kind,)).fetchone()[0])

    def ids_by_key(self, keys: Sequence[str]) -> dict[str, int]:
        found: dict[str, int] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                chunk = list(keys[start:start + 500])
                marks = ",".join("?" * len(chunk))
                found.update(self._conn.execute(
                    f"SELECT item_key, id FROM items WHERE item_key IN ({marks})", chunk).fetchall())
        return found

    def clear_kinds(self, kinds: Sequence[str]) -> None:
        """Forget every item of these kinds and the source records they came from."""
        marks = ",".join("?" * len(kinds))
        with self._lock:
            self._conn.execute(
                f"DELETE FROM sources WHERE source IN (SELECT DISTINCT source FROM items WHERE kind IN ({marks}))",
                list(kinds))
            rows = self._conn.execute(f"SELECT id, text FROM items WHERE kind IN ({marks})", list(kinds)).fetchall()
            self._delete_rows(rows)

    def all_ids(self, kinds: Sequence[str]) -> list[int]:
        marks = ",".join("?" * len(kinds))
        with self._lock:
            return [r[0] for r in self._conn.execute(
                f"SELECT id FROM items WHERE kind IN ({marks}) AND archived = 0 ORDER BY id", list(kinds))]

    def neighbours(self, ids: Sequence[int], radius: int) -> dict[int, list[int]]:
        """For each live id, the ids within `radius` positions of it in the same source and session
        (itself included), in order of position."""
        with self._lock:
            return self._items().neighbours(ids, radius)

    def bm25(self, table: str, terms: Sequence[Term], kinds: Sequence[str], limit: int,
             postings_budget: int | None = None) -> dict[int, float]:
        """BM25 (higher = better, `lexical.bm25`) of the `limit` best live items of `kinds` matching
        any term in one lexical index.

        With a `postings_budget`, the commonest terms are left out once the terms' matches add up
        to more than it (`terms_within_budget`), so the cost stays flat as the history grows."""
        if table not in LEXICAL_TABLES:
            raise ValueError(table)
        if postings_budget is not None:
            terms = self.terms_within_budget(table, terms, postings_budget)
        if not terms:
            return {}
        with self._lock:
            items = self._items()
            matches = self._term_matches(table, terms)
            ids, scores = lexical.bm25(matches, len(items), lambda found: items.kind_mask(found, kinds))
        return dict(lexical.best(ids, scores, limit))

    def forget_lexical_caches(self) -> None:
        """Drop the kept match lists and term counts: after deletes and other connections' writes,
        and for the scale benchmark, which times questions as if none of their words had been
        searched before."""
        with self._lock:
            self._match_lists.clear()
            self._term_counts.clear()

    def _term_matches(self, table: str, terms: Sequence[Term]) -> list[np.ndarray]:
        """Each term's matching row ids in `table`, ascending, from the match lists kept in memory
        (caller holds the lock and has called `_items()`, which drops the lists after another
        connection's write)."""
        top_id = self._conn.execute("SELECT coalesce(max(id), 0) FROM items").fetchone()[0]

        def reader(term: Term):
            def read(after: int) -> np.ndarray:
                rows = self._conn.execute(f"SELECT rowid FROM {table} WHERE {table} MATCH ? AND rowid > ?"
                                          " AND rowid <= ? ORDER BY rowid", [fts_phrase(term), after, top_id])
                return np.fromiter((r[0] for r in rows), dtype=np.int64)
            return read

        found = {t: self._match_lists.matches((table, t), top_id, reader(t)) for t in dict.fromkeys(terms)}
        return [found[t] for t in terms]

    def terms_within_budget(self, table: str, terms: Sequence[Term], budget: int) -> list[Term]:
        """The rarest terms whose matches add up to at most `budget`, in their given order.

        Ranking reads every match of every term, so a term found in a large share of a long history
        costs milliseconds and, by its low IDF, adds little (BENCHMARKS.md §2). While the index's
        number of items is at most `budget`, nothing is counted and nothing is left out."""
        if not terms:
            return []
        with self._lock:
            items = len(self._items())
            if items <= budget:
                return list(terms)
            counts = {t: self._term_count(table, t, items) for t in dict.fromkeys(terms)}
        kept, total = set(), 0
        for term in sorted(counts, key=counts.__getitem__):
            total += counts[term]
            if total > budget:
                break
            kept.add(term)
        if len(kept) < len(counts):
            log.debug("Lexical search in %s leaves out common terms %s", table, sorted(map(str, set(counts) - kept)))
        return [t for t in terms if t in kept]

    def _term_count(self, table: str, term: Term, items: int) -> int:
        """How many rows of `table` match `term`, counted again once the items have grown enough
        (caller holds the lock)."""
        key = (table, term)
        known = self._term_counts.get(key)
        if known is None or items > known[1] * (1 + constants.TERM_COUNT_REFRESH_GROWTH):
            known = (self._conn.execute(f"SELECT count(*) FROM {table} WHERE {table} MATCH ?",
                                        [fts_phrase(term)]).fetchone()[0], items)
        self._term_counts[key] = known
        self._term_counts.move_to_end(key)
        while len(self._term_counts) > constants.TERM_COUNT_CACHE_SIZE:
            self._term_counts.popitem(last=False)
        return known[0]

    def _filter_ids(self, ids: Sequence[int], kinds: Sequence[str]) -> set[int]:
        """The ids among `ids` that are live items of one of `kinds` (caller holds the lock)."""
        return self._items().of_kinds(ids, kinds)

    def keyword_matches(self, terms: Sequence[str], kinds: Sequence[str], per_end: int,
                        skip_ids: Collection[str] = (), min_chars: int = 0) -> tuple[list[int], list[int]]:
        """Live items of `kinds` containing any term (`split_terms` picks the index), at least
        `min_chars` long, whose key is not among `skip_ids` (a message's key is its id).

        Returns (the `per_end` oldest and the `per_end` newest, oldest first; every other match of
        `kinds`, oldest first, unchecked — the caller checks the few it draws). Every match counts,
        not the best-scored ones: the keyword search samples the newest and oldest mentions (seed
        004). The matches are read once and put in time order from the item table; rows are read
        only from either end until enough qualify, so a common name costs little more than a rare one."""
        long_terms, short_terms = split_terms(terms)
        if not (long_terms or short_terms) or per_end <= 0:
            return [], []
        skip = set(skip_ids)
        with self._lock:
            table = self._items()  # first: another connection's write drops the kept lists
            lists = self._term_matches("items_fts", long_terms) + self._term_matches("items_grams", short_terms)
            matched = np.unique(np.concatenate(lists))
            in_time = table.by_time(matched[table.kind_mask(matched, kinds)])
            oldest = self._first_qualifying(in_time, per_end, skip, min_chars)
            if len(oldest) < per_end:  # fewer than asked for: every qualifying match is at hand
                return oldest, []
            newest = self._first_qualifying(in_time[::-1], per_end, skip, min_chars)
        ends = set(oldest) | set(newest)
        return oldest + [i for i in reversed(newest) if i not in oldest], [i for i in in_time.tolist() if i not in ends]

    def _first_qualifying(self, ids: np.ndarray, count: int, skip: set[str], min_chars: int) -> list[int]:
        """The first `count` of `ids`, in order, at least `min_chars` long and whose key is not in
        `skip`; rows read a chunk at a time (caller holds the lock)."""
        found: list[int] = []
        chunk = 2 * count + len(skip)
        for start in range(0, len(ids), chunk):
            wanted = ids[start:start + chunk].tolist()
            marks = ",".join("?" * len(wanted))
            rows = {row_id: (key, length) for row_id, key, length in self._conn.execute(
                f"SELECT id, item_key, length(text) FROM items WHERE id IN ({marks})", wanted)}
            for row_id in wanted:
                key, length = rows.get(row_id, ("", -1))
                if length >= min_chars and key not in skip:
                    found.append(row_id)
                    if len(found) == count:
                        return found
        return found

    def lexical_search(self, terms: Sequence[str], kinds: Sequence[str], limit: int) -> list[tuple[int, float]]:
        """BM25 over the trigram index for other terms of 3+ characters, the gram index for CJK
        terms (`ranking_terms`); (id, score) with higher = better, best first."""
        long_terms, short_terms = ranking_terms(terms)
        scores = self.bm25("items_fts", long_terms, kinds, limit)
        for row_id, score in self.bm25("items_grams", short_terms, kinds, limit).items():
            scores[row_id] = scores.get(row_id, 0.0) + score
        return sorted(scores.items(), key=lambda kv: kv[1], reverse=True)[:limit]
