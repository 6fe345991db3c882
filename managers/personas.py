"""Personas (characters): the sample, templates, create / rename / delete-to-trash.

Every name a user types goes through `store.validate_name` before it becomes a path.
"""
from __future__ import annotations

import logging
import re
import shutil
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable

from pydantic import BaseModel, ConfigDict

import constants

from managers.store import CharacterFiles, UnsafeNameError, atomic_write_text, safe_child, sweep_temp_files

log = logging.getLogger(__name__)

SAMPLE_PERSONA = "Ark"
TEMPLATE_FOLDER = "_template"
PERSONA_FILES = ("SystemPrompt.md", "core_memory.md", "notepad.md")


class CharacterSettings(BaseModel):
    model_config = ConfigDict(extra="ignore")

    display_name: str = ""
    language_hint: str = "ja/en"
    # Episodes of this many days before the oldest message in the prompt are shown with it (seed 004 §3).
    episode_memory_lookback_days: int = constants.EPISODE_LOOKBACK_DAYS


_NAME_PARTS = re.compile(r"[()（）/／]")


def other_names(name: str, display_name: str) -> tuple[str, ...]:
    """The names besides `name` a persona goes by, from its display name: "Ark (アーク)" → ("アーク",).
    A Japanese night writes the persona as アーク where the folder says Ark (bench nights, session 27)."""
    parts = (part.strip() for part in _NAME_PARTS.split(display_name))
    return tuple(dict.fromkeys(p for p in parts if p and p.casefold() != name.strip().casefold()))


@dataclass(frozen=True)
class Character:
    """The files of one persona."""

    name: str
    root: Path

    @property
    def system_prompt(self) -> Path:
        return self.root / "SystemPrompt.md"

    @property
    def core_memory(self) -> Path:
        return self.root / "core_memory.md"

    @property
    def notepad(self) -> Path:
        return self.root / "notepad.md"

    @property
    def settings_file(self) -> Path:
        return self.root / "character.json"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    @property
    def journal_file(self) -> Path:
        return self.root / "journal" / "streaming.jsonl"

    @property
    def memory_dir(self) -> Path:
        return self.root / "memory"

    def files(self) -> CharacterFiles:
        return CharacterFiles(self.root)

    def read_text(self, path: Path) -> str:
        return path.read_text(encoding="utf-8") if path.exists() else ""


class PersonaError(ValueError):
    """A persona operation that cannot be done; the message is for the user."""


class PersonaManager:
    def __init__(self, characters_dir: Path, trash_dir: Path, bundled_dir: Path, clock: Callable[[], datetime]):
        self.characters_dir = characters_dir
        self.trash_dir = trash_dir
        self.bundled_dir = bundled_dir
        self._clock = clock

    def ensure_sample(self) -> bool:
        """Copy the bundled sample persona on first start. True if it was copied."""
        self.characters_dir.mkdir(parents=True, exist_ok=True)
        if self.list():
            return False
        shutil.copytree(self.bundled_dir / SAMPLE_PERSONA, self.characters_dir / SAMPLE_PERSONA)
        log.info("Copied the sample persona %s", SAMPLE_PERSONA)
        return True

    def list(self) -> list[str]:
        if not self.characters_dir.exists():
            return []
        return sorted(
            p.name for p in self.characters_dir.iterdir()
            if p.is_dir() and not p.name.startswith((".", "_")) and (p / "SystemPrompt.md").exists()
        )

    def sweep_temp_files(self, now: datetime) -> dict[str, int]:
        """Per persona, how many temp files of killed writes were removed from its folder
        (store.sweep_temp_files: only stale ones)."""
        return {name: sweep_temp_files(self._path(name), now) for name in self.list()}

    def get(self, name: str) -> Character:
        path = self._path(name)
        if not path.is_dir():
            raise PersonaError(f"There is no persona named {name!r}.")
        return Character(path.name, path)

    def templates(self) -> list[str]:
        return sorted(
            p.name for p in self.bundled_dir.iterdir() if p.is_dir() and (p / "SystemPrompt.md").exists()
        )

    def create(self, name: str, template: str = TEMPLATE_FOLDER) -> Character:
        target = self._path(name)
        if target.exists():
            raise PersonaError(f"A persona named {target.name!r} already exists.")
        source = self.bundled_dir / (template if template in self.templates() else TEMPLATE_FOLDER)
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("logs", "journal", "backups"))
        character = Character(target.name, target)
        for filename in PERSONA_FILES:
            path = target / filename
            atomic_write_text(path, character.read_text(path).replace("{name}", target.name))
        return character

    def rename(self, old: str, new: str) -> Character:
        source = self.get(old).root
        target = self._path(new)
        if target.exists():
            raise PersonaError(f"A persona named {target.name!r} already exists.")
        source.rename(target)
        return Character(target.name, target)

    def delete(self, name: str) -> Path:
        """Move a persona to trash (restorable); returns where it went."""
        source = self.get(name).root
        self.trash_dir.mkdir(parents=True, exist_ok=True)
        target = self.trash_dir / f"{source.name}.{self._clock().strftime('%Y%m%dT%H%M%S')}"
        shutil.move(str(source), str(target))
        return target

    def restore(self, trashed_name: str) -> Character:
        source = safe_child(self.trash_dir, trashed_name)
        name = source.name.rsplit(".", 1)[0]
        target = self._path(name)
        if target.exists():
            raise PersonaError(f"A persona named {name!r} already exists; rename it first.")
        shutil.move(str(source), str(target))
        return Character(target.name, target)

    def trashed(self) -> list[str]:
        return sorted(p.name for p in self.trash_dir.iterdir()) if self.trash_dir.exists() else []

    def _path(self, name: str) -> Path:
        try:
            return safe_child(self.characters_dir, name)
        except UnsafeNameError as exc:
            raise PersonaError(str(exc)) from exc
