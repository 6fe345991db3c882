"""Which chat model the settings ask for. Backends are imported lazily, by name."""
from __future__ import annotations

from pathlib import Path

import constants
from agent.providers.base import ChatModel, ProviderError
from managers.config import AppSettings, Secrets


def create_chat_model(settings: AppSettings, secrets: Secrets, embedded_model_path: Path) -> ChatModel:
    if settings.provider == "local":
        from agent.providers.llama_local import LlamaCppChatModel

        path = Path(settings.local_model_path).expanduser() if settings.local_model_path else embedded_model_path
        return LlamaCppChatModel(path)
    if settings.provider == "gemini":
        if not secrets.gemini_api_key:
            raise ProviderError("Gemini needs an API key: add it in Settings.")
        from agent.providers.remote import make_gemini

        return make_gemini(secrets.gemini_api_key, settings.gemini_model, settings.temperature,
                           constants.MAX_REPLY_TOKENS_REMOTE)
    if settings.provider == "openai":
        from agent.providers.remote import make_openai_compatible

        # No key is needed for a server on this computer (Ollama, LM Studio, llama.cpp's server):
        # an empty one is sent as a placeholder (remote.PLACEHOLDER_API_KEY).
        return make_openai_compatible(settings.openai_base_url, secrets.openai_api_key, settings.openai_model,
                                      settings.temperature, constants.MAX_REPLY_TOKENS_REMOTE,
                                      native_tools=settings.openai_native_tools)
    raise ProviderError(f"Unknown provider {settings.provider!r}.")


def max_reply_tokens(model: ChatModel) -> int:
    return constants.MAX_REPLY_TOKENS_LOCAL if model.budget_family == "local" else constants.MAX_REPLY_TOKENS_REMOTE


def max_reply_chars(model: ChatModel) -> int | None:
    """The characters a reply may run to, its sentences whole; None: no bound but the tokens'."""
    return constants.MAX_REPLY_CHARS_LOCAL if model.budget_family == "local" else None
