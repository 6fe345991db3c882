""""Please remember …" requests: recognised by rule and kept by the app itself.

The embedded model was offered the edit tools for such messages and did not call them (0 of 5
requests saved, issue 12), so for models without native tool calls the app writes the request
to core memory before the reply is generated, and the reply is told it was saved.
A question about memory ("do you remember …?", 「覚えてる？」) is not a request to keep anything.
"""
from __future__ import annotations

import re
from datetime import datetime

_REQUEST = re.compile(
    # English: imperative forms only; "do you remember that …" asks, it does not request.
    r"(?<!do you )(?<!did you )(?<!don't you )\bremember (?:that|this)\b|\bplease remember\b|\bremember:"
    r"|\bdon'?t forget\b|\bdo not forget\b|\bkeep in mind\b|\bmake a note\b|\btake a note\b"
    r"|\bnote (?:that|this|down)\b|\b(?:write|jot) (?:it|this|that) down\b|\b(?:add|put) (?:it|this|that) (?:in|to) your (?:notepad|notes|core memory)\b"
    # Japanese: 覚えておいて / 覚えといて / 覚えてて(ね) / 忘れないで / メモして / 記録して / 書いておいて
    r"|覚えて(?:お|と)い?て|覚えといて|覚えてて(?:ね|ほしい|欲しい|ください)|おぼえておいて|忘れないで|忘れずに"
    r"|メモ(?:して|しておいて|しといて|っておいて|っといて)|記録(?:して|しておいて)|書いておいて|書き留めて"
    # Chinese
    r"|记住|記住|别忘了|別忘了|记下|記下",
    re.IGNORECASE,
)
_ENGLISH_LEAD = re.compile(
    r"^(?:(?:hey|oh|ok|okay|so|and|also)[,!]?\s+)?(?:(?:can|could|would|will) you\s+)?(?:please\s+)?"
    r"(?:remember|don'?t forget|do not forget|keep in mind|note|make a note|take a note)(?:\s+(?:that|this|of this))?\s*[:,]?\s+",
    re.IGNORECASE,
)


def is_keep_request(text: str) -> bool:
    return bool(_REQUEST.search(text))


def keep_note(text: str, user_name: str, now: datetime) -> str:
    """The line kept for the request: its date, who asked, and what, in the user's own words
    (an English lead-in such as "Please remember that" is dropped)."""
    body = " ".join(text.split())
    stripped = _ENGLISH_LEAD.sub("", body, count=1)
    if stripped != body and stripped:
        body = stripped[0].upper() + stripped[1:]
    return f"- {now.strftime('%Y-%m-%d')} {user_name}: {body}"
