import random

import constants
from agent.keyword_sampling import LogBlock, sample_keyword_hits


def block(i: int, text: str | None = None, role: str = "USER") -> LogBlock:
    body = text if text is not None else f"message number {i:03d} about the trip to Kyoto with Ken"
    return LogBlock(f"m{i:03d}", role, "x", body, f"2026-01-{1 + i // 24:02d}T{i % 24:02d}:00:00", "2026-01.txt")


def test_newest_oldest_and_a_random_one_from_the_middle():
    blocks = [block(i) for i in range(20)]
    hits = sample_keyword_hits(blocks, set(), 2, 2, 1, random.Random(3))
    ids = [h.block.entry_id for h in hits]
    assert ids[:2] == ["m019", "m018"] and ids[2:4] == ["m000", "m001"]
    assert ids[4] not in {"m019", "m018", "m000", "m001"} and [h.slot for h in hits][-1] == "random"
    other = sample_keyword_hits(blocks, set(), 2, 2, 1, random.Random(4))
    assert other[:4] == hits[:4]  # only the random slot depends on the random source


def test_noise_controls():
    long_text = "Kyoto " * 200
    blocks = [
        block(1, role="SYSTEM"),
        block(2, text="Kyoto, short"),  # under 30 characters
        block(3),
        block(4, text=block(3).text),  # same first 200 characters as m003
        block(5, text=long_text),
        block(6),  # already in the context
    ]
    hits = sample_keyword_hits(blocks, {"m006"}, 2, 2, 1, random.Random(0))
    ids = sorted(h.block.entry_id for h in hits)
    assert ids == ["m004", "m005"]
    long_hit = next(h for h in hits if h.block.entry_id == "m005")
    assert long_hit.truncated and long_hit.text.endswith(constants.KEYWORD_CONTINUATION_MARK)
    assert len(long_hit.text) == constants.KEYWORD_MAX_BLOCK_CHARS + len(constants.KEYWORD_CONTINUATION_MARK)


def test_few_blocks_are_not_duplicated_across_slots():
    blocks = [block(i) for i in range(3)]
    hits = sample_keyword_hits(blocks, set(), 2, 2, 1, random.Random(0))
    assert sorted(h.block.entry_id for h in hits) == ["m000", "m001", "m002"]


def test_the_random_one_comes_from_the_middle_pool_when_one_is_given():
    ends = [block(i) for i in (0, 1, 2, 97, 98, 99)]
    pool = [block(50), block(51, text="too short"), block(1)]  # block 1 repeats an end: not again
    hits = sample_keyword_hits(ends, set(), 2, 2, 1, random.Random(0), middle_pool=pool)
    assert [h.block.entry_id for h in hits] == ["m099", "m098", "m000", "m001", "m050"]
    assert [h.slot for h in hits][-1] == "random"
