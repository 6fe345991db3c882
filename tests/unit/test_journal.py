from managers.journal import StreamingJournal


class FakeMonotonic:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_finalize_removes_the_journal(tmp_path, clock):
    journal = StreamingJournal(tmp_path / "journal.jsonl", clock)
    journal.open(reply_to="m1", speaker="Ark")
    journal.write_text("hello")
    journal.finalize()
    assert not (tmp_path / "journal.jsonl").exists()
    assert journal.recover() is None


def test_text_is_flushed_by_size_and_by_time(tmp_path, clock):
    mono = FakeMonotonic()
    path = tmp_path / "journal.jsonl"
    journal = StreamingJournal(path, clock, monotonic=mono)
    journal.open(reply_to="m1", speaker="Ark")
    journal.write_text("a" * 10)
    assert "aaaaaaaaaa" not in path.read_text()  # buffered: not yet a second, not 500 chars
    mono.t = 1.5
    journal.write_text("b")
    assert "aaaaaaaaaab" in path.read_text()
    journal.write_text("c" * 600)
    assert "c" * 600 in path.read_text()


def test_orphan_journal_is_recovered_and_torn_lines_skipped(tmp_path, clock):
    path = tmp_path / "journal.jsonl"
    mono = FakeMonotonic()
    journal = StreamingJournal(path, clock, monotonic=mono)
    journal.open(reply_to="m7", speaker="Ark")
    mono.t = 2.0
    journal.write_text("partial reply ")
    mono.t = 4.0
    journal.write_text("continues")
    with open(path, "a") as handle:
        handle.write('{"event": "text", "text": "torn')  # crash mid-line
    recovered = StreamingJournal(path, clock).recover()
    assert recovered.text == "partial reply continues"
    assert recovered.reply_to == "m7" and recovered.speaker == "Ark" and not recovered.completed
