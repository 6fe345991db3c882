"""The words a message is searched by, in every supported language: accented and Hangul words
survive whole, a name is never cut to a stem, no English stemming of other languages' words."""
from agent.english_verbs import forms_of
from agent.memory_lines import terms
from agent.recap import only_recaps
from agent.query_planner import content_words, proper_nouns
from managers.documents import query_terms
from managers.memory_db import Item, MemoryDB, ranking_terms


def item(key: str, text: str) -> Item:
    return Item(key, "current_log", "2026-01.txt", text, "USER", (key,), "2026-01-05T10:00:00")


def test_accented_words_are_searched_whole():
    assert "Müller" in content_words("Was hat Frau Müller gestern gesagt?")  # was: "ller"
    assert {"Café", "Straße", "schön"} <= set(content_words("Das Café in der Straße war schön"))
    assert "Müller" in proper_nouns("Did I tell you about Frau Müller?")
    assert "Zoë" in proper_nouns("I met Zoë at the station")
    assert "Müller" in query_terms("Was hat Frau Müller gesagt?")


def test_a_name_keeps_its_final_s():
    assert proper_nouns("Did I tell you about Ross and Chris's sister in Paris?") == ["Ross", "Chris", "Paris"]
    assert "ross" in terms("I went hiking with Ross.") and "paris" in terms("We flew to Paris.")
    assert terms("She likes it") & terms("I like it") == {"like"}  # "likes" was "lik"


def test_the_small_words_of_the_messages_language_are_not_search_words():
    words = content_words("¿Te acuerdas de la receta que me dio mi abuela?")
    assert "receta" in words and "abuela" in words and not {"que", "la", "de", "mi"} & set(words)
    assert "son" in content_words("How old is my son now?")  # French "son" is English "son"


def test_words_of_other_languages_are_not_stemmed_as_english():
    assert "casas" in terms("Vimos casas muy bonitas en Lisboa")
    assert "häuser" in terms("Wir haben schöne Häuser gesehen")


def test_korean_words_are_searched_by_their_syllable_pairs(tmp_path):
    words = content_words("내 고양이 이름 기억해?")
    assert "고양이" in words
    long_terms, grams = ranking_terms(words)
    assert "고양" in grams and "양이" in grams and not long_terms
    db = MemoryDB(tmp_path / "memory.db")
    ids = db.add_items([item("a", "우리 고양이 이름은 나비야"), item("b", "오늘 회사에서 발표했어요"),
                        item("c", "Frau Müller wohnt in der Straße nebenan")])
    assert [i for i, _ in db.lexical_search(grams, ["current_log"], 10)][:1] == [ids[0]]
    assert [i for i, _ in db.bm25("items_porter", ["müller"], ["current_log"], 10).items()] == [ids[2]]
    assert [i for i, _ in db.lexical_search(["Müller"], ["current_log"], 10)] == [ids[2]]
    assert [i for i, _ in db.lexical_search(["Straße"], ["current_log"], 10)] == [ids[2]]


def test_an_irregular_verb_is_searched_with_its_other_forms(tmp_path):
    """Porter leaves "bought" apart from "buy": "What did I buy?" must reach "I bought…"."""
    assert forms_of("buy") == ("buy", "bought") and forms_of("Went") == ("went", "go", "gone")
    assert forms_of("bicycle") == ("bicycle",)
    db = MemoryDB(tmp_path / "memory.db")
    ids = db.add_items([item("a", "I bought a second-hand accordion"), item("b", "We ate ramen after the film"),
                        item("c", "Buying shoes online is a gamble")])
    found = db.bm25("items_porter", [forms_of("buy")], ["current_log"], 10)
    assert set(found) == {ids[0], ids[2]}
    assert set(db.bm25("items_porter", [forms_of("eaten")], ["current_log"], 10)) == {ids[1]}
    assert db.terms_within_budget("items_porter", [forms_of("buy"), "film"], 1) == ["film"]


def test_a_past_tense_opening_is_read_from_the_same_table():
    assert only_recaps("Sam drove to the coast and swam in the cold sea.", "en")
    assert not only_recaps("Sam reads before bed, so ask him about the book.", "en")


def test_the_other_day_is_no_search_word():
    assert content_words("What did I buy the other day?") == ["buy"]
    assert content_words("¿Qué compré el otro día?") == ["compré"]
    assert content_words("Cosa ho comprato l'altro giorno?") == ["comprato"]
    assert "day" in content_words("What day is the other appointment?")  # a day asked about stays
