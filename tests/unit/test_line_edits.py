"""A user's edit of core memory merged with the notes the persona kept while the editor was open."""
from managers.line_edits import merged_edit

SHOWN = "- I am Ark.\n- 2026-03-01 Ken said: \"My cat is Mochi.\"\n"


def test_an_unchanged_file_takes_the_edit_as_it_is():
    edited = "- I am Ark, Ken's friend.\n"
    assert merged_edit(SHOWN, edited, SHOWN).text == edited
    assert merged_edit(SHOWN, edited, SHOWN).kept_from_app == ()


def test_a_note_kept_meanwhile_is_added_to_the_edit():
    kept = '- 2026-03-04 Ken said: "My sister\'s birthday is March 3rd."'
    merged = merged_edit(SHOWN, "- I am Ark, Ken's friend.\n- 2026-03-01 Ken said: \"My cat is Mochi.\"",
                         SHOWN + kept + "\n")
    assert merged.text.splitlines() == ["- I am Ark, Ken's friend.", '- 2026-03-01 Ken said: "My cat is Mochi."', kept]
    assert merged.kept_from_app == (kept,)


def test_a_note_revised_meanwhile_replaces_the_old_line_the_user_left_alone():
    revised = SHOWN.replace("Mochi", "Mochi (a he)")
    merged = merged_edit(SHOWN, SHOWN + "- Ken likes rain.", revised)
    assert "My cat is Mochi.\"" not in merged.text and "Mochi (a he)" in merged.text and "rain" in merged.text


def test_a_line_the_user_deleted_stays_deleted_and_one_added_by_both_is_written_once():
    kept = "- Ken likes rain."
    merged = merged_edit(SHOWN, "- I am Ark.\n- Ken likes rain.", SHOWN + kept)
    assert "Mochi" not in merged.text and merged.text.count("rain") == 1 and merged.kept_from_app == ()
