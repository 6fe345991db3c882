"""The CJK bench's baseline: character-bigram Okapi BM25, checked against numbers worked by hand."""
import math

import pytest

from bench.cjk_recall import BigramBM25, char_bigrams


def test_char_bigrams_of_nfkc_text():
    assert char_bigrams("ﾀﾏ猫") == ["タマ", "マ猫"]
    assert char_bigrams("猫") == []


def test_bigram_bm25_on_a_hand_computed_case():
    # Items' bigrams: 田中 中猫 (2), 田中 (1), 犬犬 (1): N 3, average length 4/3; 田中 is in 2 items.
    bm25 = BigramBM25.of(["田中猫", "田中", "犬犬"])
    idf = math.log(1 + (3 - 2 + 0.5) / (2 + 0.5))  # ln 1.6 = 0.4700
    first = idf * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 2 / (4 / 3)))  # 0.4700 * 2.2 / 2.65 = 0.3902
    second = idf * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 1 / (4 / 3)))  # 0.4700 * 2.2 / 1.975 = 0.5235
    assert bm25.scores("田中") == pytest.approx([first, second, 0.0])
    assert bm25.scores("田中") == pytest.approx([0.3902, 0.5235, 0.0], abs=1e-4)
    assert bm25.ranking("田中") == [1, 0, 2]
    # A bigram the query holds twice counts twice (中田 is in no item); ties keep item order.
    assert bm25.scores("田中田中") == pytest.approx([2 * first, 2 * second, 0.0])
    assert bm25.ranking("鳥") == [0, 1, 2]
