"""An in-memory copy of the item columns recall reads for each of its hundreds of candidates:
kind, place in its session, speaker, time and arousal.

Recall asks, per query, for the session neighbours of ~450 items, the kind of ~300 full-text
hits and the scoring fields of ~450 candidates. Answered by SQLite, each look-up is an indexed
B-tree search (7–12 ms for the neighbours alone at 100k messages, BENCHMARKS.md §2); here they
are array reads. `MemoryDB` owns the table, fills it once, and keeps it current on every write.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Iterable, Sequence

import numpy as np


@dataclass(frozen=True)
class TableRow:
    id: int
    kind: str
    source: str
    session: str
    position: int
    speaker: str
    ts: str
    arousal: float


@dataclass(frozen=True)
class ScoringFields:
    """What recall's fusion and re-rank read of every candidate (the rest is fetched for the winners)."""
    speaker: str
    ts: str
    arousal: float


_ABSENT = -1
# Timestamps as fixed-width bytes, so a few thousand sort in C (keyword search); an ISO time with
# microseconds and offset is 32 characters.
_TS = np.dtype("S32")
_POSITION_BITS = 32  # a window key is session code << 32 | position


class ItemTable:
    """Items by id. Window look-ups search a sorted array of window keys (session, position)."""

    def __init__(self, rows: Iterable[TableRow] = ()):
        self._kind_codes: dict[str, int] = {}
        self._session_codes: dict[tuple[str, str], int] = {}
        self._speaker_codes: dict[str, int] = {}
        self._speakers: list[str] = []  # by code
        self._kind = np.full(0, _ABSENT, dtype=np.int8)
        self._window_key = np.zeros(0, dtype=np.int64)
        self._speaker = np.zeros(0, dtype=np.int32)
        self._arousal = np.zeros(0, dtype=np.float64)
        self._ts = np.zeros(0, dtype=_TS)
        self._sorted_keys = np.zeros(0, dtype=np.int64)  # window keys of live items, ascending
        self._sorted_ids = np.zeros(0, dtype=np.int64)  # the item of each sorted key (ties by id)
        self.add(rows)

    def __len__(self) -> int:
        return len(self._sorted_ids)

    @staticmethod
    def _code(codes: dict, value, names: list | None = None) -> int:
        """The value's small-integer code, a new one for a new value (kept in `names` by code)."""
        code = codes.get(value)
        if code is None:
            code = codes[value] = len(codes)
            if names is not None:
                names.append(value)
        return code

    def _grow(self, max_id: int) -> None:
        if max_id < len(self._kind):
            return
        size = max(max_id + 1, 2 * len(self._kind), 1024)
        extra = size - len(self._kind)
        self._kind = np.concatenate([self._kind, np.full(extra, _ABSENT, dtype=np.int8)])
        self._window_key = np.concatenate([self._window_key, np.zeros(extra, dtype=np.int64)])
        self._speaker = np.concatenate([self._speaker, np.zeros(extra, dtype=np.int32)])
        self._arousal = np.concatenate([self._arousal, np.zeros(extra, dtype=np.float64)])
        self._ts = np.concatenate([self._ts, np.zeros(extra, dtype=_TS)])

    def add(self, rows: Iterable[TableRow]) -> None:
        """Add (or replace) items; of rows with the same id the last counts."""
        rows = list({r.id: r for r in rows}.values())
        if not rows:
            return
        self.remove([r.id for r in rows])
        self._grow(max(r.id for r in rows))
        ids = np.fromiter((r.id for r in rows), dtype=np.int64, count=len(rows))
        keys = np.fromiter(((self._code(self._session_codes, (r.source, r.session)) << _POSITION_BITS) + r.position
                            for r in rows), dtype=np.int64, count=len(rows))
        self._kind[ids] = [self._code(self._kind_codes, r.kind) for r in rows]
        self._window_key[ids] = keys
        self._speaker[ids] = [self._code(self._speaker_codes, r.speaker, self._speakers) for r in rows]
        self._arousal[ids] = [r.arousal for r in rows]
        self._ts[ids] = [r.ts.encode() for r in rows]
        # New messages land at the end of their session: inserting them is one copy of the arrays.
        order = np.lexsort((ids, keys))
        ids, keys = ids[order], keys[order]
        at = np.searchsorted(self._sorted_keys, keys, side="right")
        self._sorted_keys = np.insert(self._sorted_keys, at, keys)
        self._sorted_ids = np.insert(self._sorted_ids, at, ids)

    def remove(self, ids: Sequence[int]) -> None:
        wanted = np.unique(self._live(ids))
        if not len(wanted):
            return
        self._kind[wanted] = _ABSENT
        self._ts[wanted] = b""
        keep = ~np.isin(self._sorted_ids, wanted)
        self._sorted_keys, self._sorted_ids = self._sorted_keys[keep], self._sorted_ids[keep]

    def _live(self, ids: Sequence[int]) -> np.ndarray:
        """The wanted ids that are items here, in the order given."""
        wanted = np.asarray(ids, dtype=np.int64).reshape(-1)
        wanted = wanted[(wanted >= 0) & (wanted < len(self._kind))]
        return wanted[self._kind[wanted] != _ABSENT]

    def of_kinds(self, ids: Sequence[int], kinds: Collection[str]) -> set[int]:
        """The ids among `ids` that are items of one of `kinds`."""
        wanted = np.asarray(ids, dtype=np.int64).reshape(-1)
        return set(wanted[self.kind_mask(wanted, kinds)].tolist())

    def kind_mask(self, ids: np.ndarray, kinds: Collection[str]) -> np.ndarray:
        """For each id, whether it is an item of one of `kinds`."""
        codes = [self._kind_codes[k] for k in kinds if k in self._kind_codes]
        inside = (ids >= 0) & (ids < len(self._kind))
        mask = np.zeros(len(ids), dtype=bool)
        mask[inside] = np.isin(self._kind[ids[inside]], codes)
        return mask


    def neighbours(self, ids: Sequence[int], radius: int) -> dict[int, list[int]]:
        """For each id, the ids within `radius` positions of it in the same source and session
        (itself included), in order of position."""
        wanted = self._live(ids)
        keys = self._window_key[wanted]
        starts = np.searchsorted(self._sorted_keys, keys - radius, side="left").tolist()
        ends = np.searchsorted(self._sorted_keys, keys + radius, side="right").tolist()
        return {item: self._sorted_ids[start:end].tolist()
                for item, start, end in zip(wanted.tolist(), starts, ends)}

    def by_time(self, ids: Sequence[int]) -> np.ndarray:
        """The ids that are items here, oldest first (by timestamp text, then id, as SQL sorts)."""
        wanted = self._live(ids)
        return wanted[np.lexsort((wanted, self._ts[wanted]))] if len(wanted) else wanted

    def scoring_fields(self, ids: Sequence[int]) -> dict[int, ScoringFields]:
        wanted = self._live(ids)
        speakers, ts, arousal = self._speaker[wanted].tolist(), self._ts[wanted].tolist(), self._arousal[wanted].tolist()
        return {item: ScoringFields(self._speakers[s], t.decode(), a)
                for item, s, t, a in zip(wanted.tolist(), speakers, ts, arousal)}
