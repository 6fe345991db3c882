import json
import os
from pathlib import Path

import pytest
from pydantic import BaseModel

from managers.store import (
    CharacterFiles, UnsafeNameError, append_durably, atomic_write_text, safe_child, validate_name,
)


class Sample(BaseModel):
    count: int = 0
    label: str = ""


@pytest.mark.parametrize("name", ["../evil", "a/b", "/etc/passwd", "..", ".", "", "   ", "x\x00y",
                                  "a\\b", ".hidden", "_template", "c:drive", "x" * 65])
def test_unsafe_names_are_refused(tmp_path, name):
    with pytest.raises(UnsafeNameError):
        safe_child(tmp_path, name)


@pytest.mark.parametrize("name", ["Ark", "アーク", "Dr. Who", "mina_2"])
def test_ordinary_names_stay_inside_the_folder(tmp_path, name):
    child = safe_child(tmp_path, name)
    assert child.parent == tmp_path.resolve()
    assert validate_name(f"  {name} ") == name


def test_atomic_write_replaces_content_and_leaves_no_temp_files(tmp_path):
    target = tmp_path / "notes.md"
    atomic_write_text(target, "first")
    atomic_write_text(target, "second")
    assert target.read_text() == "second"
    assert [p.name for p in tmp_path.iterdir()] == ["notes.md"]


def test_atomic_write_failure_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "notes.md"
    atomic_write_text(target, "old")

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        atomic_write_text(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["notes.md"]


def test_secret_mode_is_applied(tmp_path):
    target = tmp_path / "secrets.json"
    atomic_write_text(target, "{}", mode=0o600)
    assert (target.stat().st_mode & 0o777) == 0o600


def test_append_durably_appends(tmp_path):
    target = tmp_path / "logs" / "2026-01.txt"
    append_durably(target, "a\n")
    append_durably(target, "b\n")
    assert target.read_text() == "a\nb\n"


def test_corrupt_json_is_quarantined_not_replaced(tmp_path):
    files = CharacterFiles(tmp_path)
    path = tmp_path / "state.json"
    path.write_text('{"count": 3, "label": "tru')  # torn write
    loaded = files.load_json_model(path, Sample, Sample)
    assert loaded == Sample()
    assert not path.exists()
    [report] = files.quarantined
    assert report.moved_to.read_text() == '{"count": 3, "label": "tru'
    assert "state.json" in report.message()


def test_invalid_json_schema_is_quarantined(tmp_path):
    files = CharacterFiles(tmp_path)
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"count": "many"}))
    files.load_json_model(path, Sample, Sample)
    assert len(files.quarantined) == 1


def test_valid_json_loads_and_save_keeps_a_backup(tmp_path):
    files = CharacterFiles(tmp_path)
    path = tmp_path / "state.json"
    files.save_json_model(path, Sample(count=1))
    files.save_json_model(path, Sample(count=2))
    assert files.load_json_model(path, Sample, Sample).count == 2
    backups = list((tmp_path / "backups").glob("state.json.*.bak"))
    assert len(backups) == 1 and json.loads(backups[0].read_text())["count"] == 1
