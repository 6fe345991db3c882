"""Keyword search over the chat log, with the seed's noise controls (seed 004, キーワード検索のノイズ対策).

Pure: the caller finds the blocks that contain the keywords (in every log file) and passes the
random source in. Rules, in order: USER/AGENT only; nothing already in the context; skip blocks
under 30 characters; dedup on the first 200 characters; then take the newest N and the oldest
M (so old memories are not buried), plus R at random from the middle; long blocks are cut
at 500 characters with a continuation marker.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Collection, Sequence

import constants


@dataclass(frozen=True)
class LogBlock:
    entry_id: str
    role: str
    speaker: str
    text: str
    ts: str  # ISO timestamp; sorts chronologically
    source: str


@dataclass(frozen=True)
class KeywordHit:
    block: LogBlock
    text: str  # what the persona is shown (possibly truncated)
    truncated: bool
    slot: str  # "newest" / "oldest" / "random"


def truncate_block(text: str, limit: int = constants.KEYWORD_MAX_BLOCK_CHARS) -> tuple[str, bool]:
    if len(text) <= limit:
        return text, False
    return text[:limit] + constants.KEYWORD_CONTINUATION_MARK, True


def sample_keyword_hits(
    blocks: Sequence[LogBlock],
    excluded_ids: Collection[str],
    newest: int,
    oldest: int,
    random_middle: int,
    rng: random.Random,
    middle_pool: Sequence[LogBlock] = (),
) -> list[KeywordHit]:
    """`blocks` are the matches (or those nearest both ends of time); `middle_pool`, if the caller
    drew some from between them, is where the random one comes from."""
    seen_heads: set[str] = set()
    unique = _eligible(blocks, excluded_ids, seen_heads)

    chosen: list[tuple[LogBlock, str]] = [(b, "newest") for b in unique[:newest]]
    rest = unique[newest:]
    old = rest[::-1][:oldest]
    chosen += [(b, "oldest") for b in old]
    middle = _eligible(middle_pool, excluded_ids, seen_heads) or (rest[: len(rest) - len(old)] if old else rest)
    if random_middle and middle:
        chosen += [(b, "random") for b in rng.sample(middle, min(random_middle, len(middle)))]

    hits = []
    for block, slot in chosen:
        text, cut = truncate_block(block.text.strip())
        hits.append(KeywordHit(block, text, cut, slot))
    return hits


def _eligible(blocks: Sequence[LogBlock], excluded_ids: Collection[str], seen_heads: set[str]) -> list[LogBlock]:
    """USER/AGENT blocks not in the context, long enough, newest first, without a head already seen."""
    eligible = [
        b for b in blocks
        if b.role in ("USER", "AGENT")
        and b.entry_id not in excluded_ids
        and len(b.text.strip()) >= constants.KEYWORD_MIN_BLOCK_CHARS
    ]
    eligible.sort(key=lambda b: (b.ts, b.entry_id), reverse=True)  # newest first
    unique: list[LogBlock] = []
    for block in eligible:
        head = block.text.strip()[: constants.KEYWORD_DEDUP_PREFIX_CHARS]
        if head not in seen_heads:
            seen_heads.add(head)
            unique.append(block)
    return unique
