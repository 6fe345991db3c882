"""What the persona is told about how to reply: the rules in the cached system message, and a
one-line reminder in the user's language placed right before the model answers.

Measured on the embedded 1.5B model (shared/notes/conversation-probe.md): explicit rules naming
who is who and which language to answer in were the largest single gain (62 → 87 % of turns);
mixed-language style examples and naming phrases to avoid made replies worse, so there are none.
"""
from __future__ import annotations

import constants


def reply_rules(persona: str, user: str, inline_emotion_tag: bool) -> str:
    """The "How to reply" section. `inline_emotion_tag`: the model ends its reply with the emotion
    tag (capable remote models); the embedded model's emotion is read after the reply instead —
    asked for the tag, it often wrote the tag alone and stopped (issue 12)."""
    lines = [
        f"You are {persona}, chatting with {user}. You are not {user}: what {user} tells you about "
        f"their life, plans and feelings is theirs, not yours.",
        f"- Answer {user}'s last message directly, in the language of that message: "
        "English message → English reply; 日本語のメッセージ → 日本語で返事.",
        "- Write one to three short sentences, like a friend's chat message. "
        "When asked for a short answer, give just the answer in a few words.",
        f"- Use your own words; do not repeat {user}'s message back.",
        "- Plain text only: no tags or markup, and never begin a line with a name and a colon.",
        "- Lines under \"Memories\" are from past conversations, with their dates: use them when "
        "they help, and if you don't remember something, say so.",
    ]
    if inline_emotion_tag:
        lines += [
            "- End every reply with one tag on its own line: "
            '<persona_emotion category="CATEGORY" intensity="0.0-1.0"/>, where CATEGORY is one of: '
            + ", ".join(constants.EMOTION_CATEGORIES) + ".",
        ]
    return "\n".join(lines)


# Language and who speaks; the length rule stays in the system message, except when the user asks
# for a short answer: the model then answered in full sentences that restated the question
# (bench qa transcripts, session 8), so the reminder repeats the request.
# The user is named: after a stretch of history about other people the model called the user by
# their names ("That's great, John!").
_REMINDERS = {
    "en": "Reply to {user} as {persona}, in English.",
    "ja": "{persona}として{user}さんに日本語で返事",
    "zh": "以{persona}的身份用中文回复{user}",
}
_BRIEF_REMINDERS = {
    "en": "Reply to {user} as {persona}, in English: just the answer, in a few words.",
    "ja": "{persona}として{user}さんに日本語で、答えだけを短く",
    "zh": "以{persona}的身份用中文回复{user}，只说答案，几个字",
}


# A reply asked for again (empty, or its opening failed the character guard): the model had fallen
# into repeating the user's message, three seeds running (「最近、猫を飼い始めたんだ。」, session 8).
_RETRY_NUDGES = {
    "en": "Reply to {user} as {persona}, in English, in your own words.",
    "ja": "{persona}として{user}さんに、自分の言葉で日本語で返事",
    "zh": "以{persona}的身份用自己的话、用中文回复{user}",
}


def retry_nudge(language: str, persona: str, user: str) -> str:
    template = _RETRY_NUDGES.get(language, _RETRY_NUDGES["en"])
    return template.format(persona=persona, user=user)


def reply_reminder(language: str, persona: str, user: str, brief: bool = False) -> str:
    """A few words, in the language of the message being answered; empty if it has none.
    `brief`: the user asked for a short answer."""
    template = (_BRIEF_REMINDERS if brief else _REMINDERS).get(language)
    return template.format(persona=persona, user=user) if template else ""
