"""What lives as long as the process is kept out of the cyclic garbage collector's full passes.

A full pass walks every tracked object, and lands inside whatever turn is running: with
langgraph/langchain loaded (~126k objects, more with gradio) each took ~40 ms (BENCHMARKS.md §2),
and a persona's 100k-message history adds ~100k more (a pass of ~65 ms; `bench scale`, session 54).
Frozen objects are still freed when nothing refers to them any more; only cycles among them are
never collected, so what is frozen must be meant to stay.
"""
from __future__ import annotations

import gc


def freeze_long_lived() -> None:
    """Collect what is garbage now, then keep everything left out of later passes."""
    gc.collect()
    gc.freeze()
