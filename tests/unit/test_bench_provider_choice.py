"""The benches' model flags: --provider, --base-url, --model, --from-settings."""
from __future__ import annotations

import pytest

from bench.provider_choice import BenchProviderError, bench_model, bench_settings
from managers.config import AppSettings, ConfigStore, DataPaths, Secrets
from nexus_ark import parser

OLLAMA = "http://127.0.0.1:11434/v1"


def flags(*argv: str):
    return parser().parse_args(["bench", "conversation", *argv])


def test_no_flags_measure_the_embedded_model():
    settings = bench_settings(None, None, None)
    assert settings.provider == "local" and settings.local_model_path == ""


def test_flags_name_a_server_and_its_model():
    settings = bench_settings("openai", OLLAMA, "qwen2.5:7b")
    assert (settings.provider, settings.openai_base_url, settings.openai_model) == ("openai", OLLAMA, "qwen2.5:7b")
    assert bench_settings("gemini", None, "gemini-2.5-pro").gemini_model == "gemini-2.5-pro"
    assert bench_settings("local", None, "/models/other.gguf").local_model_path == "/models/other.gguf"


@pytest.mark.parametrize("provider, base_url, model, message", [
    ("openai", OLLAMA, None, "needs --model"),
    ("gemini", None, None, "needs --model"),
    ("local", OLLAMA, None, "--base-url is for --provider openai"),
    (None, OLLAMA, "x", "--base-url is for --provider openai"),
    ("openai", "", "x", "needs --base-url"),
    ("claude", None, "x", "--provider must be one of"),
])
def test_flags_that_do_not_name_one_model_are_refused(provider, base_url, model, message):
    with pytest.raises(BenchProviderError, match=message):
        bench_settings(provider, base_url, model)


def test_from_settings_takes_the_model_only_and_flags_change_what_they_name():
    saved = AppSettings(provider="openai", openai_base_url=OLLAMA, openai_model="llama3.1:8b",
                        openai_native_tools=False, user_name="Mina", seed=5, auto_retrieval=False)
    settings = bench_settings(None, None, None, saved)
    assert (settings.provider, settings.openai_base_url, settings.openai_model) == ("openai", OLLAMA, "llama3.1:8b")
    assert settings.openai_native_tools is False
    assert (settings.user_name, settings.seed, settings.auto_retrieval) == ("User", None, True)  # the bench's own
    assert bench_settings(None, None, "qwen2.5:14b", saved).openai_model == "qwen2.5:14b"
    assert bench_settings("openai", None, None, saved).openai_model == "llama3.1:8b"  # named in settings
    assert bench_settings("local", None, None, saved).provider == "local"


def test_the_command_line_maps_to_settings(tmp_path):
    data = tmp_path / "data"
    chosen = bench_model(flags("--provider", "openai", "--base-url", OLLAMA, "--model", "qwen2.5:7b"), data)
    assert chosen.settings.openai_model == "qwen2.5:7b" and not chosen.uses_embedded_model
    assert chosen.describe() == f"openai:qwen2.5:7b at {OLLAMA}"
    assert bench_model(flags(), data).uses_embedded_model
    with pytest.raises(BenchProviderError, match="no .*settings.json"):
        bench_model(flags("--from-settings"), data)


def test_from_settings_reads_the_data_directory_and_its_key(tmp_path):
    data = tmp_path / "data"
    store = ConfigStore(DataPaths(data))
    store.save_settings(AppSettings(provider="gemini", gemini_model="gemini-2.5-flash"))
    store.save_secrets(Secrets(gemini_api_key="AIza-test-key-0123456789"))
    chosen = bench_model(flags("--from-settings"), data)
    assert chosen.settings.provider == "gemini" and chosen.secrets.gemini_api_key == "AIza-test-key-0123456789"
    model = chosen.create(tmp_path / "unused.gguf")  # built, not called: no network
    assert model.name == "gemini:gemini-2.5-flash"


def test_every_model_bench_takes_the_flags():
    for what in ("conversation", "qa", "docqa"):
        args = parser().parse_args(["bench", what, "--provider", "openai", "--base-url", OLLAMA, "--model", "m"])
        assert (args.provider, args.base_url, args.model, args.from_settings) == ("openai", OLLAMA, "m", False)
