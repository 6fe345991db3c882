"""Recall through the real pipeline: the real default embedder, real SQLite FTS5 and FAISS."""
import random
from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

import constants

from agent.query_planner import parse_llm_plan, rule_plan
from agent.retrieval import RetrievalResult, RetrievedItem
from managers.chat_log import ChatLog
from managers.embeddings import create_embedder
from managers.rag import MemoryIndexer
from persona.recall import (MemoryRecall, RankedItem, minmax, read_at, shown_order, summaries_as_own_window,
                            with_days_own_messages)


@pytest.fixture(scope="module")
def embedder():
    return create_embedder()  # the default, as users get it


def build(tmp_path, clock, embedder, lines):
    root = tmp_path / "Ark"
    log = ChatLog(root / "logs", clock)
    entries = [log.append("USER" if i % 2 == 0 else "AGENT", "Mina" if i % 2 == 0 else "Ark", text)
               for i, text in enumerate(lines)]
    indexer = MemoryIndexer(root, embedder)
    indexer.update()
    return entries, MemoryRecall(indexer, random.Random(0))


LINES = [
    "先週話した旅行の計画、まだ決めてないんだ",
    "京都に行くって言ってたよね。楽しみだね",
    "My sister Hana started learning the violin last month",
    "That's wonderful, how is she finding it?",
    "田中さんがうちの猫を見に来たよ",
    "猫ちゃん、田中さんに懐いてた？",
    "I fixed the flat tire on my bicycle yesterday",
    "Nice! Cycling season is coming.",
]


def test_japanese_substring_query_finds_its_message(tmp_path, clock, embedder):
    entries, recall = build(tmp_path, clock, embedder, LINES)
    ranked = recall.rank(rule_plan("旅行の計画はどうなった？"), clock())
    assert ranked[0].message_ids == (entries[0].id,)
    short = recall.rank(rule_plan("田中さん"), clock())
    assert entries[4].id in {m for r in short[:2] for m in r.message_ids}


def test_english_paraphrase_finds_its_message(tmp_path, clock, embedder):
    entries, recall = build(tmp_path, clock, embedder, LINES)
    ranked = recall.rank(rule_plan("What instrument is Hana learning?"), clock())
    assert ranked[0].message_ids == (entries[2].id,)


def test_messages_in_the_context_are_not_recalled_again(tmp_path, clock, embedder):
    entries, recall = build(tmp_path, clock, embedder, LINES)
    ranked = recall.rank(rule_plan("bicycle flat tire"), clock(), exclude={entries[6].id})
    assert entries[6].id not in {m for r in ranked for m in r.message_ids}


def test_excluding_the_best_items_gives_the_next_ones_in_the_same_order(tmp_path, clock, embedder):
    entries, recall = build(tmp_path, clock, embedder, LINES)
    query = rule_plan("bicycle flat tire")
    everything = recall.rank(query, clock(), limit=8)
    assert len(everything) == 8
    in_context = {m for r in everything[:3] for m in r.message_ids}
    rest = recall.rank(query, clock(), exclude=in_context, limit=3)
    assert [r.id for r in rest] == [r.id for r in everything[3:6]]
    assert [r.score for r in rest] == pytest.approx([r.score for r in everything[3:6]], abs=1e-6)  # BLAS sums may differ in the last bits
    assert recall.rank(query, clock(), exclude={e.id for e in entries}) == []


def test_retrieval_result_explains_itself(tmp_path, clock, embedder):
    entries, recall = build(tmp_path, clock, embedder, LINES)
    result = recall("Do you remember what Hana is learning?", clock() + timedelta(days=1))
    assert not result.skipped and result.intent == "factual"
    assert "violin" in result.items[0].text and "dense" in result.items[0].why


def test_a_message_that_only_asks_comes_after_those_that_tell(tmp_path, clock, embedder):
    lines = ["When is the studio opening, the dance studio?", "The dance studio opens on 20 June, I can't wait!",
             "Nice weather today", "Yes, sunny"]
    entries, recall = build(tmp_path, clock, embedder, lines)
    now = clock() + timedelta(days=1)
    ranked = recall.rank(rule_plan("When is the dance studio opening?"), now)
    assert ranked[0].message_ids == (entries[0].id,)  # the question matches best by its words
    shown = [i.text for i in recall("When is the dance studio opening?", now).items]
    assert "20 June" in shown[0]
    assert any(entries[0].text in t for t in shown[1:])  # still there, for the room the others leave


def test_a_named_period_brings_up_the_memory_from_it(tmp_path, clock, embedder):
    # Two trips told alike, months apart; a stretch of small talk between them.
    dated = [("We took a trip to the lake with the kids, it was lovely", datetime(2022, 7, 10, tzinfo=timezone.utc)),
             ("Sounds lovely!", datetime(2022, 7, 10, 0, 1, tzinfo=timezone.utc)),
             ("We took a trip to the mountains with the kids, it was lovely", datetime(2023, 2, 5, tzinfo=timezone.utc)),
             ("Sounds lovely too!", datetime(2023, 2, 5, 0, 1, tzinfo=timezone.utc))]
    root = tmp_path / "Ark"
    times = iter(t for _, t in dated)
    log = ChatLog(root / "logs", lambda: next(times))
    entries = [log.append("USER", "Mina", text) for text, _ in dated]
    indexer = MemoryIndexer(root, embedder)
    indexer.update()
    recall = MemoryRecall(indexer, random.Random(0))
    now = datetime(2023, 3, 1, tzinfo=timezone.utc)
    for asked, expected in (("Where did we take a trip with the kids in July 2022?", entries[0]),
                            ("Where did we take a trip with the kids in February?", entries[2])):
        assert recall(asked, now).items[0].text.endswith(expected.text), asked


def test_a_day_of_the_week_brings_up_that_days_talk(tmp_path, embedder):
    # Two evenings told alike, two days apart, small talk after each: asked on the Saturday after, "last
    # Wednesday" is the later one, "on Monday" the earlier.
    told = ["Went to my evening class and made a small bowl", "Sounds fun!", "My sister called about her car",
            "The bus was late again", "Went to my evening class and made a small plate", "Sounds fun too!",
            "I need to buy milk tomorrow", "Work was busy today"]
    dated = [(text, datetime(2026, 1, 12 if i < 4 else 14, 20, i, tzinfo=timezone.utc)) for i, text in enumerate(told)]
    times = iter(t for _, t in dated)
    log = ChatLog(tmp_path / "Ark" / "logs", lambda: next(times))
    entries = [log.append("USER", "Nina", text) for text, _ in dated]
    indexer = MemoryIndexer(tmp_path / "Ark", embedder)
    indexer.update()
    recall = MemoryRecall(indexer, random.Random(0))
    for asked, now, expected in (
            ("What did I make in my class last Wednesday night?", datetime(2026, 1, 17, 16, tzinfo=timezone.utc), entries[4]),
            ("What did I make in my class on Monday evening?", datetime(2026, 1, 17, 16, tzinfo=timezone.utc), entries[0])):
        assert recall(asked, now).items[0].text.endswith(expected.text), asked


def test_memories_that_match_by_themselves_and_tell_come_first():
    def item(n, text, lexical, dense):
        return RankedItem(n, f"[2023-07-10] Jo: {text}", (f"m{n}",), "2023-07.txt", "current_log", 1 - n / 10,
                          lexical, dense, None)

    ranked = [item(1, "Awesome! Enjoy yourself!", 0.0, 0.1),  # high only through its neighbours
              item(2, "When are you going to Woodhaven?", 0.8, 0.9),
              item(3, "I went to Woodhaven, a small town in the Midwest.", 0.7, 0.8),
              item(4, "Take care!", 0.0, 0.2)]
    assert [r.id for r in shown_order(ranked)] == [3, 2, 1, 4]


def test_a_nights_summary_that_retells_the_messages_beside_it_comes_after_them():
    def item(n, kind, text):
        return RankedItem(n, text, (f"m{n}",), "src", kind, 1 - n / 10, 0.5, 0.5, None)

    episode = item(1, "episodic_memory", "[2026-01-13] Episode: Ark and Nina had a brief conversation about Nina's "
                   "pottery class, where she made a wobbly little bowl and the teacher suggested trying the wheel next week.")
    bowl = item(2, "current_log", "[2026-01-13] Nina: Hi Ark! I went to my first pottery class tonight and made a wobbly little bowl.")
    teacher = item(3, "current_log", "[2026-01-13] Nina: The teacher, Marguerite, says I should try the wheel next week.")
    diary = item(4, "diary", "Diary (memory_main.txt): ## 2026-01-13\nI remember Nina's pottery class: a wobbly "
                 "little bowl, and the teacher suggested the wheel next week.")
    assert [r.id for r in shown_order([episode, bowl, teacher, diary])] == [2, 3, 1, 4]
    # An older day whose messages were not recalled: its episode is what there is, and keeps its rank.
    march = item(5, "episodic_memory", "[2025-03-02] Episode: Nina moved to Lyon for a new job at a bakery.")
    assert [r.id for r in shown_order([march, teacher])] == [5, 3]
    # A message recalled beside a summary of something else does not push that summary down.
    assert [r.id for r in shown_order([march, bowl])] == [5, 2]


def test_a_days_summary_comes_after_that_days_own_messages_recalled_beside_it():
    def item(n, kind, text, ts):
        return RankedItem(n, text, (f"m{n}",), "src", kind, 1 - n / 10, 0.5, 0.5, ts)

    day = datetime(2023, 4, 10, tzinfo=timezone.utc)
    episode = item(1, "episodic_memory", "[2023-04-10] Episode: John thanked Maria and they talked about exploring "
                   "the coast of the Pacific Northwest.", day)
    trip = item(2, "current_log", "[2023-04-10] John: This picture reminds me of a road trip we took in 2022.",
                datetime(2023, 4, 10, 19, 5, tzinfo=timezone(timedelta(hours=-7))))
    assert [r.id for r in shown_order([episode, trip])] == [2, 1]
    # Another day's message leaves the summary where it ranked; a message's day is its own clock's.
    late = item(3, "current_log", "[2023-04-09] John: We explored the coast and hit some national parks.",
                datetime(2023, 4, 9, 23, 30, tzinfo=timezone(timedelta(hours=-7))))
    assert [r.id for r in shown_order([episode, late])] == [1, 3]


def test_a_days_summary_gives_its_place_to_that_days_message_wherever_it_ranked():
    def item(n, kind, text, ts, lexical=0.5):
        return RankedItem(n, text, (f"m{n}",), "src", kind, 1 - n / 10, lexical, 0.5, ts)

    march = datetime(2026, 3, 4, tzinfo=timezone.utc)
    episode = item(1, "episodic_memory", "[2026-03-04] Episode: Tomás told me about his sister's wedding and the "
                   "bike he finally fixed.", march)
    later = [item(n, "current_log", f"[2026-05-{n:02d}] Tomás: The bike shop was busy again today.",
                  datetime(2026, 5, n, 18, tzinfo=timezone.utc)) for n in (2, 3, 4)]
    fixed = item(5, "current_log", "[2026-03-04] Tomás: I fixed the bike myself last weekend!",
                 datetime(2026, 3, 4, 20, tzinfo=timezone.utc))
    # The summary ranked first for its day: the day's own message is shown in its place, not after the room is full.
    assert [r.id for r in shown_order([episode, *later, fixed])] == [5, 2, 3, 4, 1]
    # A day one of whose messages already ranks above its summary is shown by that message: the summary goes
    # down, and no other message of the day is brought up in its place.
    also = item(7, "current_log", "[2026-03-04] Tomás: The wedding was in Valencia, the drive took all day.",
                datetime(2026, 3, 4, 19, tzinfo=timezone.utc))
    assert [r.id for r in shown_order([also, later[0], episode, later[1], fixed])] == [7, 2, 3, 5, 1]
    # A message recalled only for its neighbours does not take a summary's place.
    thanks = item(6, "current_log", "[2026-03-04] Tomás: Thanks!", datetime(2026, 3, 4, 21, tzinfo=timezone.utc),
                  lexical=0.0)
    thanks = replace(thanks, dense=0.0)
    assert [r.id for r in shown_order([episode, *later, thanks])] == [1, 2, 3, 4, 6]


def test_a_recalled_summary_brings_its_days_own_message_from_further_down():
    def item(n, kind, text, ts, score, lexical=0.5):
        return RankedItem(n, text, (f"m{n}",), "src", kind, score, lexical, 0.5, ts)

    march = datetime(2026, 3, 4, 20, tzinfo=timezone.utc)
    episode = item(1, "episodic_memory", "[2026-03-04] Episode: Tomás told me about his sister's wedding in "
                   "Valencia, the long drive there, the music and the dancing, and that he fixed his bike.",
                   datetime(2026, 3, 4, tzinfo=timezone.utc), 0.7)
    may = item(2, "current_log", "[2026-05-02] Tomás: The bike shop was busy.", datetime(2026, 5, 2, tzinfo=timezone.utc), 0.6)
    fixed = item(3, "current_log", "[2026-03-04] Tomás: I fixed the bike myself last weekend!", march, 0.5)
    weak = item(4, "current_log", "[2026-03-04] Tomás: Bye!", march, constants.RECALL_MIN_SCORE - 0.01)
    assert [r.id for r in with_days_own_messages([episode, may], [episode, may, fixed])] == [1, 2, 3]
    assert [r.id for r in shown_order(with_days_own_messages([episode, may], [episode, may, fixed]))] == [3, 2, 1]
    # Below the floor, or with its day already beside it, nothing is brought.
    assert [r.id for r in with_days_own_messages([episode, may], [episode, may, weak])] == [1, 2]
    assert [r.id for r in with_days_own_messages([episode, fixed], [episode, fixed, weak])] == [1, 3]
    # A message of another day is not brought for it, nor one of its day that only asks.
    assert [r.id for r in with_days_own_messages([episode], [episode, may])] == [1]
    asks = item(5, "current_log", "[2026-03-04] Ark: ¿Y qué tal la boda de tu hermana?", march, 0.5)
    assert [r.id for r in with_days_own_messages([episode, may], [episode, may, asks])] == [1, 2]
    # Nor does such a message take the summary's place when both are recalled.
    assert [r.id for r in shown_order([episode, asks])] == [1, 5]


def test_a_nights_summary_reads_after_the_day_it_sums_up():
    def item(n, kind, ts):
        return RankedItem(n, "…", (f"m{n}",), "src", kind, 0.5, 0.5, 0.5, ts)

    episode = item(1, "episodic_memory", datetime(2026, 3, 4, tzinfo=timezone.utc))
    evening = item(2, "current_log", datetime(2026, 3, 4, 21, 30, tzinfo=timezone.utc))
    next_day = item(3, "current_log", datetime(2026, 3, 5, 8, tzinfo=timezone.utc))
    result = RetrievalResult(False, "", tuple(RetrievedItem("…", r.kind, 0.5, "", read_at(r))
                                              for r in (episode, next_day, evening)))
    assert [key for _, key in sorted(zip(result.reading_order(), (1, 3, 2)))] == [2, 1, 3]
    assert read_at(item(4, "episodic_memory", None)) == ""


def test_a_summary_is_its_own_window():
    window, turn = {7: 0.9, 8: 0.2}, {7: 0.5, 8: 0.6, 9: 0.4}
    # 8 and 9 are summaries: each gets its own match where its window was less; 7 (a message) keeps its window.
    assert summaries_as_own_window({8, 9}, (window, turn)) == ({7: 0.9, 8: 0.6, 9: 0.4},)
    assert summaries_as_own_window(set(), (window, turn)) == (window,)


def test_asked_about_themself_the_users_own_words_come_before_the_personas_replies():
    def item(n, speaker, text, lexical=0.5, dense=0.5):
        return RankedItem(n, f"[2026-04-10] {speaker}: {text}", (f"m{n}",), "2026-04.txt", "current_log", 1 - n / 10,
                          lexical, dense, None, speaker=speaker)

    reply = item(1, "Ark", "料理に興味あるですね！私は料理の知識を身につけており、新しい料理を作り出すことは好きです。")
    question = item(2, "ハルカ", "ちょっと辛すぎたけど、おいしかった。アークは料理に興味ある？")
    curry = item(3, "ハルカ", "こんばんは！ハルカです。今日は初めてスパイスからカレーを作ってみたよ。")
    neighbour = item(4, "ハルカ", "明日は早起きしないといけないから、そろそろ寝るね。", lexical=0.0, dense=0.1)
    assert [r.id for r in shown_order([reply, question, curry, neighbour], replies_by="Ark")] == [2, 3, 1, 4]
    # Not about the user: rank order stands, the persona's reply first.
    assert [r.id for r in shown_order([reply, question, curry, neighbour])] == [1, 2, 3, 4]
    # A user who shares the persona's name is not pushed down by it: only the persona's lines move.
    assert [r.id for r in shown_order([reply, curry], replies_by="ハルカ")] == [1, 3]


def test_recall_asked_about_oneself_puts_the_users_answer_before_the_replies(tmp_path, clock, embedder):
    _, recall = build(tmp_path, clock, embedder, [
        "Tonight I made curry from whole spices, my first time ever.",
        "The first dish I ever cooked was curry too! I cooked it for a friend.",
        "It was a bit too spicy, but tasty. Do you like cooking?",
        "I do like cooking! Trying a new dish is always fun for me."])
    recall = MemoryRecall(recall.indexer, random.Random(0), user_name=lambda: "Mina", persona_name="Ark")
    now = datetime(2026, 4, 12, tzinfo=timezone.utc)
    about_me = [i.text for i in recall("What was the first dish I cooked?", now).items]
    assert about_me and " Mina: " in about_me[0], about_me
    users = [n for n, text in enumerate(about_me) if " Mina: " in text]
    replies = [n for n, text in enumerate(about_me) if " Ark: " in text]
    assert not replies or max(users) < min(replies), about_me


def test_keyword_search_uses_every_log_file(tmp_path, clock, embedder):
    root = tmp_path / "Ark"
    clock.now = clock.now.replace(month=1)
    log = ChatLog(root / "logs", clock)
    log.append("USER", "Mina", "In January I visited Hakodate with my friend Emi for a week")
    clock.now = clock.now.replace(month=5)
    log.append("USER", "Mina", "In May Emi and I talked about Hakodate again over coffee")
    assert len(log.files()) == 2
    indexer = MemoryIndexer(root, embedder)
    indexer.update()
    hits = MemoryRecall(indexer, random.Random(0)).keyword_hits(["Hakodate"], set())
    assert sorted(h.source for h in hits) == ["log 2026-01.txt", "log 2026-05.txt"]


def test_minmax_normalises_each_score_list():
    assert minmax({1: 10.0, 2: 5.0, 3: 7.5}) == {1: 1.0, 2: 0.0, 3: 0.5}
    assert minmax({4: 2.0}) == {4: 1.0} and minmax({}) == {}


def test_llm_plan_is_validated_and_falls_back_to_rules():
    good = parse_llm_plan('{"rag": "猫 ペット 名前", "keywords": ["タマ"], "intent": "factual"}', "猫の名前は？")
    assert good.source == "llm" and good.keywords == ("タマ",)
    assert parse_llm_plan("I think the intent is factual", "猫の名前は？").source == "rules"
    assert parse_llm_plan('{"rag": "x", "keywords": [], "intent": "spooky"}', "猫の名前は？").source == "rules"


def test_window_score_spreads_each_hit_to_the_messages_around_it():
    from persona.recall import window_sums

    # b sits between two hits, so its window holds both; d's window only c's.
    neighbours = {1: [1, 2], 3: [2, 3, 4]}
    assert window_sums({1: 1.0, 3: 0.5}, neighbours) == {1: 1.0, 2: 1.5, 3: 0.5, 4: 0.5}
    assert window_sums({9: 0.7}, {}) == {9: 0.7}  # an item with no known neighbours is its own window


def test_lexical_scores_keep_credit_for_the_weakest_hit():
    from persona.recall import scaled

    # BM25 of a non-matching item is 0, so the weakest of two hits is not pushed down to it.
    assert scaled({1: 8.0, 2: 2.0}) == {1: 1.0, 2: 0.25}
    assert scaled({1: 0.9, 2: 0.6}, floor=0.5) == {1: 1.0, 2: pytest.approx(0.25)}
    assert scaled({}) == {}


def test_dense_scan_standing_and_window_means(tmp_path):
    import numpy as np

    from persona.recall import DenseScan
    from managers.vector_index import VectorIndex

    index = VectorIndex(tmp_path / "v.faiss", "test-embedder", 2)
    angles = np.array([0.0, 0.3, 1.2, 1.5])
    index.add([10, 11, 12, 13], np.stack([np.cos(angles), np.sin(angles)], axis=1))
    scan = DenseScan.of(index, np.array([1.0, 0.0]), 2)
    cosines = np.cos(angles)
    assert scan.hits == pytest.approx({10: 1.0, 11: cosines[1]})
    standing = scan.standing([13, 10, 99])  # 99 has no vector: left out
    assert set(standing) == {13, 10}
    assert standing[10] == pytest.approx((1.0 - cosines.mean()) / cosines.std())
    assert standing[13] < 0 < standing[10]
    means = scan.window_means({10: [10, 11], 12: [11, 12, 13, 99], 50: [98, 99], 51: []})
    # 99 has no vector; windows with no member that has one are left out
    assert means == pytest.approx({10: (cosines[0] + cosines[1]) / 2, 12: cosines[1:].mean()})


def test_only_items_above_the_fused_floor_are_shown_up_to_the_count():
    import constants
    from persona.recall import RankedItem

    def item(n, score):
        return RankedItem(n, f"memory {n}", (f"m{n}",), "2026-01.txt", "current_log", score, 0.0, 0.0, None)

    floor = constants.RECALL_MIN_SCORE
    ranked = [item(1, floor + 0.3), item(2, floor + 0.2), item(3, floor + 0.1), item(4, floor - 0.01)]
    assert [r.id for r in MemoryRecall.relevant(ranked, 2)] == [1, 2]
    assert [r.id for r in MemoryRecall.relevant(ranked, 10)] == [1, 2, 3]


def test_keyword_search_finds_the_oldest_and_newest_of_many_mentions(tmp_path):
    from types import SimpleNamespace

    from managers.memory_db import Item, MemoryDB

    db = MemoryDB(tmp_path / "memory.db")
    # 300 mentions; the five oldest are wordier, so BM25 ranks them last of all.
    db.add_items([Item(f"k{n}", "log_archive", "2025.txt",
                       f"Mochi chased a moth around the kitchen{' and then slept on the warm sofa' * (4 if n < 5 else 0)}, day {n}",
                       "Mina", (f"k{n}",), f"2025-{1 + n // 28:02d}-{1 + n % 28:02d}T10:00:00")
                  for n in range(300)])
    recall = MemoryRecall(SimpleNamespace(db=db), random.Random(0))
    hits = recall.keyword_hits(["Mochi"], set())
    days = [int(h.text.rsplit("day ", 1)[1]) for h in hits]
    assert days[:4] == [299, 298, 0, 1] and 2 <= days[4] <= 297
    assert [h.why for h in hits] == ["keyword · newest"] * 2 + ["keyword · oldest"] * 2 + ["keyword · random"]
    # The 30 newest mentions are in the conversation already: the newest ones before them are shown.
    in_context = {f"k{n}" for n in range(270, 300)}
    days = [int(h.text.rsplit("day ", 1)[1]) for h in recall.keyword_hits(["Mochi"], in_context)]
    assert days[:4] == [269, 268, 0, 1] and all(d < 270 for d in days)


def test_a_question_about_oneself_prefers_the_users_own_words(tmp_path, clock, embedder):
    lines = ["I made a curry from whole spices for the first time tonight",
             "Cooking for the first time? What did you cook? I love to cook!",
             "The weather was lovely for a walk by the river",
             "Walks by the river are the best."]
    _, recall = build(tmp_path, clock, embedder, lines)
    question = replace(rule_plan("What did I cook for the first time?"), about_oneself=True)
    plain = [item.text for item in recall.rank(question, clock())]
    recall.user_name = lambda: "Mina"
    knowing_who = [item.text for item in recall.rank(question, clock())]
    assert "Ark: Cooking for the first time" in plain[0]  # the reply's words are nearer the question
    assert f"Mina: {lines[0]}" in knowing_who[0]  # but "I" is Mina: her own message holds the answer


def test_asked_about_their_own_doings_the_users_earlier_words_in_the_window_may_be_recalled(tmp_path, clock, embedder):
    lines = ["Just had my second interview at the museum and I think it went okay.", "That sounds promising!",
             "They asked me about a project I led.", "What did you tell them?", "Where was my interview again?"]
    entries, recall = build(tmp_path, clock, embedder, lines)
    window = [e.id for e in entries]  # the whole conversation is in the prompt's window
    shown_only_persona = [e.id for e in entries if e.role == "AGENT"] + [entries[-1].id]
    recall.exclude_ids = lambda users_earlier_words: shown_only_persona if users_earlier_words else window
    recall.user_name = lambda: "Mina"
    about_oneself = recall("Where was my interview again?", clock())
    assert any("museum" in item.text for item in about_oneself.items)
    assert not any(item.text == "Where was my interview again?" for item in about_oneself.items)
    # Not about the user's own doings: the window is not repeated.
    assert not any("museum" in item.text for item in recall("What is a good museum in Paris?", clock()).items)


def test_the_question_about_their_own_doings_gets_their_earlier_words_as_a_memory(data_dir, clock):
    from agent.providers.fake import ScriptedChatModel, replies
    from persona.service import NexusService
    from tests.conftest import turn_context

    model = ScriptedChatModel(replies("That sounds promising, good luck!"))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    list(service.send("Ark", "Just had my second interview at the museum and I think it went okay."))
    list(service.send("Ark", "Where was my interview again?"))
    assert "museum" in turn_context(model.calls[-1][0])
    list(service.send("Ark", "Any tips for a good night's sleep?"))
    assert "museum" not in turn_context(model.calls[-1][0])  # not about their doings: the window is not repeated


def test_the_message_being_answered_neither_sets_the_scale_nor_lifts_its_neighbours(tmp_path, clock, embedder):
    lines = ["I bought a secondhand record player at the thrift store.", "Nice find!", "ok", "Cool!",
             "Remind me that my library books are due back on the 20th.", "Sure.",
             "I remember when my dad used to play his old jazz records.", "Lovely.", "What did I purchase recently?"]
    entries, recall = build(tmp_path, clock, embedder, lines)
    question = entries[-1]
    plan = rule_plan(question.text)
    as_before = recall.rank(plan, clock(), [question.id])
    assert "record player" not in as_before[0].text  # the question's neighbour "Lovely." came first
    ranked = recall.rank(plan, clock(), [question.id], asked=question.text)
    assert "record player" in ranked[0].text and ranked[0].score >= constants.RECALL_MIN_SCORE
    recall.exclude_ids = lambda users_earlier_words: [question.id]
    shown = [item.text for item in recall(question.text, clock()).items]
    assert any("record player" in t for t in shown)
    assert not any(t.endswith((": ok", ": Cool!", ": Sure.", ": Lovely.")) for t in shown)  # they say nothing


def test_a_leave_taking_does_not_take_a_line_from_the_evenings_news(tmp_path, clock, embedder):
    lines = ["I went to my first pottery class tonight and made a wobbly little bowl.", "What a lovely start!",
             "The teacher says I should try the wheel next week.", "You'll love the wheel.",
             "Night, Ark!", "Goodnight, Mina! Sleep well.", "おやすみ、Ark", "おやすみなさい！"]
    entries, recall = build(tmp_path, clock, embedder, lines)
    recall.persona_name, recall.user_name = "Ark", lambda: "Mina"
    ranked = recall.rank(rule_plan("What did we chat about last night?"), clock())
    farewells = {entries[i].id for i in (4, 5, 6, 7)}
    assert farewells & {m for r in ranked[:4] for m in r.message_ids}  # they match "night" in the ranking...
    shown = [item.text for item in recall("What did we chat about last night?", clock()).items]
    assert shown and not any(t.endswith(("Night, Ark!", "Sleep well.", "おやすみ、Ark", "おやすみなさい！")) for t in shown)
    assert any("pottery" in t or "wheel" in t for t in shown)  # ...and the evening's news has the room
