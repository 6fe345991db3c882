"""The Episodes tab in a real browser: "Sleep now" turns a finished day of the log into an
episode, with the night's report, shown in its month; the user edits the episode and the edit is
kept; picking a month shows only that month's episodes (a week as a date range, a milestone with
its type), and deleting a month's last episode takes the month off the list.

Its own app (temp data dir, a scripted chat model that also answers the episode's JSON), so the
other browser tests' conversations do not change what is summarised.
"""
from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone

import pytest
from playwright.sync_api import Page, expect

from managers.episodes import episode_id
from tests.browser.conftest import RunningApp, serving

pytestmark = pytest.mark.browser

SUMMARY = "Mina told me she finished the first draft of her novel, after two years of writing on the train."
# Older episodes, written before: a compressed week straddling February and March 2025, a milestone
# in March, and the only episode of December 2024.
WEEK = "2025-02-24~2025-03-02"
ACHIEVEMENT = "Mina sent her first story to a magazine."
LONE_DAY = "2024-12-05"


@pytest.fixture(scope="module")
def app(tmp_path_factory, chromium_path):
    from agent.providers.fake import ScriptedChatModel
    from managers.chat_log import ChatLog
    from managers.episodes import Episode, EpisodeStore
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
    session = service.session("Ark")
    store = EpisodeStore(session.character.memory_dir, session.files)
    store.put([Episode(id=episode_id(WEEK), date=WEEK, summary="A quiet week of rewrites.", compressed=True,
                       arousal_avg=0.3, arousal_max=0.4, original_count=3),
               Episode(id=episode_id(LONE_DAY), date=LONE_DAY, summary="Mina bought a notebook for the novel.",
                       arousal=0.2, arousal_max=0.2)])
    store.record_milestone("achievement", ACHIEVEMENT, 0.9, datetime(2025, 3, 20, 21, 0, tzinfo=timezone.utc))
    service.warm_up()
    with serving(service, data_dir) as running:
        yield running


def pick(page: Page, dropdown: str, option: str) -> None:
    page.locator(f"#{dropdown} input").click()
    page.get_by_role("option", name=option, exact=True).click()


def test_sleep_now_writes_the_days_episode_and_the_user_can_edit_it(page: Page, app: RunningApp, page_errors):
    page.goto(app.url)
    expect(page.locator("#persona-select input")).to_have_value("Ark")
    page.get_by_role("tab", name="Episodes").click()
    expect(page.locator("#sleep-report")).to_contain_text("No sleep-time work yet")
    table, month = page.locator("#episodes-table"), page.locator("#episode-month input")
    expect(month).to_have_value("2025-03")  # the newest month there is, before the night
    expect(table).to_contain_text(ACHIEVEMENT)
    page.locator("#sleep-now-btn").click()
    yesterday = datetime.now().astimezone() - timedelta(days=1)
    day = yesterday.date().isoformat()
    expect(page.locator("#sleep-report")).to_contain_text(f"episode {day}")
    expect(month).to_have_value(yesterday.strftime("%Y-%m"))  # the night's month is on the list, and shown
    expect(table).to_contain_text("first draft of her novel")
    expect(table).to_contain_text("★ 0.80")
    expect(table).not_to_contain_text(ACHIEVEMENT)

    page.locator("#episode-choice input").click()
    page.get_by_role("option", name=f"episode_{day}_001", exact=True).click()
    editor = page.locator("#episode-editor textarea")
    expect(editor).to_have_value(SUMMARY)
    editor.fill("Mina finished her novel's first draft. I felt proud of her.")
    page.locator("#save-episode").click()
    expect(page.locator("#episode-status")).to_contain_text("saved")
    [episode] = [e for e in app.service.episodes("Ark") if e.date == day]
    assert episode.summary == "Mina finished her novel's first draft. I felt proud of her." and episode.user_edited
    expect(table).to_contain_text("I felt proud of her")
    assert not page_errors


def test_a_picked_month_shows_only_its_episodes_and_a_deleted_months_last_episode_takes_it_off(
        page: Page, app: RunningApp, page_errors):
    page.goto(app.url)
    page.get_by_role("tab", name="Episodes").click()
    table, month = page.locator("#episodes-table"), page.locator("#episode-month input")
    pick(page, "episode-month", "2025-03")
    expect(month).to_have_value("2025-03")
    expect(table).to_contain_text("2025-02-24 – 2025-03-02")  # the week, as a date range
    expect(table).to_contain_text("🏆 achievement")
    expect(table).to_contain_text("★ 0.90")
    expect(table).not_to_contain_text("notebook")  # December's
    pick(page, "episode-month", "2025-02")
    expect(table).to_contain_text("quiet week of rewrites")  # the week is in both months it touches
    expect(table).not_to_contain_text(ACHIEVEMENT)
    pick(page, "episode-month", "All")
    expect(table).to_contain_text("notebook")
    expect(table).to_contain_text(ACHIEVEMENT)

    pick(page, "episode-month", "2024-12")
    expect(table).to_contain_text("notebook")
    expect(table).not_to_contain_text("quiet week of rewrites")
    pick(page, "episode-choice", episode_id(LONE_DAY))
    page.locator("#delete-episode").click()
    page.locator("#confirm-delete-episode").click()
    expect(page.locator("#episode-status")).to_contain_text("deleted")
    expect(month).not_to_have_value("2024-12")  # December had nothing else: the newest month is shown
    page.locator("#episode-month input").click()
    expect(page.get_by_role("option", name="2025-03", exact=True)).to_be_visible()
    expect(page.get_by_role("option", name="2024-12", exact=True)).to_have_count(0)
    assert not page_errors
