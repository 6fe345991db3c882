"""Entity memory v2 on disk (seed 004 §4): one Markdown page per person, place or thing under
`memory/entities/`, in the seed's format —

    # Entity Memory: モチ
    Created: 2026-03-14 20:00:00
    Kind: thing

    ユイさんの子犬。柴犬。

— and the sleep-time proposals for them (`memory/entity_proposals.json`).

The display name lives in the page's heading; the file name is derived from it (`file_stem`): the
name itself where that is a safe file name on every system, else a short stem and a hash (emoji,
Windows' reserved names like `CON`, a trailing dot or space, a name too long). A page is found by
its name, case-insensitively (`entity_key`), never by a path the model or the user typed. Every
rewrite is atomic and the old page is backed up first (`CharacterFiles.backup`); a delete keeps
its backup too.
"""
from __future__ import annotations

import hashlib
import logging
import os
import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Iterable, Sequence

from pydantic import BaseModel, ConfigDict, Field

import constants
from managers.cjk import bigrams, is_cjk
from managers.lexical import LATIN_LETTERS, WORD_TOKEN, is_latin_word
from managers.store import CharacterFiles, UnsafeNameError, atomic_write_text, file_lock, safe_child

log = logging.getLogger(__name__)

ENTITIES_DIR = "entities"
PROPOSALS_FILE = "entity_proposals.json"
ENTITY_KINDS = ("person", "place", "thing")
HEADING = "# Entity Memory: "

_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")
# Windows refuses these as a file's name, with any extension ("con.md", "NUL.txt").
_RESERVED = re.compile(r"(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?", re.IGNORECASE)
# Characters a page's file name may keep as they are: letters, marks and digits of any script, and a
# few plain separators. Anything else (emoji, symbols, / \ : * ? " < > |) sends the name to a hash.
_SAFE_PUNCTUATION = set(" -_.,()'&+・ー々〆〇")
_HEADER_LINE = re.compile(r"^(Created|Kind|Updated):\s*(.*)$")
_LATIN_EDGE = f"[0-9{LATIN_LETTERS}]"


class EntityError(ValueError):
    """A name or an edit that cannot be stored; the message is for the user (or the model)."""


def clean_entity_name(name: object) -> str:
    """The display name as stored: NFC, inner whitespace as one space; EntityError with a reason
    when it is empty, too long or holds control characters (a line break would end the heading)."""
    if not isinstance(name, str):
        raise EntityError("An entity's name must be text.")
    if _CONTROL.search(name.strip()):
        raise EntityError("An entity's name cannot contain line breaks or control characters.")
    cleaned = " ".join(unicodedata.normalize("NFC", name).split())
    if not cleaned:
        raise EntityError("An entity needs a name.")
    if len(cleaned) > constants.ENTITY_NAME_MAX_CHARS:
        raise EntityError(f"An entity's name can have at most {constants.ENTITY_NAME_MAX_CHARS} characters.")
    return cleaned


def entity_key(name: str) -> str:
    """What makes two names the same entity: NFKC, case folded, spaces as one ("ｍｏｃｈｉ" = "Mochi")."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def _safe_char(char: str) -> bool:
    return char in _SAFE_PUNCTUATION or unicodedata.category(char)[0] in "LMN"


def file_stem(name: str) -> str:
    """The page's file name without `.md`: the name itself when every system takes it as a file name,
    else what is safe of it (at most ENTITY_HASHED_STEM_CHARS) and a hash of its key."""
    name = clean_entity_name(name)
    plain = (all(_safe_char(c) for c in name) and not _RESERVED.fullmatch(name)
             and not name.endswith((".", " ")) and not name.startswith((".", "_", "-", " "))
             and len(name) <= constants.ENTITY_FILE_STEM_MAX_CHARS
             and len(name.encode("utf-8")) <= constants.ENTITY_FILE_STEM_MAX_BYTES)
    if plain:
        return name
    kept = "".join(c for c in name if _safe_char(c) and c != ".")[: constants.ENTITY_HASHED_STEM_CHARS]
    kept = kept.strip(" -_")
    digest = hashlib.sha256(entity_key(name).encode("utf-8")).hexdigest()[:10]
    return f"{kept}-{digest}" if kept else f"entity-{digest}"


@dataclass(frozen=True)
class EntityPage:
    name: str
    body: str
    kind: str = ""
    created: str = ""
    file: str = ""  # the file's name in memory/entities/

    @property
    def key(self) -> str:
        return entity_key(self.name)

    def text(self) -> str:
        """The page as a file: the seed's heading and header lines, a blank line, the body."""
        head = [HEADING + self.name]
        if self.created:
            head.append(f"Created: {self.created}")
        if self.kind:
            head.append(f"Kind: {self.kind}")
        return "\n".join(head) + "\n\n" + self.body.strip() + "\n"


def parse_page(text: str, fallback_name: str, file: str = "") -> EntityPage:
    """A page file read back; one without the seed's heading (written by hand) is all body, named
    after its file."""
    lines = text.replace("\r\n", "\n").split("\n")
    if not lines or not lines[0].startswith(HEADING.strip()):
        return EntityPage(fallback_name, text.strip(), file=file)
    name = lines[0][len(HEADING.strip()):].strip() or fallback_name
    header: dict[str, str] = {}
    index = 1
    while index < len(lines) and (match := _HEADER_LINE.match(lines[index].strip())):
        header[match.group(1)] = match.group(2).strip()
        index += 1
    kind = header.get("Kind", "")
    return EntityPage(name, "\n".join(lines[index:]).strip(), kind if kind in ENTITY_KINDS else "",
                      header.get("Created", ""), file)


def fact_text(line: str) -> str:
    """A page line as a fact to compare: without its bullet, date and case ("- [2026-03-14] Mochi is a
    puppy." = "mochi is a puppy.")."""
    line = re.sub(r"^\s*[-*・]\s*", "", line)
    line = re.sub(r"^\[\d{4}-\d{2}-\d{2}\]\s*", "", line)
    return " ".join(unicodedata.normalize("NFKC", line).casefold().split())


def _term_score(term: str, haystack: str) -> float:
    """How much of a query word the (case-folded) text holds: a Latin word whole or not at all; a CJK
    word whole, or the share of its character bigrams (managers/cjk.py) found in the text."""
    if is_latin_word(term):
        return 1.0 if re.search(rf"(?<!{_LATIN_EDGE}){re.escape(term)}(?!{_LATIN_EDGE})", haystack) else 0.0
    if term in haystack:
        return 1.0
    grams = bigrams(term)
    return sum(g in haystack for g in grams) / len(grams) if grams else 0.0


def query_words(query: str) -> list[str]:
    """The words of a search (seed 004 §4: split and scored word by word), case folded, once each; a
    lone kana is grammar, not a word (managers/cjk.py)."""
    words: list[str] = []
    for word in WORD_TOKEN.findall(unicodedata.normalize("NFKC", query).casefold()):
        if len(word) == 1 and is_cjk(word) and not unicodedata.name(word, "").startswith("CJK"):
            continue
        if word not in words:
            words.append(word)
    return words


@dataclass(frozen=True)
class EntityHit:
    page: EntityPage
    score: float
    matched: tuple[str, ...]


def score_pages(pages: Iterable[EntityPage], query: str) -> list[EntityHit]:
    """The pages that match any word of `query`, best first: by how many of its words they hold (the
    seed's count of matched words), then by score: each word over the name and the body, a name
    match ENTITY_NAME_MATCH_WEIGHT times more; ties by name."""
    words = query_words(query)
    hits = []
    for page in pages:
        name, body = entity_key(page.name), unicodedata.normalize("NFKC", page.body).casefold()
        score, matched = 0.0, []
        for word in words:
            in_name, in_body = _term_score(word, name), _term_score(word, body)
            value = max(in_name * constants.ENTITY_NAME_MATCH_WEIGHT, in_body)
            if value > 0:
                score += value
                matched.append(word)
        if score > 0:
            hits.append(EntityHit(page, round(score, 3), tuple(matched)))
    return sorted(hits, key=lambda h: (-len(h.matched), -h.score, h.page.key))


class EntityStore:
    """One persona's entity pages. A page is looked up by name (`entity_key`); a listing re-reads
    only the files changed since the last one."""

    def __init__(self, memory_dir: Path, files: CharacterFiles):
        self.dir = memory_dir / ENTITIES_DIR
        self._files = files
        self._cache: dict[str, tuple[int, EntityPage]] = {}  # file name → (mtime_ns, page)

    def pages(self) -> list[EntityPage]:
        """Every page, by name."""
        if not self.dir.is_dir():
            return []
        seen: dict[str, tuple[int, EntityPage]] = {}
        with os.scandir(self.dir) as listing:
            for item in listing:
                if not item.name.endswith(".md") or item.name.startswith(".") or not item.is_file():
                    continue
                mtime = item.stat().st_mtime_ns
                cached = self._cache.get(item.name)
                if cached is None or cached[0] != mtime:
                    try:
                        text = Path(item.path).read_text(encoding="utf-8")
                    except (OSError, UnicodeDecodeError) as exc:
                        log.warning("Entity page %s could not be read: %s", item.name, exc)
                        continue
                    cached = (mtime, parse_page(text, item.name[:-3], item.name))
                seen[item.name] = cached
        self._cache = seen
        return sorted((page for _, page in seen.values()), key=lambda p: (p.key, p.file))

    def names(self) -> list[str]:
        return [page.name for page in self.pages()]

    def recent_names(self) -> list[str]:
        """The names, the page written last first (what the prompt's index keeps when it must cut)."""
        pages = self.pages()
        written = {page.file: self._cache[page.file][0] for page in pages}
        return [page.name for page in sorted(pages, key=lambda p: -written[p.file])]

    def find(self, name: str) -> EntityPage | None:
        key = entity_key(clean_entity_name(name))
        return next((page for page in self.pages() if page.key == key), None)

    def search(self, query: str, limit: int = constants.ENTITY_SEARCH_RESULTS) -> list[EntityHit]:
        return score_pages(self.pages(), query)[:limit]

    def _path_for(self, name: str) -> Path:
        """Where a new page of `name` goes: its stem, or the stem and a number when another
        entity's page has that file (two names that differ only in case on a system that ignores it)."""
        stem = file_stem(name)
        taken = {page.file.casefold() for page in self.pages()}
        candidate, number = f"{stem}.md", 2
        while candidate.casefold() in taken or (self.dir / candidate).exists():
            candidate, number = f"{stem}-{number}.md", number + 1
        try:
            return safe_child(self.dir, candidate)
        except UnsafeNameError as exc:  # cannot happen for a stem made above; kept as the last guard
            raise EntityError(str(exc)) from exc

    def _write(self, page: EntityPage, path: Path) -> EntityPage:
        if len(page.body) > constants.ENTITY_PAGE_MAX_CHARS:
            raise EntityError(f"That page would have {len(page.body)} characters; the limit is "
                              f"{constants.ENTITY_PAGE_MAX_CHARS}. Consolidate it first.")
        self._files.backup(path)
        atomic_write_text(path, page.text())
        return EntityPage(page.name, page.body.strip(), page.kind, page.created, path.name)

    def append(self, name: str, content: str, now: datetime, kind: str = "") -> tuple[EntityPage, int]:
        """Add the lines of `content` the page does not hold yet (a new page for a new name);
        returns the page and how many lines were added."""
        name = clean_entity_name(name)
        self.dir.mkdir(parents=True, exist_ok=True)
        with file_lock(self.dir / ".entities"):
            page = self.find(name)
            path = self.dir / page.file if page else self._path_for(name)
            old = page.body if page else ""
            known = {fact_text(line) for line in old.splitlines() if line.strip()}
            added = []
            for line in content.strip().splitlines():
                if line.strip() and fact_text(line) not in known:
                    known.add(fact_text(line))
                    added.append(line.rstrip())
            if page is not None and not added:
                return page, 0
            body = "\n".join(part for part in (old.rstrip(), "\n".join(added)) if part)
            created = page.created if page else now.strftime("%Y-%m-%d %H:%M:%S")
            new_kind = (page.kind if page else "") or (kind if kind in ENTITY_KINDS else "")
            return self._write(EntityPage(page.name if page else name, body, new_kind, created), path), len(added)

    def replace(self, name: str, body: str, now: datetime, kind: str | None = None) -> EntityPage:
        """The page's whole body rewritten (consolidation, the user's edit): the old page is backed up
        first. A new name makes a new page."""
        name = clean_entity_name(name)
        if not body.strip():
            raise EntityError("An entity page needs some text; to remove it, delete it.")
        self.dir.mkdir(parents=True, exist_ok=True)
        with file_lock(self.dir / ".entities"):
            page = self.find(name)
            path = self.dir / page.file if page else self._path_for(name)
            new_kind = kind if kind in ENTITY_KINDS else (page.kind if page else "")
            created = page.created if page else now.strftime("%Y-%m-%d %H:%M:%S")
            return self._write(EntityPage(page.name if page else name, body.strip(), new_kind, created), path)

    def delete(self, name: str) -> Path | None:
        """Remove the page; its backup is kept (returned). EntityError when there is no such page."""
        with file_lock(self.dir / ".entities"):
            page = self.find(name)
            if page is None:
                raise EntityError(f"There is no entity page for {name!r}.")
            path = self.dir / page.file
            backup = self._files.backup(path)
            path.unlink()
            self._cache.pop(page.file, None)
            return backup


# --- proposals (seed 004 §4, 二層記録システム) ---------------------------------------------
PENDING, OFFERED, REJECTED, APPLIED, RESOLVED = "pending", "offered", "rejected", "applied", "resolved"


class EntityProposal(BaseModel):
    """Facts the night's extraction proposes for one entity's page, with the memory lines they came from."""
    model_config = ConfigDict(frozen=True)

    id: str  # "2026-03-14:mochi": one per day and entity, so a re-run replaces, never duplicates
    day: str
    name: str
    kind: str = ""
    facts: tuple[str, ...]
    memories: tuple[str, ...] = ()  # "[2026-03-14] Mina: …"
    status: str = PENDING
    created_at: str = ""
    offered_at: str = ""
    decided_at: str = ""


def proposal_id(day: str, name: str) -> str:
    return f"{day}:{entity_key(name)}"


class ProposalFile(BaseModel):
    proposals: list[EntityProposal] = Field(default_factory=list)
    days_done: dict[str, str] = Field(default_factory=dict)  # day → the digest of the day's log asked


class ProposalStore:
    """`memory/entity_proposals.json`: every change under the file's lock, written atomically."""

    def __init__(self, memory_dir: Path, files: CharacterFiles):
        self.path = memory_dir / PROPOSALS_FILE
        self._files = files

    def load(self) -> ProposalFile:
        return self._files.load_json_model(self.path, ProposalFile, ProposalFile)

    def _save(self, data: ProposalFile) -> None:
        """Called under the file's lock."""
        atomic_write_text(self.path, data.model_dump_json(indent=2) + "\n")

    def with_status(self, *statuses: str) -> list[EntityProposal]:
        return [p for p in self.load().proposals if p.status in statuses]

    def add(self, day: str, digest: str, proposals: Sequence[EntityProposal]) -> None:
        """The day's proposals (replacing that day's earlier ones still pending) and the day marked asked."""
        with file_lock(self.path):
            data = self.load()
            new = {p.id for p in proposals}
            kept = [p for p in data.proposals if not (p.id in new and p.status == PENDING)]
            decided = {p.id for p in kept}
            data = ProposalFile(proposals=[*kept, *(p for p in proposals if p.id not in decided)],
                                days_done={**data.days_done, day: digest})
            self._save(data)

    def mark(self, ids: Iterable[str], status: str, now: datetime, only_from: Sequence[str] = ()) -> list[EntityProposal]:
        """Set the status of these proposals (only of those now in `only_from`, when given); returns the changed ones."""
        wanted, changed = set(ids), []
        stamp = now.isoformat(timespec="seconds")
        with file_lock(self.path):
            data = self.load()
            proposals = []
            for proposal in data.proposals:
                if proposal.id in wanted and (not only_from or proposal.status in only_from):
                    field = "offered_at" if status == OFFERED else "decided_at"
                    proposal = proposal.model_copy(update={"status": status, field: stamp})
                    changed.append(proposal)
                proposals.append(proposal)
            if changed:
                self._save(data.model_copy(update={"proposals": proposals}))
        return changed

    def prune(self, today: date) -> None:
        """Drop decided proposals of days older than ENTITY_PROPOSALS_KEPT_DAYS (the days asked stay:
        a day is never asked twice)."""
        limit = (today - timedelta(days=constants.ENTITY_PROPOSALS_KEPT_DAYS)).isoformat()
        with file_lock(self.path):
            data = self.load()
            kept = [p for p in data.proposals if p.status in (PENDING, OFFERED) or p.day >= limit]
            if len(kept) != len(data.proposals):
                self._save(data.model_copy(update={"proposals": kept}))
