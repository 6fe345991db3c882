import json
from pathlib import Path

import pytest

from agent.providers.llama_local import LlamaCppChatModel
from tests.conftest import REPO, embedded_model_path

METRICS: dict[str, object] = {}


@pytest.fixture(scope="session")
def real_model():
    """The embedded model, loaded once for every real-model test."""
    path = embedded_model_path()
    if not path.is_file():
        pytest.fail(f"The embedded model is missing at {path}: run `bash scripts/setup.sh` first.")
    model = LlamaCppChatModel(path)
    model.load()
    return model


@pytest.fixture
def report_metric():
    def record(name: str, value) -> None:
        METRICS[name] = value

    return record


def pytest_terminal_summary(terminalreporter):
    if METRICS:
        terminalreporter.section("real-model measurements")
        for name, value in METRICS.items():
            terminalreporter.write_line(f"{name}: {value}")
        out = REPO / "test-artifacts"
        out.mkdir(exist_ok=True)
        (out / "integration-metrics.json").write_text(json.dumps(METRICS, indent=2))
