"""Work off the reply's path — indexing, the work after a turn, a warm-up after the night — run in
a daemon thread per job. The latest job of each persona is kept, so a test, a bench or the
night's caller can wait for it.
"""
from __future__ import annotations

import threading
from typing import Callable


class BackgroundWork:
    def __init__(self):
        self._latest: dict[str, threading.Thread] = {}  # per persona: its latest background job

    def start(self, persona: str, target: Callable[..., None], args: tuple, name: str) -> threading.Thread:
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        self._latest[persona] = thread
        thread.start()
        return thread

    def wait(self, persona: str, timeout: float | None = None) -> None:
        thread = self._latest.get(persona)
        if thread is not None:
            thread.join(timeout)

    def busy(self, persona: str) -> bool:
        """Whether the persona's latest job is still running."""
        thread = self._latest.get(persona)
        return thread is not None and thread.is_alive()
