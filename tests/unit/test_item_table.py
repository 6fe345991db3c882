"""The in-memory item table recall reads its candidates' windows, kinds and scoring fields from,
and MemoryDB keeping it current through its own writes and other connections' writes."""
from managers.item_table import ItemTable, TableRow
from managers.memory_db import Item, MemoryDB


def row(item_id: int, position: int, session: str = "s1", source: str = "2026-01.txt",
        kind: str = "current_log", speaker: str = "USER") -> TableRow:
    return TableRow(item_id, kind, source, session, position, speaker, f"2026-01-05T10:{position:02d}:00", 0.1 * item_id)


def test_neighbours_stay_inside_the_session_and_follow_position_not_id():
    table = ItemTable([row(1, 0), row(2, 1), row(9, 2), row(4, 3), row(5, 0, session="s2"), row(6, 1, source="b.txt")])
    assert table.neighbours([2], 1) == {2: [1, 2, 9]}
    assert table.neighbours([1, 5, 6], 2) == {1: [1, 2, 9], 5: [5], 6: [6]}
    assert table.neighbours([4, 77, -3], 5) == {4: [1, 2, 9, 4]}  # unknown ids are left out


def test_a_message_added_later_takes_its_place_and_a_removed_one_leaves():
    table = ItemTable([row(1, 0), row(2, 1), row(3, 3)])
    table.add([row(10, 2)])  # a later id in the middle of the session
    assert table.neighbours([2], 1) == {2: [1, 2, 10]}
    table.remove([2])
    assert table.neighbours([1, 2], 2) == {1: [1, 10]}
    assert table.of_kinds([1, 2, 10], ["current_log"]) == {1, 10}
    assert len(table) == 3


def test_kinds_and_scoring_fields():
    table = ItemTable([row(1, 0), row(2, 1, kind="knowledge", speaker=""), row(3, 2, speaker="Ark")])
    assert table.of_kinds([1, 2, 3, 4000], ["current_log", "diary"]) == {1, 3}
    assert table.of_kinds([1, 2], ["no_such_kind"]) == set()
    fields = table.scoring_fields([3, 1, 99])
    assert set(fields) == {1, 3}
    assert (fields[3].speaker, fields[3].ts, fields[3].arousal) == ("Ark", "2026-01-05T10:02:00", 0.1 * 3)
    assert fields[1].speaker == "USER"


def test_ids_far_beyond_the_first_ones_grow_the_table():
    table = ItemTable([row(1, 0)])
    table.add([row(50_000, 1)])
    assert table.neighbours([1], 1) == {1: [1, 50_000]}


def item(key: str, position: int, kind: str = "current_log") -> Item:
    return Item(key, kind, "2026-01.txt", f"message {key}", "USER", (key,), "2026-01-05T10:00:00",
                session="s1", position=position)


def test_memory_db_sees_its_own_writes_and_those_of_another_connection(tmp_path):
    path = tmp_path / "memory.db"
    db, other = MemoryDB(path), MemoryDB(path)
    a, b = db.add_items([item("a", 0), item("b", 1)])
    assert db.neighbours([a], 2) == {a: [a, b]}  # the table is filled here
    [c] = db.add_items([item("c", 2)])
    assert db.neighbours([a], 2) == {a: [a, b, c]}
    [d] = other.add_items([item("d", 3, kind="diary")])
    assert db.neighbours([b], 2) == {b: [a, b, c, d]}
    assert db.scoring_fields([d])[d].speaker == "USER"
    db.remove_keys(["b"])
    assert db.neighbours([a, b], 2) == {a: [a, c]}
    other.remove_keys(["c"])
    assert db.neighbours([a], 5) == {a: [a, d]}
    assert db.lexical_search(["message"], ["diary"], 10)[0][0] == d


def test_by_time_orders_by_timestamp_then_id_and_leaves_out_unknown_ids():
    table = ItemTable([row(7, 3), row(2, 1), row(5, 1, session="s2"), row(9, 0)])
    # row() stamps minute = position: 9 (10:00), then 2 and 5 (10:01, by id), then 7 (10:03)
    assert table.by_time([7, 5, 2, 9, 123]).tolist() == [9, 2, 5, 7]
    assert table.by_time([]).tolist() == []


def test_an_id_given_twice_is_one_item():
    table = ItemTable([row(1, 0), row(2, 1), row(2, 3, speaker="AGENT")])
    assert len(table) == 2 and table.scoring_fields([2])[2].speaker == "AGENT"  # the last row counts
    table.remove([1, 1])
    assert len(table) == 1 and table.neighbours([2], 5) == {2: [2]}
