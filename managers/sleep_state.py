"""What sleep-time work has done, on disk (`memory/sleep_state.json`): the last night finished, the
steps of the night in progress (so a quit or crash mid-way resumes without redoing them) and the
reports of the last runs. Written atomically after every step.
"""
from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field

from managers.store import CharacterFiles

SLEEP_STATE_FILE = "sleep_state.json"
REPORTS_KEPT = 14


class SleepReport(BaseModel):
    """One run: when, how long, what it wrote, how many model calls, what went wrong."""
    night: str  # ISO date of the night
    started_at: str
    finished_at: str = ""
    wall_s: float = 0.0
    model_calls: int = 0
    prompt_tokens: int = 0
    output_tokens: int = 0
    step_seconds: dict[str, float] = Field(default_factory=dict)  # each step's wall time, in the order run
    written: list[str] = Field(default_factory=list)  # "episode 2026-11-24", …
    problems: list[str] = Field(default_factory=list)
    stopped: bool = False  # a reply or a quit stopped it; the rest waits for the next idle moment


class SleepState(BaseModel):
    last_done_night: str = ""  # ISO date; "" never
    night_in_progress: str = ""
    steps_done: list[str] = Field(default_factory=list)  # of the night in progress: "episode:2026-11-24"
    reports: list[SleepReport] = Field(default_factory=list)  # newest last


class SleepStateStore:
    def __init__(self, memory_dir: Path, files: CharacterFiles):
        self.path = memory_dir / SLEEP_STATE_FILE
        self._files = files

    def load(self) -> SleepState:
        return self._files.load_json_model(self.path, SleepState, SleepState)

    def save(self, state: SleepState) -> None:
        trimmed = state.model_copy(update={"reports": state.reports[-REPORTS_KEPT:]})
        self._files.save_json_model(self.path, trimmed, keep_backup=False)
