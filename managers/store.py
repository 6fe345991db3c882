"""Files on disk: safe names, atomic writes, locks, backups and quarantine.

Every rewrite of a user file goes through `atomic_write_text` (temp file + fsync + rename);
JSON is loaded through `load_json_model`, which quarantines a corrupt file into `backups/`
and reports it instead of silently starting from an empty one.
"""
from __future__ import annotations

import json
import logging
import os
import re
import stat
import tempfile
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable, Generic, Iterable, TypeVar

from filelock import FileLock
from pydantic import BaseModel, ValidationError

import constants

log = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)

_FORBIDDEN_NAME_CHARS = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]')


class UnsafeNameError(ValueError):
    """A user- or model-supplied name that must not become a path."""


def validate_name(name: str) -> str:
    """Return the normalised name, or raise UnsafeNameError with a reason a user can read."""
    if not isinstance(name, str):
        raise UnsafeNameError("A name must be text.")
    cleaned = unicodedata.normalize("NFC", name).strip()
    if not cleaned:
        raise UnsafeNameError("A name cannot be empty.")
    if len(cleaned) > constants.MAX_NAME_LENGTH:
        raise UnsafeNameError(f"A name can have at most {constants.MAX_NAME_LENGTH} characters.")
    if _FORBIDDEN_NAME_CHARS.search(cleaned):
        raise UnsafeNameError('A name cannot contain / \\ : * ? " < > | or control characters.')
    if cleaned.startswith(".") or cleaned.startswith("_"):
        raise UnsafeNameError("A name cannot start with '.' or '_'.")
    return cleaned


def safe_child(parent: Path, name: str) -> Path:
    """`parent/name` for a validated name, guaranteed to stay inside `parent`."""
    cleaned = validate_name(name)
    child = (parent / cleaned).resolve()
    if child.parent != parent.resolve():
        raise UnsafeNameError("That name would point outside its folder.")
    return child


def fsync_dir(path: Path) -> None:
    try:
        fd = os.open(str(path), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# The atomic write's temp file beside its target: "." + the target's name + "." + mkstemp's 8
# random characters (CPython's tempfile draws them from a-z, 0-9 and "_") + ".tmp". A kill between
# writing and renaming leaves one behind; sweep_temp_files removes such leftovers, and only them.
_TEMP_SUFFIX = ".tmp"
_TEMP_NAME = re.compile(r"\..+\.[a-z0-9_]{8}" + re.escape(_TEMP_SUFFIX))


def _temp_file_beside(path: Path) -> tuple[int, str]:
    return tempfile.mkstemp(prefix=f".{path.name}.", suffix=_TEMP_SUFFIX, dir=str(path.parent))


def is_temp_name(name: str) -> bool:
    """`name` is one the atomic write gives its temp files (a user's "notes.tmp" is not)."""
    return _TEMP_NAME.fullmatch(name) is not None


def stale_temp_files(files: Iterable[tuple[Path, float]], now: datetime,
                     min_age_s: float = constants.TEMP_FILE_STALE_AFTER_S) -> list[Path]:
    """Of (path, mtime as a POSIX timestamp), the atomic write's temp files not touched for
    `min_age_s`: left by a write that was killed, never one still being written."""
    cutoff = now.timestamp() - min_age_s
    return [path for path, mtime in files if is_temp_name(path.name) and mtime <= cutoff]


def sweep_temp_files(root: Path, now: datetime) -> int:
    """Remove the stale temp files of interrupted atomic writes below `root` (links are not
    followed); returns how many were removed."""
    found = []
    for folder, _dirs, names in os.walk(root):
        for name in names:
            if not is_temp_name(name):
                continue
            path = Path(folder) / name
            try:
                info = path.lstat()
            except OSError:  # gone meanwhile (its write finished): nothing to sweep
                continue
            if stat.S_ISREG(info.st_mode):
                found.append((path, info.st_mtime))
    removed = 0
    for path in stale_temp_files(found, now):
        try:
            path.unlink()
            removed += 1
        except FileNotFoundError:
            pass
        except OSError as exc:
            log.warning("Could not remove the leftover temp file %s: %s", path, exc)
    return removed


def atomic_write_bytes(path: Path, data: bytes, mode: int | None = None) -> None:
    """Write `data` so that `path` holds either the old or the new content, never a mix."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = _temp_file_beside(path)
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise
    fsync_dir(path.parent)


def atomic_write_text(path: Path, text: str, mode: int | None = None) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), mode=mode)


def append_durably(path: Path, text: str) -> None:
    """Append and fsync: once this returns, the text survives a crash."""
    path.parent.mkdir(parents=True, exist_ok=True)
    new_file = not path.exists()
    with open(path, "a", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    if new_file:
        fsync_dir(path.parent)


def file_lock(path: Path) -> FileLock:
    """An inter-process lock for `path` (the UI and background jobs share files)."""
    lock_path = path.parent / f".{path.name}.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    return FileLock(str(lock_path), timeout=constants.LOCK_TIMEOUT_S)


def _timestamp() -> str:
    # Backup names only need to sort and be unique; they are not memory logic.
    return datetime.now().strftime("%Y%m%dT%H%M%S%f")


@dataclass(frozen=True)
class QuarantineReport:
    original: Path
    moved_to: Path
    reason: str

    def message(self) -> str:
        return (
            f"{self.original.name} could not be read ({self.reason}). It was moved to "
            f"{self.moved_to} so nothing is lost; a fresh file is used meanwhile."
        )


class CharacterFiles:
    """Backups and quarantine for the files of one folder tree (a character or the app)."""

    def __init__(self, root: Path, backups_dir: Path | None = None):
        self.root = root
        self.backups_dir = backups_dir or root / "backups"
        self.quarantined: list[QuarantineReport] = []

    def backup(self, path: Path) -> Path | None:
        """Copy `path` into backups before it is rewritten; keeps the newest N per file."""
        if not path.exists():
            return None
        rel = path.relative_to(self.root) if path.is_relative_to(self.root) else Path(path.name)
        target_dir = self.backups_dir / rel.parent
        target = target_dir / f"{rel.name}.{_timestamp()}.bak"
        atomic_write_bytes(target, path.read_bytes())
        older = sorted(target_dir.glob(f"{rel.name}.*.bak"))
        for stale in older[: -constants.BACKUPS_KEPT_PER_FILE]:
            stale.unlink(missing_ok=True)
        return target

    def write_text_with_backup(self, path: Path, text: str) -> None:
        with file_lock(path):
            self.backup(path)
            atomic_write_text(path, text)

    def quarantine(self, path: Path, reason: str) -> QuarantineReport:
        rel = path.relative_to(self.root) if path.is_relative_to(self.root) else Path(path.name)
        target = self.backups_dir / "quarantine" / rel.parent / f"{rel.name}.{_timestamp()}.corrupt"
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)
        report = QuarantineReport(original=path, moved_to=target, reason=reason)
        self.quarantined.append(report)
        log.warning("Quarantined %s: %s", path, reason)
        return report

    def load_json_model(self, path: Path, model: type[M], default: Callable[[], M]) -> M:
        """Load and validate; a missing file gives `default()`, a corrupt one is quarantined."""
        if not path.exists():
            return default()
        try:
            raw = path.read_text(encoding="utf-8")
            return model.model_validate(json.loads(raw))
        except (UnicodeDecodeError, json.JSONDecodeError, ValidationError) as exc:
            self.quarantine(path, f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}")
            return default()

    def save_json_model(
        self, path: Path, value: BaseModel, mode: int | None = None, keep_backup: bool = True
    ) -> None:
        with file_lock(path):
            if keep_backup:
                self.backup(path)
            atomic_write_text(path, value.model_dump_json(indent=2) + "\n", mode=mode)


class PendingFile(Generic[M]):
    """A night's model answers kept between the ask and their use (`dream_pending.json`, a long
    day's parts): written atomically as soon as they come, removed once what they made is written,
    so a stop or a crash in between resumes without asking the model again. No backup: the file is
    a cache of answers, and a corrupt one is quarantined and the answers asked again."""

    def __init__(self, path: Path, model: type[M], files: CharacterFiles):
        self.path = path
        self._model = model
        self._files = files

    def load(self) -> M | None:
        return self._files.load_json_model(self.path, self._model, lambda: None)

    def save(self, value: M) -> None:
        self._files.save_json_model(self.path, value, keep_backup=False)

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)
