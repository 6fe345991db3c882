"""Where the shared benchmark folder is (scorers, LoCoMo data, conversation scripts): the folder
given (--shared), else $NEXUS_ARK_SHARED_DIR, else `shared` beside the repository (`../shared`).
No machine's own path is assumed."""
from __future__ import annotations

import os
from pathlib import Path

import constants

REPO = Path(__file__).resolve().parent.parent


def shared_candidates(explicit: str | Path | None = None) -> list[Path]:
    """The folders to look in, in order."""
    if explicit:
        return [Path(explicit)]
    from_env = os.environ.get(constants.SHARED_DIR_ENV, "").strip()
    return ([Path(from_env)] if from_env else []) + [REPO.parent / "shared"]


def find_shared(marker: str, explicit: str | Path | None = None) -> Path | None:
    """The first candidate holding `marker` (a path inside it, e.g. "bench/qa_f1.py"), or None."""
    return next((c for c in shared_candidates(explicit) if (c / marker).exists()), None)
