"""The introspection dashboard in a real browser: after a scripted day of the persona's emotions and a
night's sleep-time run, the tab shows the emotion graph with the day's points, the drives and the
last run; a screenshot is kept in test-artifacts/dashboard.png.

Its own app (temp data dir, a scripted model that also answers the episode's JSON).
"""
from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import RunningApp, serving

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
DAY = [(9, "contentment", 0.4), (11, "joy", 0.7), (13, "anxious", 0.8), (15, "protective", 0.9),
       (18, "contentment", 0.6), (21, "joy", 0.5)]


@pytest.fixture(scope="module")
def app(tmp_path_factory, chromium_path):
    from agent.providers.fake import ScriptedChatModel
    from managers.chat_log import ChatLog
    from managers.emotion_log import EmotionLog
    from persona.service import NexusService

    def episode(system, user, schema):
        sessions = len(re.findall(r"^## Session ", user, re.M))
        return json.dumps({"sessions": [{"arousal": 0.6}] * sessions, "summary": "Mina worried about her exam, then passed.",
                           "entry": "Mina passed.", "entities": []})

    data_dir = tmp_path_factory.mktemp("dashboard-data")
    service = NexusService(data_dir=data_dir, model_factory=lambda s, k, p: ScriptedChatModel(
        lambda messages, tools: "Nice!", json_script=episode))
    service.update_settings(user_name="Mina")
    yesterday = (datetime.now().astimezone() - timedelta(days=1)).replace(minute=0, second=0, microsecond=0)
    session = service.session("Ark")
    log = ChatLog(session.character.logs, lambda: yesterday.replace(hour=21))
    log.append("USER", "Mina", "I passed the exam!")
    log.append("AGENT", "Ark", "I knew you would!")
    session.chat_log.invalidate()
    emotions = EmotionLog(session.character.memory_dir)
    for hour, category, intensity in DAY:
        emotions.append(yesterday.replace(hour=hour), category, intensity)
    service.warm_up()
    service.sleep_now("Ark")
    with serving(service, data_dir) as running:
        yield running


def test_the_dashboard_shows_the_days_emotions_drives_and_last_run(page: Page, app: RunningApp, page_errors):
    page.goto(app.url)
    expect(page.locator("#persona-select input")).to_have_value("Ark")
    page.get_by_role("tab", name="Inner life / 内省").click()
    graph = page.locator("#emotion-graph")
    points = graph.locator(".cartesianlayer .scatterlayer path.point")  # not the rangeslider's copy
    expect(points).to_have_count(len(DAY))
    legend = graph.locator(".legend").text_content()
    assert all(category in legend for category in ("joy", "contentment", "anxious", "protective"))
    expect(graph.locator(".rangeselector")).to_contain_text("1w")
    expect(page.locator("#dashboard-drives")).to_contain_text("Boredom")
    expect(page.locator("#dashboard-details")).to_contain_text("Dominant drive")
    expect(page.locator("#dashboard-sleep")).to_contain_text("episode")
    expect(page.locator("#dashboard-extras")).to_contain_text("none yet")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dashboard.png"), full_page=True)
    assert not page_errors
