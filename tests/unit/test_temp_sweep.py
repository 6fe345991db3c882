"""Temp files a killed atomic write leaves beside its target are swept at start-up: only files named
as the helper names them, and only once they are old enough that no write can still be using them."""
import logging
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import constants
from agent.providers.fake import ScriptedChatModel, replies
from managers.store import is_temp_name, stale_temp_files, sweep_temp_files
from persona.service import NexusService
from tests.conftest import REPO, StepClock

NOW = datetime(2026, 3, 14, 9, 0, tzinfo=timezone.utc)
STALE = NOW.timestamp() - constants.TEMP_FILE_STALE_AFTER_S - 1
FRESH = NOW.timestamp() - 60  # a minute old: a write could still be under way


def _file(path: Path, mtime: float, text: str = "x") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    os.utime(path, (mtime, mtime))
    return path


def _killed_write(target: Path) -> Path:
    """Run the real atomic write in a child process that is SIGKILLed between writing its temp
    file and renaming it; returns the temp file it left."""
    script = ("import os, signal, sys\nfrom pathlib import Path\nfrom managers import store\n"
              "store.os.replace = lambda *a: os.kill(os.getpid(), signal.SIGKILL)\n"
              "store.atomic_write_text(Path(sys.argv[1]), 'half-way')\n")
    done = subprocess.run([sys.executable, "-c", script, str(target)], cwd=REPO, capture_output=True)
    assert done.returncode == -9, done.stderr
    (left,) = [p for p in target.parent.iterdir() if p.name != target.name]
    return left


def test_a_killed_write_leaves_a_temp_file_that_the_sweep_knows_and_removes_once_stale(tmp_path):
    target = tmp_path / "memory" / "episodic_memory.json"
    _file(target, STALE, "the old content")
    left = _killed_write(target)
    assert is_temp_name(left.name)
    assert target.read_text() == "the old content"
    written = left.stat().st_mtime
    not_yet = datetime.fromtimestamp(written, timezone.utc) + timedelta(minutes=5)
    assert sweep_temp_files(tmp_path, not_yet) == 0 and left.exists()
    later = datetime.fromtimestamp(written + constants.TEMP_FILE_STALE_AFTER_S + 1, timezone.utc)
    assert sweep_temp_files(tmp_path, later) == 1
    assert not left.exists() and target.read_text() == "the old content"


def test_only_the_helpers_names_count_as_temp_files():
    assert is_temp_name(".episodic_memory.json.k3_x9abz.tmp")
    assert is_temp_name(".SystemPrompt.md.abcdefgh.tmp")
    for name in ["notes.tmp", ".notes.tmp", "episodes.json.abcdefgh.tmp",  # no leading dot
                 ".episodes.json.abcdefg.tmp", ".episodes.json.abcdefghi.tmp",  # not 8 random characters
                 ".episodes.json.ABCDEFGH.tmp", ".episodes.json.abcdefgh.tmp.bak", ".abcdefgh.tmp"]:
        assert not is_temp_name(name), name


def test_what_is_stale_is_decided_by_name_and_age_against_now():
    files = [(Path("a/.core.md.aaaaaaaa.tmp"), STALE), (Path("a/.core.md.bbbbbbbb.tmp"), FRESH),
             (Path("a/notes.tmp"), STALE), (Path("b/.log.jsonl.cccccccc.tmp"), STALE - 86_400)]
    assert stale_temp_files(files, NOW) == [Path("a/.core.md.aaaaaaaa.tmp"), Path("b/.log.jsonl.cccccccc.tmp")]
    # An hour earlier, only the day-old one had been left long enough.
    earlier = NOW - timedelta(seconds=constants.TEMP_FILE_STALE_AFTER_S)
    assert stale_temp_files(files, earlier) == [Path("b/.log.jsonl.cccccccc.tmp")]


def test_the_sweep_walks_the_tree_and_leaves_users_files_fresh_writes_and_links(tmp_path):
    stale = _file(tmp_path / "memory" / "entities" / ".Ken.md.q1w2e3r4.tmp", STALE)
    fresh = _file(tmp_path / "memory" / ".goals.json.a1s2d3f4.tmp", FRESH)
    users = _file(tmp_path / "knowledge" / "notes.tmp", STALE, "the user's own notes")
    outside = _file(tmp_path.parent / "outside" / "precious.txt", STALE)
    link = tmp_path / ".precious.txt.z9x8c7v6.tmp"
    link.symlink_to(outside)
    os.utime(link, (STALE, STALE), follow_symlinks=False)
    assert sweep_temp_files(tmp_path, NOW) == 1
    assert not stale.exists()
    assert fresh.exists() and users.read_text() == "the user's own notes"
    assert link.is_symlink() and outside.exists()


def test_the_service_sweeps_every_persona_and_says_how_many(data_dir, caplog):
    service = NexusService(data_dir, clock=StepClock(NOW))
    service.create_persona("Mina")
    roots = {name: service.personas.get(name).root for name in service.persona_names()}
    assert len(roots) == 2
    for i, root in enumerate(roots.values()):
        _file(root / "memory" / f".core_memory.md.aaaaaaa{i}.tmp", STALE)
    kept = _file(roots["Mina"] / "memory" / ".notepad.md.bbbbbbbb.tmp", FRESH)
    with caplog.at_level(logging.INFO, logger="persona.service"):
        assert service.sweep_temp_files() == 2
    assert kept.exists()
    assert not any(is_temp_name(p.name) and p != kept for root in roots.values() for p in root.rglob("*"))
    assert "2 temp file(s)" in caplog.text


def test_the_apps_start_sweeps_once_the_model_is_ready(data_dir):
    model = ScriptedChatModel(replies("Hello."))
    service = NexusService(data_dir, clock=StepClock(NOW), model_factory=lambda s, k, p: model,
                           searcher=lambda *a: None)  # no memory index to build at start
    (name,) = service.persona_names()
    stale = _file(service.personas.get(name).root / "memory" / ".core_memory.md.aaaaaaaa.tmp", STALE)
    service.start_background_warmup().join(timeout=30)
    assert service.model_status.state == "ready" and model.warmed
    assert not stale.exists()
