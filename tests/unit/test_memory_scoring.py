from datetime import datetime, timedelta, timezone

import pytest

from agent.memory_scoring import composite_score, marks_for, rerank, time_decay

NOW = datetime(2026, 6, 1, tzinfo=timezone.utc)


def test_time_decay_halves_in_about_two_weeks():
    assert time_decay(NOW, NOW) == pytest.approx(1.0)
    assert time_decay(NOW - timedelta(days=14), NOW) == pytest.approx(0.4966, abs=1e-3)
    assert time_decay(None, NOW) == 1.0
    assert time_decay(NOW + timedelta(days=3), NOW) == 1.0  # clock skew never boosts


def test_high_arousal_protects_from_time_decay():
    old = time_decay(NOW - timedelta(days=365), NOW)
    calm = composite_score(0.5, 0.0, old, "temporal")
    vivid = composite_score(0.5, 1.0, old, "temporal")
    fresh_calm = composite_score(0.5, 0.0, 1.0, "temporal")
    assert vivid > calm
    assert vivid - 0.2 == pytest.approx(fresh_calm)  # with arousal 1 the time term is as if new


# Three memories: a close but old calm one, a less similar but vivid old one, a less similar fresh one.
CANDIDATES = [
    (1, 0.9, 0.0, NOW - timedelta(days=200)),
    (2, 0.6, 0.5, NOW - timedelta(days=200)),
    (3, 0.6, 0.0, NOW - timedelta(days=1)),
]


def first(intent: str) -> int:
    return rerank(CANDIDATES, intent, NOW, weight=1.0)[0][0]


def test_intents_reorder_as_the_seed_intends():
    assert first("emotional") == 2  # vivid memories first, whatever their age
    assert first("temporal") == 3  # recent first
    assert first("technical") == 3
    assert first("factual") == 3  # factual still weighs time at 0.3 against similarity at 0.5
    assert first("relational") == 2


def test_blend_weight_keeps_clear_relevance_on_top():
    assert rerank(CANDIDATES, "temporal", NOW, weight=0.0)[0][0] == 1
    assert [i for i, _ in rerank(CANDIDATES, "temporal", NOW, weight=0.0)][0] == 1


def test_marks():
    assert marks_for(0.8, 0.95).text() == "★🆕"
    assert marks_for(0.2, 0.5).text() == ""


def test_one_star_rule_at_the_seeds_boundary():
    # Seed 004 §3: "★ for arousal ≥ 0.6". A recalled memory and an episode agree at the boundary.
    from managers.episodes import Episode, is_starred

    assert is_starred(0.6) and not is_starred(0.59) and not is_starred(None)
    assert marks_for(0.6, 0.5).vivid and not marks_for(0.59, 0.5).vivid
    assert Episode(date="2026-03-14", summary="s", arousal_max=0.6).starred
    assert not Episode(date="2026-03-14", summary="s", arousal_max=0.59).starred
