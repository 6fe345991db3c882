"""Entity pages on disk: safe file names for any name, lookups by name, backups before rewrites,
multi-word search (CJK by bigrams), and the proposals file."""
from datetime import date, datetime, timezone

import pytest

import constants
from managers.entities import (APPLIED, OFFERED, PENDING, EntityError, EntityProposal, EntityStore, ProposalStore,
                               clean_entity_name, file_stem, parse_page, proposal_id, query_words)
from managers.store import CharacterFiles, validate_name

NOW = datetime(2026, 3, 14, 20, 0, tzinfo=timezone.utc)


@pytest.fixture
def store(tmp_path):
    return EntityStore(tmp_path / "memory", CharacterFiles(tmp_path))


@pytest.mark.parametrize("name", ["モチ", "Mochi", "田中 ユイ", "Café Lumière"])
def test_a_plain_name_is_its_own_file_name(name):
    assert file_stem(name) == name


@pytest.mark.parametrize("name", ["CON", "nul", "com1", "Lpt9.txt", "trailing.", "..", "../../etc/passwd",
                                  "a/b", "C:\\x", "🐶モチ", "モチ🐶", "_hidden", ".hidden", "x" * 70,
                                  "とても長い名前" * 10, 'quote"d', "what?", "a|b"])
def test_an_unsafe_name_gets_a_short_hashed_file_name_that_any_system_takes(name):
    stem = file_stem(name)
    assert stem != name
    validate_name(stem + ".md")  # the house's own check: no separators, no leading dot, not too long
    assert not stem.rstrip().endswith(".") and "/" not in stem and "\\" not in stem
    assert len(stem) <= constants.ENTITY_HASHED_STEM_CHARS + 11
    assert stem.split(".")[0].upper() not in {"CON", "NUL", "COM1", "LPT9"}
    assert all(ord(c) < 0x1F000 for c in stem)  # no emoji
    assert file_stem(name) == stem  # stable


def test_names_that_differ_only_in_case_or_width_are_one_entity(store):
    store.append("Mochi", "- A puppy.", NOW, "thing")
    page, added = store.append("ｍｏｃｈｉ", "- Loves walks.", NOW)
    assert added == 1 and page.name == "Mochi" and page.kind == "thing"
    assert store.names() == ["Mochi"]
    assert store.find("MOCHI").body == "- A puppy.\n- Loves walks."


def test_bad_names_are_refused_with_a_reason():
    for bad in ("", "   ", "a\nb", "x\x00", "y" * (constants.ENTITY_NAME_MAX_CHARS + 1), None):
        with pytest.raises(EntityError):
            clean_entity_name(bad)
    assert clean_entity_name("  Haruka   Sato ") == "Haruka Sato"


def test_emoji_and_reserved_names_round_trip_through_their_pages(store):
    for name in ("CON", "🐶モチ", "a/b", "長い名前" * 15):
        store.append(name, f"- about {name[:5]}", NOW)
    assert sorted(store.names()) == sorted(["CON", "🐶モチ", "a/b", "長い名前" * 15])
    files = sorted(p.name for p in store.dir.iterdir() if p.suffix == ".md")
    assert "CON.md" not in files and all("/" not in f for f in files)
    assert store.find("🐶モチ").body == "- about 🐶モチ"
    assert (store.dir / store.find("a/b").file).read_text(encoding="utf-8").startswith("# Entity Memory: a/b\n")


def test_the_page_is_in_the_seeds_format_and_a_hand_written_page_is_read_as_body(store):
    page, _ = store.append("ユイ", "- 小説を書いている。", NOW, "person")
    text = (store.dir / page.file).read_text(encoding="utf-8")
    assert text.splitlines()[:3] == ["# Entity Memory: ユイ", "Created: 2026-03-14 20:00:00", "Kind: person"]
    (store.dir / "Notes.md").write_text("just some notes\nabout a cat", encoding="utf-8")
    assert store.find("notes").body == "just some notes\nabout a cat"
    assert parse_page(text, "x").kind == "person"


def test_append_skips_lines_the_page_already_holds(store):
    store.append("Mochi", "- [2026-03-14] Mochi is a shiba puppy.", NOW)
    page, added = store.append("Mochi", "- [2026-03-15] mochi is a  Shiba puppy.\n- Mochi was born in May.", NOW)
    assert added == 1 and page.body.count("shiba") == 1 and "born in May" in page.body
    assert store.append("Mochi", "- Mochi was born in May.", NOW)[1] == 0


def test_consolidation_and_deletion_back_the_old_page_up_first(store, tmp_path):
    store.append("Mochi", "- A puppy.\n- A puppy who likes walks.", NOW)
    store.replace("Mochi", "- A puppy who likes walks.", NOW)
    backups = list((tmp_path / "backups/memory/entities").glob("Mochi.md.*.bak"))
    assert any("- A puppy.\n- A puppy who likes walks." in b.read_text(encoding="utf-8") for b in backups)
    assert store.find("Mochi").body == "- A puppy who likes walks."
    with pytest.raises(EntityError):
        store.replace("Mochi", "   ", NOW)
    backup = store.delete("mochi")
    assert store.find("Mochi") is None and "likes walks" in backup.read_text(encoding="utf-8")
    with pytest.raises(EntityError):
        store.delete("Mochi")


def test_search_scores_every_word_and_ranks_names_first(store):
    store.append("Mochi", "- Yui's shiba puppy. Likes the beach.", NOW)
    store.append("Beach house", "- Where Yui spends August.", NOW)
    store.append("Kenta", "- Yui's brother; a chef.", NOW)
    hits = store.search("beach puppy")
    assert [h.page.name for h in hits] == ["Mochi", "Beach house"]  # two words beat one (even in a name)
    assert hits[0].matched == ("beach", "puppy")
    assert [h.page.name for h in store.search("yui chef")][0] == "Kenta"
    assert store.search("puppies") == []  # Latin words match whole
    assert store.search("ken") == []


def test_search_in_japanese_by_character_bigrams(store):
    store.append("モチ", "- ユイさんの子犬。柴犬で、海辺の散歩が好き。", NOW)
    store.append("江ノ島", "- ユイさんが夏に行く海。", NOW)
    names = [h.page.name for h in store.search("モチの散歩")]
    assert names == ["モチ"]
    assert {h.page.name for h in store.search("海")} == {"モチ", "江ノ島"}
    assert "の" not in query_words("モチの散歩") and "モチ" in query_words("モチの散歩")
    assert store.search("ユイさんの柴犬")[0].page.name == "モチ"


def test_listing_rereads_only_changed_pages(store):
    store.append("Mochi", "- A puppy.", NOW)
    first = store.pages()
    assert store.pages()[0] is first[0]  # unchanged: the same object from the cache
    store.append("Mochi", "- Likes walks.", NOW)
    assert "walks" in store.pages()[0].body


def test_a_page_cannot_grow_past_its_limit(store):
    with pytest.raises(EntityError, match="Consolidate"):
        store.append("Mochi", "x" * (constants.ENTITY_PAGE_MAX_CHARS + 1), NOW)


def test_proposals_of_a_day_replace_its_pending_ones_and_decided_ones_stay(tmp_path):
    proposals = ProposalStore(tmp_path / "memory", CharacterFiles(tmp_path))
    first = EntityProposal(id=proposal_id("2026-03-14", "Mochi"), day="2026-03-14", name="Mochi", facts=("A puppy.",))
    proposals.add("2026-03-14", "abc", [first])
    proposals.add("2026-03-14", "abc", [first.model_copy(update={"facts": ("A shiba puppy.",)})])
    assert [p.facts for p in proposals.with_status(PENDING)] == [("A shiba puppy.",)]
    assert proposals.load().days_done == {"2026-03-14": "abc"}
    [offered] = proposals.mark([first.id], OFFERED, NOW, only_from=(PENDING,))
    assert offered.offered_at and proposals.mark([first.id], OFFERED, NOW, only_from=(PENDING,)) == []
    proposals.add("2026-03-14", "def", [first.model_copy(update={"facts": ("Other.",)})])  # decided: kept
    assert [p.facts for p in proposals.load().proposals] == [("A shiba puppy.",)]
    proposals.mark([first.id], APPLIED, NOW)
    proposals.prune(date(2026, 3, 20))
    assert len(proposals.load().proposals) == 1
    proposals.prune(date(2026, 6, 1))
    assert proposals.load().proposals == [] and "2026-03-14" in proposals.load().days_done
