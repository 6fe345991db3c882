"""Which model a bench measures: `--provider`, `--base-url`, `--model`, `--from-settings`.

One set of flags for `bench conversation`, `bench qa` and `bench docqa`. Without them a bench
measures the embedded model, as before, so its numbers stay comparable with BENCHMARKS.md.
`--from-settings` takes the provider and model of the data directory's settings.json (what the
app uses); the other flags then change only what they name. API keys come from the data
directory's secrets.json.
"""
from __future__ import annotations

import argparse
import logging
from dataclasses import dataclass
from pathlib import Path

from managers.config import AppSettings, Secrets

log = logging.getLogger(__name__)

PROVIDERS = ("local", "openai", "gemini")
# The settings a bench takes from settings.json with --from-settings: the model, nothing else
# (user name, seed, recall switches stay the bench's own).
PROVIDER_FIELDS = ("provider", "local_model_path", "gemini_model", "openai_base_url", "openai_model",
                   "openai_native_tools")


class BenchProviderError(ValueError):
    """Flags that do not name one model."""


def add_provider_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("model (conversation, qa, docqa; default: the embedded model)")
    group.add_argument("--provider", choices=PROVIDERS, default=None,
                       help="local (a GGUF, the embedded one by default), openai (any OpenAI-compatible "
                            "server: Ollama, LM Studio, llama.cpp's server…) or gemini")
    group.add_argument("--base-url", default=None,
                       help="openai: the server's API root, e.g. http://127.0.0.1:11434/v1 (Ollama)")
    group.add_argument("--model", default=None,
                       help="openai / gemini: the model name; local: a GGUF file (default: the embedded model)")
    group.add_argument("--from-settings", action="store_true",
                       help="start from the provider and model in the data directory's settings.json")


def bench_settings(provider: str | None, base_url: str | None, model: str | None,
                   saved: AppSettings | None = None) -> AppSettings:
    """The model settings the flags ask for (pure). `saved`: the data directory's settings when
    --from-settings was given, else None (the defaults: the embedded model)."""
    start = saved if saved is not None else AppSettings()
    fields = {name: getattr(start, name) for name in PROVIDER_FIELDS}
    if provider is not None:
        if provider not in PROVIDERS:
            raise BenchProviderError(f"--provider must be one of {', '.join(PROVIDERS)}")
        fields["provider"] = provider
    chosen = fields["provider"]
    if base_url is not None:
        if chosen != "openai":
            raise BenchProviderError("--base-url is for --provider openai")
        fields["openai_base_url"] = base_url.strip()
    if model is not None:
        fields[{"local": "local_model_path", "openai": "openai_model", "gemini": "gemini_model"}[chosen]] = model.strip()
    elif provider is not None and provider != "local" and (saved is None or saved.provider != provider):
        # The default model names ("llama3.1") are guesses: a bench must say what it measured.
        raise BenchProviderError(f"--provider {provider} needs --model (the name the server or API knows)")
    if chosen == "openai" and not fields["openai_base_url"]:
        raise BenchProviderError("--provider openai needs --base-url")
    return AppSettings(**fields)


@dataclass(frozen=True)
class BenchModel:
    settings: AppSettings
    secrets: Secrets

    @property
    def uses_embedded_model(self) -> bool:
        return self.settings.provider == "local" and not self.settings.local_model_path

    def describe(self) -> str:
        s = self.settings
        if s.provider == "openai":
            return f"openai:{s.openai_model} at {s.openai_base_url}"
        if s.provider == "gemini":
            return f"gemini:{s.gemini_model}"
        return f"local:{s.local_model_path or 'the embedded model'}"

    def create(self, embedded_model_path: Path):
        """The chat model (not loaded yet); the embedded one is assembled first if needed."""
        from agent.providers.factory import create_chat_model

        if self.uses_embedded_model:
            from managers.model_assets import ensure_model

            ensure_model(embedded_model_path, log.info)
        return create_chat_model(self.settings, self.secrets, embedded_model_path)


def default_bench_model() -> BenchModel:
    """The embedded model: what a bench measures without provider flags."""
    return BenchModel(AppSettings(), Secrets())


def bench_model(args: argparse.Namespace, data_dir: Path) -> BenchModel:
    """The model a bench's command line asks for (BenchProviderError when the flags disagree)."""
    from managers.config import ConfigStore, DataPaths

    store = ConfigStore(DataPaths(data_dir))
    saved = None
    if getattr(args, "from_settings", False):
        if not store.paths.settings_file.is_file():
            raise BenchProviderError(f"--from-settings: there is no {store.paths.settings_file}")
        saved = store.load_settings()
    settings = bench_settings(getattr(args, "provider", None), getattr(args, "base_url", None),
                              getattr(args, "model", None), saved)
    secrets = store.load_secrets() if store.paths.secrets_file.is_file() else Secrets()
    chosen = BenchModel(settings, secrets)
    log.info("Bench model: %s", chosen.describe())
    return chosen
