"""The keep ledger: which user messages the app has finished handling as possible "please remember"
requests (memory/keep_ledger.jsonl, one JSON line per message, appended and fsynced).

A request whose message reached the chat log must land in core memory even when the app is killed
mid-turn (in 40 kill -9 trials before this ledger, 3 of 17 logged requests never did): on the next
open of the persona, every recent user message not in the ledger is handled again
(CharacterSession.complete_keep_requests). The core-memory write comes first and the ledger line
after it; a request whose line is already in core memory is only recorded, so each lands once.
"""
from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Iterable

from managers.store import append_durably

log = logging.getLogger(__name__)


class KeepLedger:
    def __init__(self, path: Path):
        self.path = path
        self._handled: set[str] | None = None  # read once, then kept up to date by `record`

    def exists(self) -> bool:
        return self.path.exists()

    def handled(self) -> set[str]:
        """The ids of the messages handled. A line cut by a crash is skipped (its message is then
        handled again, and found already kept)."""
        if self._handled is not None:
            return set(self._handled)
        if not self.path.exists():
            return set()
        ids = set()
        for line in self.path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                ids.add(json.loads(line)["id"])
            except (json.JSONDecodeError, KeyError, TypeError):
                log.warning("Skipping an unreadable line of %s", self.path)
        self._handled = ids
        return set(ids)

    def record(self, message_id: str, outcome: str) -> None:
        """`outcome`: the line kept, "" (nothing to keep), "model" (left to a model with tools), "failed"."""
        append_durably(self.path, json.dumps({"id": message_id, "outcome": outcome}, ensure_ascii=False) + "\n")
        if self._handled is not None:
            self._handled.add(message_id)

    def start(self, message_ids: Iterable[str]) -> None:
        """The first open with a ledger: the messages so far were handled before it existed."""
        ids = list(message_ids)
        append_durably(self.path, "".join(json.dumps({"id": i, "outcome": "before the ledger"}) + "\n" for i in ids))
        if self._handled is not None:
            self._handled.update(ids)
