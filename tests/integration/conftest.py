import json
from pathlib import Path

import pytest

from tests.conftest import REPO

METRICS: dict[str, object] = {}


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
