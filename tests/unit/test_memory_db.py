from datetime import datetime, timezone
import pytest

from managers.memory_db import Item, MemoryDB


def item(key: str, text: str, kind: str = "current_log", source: str = "2026-01.txt") -> Item:
    return Item(key, kind, source, text, "USER", (key,), "2026-01-05T10:00:00")


def test_japanese_substring_and_short_terms_are_found(tmp_path):
    db = MemoryDB(tmp_path / "memory.db")
    ids = db.add_items([
        item("a", "先週話した旅行の計画を覚えてる？"),
        item("b", "田中さんと猫カフェに行った"),
        item("c", "The weather was lovely in Kyoto"),
    ])
    assert len(ids) == 3
    # ranked by its bigrams and ideographs: 行 also finds 行った, lower
    assert [i for i, _ in db.lexical_search(["旅行の計画"], ["current_log"], 10)] == [ids[0], ids[1]]
    assert [i for i, _ in db.lexical_search(["田中"], ["current_log"], 10)] == [ids[1]]
    assert [i for i, _ in db.lexical_search(["猫"], ["current_log"], 10)] == [ids[1]]
    assert [i for i, _ in db.lexical_search(["kyoto"], ["current_log"], 10)] == [ids[2]]
    assert db.lexical_search(["旅行の計画"], ["knowledge"], 10) == []


def test_fts_syntax_in_terms_is_treated_as_text(tmp_path):
    db = MemoryDB(tmp_path / "memory.db")
    db.add_items([item("a", 'he said "NEAR(x y)" OR * AND')])
    assert db.lexical_search(['"NEAR(x y)"', "OR *"], ["current_log"], 10)


def test_items_are_unique_by_key_and_a_source_can_be_replaced(tmp_path):
    db = MemoryDB(tmp_path / "memory.db")
    db.add_items([item("a", "first version of the diary")])
    assert db.add_items([item("a", "first version of the diary")]) == []
    removed = db.remove_source("2026-01.txt")
    assert len(removed) == 1 and db.count() == 0
    assert db.lexical_search(["diary"], ["current_log"], 10) == []


def test_migrations_rerun_safely_and_access_is_recorded(tmp_path):
    path = tmp_path / "memory.db"
    db = MemoryDB(path)
    [row] = db.add_items([item("a", "something to remember")])
    db.record_access([row], datetime(2026, 2, 1, tzinfo=timezone.utc))
    db.close()
    again = MemoryDB(path)
    stored = again.get([row])[row]
    assert stored.access_count == 1 and stored.last_access.startswith("2026-02-01")


def test_memory_search_is_not_crowded_out_by_better_knowledge_matches(tmp_path):
    db = MemoryDB(tmp_path / "memory.db")
    db.add_items([item(f"k{n}", "apple apple apple orchard", kind="knowledge", source="book.md") for n in range(12)])
    logs = db.add_items([item("m1", "I ate an apple at lunch with my sister and we talked"),
                         item("m2", "the apple pie at the cafe was too sweet for me today")])
    for table, term in (("items_porter", "apple"), ("items_fts", "apple")):
        assert set(db.bm25(table, [term], ["current_log"], 2)) == set(logs)
        assert len(db.bm25(table, [term], ["knowledge"], 5)) == 5


@pytest.mark.parametrize("ids", [[], ["a"], ["20260101-ab", "20260101-cd"], ['he said "hi", "bye"', "x\\y"]])
def test_stored_message_ids_read_back_exactly(ids):
    import json

    from managers.memory_db import parse_ids

    for stored in (json.dumps(ids), json.dumps(ids, separators=(",", ":"))):
        assert parse_ids(stored) == tuple(ids)


def test_postings_budget_leaves_out_the_commonest_terms_first(tmp_path):
    db = MemoryDB(tmp_path / "memory.db")
    ids = db.add_items([item(f"c{n}", f"common words in message {n}") for n in range(8)]
                       + [item("r1", "a rare kumquat and common words"), item("r2", "another kumquat here")])
    # 9 messages say "common", 2 say "kumquat": with room for 5 matches only "kumquat" is ranked.
    assert db.terms_within_budget("items_porter", ["common", "kumquat"], 5) == ["kumquat"]
    assert set(db.bm25("items_porter", ["common", "kumquat"], ["current_log"], 20, postings_budget=5)) == set(ids[8:])
    # Room for both: the order of the query is kept and nothing is left out.
    assert db.terms_within_budget("items_porter", ["common", "kumquat"], 11) == ["common", "kumquat"]
    assert len(db.bm25("items_porter", ["common", "kumquat"], ["current_log"], 20, postings_budget=11)) == 10
    # An index with no more rows than the budget is never counted, so nothing can be left out.
    assert db.terms_within_budget("items_porter", ["common", "kumquat"], 10) == ["common", "kumquat"]
    # Every term too common: no lexical hits rather than an unbounded scan.
    assert db.bm25("items_porter", ["common"], ["current_log"], 20, postings_budget=5) == {}
    assert db.terms_within_budget("items_grams", ["旅"], 5) == ["旅"]


def test_keyword_matches_come_from_both_ends_of_time_whatever_their_score(tmp_path):
    db = MemoryDB(tmp_path / "memory.db")
    # 300 mentions, the oldest written last (row order is not time order) and wordier (lower BM25).
    texts = [(f"2026-{1 + n // 28:02d}-{1 + n % 28:02d}T10:00:00",
              f"Mochi {'was sleeping on the sofa all afternoon long ' * (3 if n < 5 else 0)}day {n}")
             for n in range(300)]
    rows = [Item(f"k{n}", "current_log", "2026.txt", text, "USER", (f"k{n}",), ts)
            for n, (ts, text) in reversed(list(enumerate(texts)))]
    db.add_items(rows + [item("other", "no pets mentioned here at all")])
    ids_by_key = db.ids_by_key([f"k{n}" for n in range(300)])
    ends, between = db.keyword_matches(["Mochi"], ["current_log"], 3)
    assert ends == [ids_by_key[f"k{n}"] for n in (0, 1, 2, 297, 298, 299)]
    assert len(between) == 294 and set(between).isdisjoint(ends)
    assert db.keyword_matches(["Mochi"], ["knowledge"], 3) == ([], [])
    few_ends, none_between = db.keyword_matches(["Mochi"], ["current_log"], 200)
    assert len(few_ends) == 300 and none_between == []
    # What the search would drop anyway (in the context, too short) is skipped before the ends are cut.
    newest_in_context = [f"k{n}" for n in range(290, 300)]
    ends, _ = db.keyword_matches(["Mochi"], ["current_log"], 2, skip_ids=newest_in_context)
    assert ends == [ids_by_key[f"k{n}"] for n in (0, 1, 288, 289)]
    assert db.keyword_matches(["Mochi"], ["current_log"], 2, min_chars=100)[0] == [ids_by_key[f"k{n}"] for n in (0, 1, 3, 4)]


def test_term_counts_for_the_budget_are_taken_again_once_the_history_has_grown(tmp_path):
    db = MemoryDB(tmp_path / "memory.db")
    db.add_items([item(f"c{n}", f"plain message {n}") for n in range(18)]
                 + [item("k1", "a kumquat"), item("k2", "another kumquat")])
    assert db.terms_within_budget("items_porter", ["kumquat"], 3) == ["kumquat"]
    db.add_items([item("k3", "kumquat again")])  # 5 % more items: the count of 2 is still used
    assert db.terms_within_budget("items_porter", ["kumquat"], 2) == ["kumquat"]
    db.add_items([item(f"k{n}", f"kumquat number {n}") for n in range(4, 8)])  # 25 % more: counted again
    assert db.terms_within_budget("items_porter", ["kumquat"], 3) == []


def test_a_database_from_before_the_last_migration_is_brought_up_to_date_once(tmp_path):
    import sqlite3

    path = tmp_path / "memory.db"
    MemoryDB(path).close()
    with sqlite3.connect(path) as conn:  # as left by a version whose last migration was 004
        conn.execute("DELETE FROM migrations WHERE name = '005_no_time_index'")
        conn.execute("CREATE INDEX items_ts ON items(ts, id)")
    db = MemoryDB(path)
    indexes = {name for (name,) in db._conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert "items_ts" not in indexes and "items_window" in indexes
    db.close()
    MemoryDB(path).close()  # nothing left to apply: opening again changes nothing
