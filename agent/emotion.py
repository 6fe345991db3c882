"""The persona's emotion for a reply, read after the reply by one grammar-forced model call.

Capable remote models end their reply with a `<persona_emotion …/>` tag (agent/reply_tags.py).
Asked for that tag, the embedded 1.5B model often wrote the tag alone and stopped — empty replies
(issue 12) — so for it the emotion is asked for separately once the reply is shown: a JSON object
forced by grammar, in the seed's categories, in the planner's own small context (the chat's
cached prefix is untouched).
"""
from __future__ import annotations

import json

import constants
from agent.reply_tags import EmotionTag

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
    user = f"{user_name}: {user_text[:limit]}\n{persona}: {reply[:limit]}"
    return system, user


def parse_emotion(answer: str) -> EmotionTag | None:
    """The emotion in the model's JSON answer, or None if it is not a valid one."""
    try:
        data = json.loads(answer)
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict) or data.get("category") not in constants.EMOTION_CATEGORIES:
        return None
    intensity = data.get("intensity")
    if not isinstance(intensity, (int, float)) or isinstance(intensity, bool) or intensity != intensity:
        return None
    clamped = min(constants.EMOTION_INTENSITY_MAX, max(constants.EMOTION_INTENSITY_MIN, float(intensity)))
    return EmotionTag(data["category"], clamped)
