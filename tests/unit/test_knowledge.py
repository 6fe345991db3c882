"""The knowledge base: uploads turned into text or rejected with a reason, stored safely,
chunked, embedded once, found by hybrid search, deleted and re-indexed.

Real parts throughout: the default embedder, SQLite (memory.db) and FAISS; the documents are
real files built by tests/fixtures/documents.py (a hand-written PDF, a hand-zipped .docx).
"""
from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from managers.documents import DocumentRejected, chunk_text, extract_text, query_terms, stored_name
from managers.embeddings import create_embedder
from managers.knowledge import KnowledgeBase, KnowledgeError
from managers.memory_db import Item, MemoryDB
from tests.fixtures.documents import BICYCLE_PAGES, JA_MD, TEA_TEXT, make_docx, make_image_only_pdf, make_pdf


class CountingEmbedder:
    """The real embedder, recording every document text it is asked to embed."""

    def __init__(self, inner):
        self.inner, self.name, self.dim = inner, inner.name, inner.dim
        self.dense_weight_scale = inner.dense_weight_scale
        self.documents: list[str] = []

    def embed_documents(self, texts):
        self.documents.extend(texts)
        return self.inner.embed_documents(texts)

    def embed_query(self, text):
        return self.inner.embed_query(text)


@pytest.fixture(scope="module")
def bundled_embedder():
    return create_embedder()


@pytest.fixture
def embedder(bundled_embedder):
    return CountingEmbedder(bundled_embedder)


@pytest.fixture
def character(tmp_path):
    root = tmp_path / "characters" / "Ark"
    root.mkdir(parents=True)
    return root


@pytest.fixture
def kb(character, embedder):
    base = KnowledgeBase(character, embedder)
    yield base
    base.close()


@pytest.fixture
def uploads(tmp_path):
    (tmp_path / "uploads").mkdir()
    return tmp_path / "uploads"


def write(folder, name, data):
    (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return folder / name


# --- rejections ------------------------------------------------------------------------------
@pytest.mark.parametrize("name, data, reason", [
    ("empty.txt", b"", "empty (0 bytes)"),
    ("blob.txt", b"\x7fELF\x02\x01\x01\x00\x00\x00binary", "binary"),
    ("sjis.txt", "猫の名前はタマです".encode("shift_jis"), "not valid UTF-8"),
    ("wide.md", "hello".encode("utf-16"), "UTF-16"),
    ("spaces.md", b"  \n\n\t ", "contains no text"),
    ("bad.pdf", b"%PDF-1.4 garbage", "This PDF could not be read:"),
    ("notpdf.pdf", b"hello, I am not a PDF", "This PDF could not be read:"),
    ("bad.docx", b"PK\x03\x04 not really a zip", "not a valid Word file"),
    ("run.exe", b"MZ\x90\x00", "only .txt, .md, .pdf, .docx"),
    ("README", b"plain text without an extension", "no extension"),
])
def test_rejections_give_a_reason(uploads, name, data, reason):
    with pytest.raises(DocumentRejected) as caught:
        extract_text(write(uploads, name, data), name)
    assert reason in caught.value.reason
    assert name in caught.value.reason or reason.startswith("This PDF")


def test_oversized_file_is_rejected_before_reading_and_the_limit_is_stated(uploads):
    path = write(uploads, "big.txt", "x" * 2048)
    with pytest.raises(DocumentRejected, match=r"2,048 bytes; the limit is 1,024 bytes"):
        extract_text(path, "big.txt", max_bytes=1024)
    big = write(uploads, "huge.md", b"a")
    with open(big, "r+b") as handle:
        handle.truncate(21 * 1024 * 1024)  # sparse: checked by size, never read
    with pytest.raises(DocumentRejected, match=r"21\.0 MB; the limit is 20\.0 MB"):
        extract_text(big, "huge.md")


def test_pdf_without_a_text_layer_is_rejected(uploads):
    path = write(uploads, "scan.pdf", make_image_only_pdf())
    with pytest.raises(DocumentRejected, match="no text layer — scanned images are not supported"):
        extract_text(path, "scan.pdf")


@pytest.mark.parametrize("members, reason", [
    ({"word/other.xml": "<x/>"}, "no word/document.xml"),
    ({"word/document.xml": "<w:document><w:body>"}, "XML is malformed"),
    ({"word/document.xml": '<!DOCTYPE d [<!ENTITY a "aaaa">]><d>&a;</d>'}, "declares entities"),
])
def test_malformed_docx_is_rejected(uploads, members, reason):
    path = uploads / "broken.docx"
    with zipfile.ZipFile(path, "w") as archive:
        for member, text in members.items():
            archive.writestr(member, text)
    with pytest.raises(DocumentRejected, match=reason):
        extract_text(path, "broken.docx")


def test_a_rejected_upload_adds_nothing(kb, uploads, character):
    with pytest.raises(DocumentRejected):
        kb.add_file(write(uploads, "bad.pdf", b"%PDF-1.4 garbage"), "bad.pdf")
    assert kb.documents() == []
    assert not (character / "knowledge").exists() or not any((character / "knowledge").iterdir())


@pytest.mark.parametrize("original, stored", [
    ("../../x.txt", "x.txt"),
    ("..\\..\\windows.md", "windows.md"),
    ("/etc/passwd.txt", "passwd.txt"),
    (".hidden.md", "hidden.md"),
    ("a:b*c?.TXT", "a_b_c_.txt"),
    ("....txt", "document.txt"),
])
def test_unsafe_names_are_stored_inside_the_knowledge_folder(kb, uploads, character, original, stored):
    assert stored_name(original) == stored
    report = kb.add_file(write(uploads, "upload.tmp", "Some harmless notes about gardening."), original)
    assert report.name == stored
    assert (character / "knowledge" / stored).read_text() == "Some harmless notes about gardening."
    inside = {p.resolve() for p in (character / "knowledge").iterdir()}
    assert all(p.parent == (character / "knowledge").resolve() for p in inside)
    assert not (character.parent / "x.txt").exists() and not (character / "x.txt").exists()


# --- extraction --------------------------------------------------------------------------------
def test_multipage_pdf_text_is_extracted(uploads):
    document = extract_text(write(uploads, "bike.pdf", make_pdf(BICYCLE_PAGES)), "bike.pdf")
    assert (document.kind, document.pages, document.name) == ("pdf", 3, "bike.pdf")
    flat = " ".join(document.text.split())
    for page in BICYCLE_PAGES:
        assert page in flat


def test_docx_paragraphs_runs_tabs_and_breaks(uploads):
    document = extract_text(write(uploads, "tea.docx", make_docx(TEA_TEXT.split("\n\n"))), "tea.docx")
    assert document.kind == "docx"
    assert document.text.split("\n") == TEA_TEXT.split("\n\n")  # runs joined, one line per paragraph
    xml = ('<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'
           '<w:p><w:r><w:t>a</w:t><w:tab/><w:t>b</w:t><w:br/><w:t>c</w:t></w:r></w:p>'
           '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl></w:body></w:document>')
    assert extract_text(write(uploads, "t.docx", make_docx([], xml)), "t.docx").text == "a\tb\nc\ncell"


def test_utf8_with_bom_and_crlf_is_read(uploads):
    path = write(uploads, "bom.md", "\ufeff# Title\r\nline two\r\n".encode("utf-8"))
    assert extract_text(path, "bom.md").text == "# Title\nline two\n"


def test_chunks_respect_the_seed_sizes_and_japanese_sentence_ends():
    sentence = "これは句読点の位置で分割されるべき、長い日本語の文章の一つです。"
    chunks = chunk_text(sentence * 40)
    assert len(chunks) > 3 and all(len(c) <= 300 and c.endswith("。") for c in chunks)
    assert all(c.startswith("これは") for c in chunks)  # cut between sentences, never inside one
    assert len(chunk_text(JA_MD)) >= 2
    assert query_terms("How do I fix a flat tire?") == ["fix", "flat", "tire"]
    assert query_terms("味噌汁はどうやって作るの") == ["味噌汁", "作"]


# --- indexing and search -------------------------------------------------------------------
def add(kb, uploads, name, data):
    return kb.add_file(write(uploads, name, data), name)


def test_search_finds_the_right_document_and_chunk(kb, uploads):
    bike = add(kb, uploads, "bicycle-repair.pdf", make_pdf(BICYCLE_PAGES))
    tea = add(kb, uploads, "tea-ceremony.docx", make_docx(TEA_TEXT.split("\n\n")))
    assert bike.chunks >= 3 and bike.pages == 3 and tea.chunks >= 2
    hits = kb.search("how to fix a flat tire")
    assert hits[0].document == "bicycle-repair.pdf"
    assert "flat tire" in hits[0].text and hits[0].chunk == 1
    assert hits[0].score >= max(h.score for h in hits)
    tea_hits = kb.search("how are guests served matcha?", k=2)
    assert tea_hits[0].document == "tea-ceremony.docx"
    docs = {d.name: d for d in kb.documents()}
    assert docs["bicycle-repair.pdf"].chunks == bike.chunks and docs["tea-ceremony.docx"].indexed


def test_japanese_query_finds_the_japanese_chunk(kb, uploads):
    add(kb, uploads, "tea-ceremony.docx", make_docx(TEA_TEXT.split("\n\n")))
    report = add(kb, uploads, "暮らしのメモ.md", JA_MD)
    assert report.name == "暮らしのメモ.md" and report.chunks >= 2
    hits = kb.search("味噌汁はどうやって作るの？")
    assert hits[0].document == "暮らしのメモ.md"
    assert "味噌" in hits[0].text and "カリカリ" not in hits[0].text
    cat = kb.search("猫の世話")
    assert cat[0].document == "暮らしのメモ.md" and "タマ" in cat[0].text


def test_re_adding_the_same_file_embeds_nothing(kb, uploads, embedder):
    first = add(kb, uploads, "bicycle-repair.pdf", make_pdf(BICYCLE_PAGES))
    assert first.embedded == first.chunks == len(embedder.documents)
    again = add(kb, uploads, "bicycle-repair.pdf", make_pdf(BICYCLE_PAGES))
    assert again.already_present and again.embedded == 0 and again.name == "bicycle-repair.pdf"
    assert len(embedder.documents) == first.chunks
    assert [d.name for d in kb.documents()] == ["bicycle-repair.pdf"]


def test_a_different_file_with_the_same_name_gets_a_numeric_suffix(kb, uploads, embedder):
    add(kb, uploads, "notes.txt", "The spare key is under the blue flowerpot.")
    other = add(kb, uploads, "notes.txt", "The wifi password is on the fridge.")
    assert other.name == "notes-2.txt" and not other.already_present
    again = add(kb, uploads, "notes.txt", "The wifi password is on the fridge.")
    assert again.name == "notes-2.txt" and again.already_present
    assert [d.name for d in kb.documents()] == ["notes-2.txt", "notes.txt"]
    assert len(embedder.documents) == 2


def test_delete_removes_file_items_and_vectors(kb, uploads, character):
    add(kb, uploads, "bicycle-repair.pdf", make_pdf(BICYCLE_PAGES))
    add(kb, uploads, "tea-ceremony.docx", make_docx(TEA_TEXT.split("\n\n")))
    assert kb.delete("bicycle-repair.pdf") >= 3
    assert not (character / "knowledge" / "bicycle-repair.pdf").exists()
    assert all(h.document != "bicycle-repair.pdf" for h in kb.search("how to fix a flat tire", k=10))
    assert [d.name for d in kb.documents()] == ["tea-ceremony.docx"]
    with pytest.raises(KnowledgeError):
        kb.delete("bicycle-repair.pdf")
    with pytest.raises(KnowledgeError):
        kb.delete("../memory/memory.db")


def test_reindex_after_losing_the_vector_file_restores_search(character, uploads, embedder):
    kb = KnowledgeBase(character, embedder)
    add(kb, uploads, "bicycle-repair.pdf", make_pdf(BICYCLE_PAGES))
    add(kb, uploads, "tea-ceremony.docx", make_docx(TEA_TEXT.split("\n\n")))
    kb.close()
    (character / "index" / "knowledge.faiss").unlink()
    reopened = KnowledgeBase(character, embedder)
    semantic_only = "cycling breakdown mending"  # no word of it is in the documents
    assert reopened.search(semantic_only) == []
    before = len(embedder.documents)
    report = reopened.reindex()
    assert report.changed == 0 and report.embedded == before  # items kept, vectors rebuilt
    assert (character / "index" / "knowledge.faiss").exists()
    assert reopened.search(semantic_only)[0].document == "bicycle-repair.pdf"
    assert reopened.reindex().embedded == 0  # and now nothing more to do
    reopened.close()


def test_the_app_start_embeds_knowledge_again_after_its_vectors_were_lost(tmp_path, uploads):
    from agent.providers.fake import ScriptedChatModel, replies
    from persona.service import NexusService

    data = tmp_path / "data"

    def start():
        return NexusService(data, model_factory=lambda s, k, p: ScriptedChatModel(replies("ok")))

    service = start()
    add(service.knowledge("Ark"), uploads, "bicycle-repair.pdf", make_pdf(BICYCLE_PAGES))
    service.close()
    (data / "characters" / "Ark" / "index" / "knowledge.faiss").unlink()  # as after an embedder switch
    restarted = start()
    semantic_only = "cycling breakdown mending"  # no word of it is in the document
    assert restarted.knowledge("Ark").search(semantic_only) == []
    restarted.warm_up()
    assert restarted.knowledge("Ark").search(semantic_only)[0].document == "bicycle-repair.pdf"
    restarted.close()


def test_reindex_is_incremental_and_follows_the_folder(kb, uploads, character, embedder):
    add(kb, uploads, "tea.md", TEA_TEXT)
    add(kb, uploads, "bike.txt", " ".join(BICYCLE_PAGES))
    count = len(embedder.documents)
    assert kb.reindex().changed == 0 and len(embedder.documents) == count
    folder = character / "knowledge"
    (folder / "tea.md").write_text(TEA_TEXT + "\n\nSweets are eaten before the tea, never after.")
    (folder / "bike.txt").unlink()
    (folder / "scan.pdf").write_bytes(make_image_only_pdf())
    report = kb.reindex()
    assert report.changed == 2 and report.chunks_removed >= 3
    assert report.failed == (("scan.pdf", "scan.pdf has no text layer — scanned images are not supported."),)
    assert len(embedder.documents) - count == report.embedded <= 2  # only the changed chunks
    assert kb.search("when are the sweets eaten?")[0].text.endswith("never after.")  # the new chunk is found
    assert {d.name: d.indexed for d in kb.documents()} == {"scan.pdf": False, "tea.md": True}


def test_reindex_at_start_up_reads_no_unchanged_document(kb, uploads, character, monkeypatch):
    add(kb, uploads, "tea.md", TEA_TEXT)
    read: list[str] = []
    real_read = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: read.append(self.name) or real_read(self))
    assert kb.reindex().changed == 0 and read == []
    (character / "knowledge" / "tea.md").write_text(TEA_TEXT + "\n\nMatcha is whisked, never stirred.")
    assert kb.reindex().changed == 1 and "tea.md" in read


def test_stale_vectors_are_never_served_after_memory_db_is_cleared(kb, uploads, character):
    add(kb, uploads, "tea.md", TEA_TEXT)
    other = MemoryDB(character / "memory" / "memory.db")
    other.clear_kinds(["knowledge"])  # e.g. someone deleted the knowledge rows by hand
    other.add_items([Item("m1", "current_log", "2025-01.txt", "Mina: I fixed my flat tire today")])
    assert kb.search("flat tire") == []  # the reused row id is a log item: not served as knowledge
    kb.reindex()
    assert kb.search("matcha tea ceremony")[0].document == "tea.md"
    other.close()


def test_concurrent_uploads_and_searches(kb, uploads):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=7) as pool:
        jobs = [pool.submit(add, kb, uploads, f"doc{n}.txt", f"Document {n} is about topic number {n}.")
                for n in range(4)] + [pool.submit(kb.search, "topic number") for _ in range(3)]
        for job in jobs:
            job.result()  # re-raises any error of a thread
    assert [d.chunks for d in kb.documents()] == [1, 1, 1, 1]
    assert {h.document for h in kb.search("topic number", k=10)} == {f"doc{n}.txt" for n in range(4)}


def test_a_knowledge_base_on_a_shared_connection_leaves_it_open_when_closed(character, embedder, uploads):
    shared = MemoryDB(character / "memory" / "memory.db")
    base = KnowledgeBase(character, embedder, db=shared)
    base.add_file(write(uploads, "tea.md", "Sweets are eaten before the tea is served."), "tea.md")
    base.close()
    assert shared.count("knowledge") == 1  # the indexer's connection still works
    shared.close()
