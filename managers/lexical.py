"""BM25 over the full-text indexes' match lists, and the match lists kept in memory.

SQLite's own `bm25()` cost 2.5–3 µs per matching row at 100k messages, every query (it reads
each row's size and term positions); listing a term's matching row ids costs ~0.4 µs per row
and is needed once: the list is kept here, and later queries read only rows added since
(BENCHMARKS.md §2, session 7).

The score is BM25 with FTS5's IDF, each query term counted once per item (chat messages rarely
repeat a content word) and no length normalisation (b = 0): the sum of the matched terms' IDF.
Normalising by length made recall worse, and much worse in a long history whose messages differ
in length from era to era: LoCoMo dev R@5 65.9 → 67.3 without it, and after 100k shorter
synthetic messages 46.5 → 60.4 (BENCHMARKS.md §1, session 7).
"""
from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable, Hashable, Sequence

import numpy as np

import constants

# Letters of the Latin script with their accents (é ñ ü ß ø ł, Latin Extended A/B and Additional).
LATIN_LETTERS = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff"
# A search word: a Latin-script word with its accents and inner apostrophes or hyphens ("Müller",
# "Straße", "l'école", "don't"), a run of Han characters (with 々: 佐々木), of katakana, of hiragana,
# or of Hangul (Korean words are written with spaces: a run is a word with its particles, 고양이가).
# "Müller" was cut to "ller" and Korean was never searched when words were ASCII only (issue 18).
WORD_TOKEN = re.compile(
    rf"[0-9{LATIN_LETTERS}][0-9{LATIN_LETTERS}'’\-]*|[\u3005\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+"
    r"|[\u30a0-\u30ff]+|[\u3040-\u309f]+|[\uac00-\ud7af]+")
_LATIN_START = re.compile(rf"[0-9{LATIN_LETTERS}]")


def is_latin_word(token: str) -> bool:
    """A Latin-script (or number) token of WORD_TOKEN, as opposed to a CJK or Hangul run."""
    return bool(_LATIN_START.match(token))


@dataclass(frozen=True)
class TermMatches:
    ids: np.ndarray  # every matching row id, ascending
    upto: int  # rows with an id up to this were looked at


class MatchCache:
    """Match lists by (index, term), least recently used dropped first once they hold more
    than `max_ids` ids in all."""

    def __init__(self, max_ids: int):
        self.max_ids = max_ids
        self._lists: OrderedDict[Hashable, TermMatches] = OrderedDict()
        self._held = 0

    def __len__(self) -> int:
        return len(self._lists)

    def matches(self, key: Hashable, top_id: int, read: Callable[[int], np.ndarray]) -> np.ndarray:
        """The ids matching `key` among rows up to `top_id`; `read(after)` lists the matching ids
        above `after`, ascending. Only rows added since the last look are read."""
        known = self._lists.pop(key, None)
        if known is None:
            known = TermMatches(read(0), top_id)
        else:
            self._held -= len(known.ids)
            if known.upto < top_id:
                known = TermMatches(np.concatenate([known.ids, read(known.upto)]), top_id)
        self._lists[key] = known
        self._held += len(known.ids)
        while self._held > self.max_ids and len(self._lists) > 1:
            _, dropped = self._lists.popitem(last=False)
            self._held -= len(dropped.ids)
        return known.ids

    def clear(self) -> None:
        """After a delete: a deleted row's id can be given to a new row that does not match."""
        self._lists.clear()
        self._held = 0


def idf(matches: int, items: int) -> float:
    """FTS5's inverse document frequency (a term in more than half of the items still counts a little)."""
    matches = min(matches, items)  # a list read just after another connection's insert may be ahead
    return max(float(np.log((items - matches + 0.5) / (matches + 0.5))), constants.BM25_MIN_IDF)


def bm25(term_matches: Sequence[np.ndarray], items: int,
         wanted: Callable[[np.ndarray], np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(ids, scores) of the items matching any term, higher = better, in no particular order.

    `term_matches` has one id list per query term (a term given twice counts twice); IDF counts
    every match in the index, then `wanted(ids)` keeps the ids to score (live items of the wanted
    kinds, as a boolean mask)."""
    lists = [m for m in term_matches if len(m)]
    if not lists or items <= 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    weights = np.repeat([idf(len(m), items) for m in lists], [len(m) for m in lists])
    ids, at = np.unique(np.concatenate(lists), return_inverse=True)
    summed = np.bincount(at, weights=weights)
    keep = wanted(ids)
    return ids[keep], summed[keep]


def best(ids: np.ndarray, scores: np.ndarray, limit: int) -> list[tuple[int, float]]:
    """The `limit` best (id, score), best first; equal scores by id."""
    if limit <= 0:
        return []
    if len(ids) > limit:  # keep everything that ties with the limit-th best, then sort the few
        keep = scores >= np.partition(scores, len(scores) - limit)[len(scores) - limit]
        ids, scores = ids[keep], scores[keep]
    order = np.lexsort((ids, -scores))[:limit]
    return list(zip(ids[order].tolist(), scores[order].tolist()))
