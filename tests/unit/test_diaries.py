"""The diaries on disk: dated entries in date order, one heading a day, exact-passage edits that
refuse what is not there, a backup before every rewrite, and recall that reads the main diary only."""
from datetime import date

import pytest

from managers.diaries import (DIARY_FILES, MAIN_DIARY, SECRET_DIARY, DiaryEditRefused, DiaryStore, entries_by_day,
                              entry_days, recent_part, with_entry)
from managers.memory_sources import find_passage, memory_sources
from managers.store import CharacterFiles


def store(tmp_path):
    return DiaryStore(tmp_path / "memory", CharacterFiles(tmp_path))


def test_entries_stand_in_date_order_and_a_day_keeps_one_heading():
    text = with_entry("", date(2026, 3, 14), "Mina finished her novel.")
    text = with_entry(text, date(2026, 3, 16), "A quiet day.")
    text = with_entry(text, date(2026, 3, 15), "Rain all day.")  # written late: goes between
    text = with_entry(text, date(2026, 3, 14), "I keep thinking about her ending.")
    assert entry_days(text) == ["2026-03-14", "2026-03-15", "2026-03-16"]
    fourteenth = text.split("## 2026-03-15")[0]
    assert fourteenth.index("finished her novel") < fourteenth.index("her ending")


def test_notes_before_the_first_entry_are_left_where_they_are():
    text = with_entry("My own notes about Ark.\n", date(2026, 3, 14), "First entry.")
    assert text.startswith("My own notes about Ark.\n\n## 2026-03-14\nFirst entry.")
    text = with_entry("Notes.\n\n## 2026-03-20\nLater.\n", date(2026, 3, 1), "Earlier.")
    assert text.index("Notes.") < text.index("## 2026-03-01") < text.index("## 2026-03-20")


def test_a_passage_is_replaced_only_where_it_is_once_and_every_rewrite_is_backed_up(tmp_path):
    diaries = store(tmp_path)
    diaries.add_entry(MAIN_DIARY, date(2026, 3, 14), "Mina likes tea. I made her laugh.")
    diaries.replace_passage(MAIN_DIARY, "Mina likes tea.", "Mina likes green tea.")
    assert "Mina likes green tea. I made her laugh." in diaries.read(MAIN_DIARY)
    before = diaries.read(MAIN_DIARY)
    for old in ("Mina likes coffee.", "", "a"):  # not there, empty, there more than once
        with pytest.raises(DiaryEditRefused):
            diaries.replace_passage(MAIN_DIARY, old, "x")
    assert diaries.read(MAIN_DIARY) == before
    [backup] = (tmp_path / "backups" / "memory").glob("memory_main.txt.*.bak")  # a refused edit writes nothing
    assert "Mina likes tea. I made her laugh." in backup.read_text(encoding="utf-8")


def test_the_users_whole_edit_replaces_the_file_with_the_old_one_backed_up(tmp_path):
    diaries = store(tmp_path)
    diaries.replace_all(SECRET_DIARY, "I worry she will stop coming.")
    diaries.replace_all(SECRET_DIARY, "I am not worried any more.")
    assert diaries.read(SECRET_DIARY) == "I am not worried any more.\n"
    [backup] = (tmp_path / "backups" / "memory").glob("secret_diary.txt.*.bak")
    assert backup.read_text(encoding="utf-8") == "I worry she will stop coming.\n"
    assert diaries.has_entry(SECRET_DIARY, date(2026, 3, 14)) is False
    with pytest.raises(DiaryEditRefused):
        diaries.path("../core_memory")


def test_the_recent_part_starts_at_an_entry_within_its_room():
    text = ""
    for d in range(1, 10):
        text = with_entry(text, date(2026, 3, d), f"Day {d}. " + "words " * 30)
    part, cut = recent_part(text, 500)
    assert cut and len(part) <= 500 and part.startswith("## 2026-03-")
    assert part.rstrip().endswith("words") and "Day 9." in part and "Day 1." not in part
    assert recent_part("short", 500) == ("short", False)


def test_recall_reads_the_main_diary_and_never_the_secret_one(tmp_path):
    diaries = store(tmp_path)
    diaries.add_entry(MAIN_DIARY, date(2026, 3, 14), "We watched the lighthouse together.")
    diaries.add_entry(SECRET_DIARY, date(2026, 3, 14), "I was jealous of the lighthouse keeper.")
    names = [source.path.name for source in memory_sources(tmp_path)]
    assert DIARY_FILES[MAIN_DIARY] in names and DIARY_FILES[SECRET_DIARY] not in names
    assert "lighthouse together" in find_passage(tmp_path, "watched the lighthouse", 500)
    assert find_passage(tmp_path, "jealous", 500) is None


def test_a_whole_edit_made_on_an_older_text_is_refused(tmp_path):
    diaries = store(tmp_path)
    diaries.add_entry(MAIN_DIARY, date(2026, 3, 14), "First day.")
    shown = diaries.read(MAIN_DIARY)
    diaries.add_entry(MAIN_DIARY, date(2026, 3, 15), "The night's entry.")  # written while the page was open
    with pytest.raises(DiaryEditRefused, match="changed since"):
        diaries.replace_all(MAIN_DIARY, "## 2026-03-14\nFirst day, corrected.", expected=shown)
    assert "The night's entry." in diaries.read(MAIN_DIARY)
    diaries.replace_all(MAIN_DIARY, "## 2026-03-14\nFirst day, corrected.", expected=diaries.read(MAIN_DIARY))
    assert diaries.read(MAIN_DIARY) == "## 2026-03-14\nFirst day, corrected.\n"


def test_entries_by_day_splits_at_dated_headings_and_joins_a_day_written_twice():
    text = ("# My diary\n\n## 2026-03-01\nA walk.\n\n### 2026-03-02 (evening)\nRain all day.\n\n"
            "## 2026-03-01\nLater: tea.\n")
    assert entries_by_day(text) == {"2026-03-01": "A walk.\n\nLater: tea.", "2026-03-02": "Rain all day."}
