"""Memory traces (seed 004 §3, Phase H): an episode shown to the persona that resonated in its
reply grows more vivid, `arousal + α(resonance − arousal)`; one that did not is left as it was.

Capable models report it themselves with `<memory_trace id=".." resonance=".."/>` (agent/reply_tags.py).
The embedded model does not write tags reliably (issue 12), so for it the resonance is read from
the reply: how much of what the reply says comes from the episode. Pure functions.
"""
from __future__ import annotations

import constants
from agent.role import content_units


def moved_arousal(arousal: float, resonance: float, alpha: float = constants.TRACE_ALPHA) -> float:
    """The episode's arousal after a trace of `resonance`, both clamped to 0–1."""
    arousal, resonance = (min(1.0, max(0.0, v)) for v in (arousal, resonance))
    return round(min(1.0, max(0.0, arousal + alpha * (resonance - arousal))), 3)


def read_resonance(reply: str, episode_summary: str) -> float:
    """The seed's scale, read from the words: 0.7 (strong) when much of what the reply says is in
    the episode, 0.4 (indirect) when some of it is, 0.0 otherwise."""
    said = content_units(reply)
    if len(said) < constants.TRACE_MIN_REPLY_UNITS:
        return 0.0
    share = len(said & content_units(episode_summary)) / len(said)
    if share >= constants.TRACE_STRONG_SHARE:
        return 0.7
    return 0.4 if share >= constants.TRACE_INDIRECT_SHARE else 0.0
