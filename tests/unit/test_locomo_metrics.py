"""The benchmark's metrics equal the reference script's (shared/bench/locomo_bm25.py) on BM25."""
import importlib.util

import pytest

from bench import locomo_metrics
from bench.shared import find_shared, shared_candidates

SHARED = find_shared("bench/locomo_bm25.py") or shared_candidates()[-1]
REFERENCE = SHARED / "bench" / "locomo_bm25.py"
DATA = SHARED / "data" / "locomo" / "30.json"


@pytest.mark.skipif(not (REFERENCE.exists() and DATA.exists()), reason="shared LoCoMo reference not on this machine")
def test_metrics_match_the_reference_script_on_its_bm25_rankings():
    spec = importlib.util.spec_from_file_location("locomo_bm25_reference", REFERENCE)
    reference = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reference)
    expected = reference.run([str(DATA)])

    reference.score_ranking = locomo_metrics.score_ranking  # same rankings, our metric code
    reference.evidence = locomo_metrics.evidence_ids
    ours = reference.run([str(DATA)])
    assert ours == expected
    assert expected["questions"] > 50


def test_score_ranking_counts_turns_not_items_and_stops_at_the_budget():
    items = [(("D1:1", "D1:2", "D1:3"), "x" * 2000), (("D1:4",), "y" * 600), (("D1:5",), "z")]
    metrics = locomo_metrics.score_ranking(items, {"D1:4", "D1:5"})
    assert metrics["R@5"] == 100.0 and metrics["mrr"] == pytest.approx(1 / 4)
    assert metrics["budget_recall"] == 0.0  # the 600-character item would pass 2,500: nothing after it counts
    assert locomo_metrics.evidence_ids({"evidence": ["D30:05; D2:1", "bad", "D9:9"]}, {"D30:5", "D2:1"}) == {"D30:5", "D2:1"}
