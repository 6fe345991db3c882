"""BM25 over match lists kept in memory: what ranks first, what is read again, what is forgotten."""
import numpy as np

from managers import lexical
from managers.memory_db import Item, MemoryDB


def item(key: str, text: str, kind: str = "current_log") -> Item:
    return Item(key, kind, "2026-01.txt", text, "USER", (key,), "2026-01-05T10:00:00")


class Reader:
    """A match reader over a growing list of matching ids that records what it was asked."""

    def __init__(self, ids):
        self.ids, self.asked = list(ids), []

    def __call__(self, after: int) -> np.ndarray:
        self.asked.append(after)
        return np.array([i for i in self.ids if i > after], dtype=np.int64)


def test_a_term_list_is_read_once_and_then_only_for_rows_added_since():
    cache, reader = lexical.MatchCache(max_ids=100), Reader([2, 5])
    assert cache.matches("kumquat", 10, reader).tolist() == [2, 5]
    assert cache.matches("kumquat", 10, reader).tolist() == [2, 5]
    reader.ids.append(12)
    assert cache.matches("kumquat", 14, reader).tolist() == [2, 5, 12]
    assert reader.asked == [0, 10]


def test_the_least_recently_used_lists_go_first_once_the_cache_is_full():
    cache = lexical.MatchCache(max_ids=4)
    readers = {term: Reader(range(1, 4)) for term in ("a", "b", "c")}
    cache.matches("a", 9, readers["a"])
    cache.matches("b", 9, readers["b"])  # 6 ids held: "a" goes
    cache.matches("b", 9, readers["b"])
    cache.matches("a", 9, readers["a"])  # read again; "b" goes
    assert readers["a"].asked == [0, 0] and readers["b"].asked == [0]
    assert len(cache) == 1
    cache.clear()
    cache.matches("a", 9, readers["a"])
    assert readers["a"].asked == [0, 0, 0]


def test_items_matching_more_and_rarer_terms_score_higher_and_unwanted_ones_are_left_out():
    ids, scores = lexical.bm25([np.array([1, 2, 3, 4]), np.array([2, 3]), np.array([4])], items=10,
                               wanted=lambda found: found != 3)
    score = dict(zip(ids.tolist(), scores.tolist()))
    assert set(score) == {1, 2, 4}
    assert score[2] > score[1]  # a second term
    assert score[4] > score[2]  # the rarest term outweighs the commoner one
    assert lexical.idf(9, 10) == lexical.idf(10, 10) > 0  # a term in most items still counts a little


def test_best_orders_by_score_then_id():
    ids, scores = np.array([7, 3, 5, 9]), np.array([0.5, 2.0, 0.5, 1.0])
    assert lexical.best(ids, scores, 3) == [(3, 2.0), (9, 1.0), (5, 0.5)]


def test_memory_db_ranks_from_kept_lists_and_sees_rows_added_and_deleted_since(tmp_path):
    db = MemoryDB(tmp_path / "memory.db")
    ids = db.add_items([item(f"c{n}", f"a plain message number {n}") for n in range(6)]
                       + [item("k1", "my kumquat tree"), item("k2", "my kumquat jam!")])
    ranked = db.bm25("items_porter", ["kumquat", "tree"], ["current_log"], 5)
    assert list(ranked) == [ids[6], ids[7]]
    # A term given twice weighs double.
    assert list(db.bm25("items_porter", ["tree", "jam", "jam"], ["current_log"], 2)) == [ids[7], ids[6]]
    assert list(db.bm25("items_porter", ["tree", "tree", "jam"], ["current_log"], 2)) == [ids[6], ids[7]]
    new = db.add_items([item("k3", "kumquat tree")])
    assert list(db.bm25("items_porter", ["kumquat", "tree"], ["current_log"], 3)) == [ids[6], new[0], ids[7]]
    # Deleting the newest row lets SQLite give its id to the next one, which does not say kumquat.
    db.remove_keys(["k3"])
    reused = db.add_items([item("other", "nothing about fruit")])
    assert reused == new
    assert reused[0] not in db.bm25("items_porter", ["kumquat"], ["current_log"], 10)
    assert db.bm25("items_porter", ["kumquat"], ["knowledge"], 10) == {}


def test_keyword_search_never_returns_a_reused_id_from_a_kept_list(tmp_path):
    db, other = MemoryDB(tmp_path / "memory.db"), MemoryDB(tmp_path / "memory.db")
    ids = db.add_items([item("k1", "hello world"), item("k2", "an apple pie")])
    assert db.keyword_matches(["apple"], ["current_log"], 5) == ([ids[1]], [])
    other.remove_keys(["k2"])
    assert other.add_items([item("k3", "a banana split")]) == [ids[1]]  # SQLite gives the id again
    assert db.keyword_matches(["apple"], ["current_log"], 5) == ([], [])


def test_best_with_no_room_and_idf_with_more_matches_than_items():
    assert lexical.best(np.array([1, 2]), np.array([1.0, 2.0]), 0) == []
    assert lexical.idf(6, 1) == lexical.idf(1, 1) > 0


def test_another_connections_rows_are_found(tmp_path):
    db, other = MemoryDB(tmp_path / "memory.db"), MemoryDB(tmp_path / "memory.db")
    db.add_items([item("k1", "my kumquat tree")])
    assert len(db.bm25("items_fts", ["kumquat"], ["current_log"], 5)) == 1
    other.remove_keys(["k1"])
    new = other.add_items([item("k2", "fig tree")])
    assert db.bm25("items_fts", ["kumquat"], ["current_log"], 5) == {}
    assert list(db.bm25("items_fts", ["tree"], ["current_log"], 5)) == new
