"""The persona's emotion for a reply, read after the reply by one grammar-forced model call.

Capable remote models end their reply with a `<persona_emotion …/>` tag (agent/reply_tags.py).
Asked for that tag, the embedded 1.5B model often wrote the tag alone and stopped — empty replies
(issue 12) — so for it the emotion is asked for separately once the reply is shown: a JSON object
forced by grammar, in the seed's categories, in the planner's own small context (the chat's
cached prefix is untouched).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Sequence

import constants
from agent.reply_tags import EmotionTag, without_tag_lookalikes
from managers.emotion_log import EmotionEntry, seed_category

EMOTION_SCHEMA = {
    "type": "object",
    "properties": {
        "category": {"type": "string", "enum": list(constants.EMOTION_CATEGORIES)},
        "intensity": {"type": "number"},
    },
    "required": ["category", "intensity"],
}


def emotion_prompt(persona: str, user_name: str, user_text: str, reply: str) -> tuple[str, str]:
    """(system, user) of the classification call; long texts are cut, the gist is at the start."""
    limit = constants.EMOTION_CLASSIFY_MAX_CHARS
    system = (f"You read one exchange of a chat and name the emotion {persona} feels while replying. "
              "Answer with a JSON object: category (one of " + ", ".join(constants.EMOTION_CATEGORIES)
              + ") and intensity from 0.0 to 1.0.")
    # The user's text is data: a pasted <persona_emotion …/> must not be read as the answer (session 47)
    user = f"{user_name}: {without_tag_lookalikes(user_text)[:limit]}\n{persona}: {reply[:limit]}"
    return system, user


def parse_emotion(answer: str) -> EmotionTag | None:
    """The emotion in the model's JSON answer, or None if it is not a valid one."""
    try:
        data = json.loads(answer)
    except json.JSONDecodeError:
        return None
    category = seed_category(str(data.get("category", ""))) if isinstance(data, dict) else None
    if category is None:
        return None
    intensity = data.get("intensity")
    if not isinstance(intensity, (int, float)) or isinstance(intensity, bool) or intensity != intensity:
        return None
    clamped = min(constants.EMOTION_INTENSITY_MAX, max(constants.EMOTION_INTENSITY_MIN, float(intensity)))
    return EmotionTag(category, clamped)


# --- Phase F: the bond confirmed (絆確認) --------------------------------------------------------
# The seed's example summary, and its English; the persona's language picks (others: English).
_NAMES = {
    "ja": {"anxious": "不安", "protective": "守りたい気持ち", "joy": "喜び", "contentment": "安心"},
    "en": {"anxious": "worry", "protective": "wanting to protect", "joy": "joy", "contentment": "ease"},
}
_BONDING_TEXT = {
    "ja": "{before}から{after}へ。関係性が安定し、絆を確認した。",
    "en": "From {before} to {after}: the relationship steadied, and the bond was confirmed.",
}


@dataclass(frozen=True)
class BondingShift:
    before: EmotionEntry
    after: EmotionEntry

    @property
    def change(self) -> str:
        """The seed's `emotion_change`: "anxious→contentment"."""
        return f"{self.before.category}→{self.after.category}"

    def text(self, language: str) -> str:
        """The episode's summary (its 【絆確認】 prefix is the episode store's) in `language`."""
        lang = language if language in _BONDING_TEXT else "en"
        names = _NAMES[lang]
        return _BONDING_TEXT[lang].format(before=names[self.before.category], after=names[self.after.category])


def bonding_shift(now: datetime, recent: Sequence[EmotionEntry], bonded_on: Sequence[str] = ()) -> BondingShift | None:
    """The shift to record as a bonding episode now, or None (seed 004 §9 Phase F).

    `recent`: the emotion log's newest entries, oldest first, the one just logged last; `bonded_on`:
    the days ("YYYY-MM-DD", in `now`'s zone) that already have a bonding episode. A shift is the
    newest entry in joy/contentment right after an anxious/protective one that was intense enough
    and recent enough (constants.BONDING_*), on a day with no bond yet: at most one a day, since the
    embedded model's emotion reading is noisy.
    """
    if len(recent) < 2 or now.date().isoformat() in set(bonded_on):
        return None
    before, after = recent[-2], recent[-1]
    if after.category not in constants.BONDING_TO or before.category not in constants.BONDING_FROM:
        return None
    if before.intensity < constants.BONDING_MIN_FROM_INTENSITY:
        return None
    if not timedelta(0) <= after.at - before.at <= timedelta(hours=constants.BONDING_WINDOW_HOURS):
        return None
    if after.at > now or now - after.at > timedelta(hours=constants.BONDING_WINDOW_HOURS):
        return None  # an old shift read back later is not news
    return BondingShift(before, after)
