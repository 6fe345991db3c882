"""Speaking first in a real browser (issue 20): Settings' button asks the browser for permission to
notify; a message the persona wrote first, picked up by the page's timer while the page is hidden,
becomes one browser notification with the persona's name — an ordinary reply never does, nor does
anything while the page is visible or the permission is not given.

`window.Notification` is wrapped by an init script that records each notification (and leaves the
permission to the real one, which the test grants or not), and `document.visibilityState` follows a
flag the test sets: headless Chromium always reports a visible page.
"""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import RunningApp, serving

pytestmark = pytest.mark.browser

OPENING = ("Mina, how did the exam go? I kept thinking about the question on tidal energy you were worried "
           "about, and I hope the train was on time this morning.")
RECORD_NOTIFICATIONS = """
window.__notifications = [];
window.__hidden = false;
Object.defineProperty(document, 'visibilityState', {get: () => (window.__hidden ? 'hidden' : 'visible')});
const RealNotification = window.Notification;
window.Notification = class {
    constructor(title, options) { window.__notifications.push({title, body: (options || {}).body}); }
    static get permission() { return RealNotification.permission; }
    static requestPermission() { return RealNotification.requestPermission(); }
};
"""


@pytest.fixture(scope="module")
def app(tmp_path_factory, chromium_path):
    from agent.providers.fake import ScriptedChatModel
    from managers.chat_log import ChatLog
    from persona.service import NexusService

    data_dir = tmp_path_factory.mktemp("notifications-data")
    service = NexusService(data_dir=data_dir, model_factory=lambda s, k, p: ScriptedChatModel(
        lambda messages, tools: "Nice!", json_script=lambda system, user, schema: json.dumps({"message": OPENING})))
    now = datetime.now().astimezone()
    # Quiet hours far from now, so that the persona may write first whenever the test runs.
    quiet = f"{(now + timedelta(hours=12)):%H}:00-{(now + timedelta(hours=13)):%H}:00"
    service.update_settings(user_name="Mina", speak_first=True, quiet_hours=quiet)
    earlier = now - timedelta(hours=6)  # long enough ago for the persona to miss the user
    log = ChatLog(service.session("Ark").character.logs, lambda: earlier)
    log.append("USER", "Mina", "I have my physics exam tomorrow morning.")
    log.append("AGENT", "Ark", "You have studied hard; good luck!")
    service.session("Ark").chat_log.invalidate()
    service.warm_up()
    with serving(service, data_dir) as running:
        yield running


def open_recording(page: Page, app: RunningApp, grant: bool) -> None:
    if grant:
        page.context.grant_permissions(["notifications"], origin=app.url.rstrip("/"))
    page.add_init_script(RECORD_NOTIFICATIONS)
    page.goto(app.url)
    expect(page.locator("#persona-select input")).to_have_value("Ark")
    page.wait_for_function("() => typeof window.nexusNotify === 'function'")


def test_a_message_written_first_notifies_a_hidden_page_once_and_an_ordinary_reply_never(
        page: Page, app: RunningApp, page_errors):
    open_recording(page, app, grant=True)
    page.get_by_role("tab", name="Settings").click()
    page.locator("#allow-notifications").click()
    expect(page.locator("#notifications-status")).to_contain_text("Notifications allowed")
    page.get_by_role("tab", name="Chat").click()
    page.evaluate("() => { window.__hidden = true; }")

    session = app.service.session("Ark")
    session.chat_log.append("AGENT", "Ark", "An ordinary reply, written while the page was not looking.")
    chat = page.locator("#chatbot")
    expect(chat).to_contain_text("An ordinary reply")  # the page's timer picked it up
    assert page.evaluate("() => window.__notifications") == []

    entry = app.service.speak_first_tick(datetime.now(timezone.utc))
    assert entry is not None and entry.text == OPENING
    expect(chat).to_contain_text("how did the exam go")
    page.wait_for_function("() => window.__notifications.length > 0")
    page.wait_for_timeout(500)  # a second one would have come with the same update
    [notification] = page.evaluate("() => window.__notifications")
    assert notification["title"] == "Ark"
    assert notification["body"].startswith("Mina, how did the exam go?") and len(notification["body"]) <= len(OPENING)
    assert not page_errors


def test_no_notification_while_the_page_is_visible_or_without_permission(page: Page, app: RunningApp, page_errors):
    open_recording(page, app, grant=False)
    notice = {"id": "x", "title": "Ark", "body": "Hello?"}
    page.evaluate("() => { window.__hidden = true; }")
    assert page.evaluate("(notice) => window.nexusNotify(notice)", notice) is False  # not allowed
    page.context.grant_permissions(["notifications"], origin=app.url.rstrip("/"))
    page.evaluate("() => { window.__hidden = false; }")
    assert page.evaluate("(notice) => window.nexusNotify(notice)", notice) is False  # the page is in view
    page.evaluate("() => { window.__hidden = true; }")
    assert page.evaluate("(notice) => window.nexusNotify(notice)", notice) is True
    assert page.evaluate("() => window.__notifications") == [{"title": "Ark", "body": "Hello?"}]
    assert not page_errors
