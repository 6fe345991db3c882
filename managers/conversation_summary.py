"""The running summary of the sitting in progress (rolling compression, seed 003 §4.8), on disk:
`memory/conversation_summary.json` — which sitting it belongs to (its first message's id), the
last message folded into it, and its text. Rewritten atomically after each fold.
"""
from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from managers.store import CharacterFiles

SUMMARY_FILE = "conversation_summary.json"


class ConversationSummary(BaseModel):
    session_start_id: str = ""  # the sitting's first message
    through_id: str = ""  # the last message folded in
    text: str = ""


class ConversationSummaryStore:
    def __init__(self, memory_dir: Path, files: CharacterFiles):
        self.path = memory_dir / SUMMARY_FILE
        self._files = files

    def load(self) -> ConversationSummary:
        return self._files.load_json_model(self.path, ConversationSummary, ConversationSummary)

    def save(self, summary: ConversationSummary) -> None:
        self._files.save_json_model(self.path, summary, keep_backup=False)
