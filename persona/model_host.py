"""The app's one chat model: made from Settings and the keys on first use, dropped when they
change (the next use makes the new one), and loaded and warmed at start with the current
persona's prompt prefix, so the first reply does not pay for either.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from agent.providers.base import ChatModel, ProviderError
from managers.config import AppSettings, Secrets

ModelFactory = Callable[[AppSettings, Secrets, Path], ChatModel]

# Settings whose change needs another model (a provider, its model or key): the others (the user's
# name, the planner) take effect with the next turn's prompt.
MODEL_SETTINGS = ("provider", "local_model_path", "gemini_model", "openai_base_url", "openai_model",
                  "openai_native_tools")


def needs_new_model(before: AppSettings, after: AppSettings) -> bool:
    return any(getattr(before, k) != getattr(after, k) for k in MODEL_SETTINGS)


@dataclass
class ModelStatus:
    state: str = "not loaded"  # not loaded / loading / warming / ready / error
    detail: str = ""
    ready_event: threading.Event = field(default_factory=threading.Event)

    def text(self) -> str:
        return f"{self.state}: {self.detail}" if self.detail else self.state


class ModelHost:
    def __init__(self, factory: ModelFactory, embedded_model: Path):
        self._factory = factory
        self._embedded_model = embedded_model
        self.loaded: ChatModel | None = None
        self._lock = threading.Lock()
        self.warm_lock = threading.Lock()  # held while the prefix is pre-evaluated
        self.status = ModelStatus()

    def get(self, settings: AppSettings, secrets: Callable[[], Secrets]) -> ChatModel:
        with self._lock:
            if self.loaded is None:
                self.loaded = self._factory(settings, secrets(), self._embedded_model)
            return self.loaded

    def loaded_after_all(self) -> None:
        """A turn loaded the model after the start's load failed (the model file set up since): the status says so,
        not the old error (a new user read "Model: error: … not found" over a chat that answered, session 48)."""
        if self.status.state == "error":
            self.status.state, self.status.detail = "ready", ""

    def drop(self, forget_status: bool = False) -> None:
        """The next use makes the model again; `forget_status`: it is another model, not loaded yet."""
        with self._lock:
            self.loaded = None
            if forget_status:
                self.status = ModelStatus()

    def warm_up(self, model: Callable[[], ChatModel], persona: Callable[[], str],
                warm: Callable[[str, ChatModel], object]) -> None:
        """Load the model, then have the persona current by then (if any) `warm` its prompt prefix."""
        status = self.status
        with self.warm_lock:
            try:
                status.state, status.detail = "loading", "loading the model…"
                chat_model = model()
                chat_model.load()
                name = persona()
                if name:
                    status.state, status.detail = "warming", f"reading {name}'s memory…"
                    warm(name, chat_model)
                status.state, status.detail = "ready", ""  # not "Ark is ready": the page may show another persona
            except ProviderError as exc:
                status.state, status.detail = "error", exc.user_message
            finally:
                status.ready_event.set()
