"""CJK text for the lexical indexes: grams, the ranking terms, the gram index's rebuild, matching."""
import sqlite3

from agent.query_planner import content_words
from managers import cjk
from managers.memory_db import Item, MemoryDB, ranking_terms, split_terms


def item(key: str, text: str) -> Item:
    return Item(key, "current_log", "2026-01.txt", text, "USER", (key,), "2026-01-05T10:00:00")


def found(db: MemoryDB, terms) -> list[int]:
    return [i for i, _ in db.lexical_search(terms, ["current_log"], 10)]


def test_index_grams_are_each_runs_unigrams_and_bigrams_of_nfkc_text():
    assert cjk.index_grams("田中さん hello") == "田 中 さ ん 田中 中さ さん"
    assert cjk.index_grams("ﾀﾏ、佐々木") == "タ マ タマ 佐 々 木 佐々 々木"  # half-width kana, 々 inside a run
    assert cjk.index_grams("hello 123") == ""


def test_a_cjk_term_is_looked_up_by_its_bigrams_and_ideographs():
    assert cjk.query_grams("猫") == ["猫"]
    assert cjk.query_grams("田中") == ["田中", "田", "中"]
    assert cjk.query_grams("健康診断") == ["健康", "康診", "診断", "健", "康", "診", "断"]
    assert cjk.query_grams("コーヒー") == ["コー", "ーヒ", "ヒー"]  # no single kana
    assert cjk.query_grams("時々") == ["時々", "時"]
    assert ranking_terms(["kyoto", "猫", "田中", "ab", "猫"]) == (["kyoto"], ["猫", "田中", "田", "中", "猫"])
    # exact look-ups (the keyword search) keep a long term whole, for the trigram index
    assert split_terms(["健康診断", "猫", "ab"]) == (["健康診断"], ["猫"])


def test_one_and_two_character_terms_still_match(tmp_path):
    db = MemoryDB(tmp_path / "memory.db")
    ids = db.add_items([item("a", "田中さんと猫カフェに行った"), item("b", "我家的猫叫咪咪"),
                        item("c", "週末は雨だった"), item("d", "田中的报告写完了")])
    assert found(db, ["猫"]) and set(found(db, ["猫"])) == {ids[0], ids[1]}
    assert set(found(db, ["田中"])) == {ids[0], ids[3]}
    assert set(found(db, content_words("猫の名前は？"))) >= {ids[0], ids[1]}


def test_a_one_character_word_inside_a_chinese_sentence_still_matches(tmp_path):
    db = MemoryDB(tmp_path / "memory.db")
    ids = db.add_items([item("a", "猫"), item("b", "今天天气真好")])
    assert content_words("我的猫呢？") == ["我的猫呢"]
    assert found(db, content_words("我的猫呢？")) == [ids[0]]


def test_a_chinese_question_finds_its_message_by_bigrams(tmp_path):
    db = MemoryDB(tmp_path / "memory.db")
    ids = db.add_items([item("a", "老家养了一只狗，名字叫旺财"), item("b", "我家的猫叫咪咪，特别黏人"),
                        item("c", "今天天气真好"), item("d", "刷猫的视频刷到半夜")])
    words = content_words("我家养的猫叫什么来着？")
    assert words == ["我家养的猫叫什么来着"]  # one run: no trigram phrase of it is in any message
    assert found(db, words)[0] == ids[1]


def test_a_japanese_question_ranks_the_message_sharing_more_of_its_words(tmp_path):
    db = MemoryDB(tmp_path / "memory.db")
    ids = db.add_items([item("a", "健康診断でコレステロールが高いって言われた"), item("b", "診断書をもらってきた"),
                        item("c", "コレステロールって何？")])
    assert found(db, content_words("健康診断のコレステロールの結果は？"))[0] == ids[0]


def test_migration_rebuilds_the_gram_index_of_an_existing_database(tmp_path):
    path = tmp_path / "memory.db"
    db = MemoryDB(path)
    [row] = db.add_items([item("a", "佐々木さんとﾗｰﾒﾝを食べた")])
    db.close()
    # As a database indexed before migration 007: 々 split the run, half-width kana not normalised.
    raw = sqlite3.connect(path)
    raw.execute("DELETE FROM items_grams")
    raw.execute("INSERT INTO items_grams(rowid, grams) VALUES (?, ?)", (row, "佐 木 さ ん と 木さ さん んと を 食 べ た"))
    raw.execute("DELETE FROM migrations WHERE name = '007_cjk_grams_nfkc'")
    raw.commit()
    raw.close()
    again = MemoryDB(path)
    assert found(again, ["佐々"]) == [row]
    assert found(again, ["ラーメン"]) == [row]
