"""The persona's emotion after a reply: logged (managers/emotion_log.py), and a shift from worry to
ease recorded as a bonding episode (seed 004 §9 Phase F; the decision is agent/emotion.bonding_shift).

Called by the session for every emotion a reply carries: the inline tag of a capable model, or the
embedded model's after-reply reading.
"""
from __future__ import annotations

import logging
from datetime import datetime

import constants
from agent.emotion import bonding_shift
from managers.emotion_log import EmotionEntry, EmotionLog
from managers.episodes import EpisodeStore

log = logging.getLogger(__name__)


def record_persona_emotion(emotions: EmotionLog, episodes: EpisodeStore, at: datetime, category: str,
                           intensity: float, message_id: str, language: str) -> EmotionEntry:
    """Log the emotion; when it completes a shift from anxious/protective to joy/contentment on a day
    with no bond yet, write the bonding episode (its arousal the seed's 0.7)."""
    entry = emotions.append(at, category, intensity, message_id)
    local = entry.at.astimezone()
    bonded = [e.date for e in episodes.all() if e.type == "bonding" and not e.deleted]
    shift = bonding_shift(local, emotions.recent(), bonded)
    if shift is not None:
        episodes.record_milestone("bonding", shift.text(language), constants.BONDING_AROUSAL, local,
                                  {"emotion_change": shift.change})
        log.info("Bonding episode recorded (%s)", shift.change)
    return entry
