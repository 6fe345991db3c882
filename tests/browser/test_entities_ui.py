"""The Entities tab in a real browser: the user creates a page, edits it (the old version backed up),
sees and dismisses a sleep-time proposal, and deletes a page after confirming.

Its own app (temp data dir, scripted model), so the other browser tests' data stay as they are.
"""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import RunningApp, serving

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app(tmp_path_factory, chromium_path):
    from agent.providers.fake import ScriptedChatModel
    from managers.entities import EntityProposal, proposal_id
    from persona.service import NexusService

    data_dir = tmp_path_factory.mktemp("entities-data")
    service = NexusService(data_dir=data_dir, model_factory=lambda s, k, p: ScriptedChatModel(lambda m, t: "Nice!"))
    service.update_settings(user_name="Mina")
    service.session("Ark").entity_proposals.add("2026-03-14", "digest", [EntityProposal(
        id=proposal_id("2026-03-14", "Enoshima"), day="2026-03-14", name="Enoshima", kind="place",
        facts=("Mina walks Mochi on the beach at Enoshima.",), created_at=datetime.now(timezone.utc).isoformat())])
    service.warm_up()
    with serving(service, data_dir) as running:
        yield running


def test_the_user_creates_edits_and_deletes_an_entity_page(page: Page, app: RunningApp, page_errors):
    page.goto(app.url)
    expect(page.locator("#persona-select input")).to_have_value("Ark")
    page.get_by_role("tab", name="Entities").click()
    expect(page.locator("#entity-proposals")).to_contain_text("Mina walks Mochi on the beach at Enoshima.")

    page.locator("#entity-name textarea").fill("モチ")
    page.locator("#entity-editor textarea").fill("- ミナさんの柴犬。")
    page.locator("#save-entity").click()
    expect(page.locator("#entity-status")).to_contain_text("Page created")  # a new page: no earlier version
    expect(page.locator("#entities-table")).to_contain_text("ミナさんの柴犬")

    page.locator("#entity-name textarea").fill("")
    page.locator("#entity-choice input").click()
    page.get_by_role("option", name="モチ", exact=True).click()
    editor = page.locator("#entity-editor textarea")
    expect(editor).to_have_value("- ミナさんの柴犬。")
    expect(page.locator("#entity-name textarea")).to_have_value("モチ")
    editor.fill("- ミナさんの柴犬。\n- 海辺の散歩が好き。")
    page.locator("#save-entity").click()
    expect(page.locator("#entity-status")).to_contain_text("previous version is in backups")
    expect(page.locator("#entities-table")).to_contain_text("海辺の散歩が好き")
    [saved] = app.service.entity_pages("Ark")
    assert saved.name == "モチ" and saved.body == "- ミナさんの柴犬。\n- 海辺の散歩が好き。"
    backups = list((app.data_dir / "characters/Ark/backups/memory/entities").glob("モチ.md.*.bak"))
    assert any(b.read_text(encoding="utf-8").rstrip().endswith("- ミナさんの柴犬。") for b in backups)

    page.locator("#proposal-choice input").click()
    page.get_by_role("option", name="2026-03-14:enoshima", exact=True).click()
    page.locator("#dismiss-proposal").click()
    expect(page.locator("#entity-proposals")).not_to_contain_text("Enoshima")
    assert app.service.entity_proposals("Ark") == []

    page.locator("#delete-entity").click()
    page.locator("#confirm-delete-entity").click()
    expect(page.locator("#entity-status")).to_contain_text("deleted")
    expect(page.locator("#entities-table")).not_to_contain_text("柴犬")
    assert app.service.entity_pages("Ark") == []
    assert not page_errors
