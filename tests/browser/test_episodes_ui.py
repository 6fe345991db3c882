"""The Episodes tab in a real browser: "Sleep now" turns a finished day of the log into an
episode, with the night's report; the user edits the episode and the edit is kept.

Its own app (temp data dir, a scripted chat model that also answers the episode's JSON), so the
other browser tests' conversations do not change what is summarised.
"""
from __future__ import annotations

import json
import re
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import RunningApp, serving

pytestmark = pytest.mark.browser

SUMMARY = "Mina told me she finished the first draft of her novel, after two years of writing on the train."


@pytest.fixture(scope="module")
def app(tmp_path_factory, chromium_path):
    from agent.providers.fake import ScriptedChatModel
    from managers.chat_log import ChatLog
    from persona.service import NexusService

    def episode(system, user, schema):
        sessions = len(re.findall(r"^## Session ", user, re.M))
        return json.dumps({"sessions": [{"arousal": 0.8}] * sessions, "summary": SUMMARY})

    data_dir = tmp_path_factory.mktemp("episodes-data")
    service = NexusService(data_dir=data_dir, model_factory=lambda s, k, p: ScriptedChatModel(
        lambda messages, tools: "Nice!", json_script=episode))
    service.update_settings(user_name="Mina")
    yesterday = (datetime.now().astimezone() - timedelta(days=1)).replace(hour=20, minute=0)
    log = ChatLog(service.session("Ark").character.logs, lambda: yesterday)
    log.append("USER", "Mina", "I finished the first draft of my novel!")
    log.append("AGENT", "Ark", "Two years of train rides — congratulations!")
    service.session("Ark").chat_log.invalidate()
    service.warm_up()
    with serving(service, data_dir) as running:
        yield running


def test_sleep_now_writes_the_days_episode_and_the_user_can_edit_it(page: Page, app: RunningApp, page_errors):
    page.goto(app.url)
    expect(page.locator("#persona-select input")).to_have_value("Ark")
    page.get_by_role("tab", name="Episodes").click()
    expect(page.locator("#sleep-report")).to_contain_text("No sleep-time work yet")
    page.locator("#sleep-now-btn").click()
    day = (datetime.now().astimezone() - timedelta(days=1)).date().isoformat()
    expect(page.locator("#sleep-report")).to_contain_text(f"episode {day}")
    expect(page.locator("#episodes-table")).to_contain_text("first draft of her novel")
    expect(page.locator("#episodes-table")).to_contain_text("★ 0.80")

    page.locator("#episode-choice input").click()
    page.get_by_role("option", name=f"episode_{day}_001", exact=True).click()
    editor = page.locator("#episode-editor textarea")
    expect(editor).to_have_value(SUMMARY)
    editor.fill("Mina finished her novel's first draft. I felt proud of her.")
    page.locator("#save-episode").click()
    expect(page.locator("#episode-status")).to_contain_text("saved")
    [episode] = app.service.episodes("Ark")
    assert episode.summary == "Mina finished her novel's first draft. I felt proud of her." and episode.user_edited
    expect(page.locator("#episodes-table")).to_contain_text("I felt proud of her")
    assert not page_errors
