"""Knowledge base: upload documents, list and delete them, re-index, and try a search.

The persona looks these up on its own: automatic recall brings the best passage along when a
message is clearly about a document (persona/knowledge_recall.py); models with native tools can
also use `search_knowledge_base`. "Test a search" shows what a search finds.
"""
from __future__ import annotations

from pathlib import Path

import gradio as gr

from persona.public import (SUPPORTED_EXTENSIONS, DocumentRejected, EmbedderUnavailable, KnowledgeError, PersonaError,
                            StoreClosed)
from persona.service import NexusService

LIST_HEADERS = ["Document", "Size", "Chunks", "Added"]
HIT_HEADERS = ["Score", "Document", "Chunk", "Text"]
_FAILURES = (DocumentRejected, KnowledgeError, EmbedderUnavailable, PersonaError, StoreClosed, OSError)


def _size(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MB" if n >= 1024 * 1024 else f"{n / 1024:.1f} KB"


def _escape(text: str) -> str:
    """Plain text inside Markdown: names and reasons are shown, never formatted."""
    return "".join("\\" + c if c in "\\`*_{}[]<>()#+-.!|~" else c for c in text)


def _progress(progress: gr.Progress):
    return lambda message, fraction: progress(fraction, desc=message)


def _listing(service: NexusService, name: str):
    """The documents table and the delete dropdown for persona `name`."""
    try:
        docs = service.knowledge(name).documents() if name else []
    except _FAILURES:  # e.g. a persona that was just deleted: its list is empty
        docs = []
    rows = [[d.name, _size(d.size), d.chunks if d.indexed else "not indexed", d.added.strftime("%Y-%m-%d %H:%M")]
            for d in docs]
    names = [d.name for d in docs]
    return (gr.update(value=rows, headers=LIST_HEADERS),
            gr.update(choices=names, value=names[0] if names else None))


def build_knowledge_tab(service: NexusService, persona: gr.Dropdown) -> None:
    gr.Markdown("Documents the persona looks up on its own when you ask about them (the passage it "
                "used is shown under \"Why did the persona remember that?\"). Accepted: "
                + ", ".join(SUPPORTED_EXTENSIONS))
    upload = gr.File(label="Document", file_types=list(SUPPORTED_EXTENSIONS), file_count="single",
                     type="filepath", elem_id="kb-upload")
    add = gr.Button("Add to knowledge base", variant="primary", elem_id="kb-add-btn")
    status = gr.Markdown(elem_id="kb-status")
    table = gr.Dataframe(headers=LIST_HEADERS, interactive=False, elem_id="kb-list", label="Documents")
    with gr.Row():
        chosen = gr.Dropdown([], label="Document to delete", elem_id="kb-delete-choice", scale=3)
        delete = gr.Button("Delete…", variant="stop", elem_id="kb-delete-btn", scale=1)
        confirm = gr.Button("Yes, delete it", variant="stop", visible=False, elem_id="kb-confirm-delete-btn")
        cancel = gr.Button("Cancel", visible=False, elem_id="kb-cancel-delete-btn")
    reindex = gr.Button("Re-index", elem_id="kb-reindex-btn")
    with gr.Group():
        query = gr.Textbox(label="Test a search", placeholder="What would the persona find for…",
                           elem_id="kb-query")
        search = gr.Button("Search", elem_id="kb-search-btn")
        hits = gr.Dataframe(headers=HIT_HEADERS, interactive=False, wrap=True, elem_id="kb-hits",
                            column_widths=["8%", "22%", "8%", "62%"])

    def on_add(name, path, progress=gr.Progress()):
        if not path:
            return "⚠️ Choose a file first.", *_listing(service, name), gr.update()
        try:
            report = service.knowledge(name).add_file(Path(path), Path(path).name, _progress(progress))
        except _FAILURES as exc:
            return f"⚠️ {_escape(str(exc))}", *_listing(service, name), None
        if report.already_present:
            text = f"ℹ️ {report.name} is already in the knowledge base ({report.chunks} chunks): nothing re-embedded."
        else:
            renamed = f" (stored as {report.name})" if report.name != Path(path).name else ""
            pages = f", {report.pages} pages" if report.kind == "pdf" else ""
            text = f"✅ Added {Path(path).name}{renamed}: {report.chunks} chunks{pages}."
        return _escape(text), *_listing(service, name), None

    def on_confirm(name, document):
        hidden = gr.update(visible=False)
        try:
            removed = service.knowledge(name).delete(document or "")
        except _FAILURES as exc:
            return f"⚠️ {_escape(str(exc))}", *_listing(service, name), hidden, hidden
        return _escape(f"🗑️ Deleted {document} ({removed} chunks)."), *_listing(service, name), hidden, hidden

    def on_reindex(name, progress=gr.Progress()):
        try:
            report = service.knowledge(name).reindex(_progress(progress))
        except _FAILURES as exc:
            return f"⚠️ {_escape(str(exc))}", *_listing(service, name)
        text = (f"✅ Re-indexed {report.documents} documents: {report.changed} changed, "
                f"{report.embedded} chunks embedded, {report.chunks_removed} removed.")
        problems = "".join(f"\n\n⚠️ {_escape(reason)}" for _, reason in report.failed)
        return _escape(text) + problems, *_listing(service, name)

    def on_search(name, text):
        try:
            found = service.knowledge(name).search(text or "")
        except _FAILURES as exc:
            return gr.update(), f"⚠️ {_escape(str(exc))}"
        rows = [[f"{h.score:.2f}", h.document, h.chunk, h.text] for h in found]
        return gr.update(value=rows, headers=HIT_HEADERS), ("" if rows else "No matching passages.")

    listing = [table, chosen]
    add.click(on_add, [persona, upload], [status, *listing, upload])
    delete.click(lambda: (gr.update(visible=True), gr.update(visible=True)), None, [confirm, cancel])
    cancel.click(lambda: (gr.update(visible=False), gr.update(visible=False)), None, [confirm, cancel])
    confirm.click(on_confirm, [persona, chosen], [status, *listing, confirm, cancel])
    reindex.click(on_reindex, [persona], [status, *listing])
    search.click(on_search, [persona, query], [hits, status])
    query.submit(on_search, [persona, query], [hits, status])
    # No triggers: runs on page load and whenever the persona changes (persona.change).
    gr.on(None, lambda name: ("", *_listing(service, name)), [persona], [status, *listing])
