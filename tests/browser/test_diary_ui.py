"""The Diary tab in a real browser: the user reads both diaries (the secret one with its note),
edits the main diary and sees it saved, backed up; a save over an entry written meanwhile is
refused until the diary is reloaded.

Its own app (temp data dir, a scripted chat model), so the other browser tests' data do not mix in.
"""
from __future__ import annotations

import re
from datetime import date

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import RunningApp, serving

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app(tmp_path_factory, chromium_path):
    from agent.providers.fake import ScriptedChatModel
    from managers.diaries import MAIN_DIARY, SECRET_DIARY, DiaryStore
    from persona.service import NexusService

    data_dir = tmp_path_factory.mktemp("diary-data")
    service = NexusService(data_dir=data_dir, model_factory=lambda s, k, p: ScriptedChatModel(lambda m, t: "Nice!"))
    session = service.session("Ark")
    diaries = DiaryStore(session.character.memory_dir, session.files)
    diaries.add_entry(MAIN_DIARY, date(2026, 3, 14), "Mina told me about her novel. I felt proud.")
    diaries.add_entry(SECRET_DIARY, date(2026, 3, 14), "I wonder if she will come back tomorrow.")
    service.warm_up()
    with serving(service, data_dir) as running:
        yield running


def test_the_user_edits_the_main_diary_and_sees_it_saved(page: Page, app: RunningApp, page_errors):
    from managers.diaries import MAIN_DIARY, SECRET_DIARY

    page.goto(app.url)
    expect(page.locator("#persona-select input")).to_have_value("Ark")
    page.get_by_role("tab", name="Diary").click()
    main = page.locator("#main-diary-editor textarea")
    expect(main).to_have_value("## 2026-03-14\nMina told me about her novel. I felt proud.\n")
    expect(page.locator("#secret-diary-editor textarea")).to_have_value(
        "## 2026-03-14\nI wonder if she will come back tomorrow.\n")
    expect(page.get_by_text("It is shown here because it is your data.")).to_be_visible()

    main.fill("## 2026-03-14\nMina told me about her novel, the lighthouse one. I felt proud.")
    page.locator("#save-main-diary").click()
    expect(page.locator("#main-diary-status")).to_contain_text("saved")
    assert app.service.read_diary("Ark", MAIN_DIARY) == "## 2026-03-14\nMina told me about her novel, the lighthouse one. I felt proud.\n"
    [backup] = (app.data_dir / "characters/Ark/backups/memory").glob("memory_main.txt.*.bak")
    assert "the lighthouse one" not in backup.read_text(encoding="utf-8")
    assert "come back tomorrow" in app.service.read_diary("Ark", SECRET_DIARY)  # the other diary untouched

    # The night writes an entry while the page is open: a save over it is refused, then Reload shows it.
    app.service.save_diary("Ark", MAIN_DIARY, app.service.read_diary("Ark", MAIN_DIARY) + "\n## 2026-03-15\nRain.\n")
    main.fill("## 2026-03-14\nA stale edit.")
    page.locator("#save-main-diary").click()
    expect(page.locator("#main-diary-status")).to_contain_text("Not saved")
    assert "Rain." in app.service.read_diary("Ark", MAIN_DIARY) and "stale" not in app.service.read_diary("Ark", MAIN_DIARY)
    page.locator("#reload-diaries").click()
    expect(main).to_have_value(re.compile(r"## 2026-03-15\nRain\."))
    assert not page_errors
