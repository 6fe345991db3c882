"""Imports run one way: ui/, bench/ → persona/ → agent/ → managers/ → constants.py (README "Layout").

Every import statement counts, function-local ones too: a store that reached up into agent/, or a
tab that reached past the facade into a store, would tie the layers into a knot again.
"""
from __future__ import annotations

import ast

import pytest

from tests.conftest import REPO

ALLOWED = {
    "managers": {"constants", "managers"},
    "agent": {"constants", "managers", "agent"},
    "persona": {"constants", "managers", "agent", "persona"},
    "ui": {"constants", "persona", "ui"},
    # The entry point hands the benches what they need (the model's path): importing it back would
    # make a circle.
    "bench": {"constants", "managers", "agent", "persona", "bench"},
}
PROJECT = {"constants", "managers", "agent", "persona", "ui", "bench", "nexus_ark", "tests"}


def _parse(source: str) -> ast.AST:
    """ast.parse, asked again when CPython 3.11.7's parser trips over a thread that another test left
    running ("AST constructor recursion depth mismatch", gh-106905, fixed in 3.11.8)."""
    for attempt in range(5):
        try:
            return ast.parse(source)
        except SystemError:
            if attempt == 4:
                raise
    raise AssertionError("unreachable")


def project_imports(package: str) -> list[tuple[str, int, str]]:
    """(file, line, module) of every import of this project's code in `package`."""
    found = []
    for path in sorted((REPO / package).rglob("*.py")):
        for node in ast.walk(_parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            found += [(str(path.relative_to(REPO)), node.lineno, name)
                      for name in names if name.split(".")[0] in PROJECT]
    return found


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_a_layer_imports_only_itself_and_the_layers_below(package):
    upward = [f"{file}:{line} imports {module}" for file, line, module in project_imports(package)
              if module.split(".")[0] not in ALLOWED[package]]
    assert upward == []


def test_the_check_sees_function_local_imports():
    # The facade opens the memory index lazily: managers.rag is imported inside a method only.
    assert ("persona/memory_indexes.py", "managers.rag") in {(file, module) for file, _, module in project_imports("persona")}
