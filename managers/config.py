"""App settings, per-character settings and secrets, each a validated JSON file.

Secrets (API keys) live apart from settings in `secrets.json` with mode 0600; they are never
logged, never backed up, and shown back only masked.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

import constants
from managers.store import CharacterFiles, atomic_write_text

ProviderKind = Literal["local", "gemini", "openai"]
# Who plans the memory search before a reply: "auto" = the LLM on remote providers, rules on the
# embedded model (its planner call adds 2.3-3.8 s before the first token, BENCHMARKS.md §1).
PlannerKind = Literal["auto", "llm", "rules"]


class AppSettings(BaseModel):
    model_config = ConfigDict(extra="ignore")

    provider: ProviderKind = "local"
    local_model_path: str = ""  # empty: the packaged model in the data directory
    gemini_model: str = "gemini-2.5-flash"
    openai_base_url: str = "http://127.0.0.1:11434/v1"
    openai_model: str = "llama3.1"
    # Whether the server's model is given the tools (edit core memory, recall…) to call itself.
    # Off for a small model that does not call them: the app then keeps "please remember"
    # requests itself, as on the embedded model.
    openai_native_tools: bool = True
    temperature: float = Field(default=constants.DEFAULT_TEMPERATURE, ge=0.0, le=2.0)
    # Fixed sampling seed (benchmarks, tests); None samples freshly every reply.
    seed: int | None = None
    user_name: str = constants.DEFAULT_USER_NAME
    declined_user_names: list[str] = Field(default_factory=list)  # introduced names not to offer again
    last_character: str = ""
    auto_retrieval: bool = True
    query_planner: PlannerKind = "auto"
    embedder: str = constants.DEFAULT_EMBEDDER
    # Whether the user has chosen the provider (saved Settings, switched to a local server, or
    # dismissed the first-run note): until then the page says that a stronger local model helps.
    provider_chosen: bool = False
    # Sleep-time work (episodes, …): on by default, once a night inside the quiet hours after the
    # user has been idle this long, or at the next idle moment if the computer was off then.
    sleep_enabled: bool = True
    quiet_hours: str = constants.DEFAULT_QUIET_HOURS
    sleep_idle_minutes: int = Field(default=constants.DEFAULT_SLEEP_IDLE_MINUTES, ge=1, le=24 * 60)
    # Speaking first (issue 20): the persona may write to the user unasked when a drive is strong,
    # outside the quiet hours, within a cooldown and a daily maximum. Off by default (DESIGN.md).
    speak_first: bool = False


class Secrets(BaseModel):
    model_config = ConfigDict(extra="ignore")

    gemini_api_key: str = ""
    openai_api_key: str = ""


def mask_secret(value: str) -> str:
    """What the UI may show of a key: whether it is set, and its last 4 characters."""
    if not value:
        return "not set"
    return f"set (…{value[-4:]})" if len(value) >= 12 else "set"


# Where `setup-model` puts the embedded model for the app's own data directory: another data directory
# (`--data-dir ~/nexus-data`) without a model of its own uses this one, rather than a second 1.1 GB copy.
INSTALLED_MODELS = Path(__file__).resolve().parents[1] / "data" / "models"


@dataclass(frozen=True)
class DataPaths:
    root: Path
    installed_models: Path = INSTALLED_MODELS

    @property
    def characters(self) -> Path:
        return self.root / "characters"

    @property
    def trash(self) -> Path:
        return self.root / "trash"

    @property
    def models(self) -> Path:
        return self.root / "models"

    @property
    def settings_file(self) -> Path:
        return self.root / "settings.json"

    @property
    def secrets_file(self) -> Path:
        return self.root / "secrets.json"

    @property
    def embedded_model(self) -> Path:
        """The model file: $NEXUS_ARK_MODEL_PATH, else this data directory's, else (when only that one is
        there) the app's own data directory's, where the README's set-up put it."""
        override = os.environ.get(constants.MODEL_PATH_ENV)
        if override:
            return Path(override)
        own, installed = (folder / constants.EMBEDDED_MODEL_FILENAME for folder in (self.models, self.installed_models))
        return installed if not own.exists() and installed.exists() else own


class ConfigStore:
    def __init__(self, paths: DataPaths):
        self.paths = paths
        self.files = CharacterFiles(paths.root, paths.root / "backups")

    def load_settings(self) -> AppSettings:
        return self.files.load_json_model(self.paths.settings_file, AppSettings, AppSettings)

    def save_settings(self, settings: AppSettings) -> None:
        self.files.save_json_model(self.paths.settings_file, settings)

    def load_secrets(self) -> Secrets:
        path = self.paths.secrets_file
        if path.exists() and (path.stat().st_mode & 0o077):
            os.chmod(path, 0o600)  # tighten a file someone loosened
        return self.files.load_json_model(path, Secrets, Secrets)

    def save_secrets(self, secrets: Secrets) -> None:
        self.paths.root.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self.paths.secrets_file, secrets.model_dump_json(indent=2) + "\n", mode=0o600)
