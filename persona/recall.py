"""The recall side of the RAG manager: plan → hybrid search → fuse → intent-aware re-rank.

`rank` returns the ranked list up to `limit` items (the benchmark scores it before any display cap);
`__call__` is the retrieval_node searcher: the top items within the seed's counts, plus the
keyword search over logs with its noise controls, each item saying why it was recalled.
"""
from __future__ import annotations

import heapq
import random
import re
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from itertools import chain
from typing import Callable, Collection, Sequence

import numpy as np

import constants
from agent.engagement import tells_nothing
from agent.english_verbs import forms_of
from agent.keyword_sampling import LogBlock, sample_keyword_hits
from agent.language import is_question, only_asks
from agent.memory_lines import terms
from agent.memory_scoring import marks_for, rerank, time_decay
from agent.query_planner import QueryPlan, content_words, plan
from agent.time_period import Period
from agent.retrieval import RetrievalResult, RetrievedItem
from agent.role import asks_about_the_persona, speaks_of_oneself
from managers.chat_log import parse_timestamp
from managers.embeddings import beside_embedder
from managers.lexical import is_latin_word
from managers.memory_db import MemoryDB, StoredItem, Term, ranking_terms
from managers.rag import MEMORY_KINDS, NIGHT_KINDS, MemoryIndexer, said_in
from managers.vector_index import VectorIndex


@dataclass(frozen=True)
class RankedItem:
    id: int
    text: str
    message_ids: tuple[str, ...]
    source: str
    kind: str
    score: float
    lexical: float
    dense: float
    ts: datetime | None
    # The item's cosine in standard deviations above the query's mean over all stored items
    # (None: no vector yet); shown in the "why" panel: how far this memory stands out.
    dense_z: float | None = None
    speaker: str = ""  # who said it ("" for what no one said: an episode, a diary, a document)

    @property
    def day(self) -> date | None:
        """The calendar day of its stamp (a message's own clock's; a summary's, the day it sums up)."""
        return self.ts.date() if self.ts is not None else None

    @property
    def matched_itself(self) -> bool:
        """Recalled for its own words or meaning, not only for the messages around it."""
        return self.lexical > 0 or self.dense > constants.RECALL_OWN_DENSE_MIN


def shown_order(chosen: Sequence[RankedItem], replies_by: str = "") -> list[RankedItem]:
    """The recalled items in the order the prompt takes them while it has room: first those that
    match by themselves and tell something, then a message that only asks ("When are you opening the
    studio?"), then those recalled only for their neighbours ("Awesome! Enjoy yourself!"); by rank
    within each (BENCHMARKS.md §5, session 10). A night's summary that retells messages shown beside
    it comes after them (`retells_shown`), and one of a day whose own messages are recalled gives
    them its place (`days_messages_first`). `replies_by`: the persona, when the user speaks of
    themself — its replies come after the user's own words among those that match: 「この前、私が初めて
    作った料理は何だったっけ？」 had its answer cut for 「料理に興味あるですね！」, and a reply shown
    for the user's life is one the persona may retell as its own."""
    retelling = retells_shown(chosen)
    return days_messages_first(sorted(chosen, key=lambda r: (
        not r.matched_itself, bool(replies_by) and r.speaker == replies_by, only_asks(said_in(r.text)),
        r.id in retelling)))


def retells_shown(chosen: Sequence[RankedItem]) -> set[int]:
    """The night's summaries (episode, dream diary, diary) of a day one of whose own messages ranks
    above them, or most of whose words are in the messages recalled beside them. Such a summary
    ranks high (it holds all their words) and then takes the room of the one message with the
    answer, which the summary left out: "What's my pottery teacher called?" got the evening's
    episode, dream and diary, not "The teacher, Marguerite, …" (§4 en-weeks-pottery, session 13).
    `chosen`: in rank order."""
    said = set().union(*(terms(r.text) for r in chosen if r.kind not in NIGHT_KINDS))
    retelling, days_above = set(), set()
    for r in chosen:
        if r.kind not in NIGHT_KINDS:
            if tells_itself(r):
                days_above.add(r.day)
        elif (r.day is not None and r.day in days_above) or (
                (words := terms(r.text)) and len(words & said) >= constants.RECALL_RETOLD_SHARE * len(words)):
            retelling.add(r.id)
    return retelling


def tells_itself(item: RankedItem) -> bool:
    """A message recalled for its own words that tells something (not one that only asks)."""
    return item.matched_itself and not only_asks(said_in(item.text))


def days_messages_first(ordered: Sequence[RankedItem]) -> list[RankedItem]:
    """`ordered` with each day's own messages (those that tell, recalled for their own words) in the
    places its night's summaries held, the summaries in theirs: a summary ranked above every message
    of its day (`retells_shown` sends the others down) says which day holds the answer, and the day's
    message holds it in the user's words: "When did John take a road trip?" got that day's episode,
    not "a road trip we took 2022" (§5 with episodes, session 35). Sent to the end instead, the
    summary took its day with it: "When did Caroline draw a self-portrait?" ranked the episode of the
    day she told it first and that day's message seventh, and the room held neither (§5 with
    episodes, session 52)."""
    places: dict[date, list[int]] = {}
    for position, r in enumerate(ordered):
        if r.day is not None and (r.kind in NIGHT_KINDS or tells_itself(r)):
            places.setdefault(r.day, []).append(position)
    result = list(ordered)
    for positions in places.values():
        day = [ordered[p] for p in positions]
        summaries = [r for r in day if r.kind in NIGHT_KINDS]
        messages = [r for r in day if r.kind not in NIGHT_KINDS]
        if summaries and messages:
            for position, r in zip(positions, messages + summaries):
                result[position] = r
    return result


def read_at(item: RankedItem) -> str:
    """When a recalled item reads in the prompt, whose memories read oldest first: a night's summary
    at the end of the day it sums up. Stamped with the day's start, an episode read before that day's
    own messages: "[10 April 2023] Episode: … He also took a road trip to the Pacific Northwest …"
    came before "This picture reminds me of a road trip we took 2022", and the answer was "In April
    2023" (§5 with episodes, session 52)."""
    if item.ts is None:
        return ""
    return (item.ts + timedelta(days=1, seconds=-1) if item.kind in NIGHT_KINDS else item.ts).isoformat()


def with_days_own_messages(chosen: Sequence[RankedItem], ranked: Sequence[RankedItem]) -> list[RankedItem]:
    """`chosen` and, for each night's summary in it with no message of its own day beside it, the
    best of that day's messages further down `ranked` that was recalled for its own words and is
    above the relevance floor. The summary says which day holds the answer; the day's message holds
    it in the user's words (`days_messages_first` then shows it in the summary's place)."""
    days_shown = {r.day for r in chosen if r.kind not in NIGHT_KINDS}
    wanted = {r.day for r in chosen if r.kind in NIGHT_KINDS and r.day is not None} - days_shown
    taken = {r.id for r in chosen}
    added = []
    for r in ranked:
        if (r.day in wanted and r.id not in taken and r.kind not in NIGHT_KINDS and tells_itself(r)
                and r.score >= constants.RECALL_MIN_SCORE):
            added.append(r)
            wanted.discard(r.day)
    return [*chosen, *added]


def summaries_as_own_window(summaries: Collection[int], *signals: tuple[dict[int, float], dict[int, float]]
                            ) -> tuple[dict[int, float], ...]:
    """Each (window signal, turn signal) with every summary's window score at least its own turn
    score. A night's summary (an episode, a dream, a diary entry: no speaker, no neighbours) holds
    a whole day's words in one text, so it is its own window; a message's window sums five
    messages' scores and sets the scale, which left a summary's window a fraction of its own match
    ("When did Caroline apply to adoption agencies?" ranked the episode holding all four words
    sixth, under later days' messages about adoption: §5 with episodes, session 52)."""
    return tuple({**window, **{i: max(window.get(i, 0.0), turn[i]) for i in summaries if i in turn}}
                 for window, turn in signals)


def minmax(scores: dict[int, float]) -> dict[int, float]:
    return scaled(scores, min(scores.values())) if scores else {}


def scaled(scores: dict[int, float], floor: float = 0.0) -> dict[int, float]:
    """Scores mapped to [0, 1] between `floor` (what an item outside the list would score: 0 for
    BM25) and the best. Unlike min-max over the list, the weakest hit keeps credit for matching
    (bench/research: min-max over all items)."""
    if not scores:
        return {}
    span = max(scores.values()) - floor
    return {k: ((v - floor) / span if span > 0 else 1.0) for k, v in scores.items()}


def _blend(a: dict[int, float], b: dict[int, float]) -> dict[int, float]:
    """Mean of two normalised score lists (an id missing from one counts 0 there)."""
    return {k: 0.5 * a.get(k, 0.0) + 0.5 * b.get(k, 0.0) for k in set(a) | set(b)}


def _top(scores: dict[int, float], limit: int) -> dict[int, float]:
    """The `limit` best entries (spreading scores to neighbours multiplies the candidates)."""
    if len(scores) <= limit:
        return scores
    return dict(heapq.nlargest(limit, scores.items(), key=lambda kv: kv[1]))


def _as_term(forms: tuple[str, ...]) -> Term:
    """A word alone as itself; a word with other forms as one term of them all."""
    return forms if len(forms) > 1 else forms[0]


def _merge(a: dict[int, float], b: dict[int, float]) -> dict[int, float]:
    return {k: a.get(k, 0.0) + b.get(k, 0.0) for k in set(a) | set(b)}


def window_sums(turn_scores: dict[int, float], neighbours: dict[int, list[int]]) -> dict[int, float]:
    """Each item's window score: the sum of its session neighbours' turn scores.

    The neighbour relation is symmetric, so spreading each hit's score to its neighbours gives
    every window that contains a hit, with no second full-text search over window texts.
    """
    sums: dict[int, float] = {}
    for hit, score in turn_scores.items():
        for item in neighbours.get(hit, (hit,)):
            sums[item] = sums.get(item, 0.0) + score
    return sums


@dataclass(frozen=True)
class DenseScan:
    """The dense side of one query: its best hits, how its cosines spread over all stored items
    (mean, std: for each item's z-score), and the cosines of any other items on demand."""
    index: VectorIndex
    query: np.ndarray
    hits: dict[int, float]
    mean: float
    std: float

    @classmethod
    def of(cls, index: VectorIndex, query: np.ndarray, k: int) -> "DenseScan":
        mean, std = index.spread(query)
        return cls(index, query, dict(index.search(query, k)), mean, max(std, 1e-6))

    def scores_of(self, wanted: Sequence[int]) -> dict[int, float]:
        """The cosines of the wanted ids that have a vector."""
        known = {i: self.hits[i] for i in wanted if i in self.hits}
        ids, scores = self.index.cosines([i for i in wanted if i not in self.hits], self.query)
        known.update(zip(ids.tolist(), scores.tolist()))
        return known

    def standing(self, wanted: Sequence[int]) -> dict[int, float]:
        """z-scores of the wanted ids that have a vector."""
        return {i: (s - self.mean) / self.std for i, s in self.scores_of(wanted).items()}

    def window_means(self, windows: dict[int, list[int]]) -> dict[int, float]:
        """Each window's mean cosine over its members that have a vector (one gather for all)."""
        centres = [c for c, members in windows.items() if members]
        if not centres:
            return {}
        lengths = np.fromiter((len(windows[c]) for c in centres), dtype=np.int64, count=len(centres))
        members = np.fromiter(chain.from_iterable(windows[c] for c in centres), dtype=np.int64,
                              count=int(lengths.sum()))
        stored, scores = self.index.cosines(members, self.query)
        if not len(stored):
            return {}
        at = np.minimum(np.searchsorted(stored, members), len(stored) - 1)
        known = stored[at] == members
        cosines = np.where(known, scores[at], 0.0).astype(np.float64)
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        sums, counts = np.add.reduceat(cosines, starts), np.add.reduceat(known.astype(np.int64), starts)
        return {c: float(total / n) for c, total, n in zip(centres, sums.tolist(), counts.tolist()) if n}


def recall_weights(embedder) -> dict[str, float]:
    """constants.RECALL_WEIGHTS with the dense signals scaled by how far recall trusts this
    embedder's cosines (constants.DENSE_WEIGHT_SCALE)."""
    scale = embedder.dense_weight_scale
    return {signal: weight * scale if signal in ("turn_dense", "window_dense") else weight
            for signal, weight in constants.RECALL_WEIGHTS.items()}


def _first_not_excluded(db: MemoryDB, order: list[tuple[int, float]], excluded: set[str],
                        limit: int) -> tuple[list[tuple[int, float]], dict[int, StoredItem]]:
    """The first `limit` ranked items none of whose messages is excluded, and their stored rows
    (fetched in rank order, a chunk at a time, so only about `limit` rows are read)."""
    kept: list[tuple[int, float]] = []
    stored: dict[int, StoredItem] = {}
    start = 0
    while len(kept) < limit and start < len(order):
        chunk = order[start:start + limit - len(kept) + len(excluded)]
        start += len(chunk)
        rows = db.get([i for i, _ in chunk])
        for i, score in chunk:
            if i in rows and excluded.isdisjoint(rows[i].item.message_ids) and len(kept) < limit:
                kept.append((i, score))
                stored[i] = rows[i]
    return kept, stored


def _days_outside(period: Period | None, when: dict[int, datetime | None]) -> dict[int, int]:
    """For each dated item, how many days it lies outside the period the query names (0: inside,
    the period's slack after its end included); empty when the query names none."""
    if period is None:
        return {}
    return {i: period.days_outside(ts.date()) for i, ts in when.items() if ts}


def _named_speakers(speakers: set[str], query: str) -> set[str]:
    """Speakers whose name the query contains (as a whole word for latin names)."""
    lowered = query.lower()
    named = set()
    for name in speakers:
        if not name:
            continue
        if name.isascii():
            if re.search(r"(?<!\w)" + re.escape(name.lower()) + r"(?!\w)", lowered):
                named.add(name)
        elif name in query:
            named.add(name)
    return named


class MemoryRecall:
    def __init__(self, indexer: MemoryIndexer, rng: random.Random,
                 complete_json: Callable[[str, str, dict], str] | None = None,
                 exclude_ids: Callable[[bool], Collection[str]] = lambda users_earlier_words: (),
                 user_name: Callable[[], str] = str, persona_name: str = "",
                 persona_other_names: Callable[[], Sequence[str]] = tuple):
        self.indexer = indexer
        self.rng = rng
        self.complete_json = complete_json
        self.exclude_ids = exclude_ids  # (users_earlier_words) -> the messages the prompt already shows
        self.user_name = user_name  # who "I" is in the user's questions
        self.persona_name = persona_name  # who the user's "Night, Ark!" is said to
        self.persona_other_names = persona_other_names  # its display name's "アーク" (read when a question needs it)

    def rank(self, query_plan: QueryPlan, now: datetime, exclude: Collection[str] = (),
             limit: int = constants.RECALL_CANDIDATES, rerank_on: bool = True,
             weights: dict[str, float] | None = None, asked: str = "") -> list[RankedItem]:
        """The ranked items (`_rank`), searched on the embedder's engine thread (`beside_embedder`).
        `asked`: the message recall is for, when it is itself stored (a chat turn logs it first)."""
        return beside_embedder(self.indexer.embedder,
                               lambda: self._rank(query_plan, now, exclude, limit, rerank_on, weights, asked))

    def _itself(self, asked: str, *signals: dict[int, float]) -> set[int]:
        """The stored items that are the message being answered: among each signal's best few, those
        whose words are the message's."""
        if not asked.strip():
            return set()
        best = {i for signal in signals for i in sorted(signal, key=signal.get, reverse=True)[:constants.RECALL_SELF_LOOKUP]}
        said = " ".join(asked.split())
        return {i for i, s in self.indexer.db.get(sorted(best)).items() if " ".join(said_in(s.item.text).split()) == said}

    def _rank(self, query_plan: QueryPlan, now: datetime, exclude: Collection[str],
              limit: int, rerank_on: bool, weights: dict[str, float] | None, asked: str = "") -> list[RankedItem]:
        """Every signal normalised (BM25 scaled from zero, embeddings min-max over their best), then
        weighted (`recall_weights`, unless the caller gives its own):
        the message itself and its ±2-message window, each by BM25 (porter for words, trigram for
        their substrings, character bigrams for Japanese and Chinese) and by embedding; plus a prior for messages by a person the
        question names. Then the seed's intent-aware composite. Window scores are spread from the
        messages' own (`window_sums`), so no search runs over window texts or window vectors."""
        db, w = self.indexer.db, weights or recall_weights(self.indexer.embedder)
        words = content_words(query_plan.rag_query + " " + " ".join(query_plan.keywords))
        # "Müller" too, not only ASCII; an irregular verb with its other forms ("buy" finds "bought").
        latin = list(dict.fromkeys(_as_term(forms_of(t)) for t in words if is_latin_word(t)))
        long_terms, cjk_grams = ranking_terms(words)  # a repeated CJK gram weighs double
        long_terms = list(dict.fromkeys(long_terms))
        per_signal = constants.RECALL_CANDIDATES
        # In sequence: embedding beside SQLite in a thread measured slower (the embedder's
        # OpenMP threads and SQLite fight over the two cores).
        budget = constants.LEXICAL_POSTINGS_BUDGET
        words_lex = db.bm25("items_porter", latin, MEMORY_KINDS, per_signal, budget)
        grams_lex = _merge(db.bm25("items_fts", long_terms, MEMORY_KINDS, per_signal, budget),
                           db.bm25("items_grams", cjk_grams, MEMORY_KINDS, per_signal, budget))
        scan = DenseScan.of(self.indexer.vectors, self.indexer.embedder.embed_query(query_plan.rag_query), per_signal)
        dense_hits = scan.hits
        # The message being answered is stored too (a chat turn logs it before recall): as its own best
        # match it set the scale of every signal and lifted the messages around it.
        itself = self._itself(asked, words_lex, grams_lex, dense_hits)
        if itself:
            words_lex, grams_lex, dense_hits = ({i: v for i, v in signal.items() if i not in itself}
                                                for signal in (words_lex, grams_lex, dense_hits))
        around = db.neighbours(sorted(set(words_lex) | set(grams_lex) | set(dense_hits)), constants.WINDOW_RADIUS)
        around = {c: [m for m in members if m not in itself] for c, members in around.items() if c not in itself}
        turn_lex = _blend(scaled(words_lex), scaled(grams_lex))
        window_lex = _top(_blend(scaled(window_sums(words_lex, around)), scaled(window_sums(grams_lex, around))),
                          per_signal)
        turn_dense = minmax(dense_hits)
        # The windows of every message around a dense hit (its own window is already known).
        centres = {c for h in dense_hits for c in around.get(h, (h,))}
        windows = {c: around[c] for c in centres if c in around}
        windows.update({c: [m for m in members if m not in itself]
                        for c, members in db.neighbours(sorted(centres - set(windows)), constants.WINDOW_RADIUS).items()})
        window_dense = minmax(_top(scan.window_means(windows), per_signal))
        candidates = set(turn_lex) | set(window_lex) | set(turn_dense) | set(window_dense)
        fields = db.scoring_fields(sorted(candidates))
        window_lex, window_dense = summaries_as_own_window(
            {i for i in candidates if not fields[i].speaker and windows.get(i, around.get(i, [i])) == [i]},
            (window_lex, turn_lex), (window_dense, turn_dense))
        named = _named_speakers({f.speaker for f in fields.values()}, query_plan.rag_query)
        if query_plan.about_oneself and (user := self.user_name()):
            named.add(user)  # "What did I cook first?": the user's own words hold it, not the replies
        total_weight = sum(w.values())
        when = {i: parse_timestamp(f.ts) for i, f in fields.items()}
        outside = _days_outside(query_plan.period, when)
        fused = {
            i: (w["turn"] * turn_lex.get(i, 0.0) + w["window"] * window_lex.get(i, 0.0)
                + w["turn_dense"] * turn_dense.get(i, 0.0) + w["window_dense"] * window_dense.get(i, 0.0)
                + w["speaker"] * (f.speaker in named)) / total_weight
            + constants.RECALL_PERIOD_BONUS * (outside.get(i) == 0)
            for i, f in fields.items()
        }
        # Asked about a period, freshness is nearness to that period, not to now.
        stamps = {i: now - timedelta(days=outside[i]) if i in outside else when[i] for i in fused}
        order = (rerank([(i, fused[i], fields[i].arousal, stamps[i]) for i in fused], query_plan.intent, now)
                 if rerank_on else sorted(fused.items(), key=lambda p: p[1], reverse=True))
        # Scores are per item, so leaving out what the conversation already holds can wait until here.
        order, stored = _first_not_excluded(db, order, set(exclude), limit)
        standing = scan.standing([i for i, _ in order])
        return [
            RankedItem(i, stored[i].item.text, stored[i].item.message_ids, stored[i].item.source,
                       stored[i].item.kind, score, turn_lex.get(i, 0.0), turn_dense.get(i, 0.0), when[i],
                       standing.get(i), stored[i].item.speaker)
            for i, score in order
        ]

    def keyword_hits(self, keywords: Sequence[str], exclude: Collection[str],
                     slots: tuple[int, int, int] = constants.KEYWORD_AUTO_SLOTS) -> list[RetrievedItem]:
        db, kinds = self.indexer.db, ("current_log", "log_archive")
        # Candidates from both ends of time (spares for the noise filters) and a few from between.
        ends, between = db.keyword_matches(list(keywords), kinds,
                                           constants.KEYWORD_END_CANDIDATES, exclude, constants.KEYWORD_MIN_BLOCK_CHARS)
        middle = self.rng.sample(between, min(len(between), constants.KEYWORD_MIDDLE_CANDIDATES)) if slots[2] else []
        stored = db.get(ends + middle)

        def blocks_of(ids: Sequence[int]) -> list[LogBlock]:
            return [LogBlock(s.item.message_ids[0] if s.item.message_ids else s.item.item_key, "USER",
                             s.item.speaker, s.item.text, s.item.ts, s.item.source)
                    for s in (stored[i] for i in ids if i in stored)
                    # The middle ids are drawn unfiltered (keyword_matches): the kind is checked here.
                    if s.item.kind in kinds and any(k.lower() in s.item.text.lower() for k in keywords)]

        hits = sample_keyword_hits(blocks_of(ends), exclude, *slots, rng=self.rng, middle_pool=blocks_of(middle))
        return [RetrievedItem(h.text, f"log {h.block.source}", 0.0, f"keyword · {h.slot}", h.block.ts, sampled=True)
                for h in hits]

    @staticmethod
    def relevant(ranked: Sequence[RankedItem], count: int) -> list[RankedItem]:
        """The first `count` ranked items above the fused relevance floor. (No absolute dense
        floor: bench/research/relevance_floor.py found none that separates, BENCHMARKS.md §1.)"""
        return [r for r in ranked if r.score >= constants.RECALL_MIN_SCORE][:count]

    def __call__(self, message: str, now: datetime) -> RetrievalResult:
        query_plan = replace(plan(message, self.complete_json, now.date()), about_oneself=speaks_of_oneself(message))
        # Asked about their own doings, the user's earlier words in the window may be recalled too.
        exclude = set(self.exclude_ids(query_plan.about_oneself and is_question(message)))
        # Ranked best first, so the few shown are the first few: no need to read 150 rows.
        ranked = self.rank(query_plan, now, exclude, limit=constants.RECALL_MAX_RESULTS + constants.RECALL_DAY_LOOKAHEAD,
                           asked=message)
        # A message that says nothing ("ok", "Danke!", "😅", "Night, Ark!") is no memory: it took one of the few lines.
        names = [n for n in (self.user_name(), self.persona_name) if n]
        ranked = [r for r in ranked if not tells_nothing(said_in(r.text), names)]
        about_the_user_alone = query_plan.about_oneself and not asks_about_the_persona(
            message, (self.persona_name, *self.persona_other_names()))
        chosen = shown_order(with_days_own_messages(self.relevant(ranked, constants.RECALL_MAX_RESULTS), ranked),
                             replies_by=self.persona_name if about_the_user_alone else "")
        items = []
        for r in chosen:
            mark = marks_for(0.0, time_decay(r.ts, now)).text()
            standing = f" · z {r.dense_z:.1f}" if r.dense_z is not None else ""
            why = f"fused {r.score:.2f} · dense {r.dense:.2f}{standing} · bm25 {r.lexical:.1f} {mark}".strip()
            items.append(RetrievedItem(r.text, r.kind, r.score, why, read_at(r)))
        if query_plan.keywords:
            shown = {r.text for r in chosen}
            items += [k for k in self.keyword_hits(query_plan.keywords, exclude) if k.text not in shown]
        self.indexer.db.record_access([r.id for r in chosen], now)
        return RetrievalResult(False, f"planned by {query_plan.source}", tuple(items), query_plan.intent)
