"""Remote backends: OpenAI-compatible servers (OpenAI, Ollama, LM Studio…) and Google Gemini.

The langchain integrations are imported here, lazily, so the app starts without them.
Their own retries are off (max_retries=0): retries happen once, in retry.retrying_stream.
"""
from __future__ import annotations

import logging
from urllib.parse import urlsplit

from agent.providers.base import ProviderError
from agent.providers.langchain_adapter import LangChainChatModel, openai_call_params

log = logging.getLogger(__name__)

PLACEHOLDER_API_KEY = "not-needed"  # local OpenAI-compatible servers ignore the key, the client wants one
GEMINI_ENDPOINT = "Google Gemini"


def safe_endpoint(base_url: str) -> str:
    """The base URL as shown to the user: no credentials, query or fragment."""
    if not base_url.strip():
        return "api.openai.com"
    parts = urlsplit(base_url.strip())
    if not parts.hostname:
        return parts.path.split("?")[0] or "the OpenAI-compatible server"
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{parts.hostname}{port}{parts.path.rstrip('/')}"


def make_openai_compatible(
    base_url: str,
    api_key: str,
    model: str,
    temperature: float,
    max_tokens: int,
    timeout_s: float = 60,
    native_tools: bool = True,
) -> LangChainChatModel:
    try:
        from langchain_openai import ChatOpenAI
    except ImportError as exc:
        raise ProviderError("The OpenAI-compatible backend (langchain-openai) is not installed.") from exc
    client = ChatOpenAI(
        model=model,
        api_key=api_key or PLACEHOLDER_API_KEY,
        base_url=base_url.strip() or None,
        temperature=temperature,
        max_tokens=max_tokens,
        timeout=timeout_s,
        max_retries=0,
    )
    endpoint = safe_endpoint(base_url)
    log.info("OpenAI-compatible model %s at %s", model, endpoint)
    return LangChainChatModel(client, name=f"openai:{model}", describe_endpoint=endpoint, model_id=model,
                              call_params=openai_call_params, secrets=(api_key,), native_tools=native_tools)


def gemini_call_params(temperature: float, max_tokens: int, seed: int | None = None) -> dict:
    return {"generation_config": {"temperature": temperature, "max_output_tokens": max_tokens}}


def make_gemini(
    api_key: str,
    model: str,
    temperature: float,
    max_tokens: int,
    timeout_s: float = 60,
) -> LangChainChatModel:
    try:
        from langchain_google_genai import ChatGoogleGenerativeAI
    except ImportError as exc:
        raise ProviderError("The Gemini backend (langchain-google-genai) is not installed.") from exc
    client = ChatGoogleGenerativeAI(
        model=model,
        google_api_key=api_key,
        temperature=temperature,
        max_output_tokens=max_tokens,
        timeout=timeout_s,
        max_retries=0,
    )
    log.info("Gemini model %s", model)
    return LangChainChatModel(client, name=f"gemini:{model}", describe_endpoint=GEMINI_ENDPOINT, model_id=model,
                              call_params=gemini_call_params, secrets=(api_key,))
