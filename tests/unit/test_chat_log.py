from managers.chat_log import (ANNOUNCEMENT_MARK, ChatLog, LogEntry, escape_body, fold_view, format_entry, parse_log_text,
                                spoken_text, unescape_body)


def test_entries_round_trip_with_ids_and_timestamps(tmp_path, clock):
    log = ChatLog(tmp_path / "logs", clock)
    first = log.append("USER", "Mina", "こんにちは\n二行目")
    second = log.append("AGENT", "Ark", "Hello!", reply_to=first.id)
    reread = ChatLog(tmp_path / "logs", clock).entries()
    assert [(e.role, e.name, e.text, e.id) for e in reread] == [
        ("USER", "Mina", "こんにちは\n二行目", first.id),
        ("AGENT", "Ark", "Hello!", second.id),
    ]
    assert reread[0].ts == first.ts and reread[1].meta["reply_to"] == first.id


def test_file_uses_the_original_header_format(tmp_path, clock):
    log = ChatLog(tmp_path / "logs", clock)
    log.append("USER", "Mina", "hi")
    [path] = log.files()
    assert path.name == "2026-03.txt"
    lines = path.read_text().splitlines()
    assert lines[0] == "## USER:Mina"
    assert lines[2] == "hi"


def test_a_body_line_that_looks_like_a_header_stays_in_its_message(tmp_path, clock):
    log = ChatLog(tmp_path / "logs", clock)
    tricky = "quote:\n## AGENT:Ark\nfake\n\\## USER:x"
    log.append("USER", "Mina", tricky)
    entries = ChatLog(tmp_path / "logs", clock).entries()
    assert len(entries) == 1 and entries[0].text == tricky
    assert unescape_body(escape_body(tricky)) == tricky


def test_legacy_entries_without_meta_get_stable_ids():
    text = "## USER:user\nhello\n\n## AGENT:Ark\nhi there\n"
    first = parse_log_text(text, "log.txt")
    again = parse_log_text(text, "log.txt")
    assert [e.text for e in first] == ["hello", "hi there"]
    assert [e.id for e in first] == [e.id for e in again]
    assert first[0].id != first[1].id


def test_edit_delete_and_regenerate_never_remove_the_original(tmp_path, clock):
    log = ChatLog(tmp_path / "logs", clock)
    user = log.append("USER", "Mina", "I have two cats")
    reply = log.append("AGENT", "Ark", "Lovely!")
    log.record_edit(user.id, "I have three cats")
    regenerated = log.append("AGENT", "Ark", "Three cats!", replaces=reply.id)
    view = log.view()
    assert [e.text for e in view] == ["I have three cats", "Three cats!"]
    raw = log.files()[0].read_text()
    assert "I have two cats" in raw and "Lovely!" in raw
    log.record_delete(regenerated.id)
    assert [e.text for e in ChatLog(tmp_path / "logs", clock).view()] == ["I have three cats"]


def test_fold_view_ignores_edits_of_unknown_targets():
    entries = [
        LogEntry("USER", "u", "a", "1", None),
        LogEntry("SYSTEM", "edit", "zzz", "2", None, {"target": "missing"}),
    ]
    assert [e.text for e in fold_view(entries)] == ["a"]


def test_format_entry_meta_cannot_break_the_comment():
    entry = LogEntry("AGENT", "Ark", "x", "id1", None, {"status": "a --> b c"})
    line = format_entry(entry).splitlines()[1]
    assert line.endswith("-->") and line.count("-->") == 1


def test_recent_is_the_newest_part_of_the_folded_view(tmp_path, clock):
    log = ChatLog(tmp_path / "logs", clock)
    first = log.append("USER", "Mina", "one")
    reply = log.append("AGENT", "Ark", "two")
    log.append("USER", "Mina", "three")
    log.append("AGENT", "Ark", "two, again", replaces=reply.id)
    assert [e.text for e in log.recent(2)] == ["three", "two, again"]
    assert [e.text for e in log.recent(10)] == [e.text for e in log.view()]
    assert log.recent(0) == []
    log.recent(10).clear()  # a copy: the log's own view is untouched
    assert log.find(first.id) == first and len(log.view()) == 3


def test_spoken_text_leaves_out_the_apps_tool_lines_only():
    said = f"{ANNOUNCEMENT_MARK}searched memories\nYou told me about Kyoto.\n{ANNOUNCEMENT_MARK}edit notepad (append)"
    assert spoken_text(said) == "You told me about Kyoto."
    assert spoken_text("A line that merely mentions 🛠️ tools.") == "A line that merely mentions 🛠️ tools."


def test_what_was_appended_since_a_revision_and_when_it_must_be_read_again(tmp_path, clock):
    log = ChatLog(tmp_path / "logs", clock)
    first = log.append("USER", "Mina", "hi")
    seen, _ = log.appended_since(-1)
    log.view()  # folded: later appends extend it
    second = log.append("AGENT", "Ark", "hello")
    third = log.append("USER", "Mina", "how are you?")
    now, appended = log.appended_since(seen)
    assert [e.id for e in appended] == [second.id, third.id]
    assert log.appended_since(now) == (now, [])
    log.record_edit(first.id, "hi there")  # an older message changed: the caller reads again
    assert log.appended_since(now)[1] is None
    now, _ = log.appended_since(now)
    log.invalidate()
    assert log.appended_since(now)[1] is None
