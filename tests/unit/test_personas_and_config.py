import json
import logging
import threading

import pytest

import constants

from agent.language import message_language
from managers.config import AppSettings, mask_secret
from managers.memory_db import StoreClosed
from managers.personas import PersonaError
from persona.service import NexusService


def test_first_start_copies_the_sample_persona(data_dir, clock):
    service = NexusService(data_dir, clock=clock)
    assert service.persona_names() == ["Ark"]
    assert "アーク" in service.read_memory("Ark", "system_prompt")
    NexusService(data_dir, clock=clock)  # a second start does not copy again or fail
    assert service.persona_names() == ["Ark"]


def test_create_from_template_rename_and_delete_to_trash(data_dir, clock):
    service = NexusService(data_dir, clock=clock)
    assert service.create_persona("Bea") == "Bea"
    assert "You are Bea" in service.read_memory("Bea", "system_prompt")
    assert "{name}" not in service.read_memory("Bea", "core_memory")
    with pytest.raises(PersonaError):
        service.create_persona("Bea")
    service.save_memory("Bea", "notepad", "tea on Sunday")
    assert service.rename_persona("Bea", "Beatrice") == "Beatrice"
    assert service.read_memory("Beatrice", "notepad").strip() == "tea on Sunday"
    trashed = service.delete_persona("Beatrice")
    assert service.persona_names() == ["Ark"]
    assert (trashed / "notepad.md").read_text().strip() == "tea on Sunday"
    restored = service.personas.restore(trashed.name)
    assert restored.name == "Beatrice"


def test_the_personas_display_name_and_languages_are_saved_and_its_other_names_read(data_dir, clock):
    service = NexusService(data_dir, clock=clock)
    service.create_persona("Mia")
    saved = service.update_persona_settings("Mia", "  Mia   (ミア) ", "ES, en")
    assert (saved.display_name, saved.language_hint) == ("Mia (ミア)", "es/en")
    assert json.loads((data_dir / "characters" / "Mia" / "character.json").read_text())["language_hint"] == "es/en"
    session = service.session("Mia")
    assert session.other_names() == ("ミア",) and session.language_hint() == "es/en"
    # a message too short to tell ("ok", an emoji) now takes Spanish, the first the persona lists
    assert message_language("ok", [], session.language_hint()) == "es"
    assert message_language("👍", [], session.language_hint()) == "es"


def test_the_days_of_episodes_shown_are_saved_and_kept_when_not_given(data_dir, clock):
    service = NexusService(data_dir, clock=clock)
    assert service.persona_settings("Ark").episode_memory_lookback_days == constants.EPISODE_LOOKBACK_DAYS
    service.update_persona_settings("Ark", "Ark (アーク)", "ja/en", 30.0)  # the page's number field gives a float
    assert json.loads((data_dir / "characters" / "Ark" / "character.json").read_text())["episode_memory_lookback_days"] == 30
    assert service.update_persona_settings("Ark", "Ark", "ja/en").episode_memory_lookback_days == 30  # a cleared field
    assert service.update_persona_settings("Ark", "Ark", "ja/en", 0).episode_memory_lookback_days == 0


@pytest.mark.parametrize("display_name, hint, days, problem", [
    ("Mia", "jp/en", None, "Unknown language code: jp"),
    ("Mia", "ja/klingon", None, "Unknown language code: klingon"),
    ("M" * 65, "ja/en", None, "too long"),
    ("Mia", "ja/en", -1, "Days of episodes"),
    ("Mia", "ja/en", constants.EPISODE_LOOKBACK_DAYS_MAX + 1, "Days of episodes"),
    ("Mia", "ja/en", 2.5, "Days of episodes"),
])
def test_a_bad_display_name_language_code_or_days_is_refused_and_nothing_saved(data_dir, clock, display_name, hint,
                                                                               days, problem):
    service = NexusService(data_dir, clock=clock)
    before = service.persona_settings("Ark")
    with pytest.raises(PersonaError, match=problem):
        service.update_persona_settings("Ark", display_name, hint, days)
    assert service.persona_settings("Ark") == before


@pytest.mark.parametrize("bad", ["../Ark2", "/tmp/x", "a/b", "..", "x\x00"])
def test_persona_names_cannot_escape_the_characters_folder(data_dir, clock, bad):
    service = NexusService(data_dir, clock=clock)
    with pytest.raises(PersonaError):
        service.create_persona(bad)
    with pytest.raises(PersonaError):
        service.rename_persona("Ark", bad)
    assert not (data_dir / "Ark2").exists()


def test_memory_edits_are_saved_with_a_backup_and_limits(data_dir, clock):
    service = NexusService(data_dir, clock=clock)
    service.save_memory("Ark", "core_memory", "first")
    service.save_memory("Ark", "core_memory", "second")
    assert service.read_memory("Ark", "core_memory").strip() == "second"
    backups = list((data_dir / "characters/Ark/backups").glob("core_memory.md.*.bak"))
    assert any(b.read_text().strip() == "first" for b in backups)
    with pytest.raises(ValueError):
        service.save_memory("Ark", "core_memory", "x" * 50_000)
    with pytest.raises(ValueError):
        service.save_memory("Ark", "../../etc/passwd", "x")


def test_api_keys_are_stored_0600_masked_and_never_logged(data_dir, clock, caplog):
    caplog.set_level(logging.DEBUG)
    service = NexusService(data_dir, clock=clock)
    key = "AIzaSyTESTKEY-1234567890abcd"
    shown = service.set_api_key("gemini_api_key", key)
    secrets_file = data_dir / "secrets.json"
    assert (secrets_file.stat().st_mode & 0o777) == 0o600
    assert json.loads(secrets_file.read_text())["gemini_api_key"] == key
    assert key not in shown and shown.endswith("abcd)")
    assert key not in json.dumps(service.masked_keys())
    assert key not in (data_dir / "settings.json").read_text() if (data_dir / "settings.json").exists() else True
    assert key not in caplog.text
    assert mask_secret("") == "not set"


def test_corrupt_settings_are_quarantined_and_reported(data_dir, clock):
    (data_dir / "settings.json").write_text("{ this is not json")
    service = NexusService(data_dir, clock=clock)
    assert service.settings == AppSettings()
    notices = service.pop_notices()
    assert any("settings.json" in n and "quarantine" in n for n in notices)
    [moved] = list((data_dir / "backups/quarantine").glob("settings.json.*"))
    assert moved.read_text() == "{ this is not json"


def test_settings_validation_rejects_nonsense(data_dir, clock):
    service = NexusService(data_dir, clock=clock)
    with pytest.raises(ValueError):
        service.update_settings(temperature=5.0)
    with pytest.raises(ValueError):
        service.update_settings(provider="skynet")
    service.update_settings(provider="openai", openai_model="qwen2.5")
    assert NexusService(data_dir, clock=clock).settings.openai_model == "qwen2.5"


def test_missing_gemini_key_gives_a_clear_message(data_dir, clock):
    service = NexusService(data_dir, clock=clock)
    service.update_settings(provider="gemini")
    events = list(service.send("Ark", "hello?"))
    assert events[-1].kind == "error" and "API key" in events[-1].text


def test_local_model_missing_gives_a_clear_message(data_dir, clock, tmp_path):
    service = NexusService(data_dir, clock=clock)
    service.update_settings(local_model_path=str(tmp_path / "nope.gguf"))
    events = list(service.send("Ark", "hello?"))
    assert events[-1].kind == "error" and "not found" in events[-1].text
    assert [e.text for e in service.conversation("Ark")] == ["hello?"]


def test_a_persona_is_not_renamed_or_deleted_under_a_running_upload(data_dir, clock, tmp_path):
    service = NexusService(data_dir, clock=clock)
    service.create_persona("Bea")
    upload = tmp_path / "tea.txt"
    upload.write_text("Sencha is steamed; gyokuro is shaded for three weeks before picking.", "utf-8")
    reading, finish = threading.Event(), threading.Event()

    def progress(message: str, fraction: float) -> None:
        if message.startswith("Reading"):  # the upload's first step
            reading.set()
            finish.wait(30)

    uploading = threading.Thread(target=service.knowledge("Bea").add_file, args=(upload, "tea.txt", progress))
    uploading.start()
    assert reading.wait(30)
    with pytest.raises(PersonaError, match="being indexed"):
        service.rename_persona("Bea", "Beatrice")
    with pytest.raises(PersonaError, match="being indexed"):
        service.delete_persona("Bea")
    finish.set()
    uploading.join(60)
    assert service.rename_persona("Bea", "Beatrice") == "Beatrice"  # the upload finished whole
    assert [d.name for d in service.knowledge("Beatrice").documents()] == ["tea.txt"]
    assert service.knowledge("Beatrice").search("gyokuro shading")


def test_indexing_that_waited_while_its_persona_was_renamed_changes_nothing(data_dir, clock):
    service = NexusService(data_dir, clock=clock)
    service.create_persona("Bea")
    indexer, knowledge = service.memory_index("Bea"), service.knowledge("Bea")
    service.rename_persona("Bea", "Beatrice")  # closes Bea's memory.db
    with pytest.raises(StoreClosed):
        indexer.update()
    with pytest.raises(StoreClosed):
        knowledge.reindex()
    assert not (data_dir / "characters" / "Bea").exists()  # nothing was written into the old folder
    assert (data_dir / "characters" / "Beatrice").is_dir()


def test_another_data_directory_uses_the_installed_model_until_it_has_its_own(tmp_path, monkeypatch):
    # "bash scripts/start.sh --data-dir ~/nexus-data" set the model up in the app's own data directory and then
    # looked for it in ~/nexus-data/models: "The local model file was not found" (a new user, session 48)
    from managers.config import DataPaths

    monkeypatch.delenv(constants.MODEL_PATH_ENV, raising=False)
    installed, data = tmp_path / "app" / "data" / "models", tmp_path / "nexus-data"
    paths = DataPaths(data, installed_models=installed)
    assert paths.embedded_model == data / "models" / constants.EMBEDDED_MODEL_FILENAME  # nothing anywhere: set up here
    installed.mkdir(parents=True)
    (installed / constants.EMBEDDED_MODEL_FILENAME).write_bytes(b"gguf")
    assert paths.embedded_model == installed / constants.EMBEDDED_MODEL_FILENAME
    (data / "models").mkdir(parents=True)
    (data / "models" / constants.EMBEDDED_MODEL_FILENAME).write_bytes(b"gguf")
    assert paths.embedded_model == data / "models" / constants.EMBEDDED_MODEL_FILENAME


def test_sleep_time_settings_are_saved_and_bad_quiet_hours_refused_with_a_clear_message(data_dir):
    # the Episodes tab pointed at Settings for the quiet hours, which had no control for them (a new user, session 48)
    service = NexusService(data_dir)
    service.update_sleep_settings(False, "23:30–06:00", 45)
    assert (service.settings.sleep_enabled, service.settings.quiet_hours, service.settings.sleep_idle_minutes) == (
        False, "23:30-06:00", 45)
    with pytest.raises(ValueError, match="should look like 00:00-07:00"):
        service.update_sleep_settings(True, "late at night", 45)
    with pytest.raises(ValueError):
        service.update_sleep_settings(True, "00:00-07:00", 0)
    assert service.settings.quiet_hours == "23:30-06:00" and not service.settings.sleep_enabled  # nothing half-saved


def test_saving_only_the_name_does_not_reload_the_model(data_dir):
    service = NexusService(data_dir)
    assert not service.update_settings_reloads(user_name="Lucía")
    assert service.update_settings_reloads(provider="openai")


def test_a_model_set_up_after_a_failed_start_is_shown_ready_once_a_turn_loads_it(data_dir):
    from agent.providers.base import ProviderError
    from agent.providers.fake import ScriptedChatModel, replies

    model = ScriptedChatModel(replies("Hola, Lucía."))
    missing = {"yes": True}

    def load():
        if missing["yes"]:
            raise ProviderError("The local model file was not found.")
        return model

    model.load = load
    service = NexusService(data_dir, model_factory=lambda s, k, p: model, searcher=lambda *a: None)
    service.start_background_warmup().join(timeout=30)
    assert service.model_status.state == "error"
    missing["yes"] = False  # the user sets the model up, and writes
    list(service.send("Ark", "hola"))
    assert service.model_status.state == "ready" and service.model_status.text() == "ready"
