"""Daily episodes: the day's sessions, the ask and its checks, and the episode file."""
import json
from datetime import date, datetime, timedelta, timezone

import pytest

from agent.episodes import (DaySession, day_prompt, episode_schema, own_day_prompt, parse_day, parse_summary,
                            parse_week, sessions_of_day, without_quotes, without_talk_of_the_ask, words_of)
from managers.chat_log import LogEntry
from managers.episodes import Episode, EpisodeStore, episode_id
from managers.store import CharacterFiles

T0 = datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc)


def entry(minutes: float, role: str, text: str, name: str = "") -> LogEntry:
    return LogEntry(role, name or ("Ken" if role == "USER" else "Ark"), text, f"id{minutes}", T0 + timedelta(minutes=minutes))


def test_a_long_pause_starts_a_new_session_and_system_lines_are_left_out():
    entries = [entry(0, "USER", "Morning!"), entry(1, "AGENT", "Good morning, Ken!"),
               entry(2, "SYSTEM", "edit"), entry(200, "USER", "Back from the hike."), entry(201, "AGENT", "How was it?")]
    sessions = sessions_of_day(entries, gap=timedelta(minutes=30))
    assert [s.number for s in sessions] == [1, 2]
    assert sessions[0].lines == ("Ken: Morning!", "Ark: Good morning, Ken!")
    assert sessions[1].start == T0 + timedelta(minutes=200)


def test_the_nights_ask_shows_each_relative_day_as_its_date_in_the_users_language():
    said = [entry(0, "USER", "Gestern war ich beim Zahnarzt.", "Lena"), entry(1, "USER", "昨天我去看了牙医。", "小林"),
            entry(2, "USER", "Yesterday I went to the dentist.")]
    assert sessions_of_day(said)[0].lines == ("Lena: Am 19. November 2026 war ich beim Zahnarzt.",
                                             "小林: 2026年11月19日我去看了牙医。", "Ken: 19 November 2026 I went to the dentist.")


def test_the_days_text_fits_its_room_and_every_session_keeps_its_start():
    long_talk = [entry(i, "USER" if i % 2 else "AGENT", f"message {i} " + "word " * 60) for i in range(40)]
    later = [entry(300, "USER", "The second session starts here.")]
    sessions = sessions_of_day(long_talk + later)
    system, user = day_prompt("Ark", "Ken", date(2026, 11, 20), sessions, "en", max_chars=3000)
    assert len(user) < 3000 + 200  # the headings beside the cut text
    assert "message 0" in user and "The second session starts here." in user
    assert "## Session 2 (14:00)" in user
    assert "English" in system and "Ken" in system and "never yours" in system


def test_the_answer_is_taken_only_when_it_rates_every_session_and_has_a_summary():
    good = parse_day(json.dumps({"sessions": [{"arousal": 0.2}, {"arousal": 1.7}], "summary": " Ken hiked. "}), 2)
    assert good.summary == "Ken hiked." and good.session_arousal == (0.2, 1.0)
    assert good.arousal == 0.6 and good.arousal_max == 1.0
    assert parse_day(json.dumps({"sessions": [{"arousal": 0.2}], "summary": "x"}), 2) is None
    assert parse_day(json.dumps({"sessions": [{"arousal": 0.2}], "summary": "  "}), 1) is None
    assert parse_day(json.dumps({"sessions": [{"arousal": "high"}], "summary": "x"}), 1) is None
    assert parse_day("not json", 1) is None
    assert episode_schema(3)["properties"]["sessions"]["minItems"] == 3


def test_episodes_are_replaced_by_id_never_duplicated(tmp_path):
    files = CharacterFiles(tmp_path)
    store = EpisodeStore(tmp_path / "memory", files)
    first = Episode(id=episode_id("2026-11-20"), date="2026-11-20", summary="Ken hiked.", arousal=0.3)
    store.put([first])
    store.put([first.model_copy(update={"summary": "Ken hiked up the ridge."})])
    store.put([Episode(id=episode_id("2026-11-19"), date="2026-11-19", summary="A quiet day.")])
    assert [(e.date, e.summary) for e in store.all()] == [("2026-11-19", "A quiet day."),
                                                          ("2026-11-20", "Ken hiked up the ridge.")]
    week = Episode(id=episode_id("2026-11-19~2026-11-20"), date="2026-11-19~2026-11-20", summary="A week.",
                   compressed=True, original_count=2)
    store.put([week], remove_ids=[episode_id("2026-11-19"), episode_id("2026-11-20")])
    assert [e.id for e in store.all()] == ["episode_2026-11-19~2026-11-20_001"]


def test_the_original_apps_records_get_ids_and_keep_their_fields(tmp_path):
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "episodic_memory.json").write_text(json.dumps(
        [{"date": "2026-01-02", "summary": "創作ノートについて話した。", "compressed": False, "arousal": 0.75,
          "mood": "calm"}], ensure_ascii=False))
    store = EpisodeStore(memory, CharacterFiles(tmp_path))
    [old] = store.all()
    assert old.id == "episode_2026-01-02_001" and old.arousal == 0.75
    store.put([Episode(id=episode_id("2026-01-03"), date="2026-01-03", summary="次の日。")])
    saved = json.loads((memory / "episodic_memory.json").read_text())
    assert saved[0]["mood"] == "calm" and saved[0]["id"] == "episode_2026-01-02_001"


@pytest.mark.parametrize("content", ['{"date": "x"}', "[{\"date\": 3}]", "\xff\xfe not text"])
def test_an_unreadable_file_is_quarantined_and_reported(tmp_path, content):
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "episodic_memory.json").write_bytes(content.encode("latin-1"))
    files = CharacterFiles(tmp_path)
    assert EpisodeStore(memory, files).all() == []
    assert not (memory / "episodic_memory.json").exists()
    [report] = files.quarantined
    assert report.moved_to.exists()


def test_only_whole_weeks_past_the_limit_with_two_days_or_more_are_compressed():
    from agent.episodes import weeks_to_compress
    days = [date(2026, 1, 5), date(2026, 1, 7),  # Monday 5 Jan week: two days
            date(2026, 1, 13),  # a week with one day
            date(2026, 3, 2), date(2026, 3, 4)]  # a week that ends inside the limit
    assert weeks_to_compress(days, today=date(2026, 5, 3), older_than_days=60) == [(date(2026, 1, 5), date(2026, 1, 11))]


def test_a_summary_too_long_keeps_its_whole_first_sentences():
    from agent.episodes import within
    text = "First sentence here. Second one is longer than that. Third."
    assert within(text, 100) == text
    assert within(text, 50) == "First sentence here."
    assert within("x" * 30, 10) == "x" * 9 + "…"


def test_a_summary_cut_off_by_the_answers_room_keeps_its_whole_sentences_once():
    cut = ('{"sessions": [{"arousal": 0.6}], "summary": "Caroline told me about her school event. '
           'She spoke about the LGBTQ community. She spoke about the LGBTQ community. She encouraged oth')
    parsed = parse_day(cut, 1)
    assert parsed.summary == "Caroline told me about her school event. She spoke about the LGBTQ community."
    assert parsed.session_arousal == (0.6,)
    assert parse_day('{"sessions": [{"arou', 1) is None


def test_an_answer_that_ran_on_in_blank_lines_is_read_as_it_stood():
    ran_on = '{"sessions": [{"arousal": 0.4}], "summary": "Caroline told me about her week."\n\n\n\n\n   \n\n'
    assert parse_day(ran_on, 1).summary == "Caroline told me about her week."


def test_the_jsons_closing_brace_written_inside_the_summary_is_no_part_of_it():
    closed_inside = {"summary": "We discussed how to stay motivated. Maria will keep spreading positivity and take care! }"}
    assert parse_summary(json.dumps(closed_inside)) == ("We discussed how to stay motivated. Maria will keep "
                                                       "spreading positivity and take care!")
    assert parse_day(json.dumps({"sessions": [{"arousal": 0.3}], "summary": "ユイは本屋に行った。 } }"}), 1).summary == \
        "ユイは本屋に行った。"
    assert parse_week(json.dumps({"summary": "A calm week. }\n"})) == "A calm week."
    # braces that belong to the text stay: only a closing run at the very end goes
    assert parse_summary(json.dumps({"summary": "Ken wrote {curly} notes."})) == "Ken wrote {curly} notes."
    assert parse_summary(json.dumps({"summary": " } "})) == ""


def test_an_unclosed_summary_followed_by_stray_braces_and_a_fence_keeps_its_sentences():
    cut = ('{ "sessions": [ { "arousal": 1.0 } ] , "summary": "Mina finished her novel. It was a great day for her. '
           '} }\n```\n\n\n')
    assert parse_day(cut, 1).summary == "Mina finished her novel. It was a great day for her."


def test_a_summary_closed_after_stray_braces_and_blank_lines_keeps_its_sentences():
    # the string's end quote came after the stray text, so it is no JSON: a literal newline in a string
    ran_on = ('{ "sessions": [ {"arousal": 0.6} ] , "summary": "ミサキはピアノ教室に通い始めた。最初の曲を楽しく弾いた。} '
              '\n\n{  " }')
    assert parse_day(ran_on, 1).summary == "ミサキはピアノ教室に通い始めた。最初の曲を楽しく弾いた。"
    closed = '{"sessions": [{"arousal": 0.2}], "summary": "Ken went hiking.\n\n" }'
    assert parse_day(closed, 1).summary == "Ken went hiking."
    assert parse_day('{"sessions": [{"arousal": 0.2}], "note": "no summary at all\n" }', 1) is None


def test_the_days_two_voices_are_each_sides_own_words_with_their_session_numbers():
    entries = [entry(0, "USER", "I adopted a puppy called Mochi."), entry(1, "AGENT", "How lovely! I went camping."),
               entry(200, "AGENT", "Are you there?"), entry(260, "USER", "Back. Mochi chewed my shoe.")]
    sessions = sessions_of_day(entries, gap=timedelta(minutes=30))
    theirs, mine = words_of(sessions, users=True), words_of(sessions, users=False)
    assert [(s.number, s.lines) for s in theirs] == [(1, ("- I adopted a puppy called Mochi.",)),
                                                     (3, ("- Back. Mochi chewed my shoe.",))]
    assert [(s.number, s.lines) for s in mine] == [(1, ("- How lovely! I went camping.",)), (2, ("- Are you there?",))]
    assert theirs[1].start == T0 + timedelta(minutes=260)
    system, user = own_day_prompt("Ark", "Ken", date(2026, 11, 20), mine, "ja", 3000)
    assert "yourself said" in system and "first person" in system and "Japanese" in system
    assert "- How lovely! I went camping." in user and "Mochi" not in user


@pytest.mark.parametrize("summary, kept", [
    ("Ken repaired his bike. The session was short and cheerful.", "Ken repaired his bike."),
    ("This summary covers Ken's week. Ken baked bread with his niece.", "Ken baked bread with his niece."),
    ("Ken called his sister. The sessions were calm, mostly small talk.", "Ken called his sister."),
    ("Ken moved to Leeds. Overall, the summary shows a busy man.", "Ken moved to Leeds."),
    ("I wrote a poem. It was a day of low arousal for Ken.", "I wrote a poem."),
    ("In Session 2, Ken talked about his exam. Ken passed his exam.", "Ken passed his exam."),
    ("ケンは自転車を直した。セッションは短くて楽しかった。", "ケンは自転車を直した。"),
    ("私はセッション1でケンと話した。ケンはパンを焼いた。", "ケンはパンを焼いた。"),
    ("Ken arregló su bici. La sesión fue breve y alegre.", "Ken arregló su bici."),
    ("Ken a réparé son vélo. La session était courte.", "Ken a réparé son vélo."),
    ("Ken hat sein Rad repariert. Die Sitzung war kurz.", "Ken hat sein Rad repariert."),
])
def test_a_sentence_about_the_ask_is_left_out_of_the_episode(summary, kept):
    assert without_talk_of_the_ask(summary) == kept


@pytest.mark.parametrize("summary", [
    "Ken's climbing session at the gym was brutal, and his forearms still hurt.",
    "Ken said the session at the physio ended early because his knee was fine.",
    "We planned a gaming session for Saturday.",
    "Ken finished session 5 of his driving course and parked on his own.",
    "Overall, Ken's physio session went well and his knee is fine.",
    "Ken summarised his thesis for his supervisor in one page.",
    "I had a long conversation with Ken about his move to Leeds.",
    "ケンはジムのトレーニングセッションに初めて参加した。",
    "Ken fue a una sesión de fotos en el parque.",
    "Ken hatte heute eine lange Sitzung mit seinem Chef.",
])
def test_a_session_or_summary_of_the_users_life_stays_in_the_episode(summary):
    assert without_talk_of_the_ask(summary) == summary


def test_a_sentence_said_word_for_word_that_day_is_a_quote_and_left_out():
    said = ["It's been a wild ride starting my business, but I'm not giving up!", "今日は初めてスパイスからカレーを作った！"]
    summary = ("I opened my online store this week. It's been a wild ride starting my business, but I'm not giving "
               "up! Ken laughed.")
    assert without_quotes(summary, said) == "I opened my online store this week. Ken laughed."
    assert without_quotes("ユイさんは今日は初めてスパイスからカレーを作った。嬉しそうだった。", said) == \
        "ユイさんは今日は初めてスパイスからカレーを作った。嬉しそうだった。"  # told anew around the words: kept
    assert without_quotes("今日は初めてスパイスからカレーを作った！とても嬉しかった。", said) == "とても嬉しかった。"
    assert without_quotes("I'm not giving up!", said) == "I'm not giving up!"  # too short to tell a quote
