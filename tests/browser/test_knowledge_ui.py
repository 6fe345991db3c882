"""The Knowledge tab in a real browser: upload a real PDF, see it added and listed; a malformed
PDF is refused with its reason and adds nothing; a test search shows the chunk; delete asks first.

Run: .venv/bin/python -m pytest tests/browser/test_knowledge_ui.py -q -rs
Uses the app fixture of tests/browser/conftest.py (temp data dir, scripted chat model) with the
real default embedder; the tests run in file order and share the app.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import RunningApp
from tests.fixtures.documents import BICYCLE_PAGES, make_pdf

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
EMBED_TIMEOUT_MS = 120_000  # the real embedder on a busy 2-core machine


def open_knowledge_tab(page: Page, app: RunningApp) -> str:
    persona = app.service.current_persona()
    page.goto(app.url)
    expect(page.locator("#persona-select input")).to_have_value(persona)
    page.get_by_role("tab", name="Knowledge").click()
    expect(page.locator("#kb-add-btn")).to_be_visible()
    return persona


def upload(page: Page, path: Path) -> None:
    page.locator("#kb-upload input[type=file]").set_input_files(str(path))
    # Uploaded before the click. Gradio shows a long name's stem and extension apart ("bicycle-repair .pdf"
    # when the column was laid out narrow, in a fresh-clone CI run): either way is the file's name.
    stem, dot, extension = path.name.rpartition(".")
    expect(page.locator("#kb-upload")).to_contain_text(re.compile(rf"{re.escape(stem)}\s*{re.escape(dot + extension)}"))
    page.locator("#kb-add-btn").click()


def test_upload_a_pdf_and_see_it_listed(page: Page, app: RunningApp, tmp_path, page_errors):
    pdf = tmp_path / "bicycle-repair.pdf"
    pdf.write_bytes(make_pdf(BICYCLE_PAGES))
    persona = open_knowledge_tab(page, app)

    upload(page, pdf)

    status = page.locator("#kb-status")
    expect(status).to_contain_text("Added bicycle-repair.pdf", timeout=EMBED_TIMEOUT_MS)
    docs = app.service.knowledge(persona).documents()
    assert [d.name for d in docs] == ["bicycle-repair.pdf"] and docs[0].chunks >= 3
    expect(status).to_contain_text(f"{docs[0].chunks} chunks, 3 pages")
    expect(page.locator("#kb-list")).to_contain_text("bicycle-repair.pdf")
    stored = app.data_dir / "characters" / persona / "knowledge" / "bicycle-repair.pdf"
    assert stored.read_bytes() == pdf.read_bytes()
    assert not page_errors, page_errors
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "ui-knowledge.png"), full_page=True)


def test_malformed_pdf_is_refused_with_a_reason(page: Page, app: RunningApp, tmp_path):
    bad = tmp_path / "malformed.pdf"
    bad.write_bytes(b"%PDF-1.4 garbage")
    persona = open_knowledge_tab(page, app)
    before = [d.name for d in app.service.knowledge(persona).documents()]

    upload(page, bad)

    status = page.locator("#kb-status")
    expect(status).to_contain_text("⚠️")
    expect(status).to_contain_text("This PDF could not be read")
    assert [d.name for d in app.service.knowledge(persona).documents()] == before
    assert not (app.data_dir / "characters" / persona / "knowledge" / "malformed.pdf").exists()
    expect(page.locator("#kb-list")).not_to_contain_text("malformed.pdf")


def test_search_then_delete_with_confirmation(page: Page, app: RunningApp, tmp_path):
    persona = app.service.current_persona()
    if not app.service.knowledge(persona).documents():  # running alone
        pdf = tmp_path / "bicycle-repair.pdf"
        pdf.write_bytes(make_pdf(BICYCLE_PAGES))
        app.service.knowledge(persona).add_file(pdf, pdf.name)
    open_knowledge_tab(page, app)
    expect(page.locator("#kb-list")).to_contain_text("bicycle-repair.pdf")

    page.locator("#kb-query textarea").fill("how to fix a flat tire")
    page.locator("#kb-search-btn").click()
    hits = page.locator("#kb-hits")
    expect(hits).to_contain_text("bicycle-repair.pdf", timeout=EMBED_TIMEOUT_MS)
    expect(hits).to_contain_text("fix a flat tire")

    page.locator("#kb-delete-btn").click()
    page.locator("#kb-confirm-delete-btn").click()
    expect(page.locator("#kb-status")).to_contain_text("Deleted bicycle-repair.pdf")
    expect(page.locator("#kb-list")).not_to_contain_text("bicycle-repair.pdf")
    expect(page.locator("#kb-confirm-delete-btn")).to_be_hidden()
    assert app.service.knowledge(persona).documents() == []
