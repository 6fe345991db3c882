"""Episodes, the dream diary and diaries are indexed beside the chat logs and recalled with their
kind; a changed file is read again and what it no longer holds leaves; a malformed file is left
as it is, reported, and its items so far stay."""
import json
import random
from datetime import datetime, timezone

import pytest

import constants

from agent.query_planner import rule_plan
from managers.memory_sources import _with_headings_joined, diary_items, episode_items, insight_items
from managers.rag import MemoryIndexer
from persona.recall import MemoryRecall
from tests.unit.test_rag_indexing import CountingEmbedder, write_month

NOW = datetime(2026, 3, 20, 9, 0, tzinfo=timezone.utc)
EPISODES = [
    {"date": "2026-03-01", "summary": "Mina told Ark about her pottery class and the blue vase she glazed.",
     "arousal": 0.7},
    {"date": "2026-02-02~2026-02-08", "summary": "Weekly summary: a quiet week of rain and tea.", "compressed": True,
     "arousal_avg": 0.2},
]
INSIGHTS = [{"created_at": "2026-03-02 04:53:57", "trigger_topic": "pottery",
             "insight": "Mina shapes clay when she needs calm.", "strategy": "Ask about the kiln firing.",
             "log_entry": "In the dream a vase kept turning."}]


def write_json(path, records):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(records, ensure_ascii=False), "utf-8")


@pytest.fixture
def character(tmp_path):
    root = tmp_path / "Ark"
    (root / "logs").mkdir(parents=True)
    return root


def indexer_for(character, embedder=None):
    return MemoryIndexer(character, embedder or CountingEmbedder(), clock=lambda: NOW)


def kinds_found(indexer, question):
    ranked = MemoryRecall(indexer, random.Random(0)).rank(rule_plan(question), NOW, limit=5)
    return [(r.kind, r.text) for r in ranked]


def test_parsers_keep_dates_arousal_and_provenance():
    first, weekly = episode_items(json.dumps(EPISODES).encode(), "memory/episodic_memory.json")
    assert first.kind == "episodic_memory" and first.source == "memory/episodic_memory.json"
    assert first.text.startswith("[2026-03-01] Episode: Mina told Ark") and first.arousal == 0.7
    assert first.ts == "2026-03-01T00:00:00+00:00"
    assert weekly.ts == "2026-02-08T00:00:00+00:00" and weekly.arousal == 0.2  # a range is as old as its last day
    [insight] = insight_items(json.dumps(INSIGHTS).encode(), "memory/insights.json")
    assert insight.kind == "dream_insight" and "Strategy: Ask about the kiln firing." in insight.text
    assert insight.text.startswith("[2026-03-02] Dream diary (pottery):")
    chunks = diary_items(("今日は陶芸教室に行った。" * 40).encode(), "memory/memory_main.txt", NOW.isoformat())
    assert len(chunks) > 1 and all(c.kind == "diary" and c.ts == NOW.isoformat() for c in chunks)
    assert all(len(c.body) <= 300 for c in chunks)


def test_episodes_insights_and_diaries_are_recalled_beside_the_logs(character, clock):
    write_month(character, clock, ["I watched a film about whales", "Whales sing for hours."])
    write_json(character / "memory" / "episodic_memory.json", EPISODES)
    write_json(character / "memory" / "insights.json", INSIGHTS)
    (character / "memory" / "memory_main.txt").write_text("Today I learned that Mina keeps a kiln diary.", "utf-8")
    indexer = indexer_for(character)
    report = indexer.update()
    assert report.sources_seen == 4 and report.items_added == 2 + 2 + 1 + 1 and report.unreadable == ()
    assert kinds_found(indexer, "pottery vase glaze")[0][0] == "episodic_memory"
    ranked = MemoryRecall(indexer, random.Random(0)).rank(rule_plan("kiln"), NOW)
    assert sorted(r.kind for r in ranked if r.lexical > 0) == ["diary", "dream_insight"]
    assert indexer.update().sources_changed == 0


def test_a_changed_episode_file_replaces_only_what_changed_and_a_deleted_diary_leaves(character):
    episodes = character / "memory" / "episodic_memory.json"
    write_json(episodes, EPISODES)
    diary = character / "memory" / "memory_archived_1.txt"
    diary.write_text("An old diary page about the harbour.", "utf-8")
    embedder = CountingEmbedder()
    indexer = indexer_for(character, embedder)
    indexer.update()
    embedded = len(embedder.embedded)
    write_json(episodes, [EPISODES[0], {"date": "2026-03-10", "summary": "Mina fired the vase; it cracked."}])
    report = indexer.update()
    assert (report.items_added, report.items_removed) == (1, 1)
    assert embedder.embedded[embedded:] == ["Mina fired the vase; it cracked."]  # the unchanged one is kept
    assert all("quiet week" not in text for _, text in kinds_found(indexer, "quiet week of rain and tea"))
    diary.unlink()
    assert indexer.update().items_removed == 1
    assert all(kind != "diary" for kind, _ in kinds_found(indexer, "harbour diary page"))


def test_a_malformed_episode_file_is_reported_left_alone_and_its_items_kept(character):
    episodes = character / "memory" / "episodic_memory.json"
    write_json(episodes, EPISODES)
    indexer = indexer_for(character)
    indexer.update()
    episodes.write_text('[{"date": "2026-03-11", "summary": "half written', "utf-8")
    report = indexer.update()
    assert len(report.unreadable) == 1 and "episodic_memory.json is not valid JSON" in report.unreadable[0]
    assert episodes.read_text("utf-8").endswith("half written")  # the user's file is not touched
    assert kinds_found(indexer, "pottery vase glaze")[0][0] == "episodic_memory"
    write_json(episodes, EPISODES[:1])  # fixed: read again, the weekly summary is gone
    assert indexer.update().items_removed == 1


def test_read_memory_context_continues_a_message_a_diary_passage_or_an_episode(data_dir, clock):
    from persona.service import NexusService
    from persona.tool_host import PersonaTools

    service = NexusService(data_dir, clock=clock)
    session = service.session("Ark")
    long_message = "We talked about the lighthouse keeper. " + "He kept a log of every ship. " * 40
    session.chat_log.append("USER", "Mina", long_message)
    root = session.character.root
    diary = "First paragraph about breakfast.\n\nThe kiln was opened at dawn and every bowl had survived. " * 3
    (root / "memory").mkdir(exist_ok=True)
    (root / "memory" / "memory_main.txt").write_text(diary, "utf-8")
    write_json(root / "memory" / "episodic_memory.json", EPISODES)
    tools = PersonaTools(session, recall=None, knowledge=None, clock=clock)

    cut_off = "[2026-03-14] Mina: We talked about the lighthouse keeper. He kept a log" + constants.KEYWORD_CONTINUATION_MARK
    assert long_message.strip() in tools.read_memory_context(cut_off)
    assert tools.read_memory_context("every bowl had survived").startswith(
        "Diary (memory_main.txt): The kiln was opened at dawn")
    assert tools.read_memory_context("the blue vase she glazed") == "[2026-03-01] Episode: " + EPISODES[0]["summary"]
    assert "not found" in tools.read_memory_context("words nobody ever wrote")


def test_a_diary_entrys_date_heading_is_recalled_with_its_entry_not_alone():
    chunks = ["## 2026-01-13", "Nina made a wobbly little bowl.", "## 2026-01-14", "## 2026-01-15", "A quiet day."]
    assert _with_headings_joined(chunks) == ["## 2026-01-13\nNina made a wobbly little bowl.",
                                             "## 2026-01-14\n## 2026-01-15\nA quiet day."]
    assert _with_headings_joined(["Text.", "## 2026-01-16"]) == ["Text.", "## 2026-01-16"]
