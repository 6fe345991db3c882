"""Which model answers: the settings a choice of provider writes (the embedded model, a server on
this computer), the first-run note about that choice, and the API keys as the page may show them.
"""
from __future__ import annotations

from agent.providers.discovery import require_loopback
from managers.config import AppSettings, Secrets, mask_secret

EMBEDDED_MODEL = {"provider": "local", "provider_chosen": True}
API_KEYS = ("gemini_api_key", "openai_api_key")


def local_server(base_url: str, model: str) -> dict:
    """The settings for a server on this computer (no API key needed there). NotLoopback (a
    ValueError) for any other host."""
    if not model.strip():
        raise ValueError("Choose a model of that server.")
    return {"provider": "openai", "openai_base_url": require_loopback(base_url), "openai_model": model.strip(),
            "provider_chosen": True}


def shows_first_run_note(settings: AppSettings) -> bool:
    """The first-run note (the embedded model is small; a local server helps): shown until the
    provider is chosen, and only while the embedded model is the one in use."""
    return settings.provider == "local" and not settings.provider_chosen


def with_key(secrets: Secrets, which: str, value: str) -> Secrets:
    if which not in API_KEYS:
        raise ValueError(f"unknown key {which!r}")
    return secrets.model_copy(update={which: value.strip()})


def masked(secrets: Secrets) -> dict[str, str]:
    """What the page may show of each key."""
    return {k: mask_secret(v) for k, v in secrets.model_dump().items()}
