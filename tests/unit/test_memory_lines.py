"""A long recalled message is cut to the sentences about the message being answered."""
import math
from datetime import date

from agent.memory_lines import ELISION, focused_line


def count(text: str) -> int:
    return math.ceil(len(text) / 4)


TIPS = ("- [2 May 2026] Ark: Training a puppy can be challenging, but with patience it works. Here are some tips: "
        "1. Start early. 2. Be consistent with the words you use. His name is Mochi, and he loves treats.")


def test_a_line_that_fits_is_kept_whole():
    assert focused_line("- [2 May 2026] Maya: His name is Mochi.", "puppy name?", 40, count) == \
        "- [2 May 2026] Maya: His name is Mochi."


def test_the_sentences_about_the_message_are_kept_with_date_speaker_and_elisions():
    line = focused_line(TIPS, "What is my puppy's name again?", 20, count)
    assert line == f"- [2 May 2026] Ark: {ELISION} His name is Mochi, and he loves treats."
    assert count(line) <= 20


def test_a_numbered_item_stays_with_its_sentence():
    line = focused_line(TIPS, "Should I be consistent with the words?", 22, count)
    assert "2. Be consistent with the words you use." in line


def test_with_no_word_in_common_the_line_keeps_its_opening():
    line = focused_line(TIPS, "zebra", 25, count)
    assert line.startswith("- [2 May 2026] Ark: Training a puppy") and line.endswith(ELISION)
    assert count(line) <= 25


def test_japanese_sentences_are_chosen_by_shared_characters_and_joined_without_spaces():
    line = "- [1 May 2026] レオ: 大阪の言葉、まだ慣れないんだ。昨日はずっと雨だった。好物はたこ焼きなんだ。なんでやねんってよく聞くよ。"
    assert focused_line(line, "私の好物、覚えてる？", 14, count) == f"- [1 May 2026] レオ: {ELISION}好物はたこ焼きなんだ。{ELISION}"


def test_a_single_long_sentence_is_cut_with_a_mark():
    line = "- [1 May 2026] Ken: " + "word " * 60
    cut = focused_line(line, "word", 15, count)
    assert cut.endswith(ELISION) and count(cut) <= 15 and cut.startswith("- [1 May 2026] Ken: word")


def test_a_documents_passage_is_left_to_its_own_cut():
    passage = "- (from kestrel-k7-manual.md) Kestrel K7 manual. 1. Tyres. The K7 uses 38 mm tyres. " * 3
    assert focused_line(passage, "tyre pressure", 10, count) == passage


POTTERY = ("- [8 May 2023] Melanie: Wow, that's great! I just signed up for a pottery class yesterday. It's like therapy "
           "for me, letting me express myself. Have you found any activities that make you feel the same way?")


def test_asked_a_question_the_line_keeps_what_it_tells_not_its_own_question():
    line = focused_line(POTTERY, "What activities does Melanie do?", 24, count)
    assert "pottery class" in line and "Have you found" not in line
    assert count(line) <= 24


def test_a_question_in_another_script_is_read_as_one_too():
    line = "- [1 May 2026] レオ: 昨日は陶芸教室に申し込んだよ。セラピーみたいなんだ。君も何か趣味を見つけた？"
    cut = focused_line(line, "レオの趣味は何？", 11, count)
    assert "陶芸教室" in cut and "見つけた" not in cut


def test_told_something_the_line_may_keep_its_question():
    line = focused_line(POTTERY, "I found new activities that calm me.", 20, count)
    assert "Have you found any activities" in line


def test_sharing_no_word_the_line_skips_a_greeting_for_what_it_tells():
    line = ("- [21 July 2023] Gina: Hey Jon! Thanks! I finally opened the online store last week. The first orders "
            "came from my neighbours, which felt amazing.")
    cut = focused_line(line, "What did Gina launch?", 18, count)
    assert cut.startswith(f"- [21 July 2023] Gina: {ELISION} I finally opened the online store") and "Hey Jon" not in cut
    cut = focused_line("- [1 May 2026] レオ: やあ！ありがとう！昨日は陶芸教室に申し込んだよ。先生がとても優しかった。", "何を始めた？", 12, count)
    assert "陶芸教室" in cut and "やあ" not in cut


def test_a_line_of_greetings_alone_still_shows_its_opening():
    line = "- [2 May 2026] Ken: Hey Maya! Thanks! Wow! Good night! See you! Bye now!"
    cut = focused_line(line, "zebra", 10, count)
    assert cut.startswith("- [2 May 2026] Ken: Hey Maya!")


def test_each_day_is_said_once_above_its_messages():
    from agent.memory_lines import grouped_by_date

    shown = grouped_by_date([
        "- [10 April 2026] ハルカ: 今日は初めてスパイスからカレーを作ってみたよ。",
        "- [10 April 2026] Ark: すごいですね！",
        "- [11 April 2026]★ ハルカはカレーを作った。アークは喜んだ。",  # an episode: whole, as it comes
        "- [12 April 2026] ハルカ: ただいま！",
        "recipe.txt: Spice curry, step 2: toast the cumin.",  # a document's passage: whole
        "- [12 April 2026] ハルカ: 私のアレルギー、覚えてる？",
    ]).split("\n")
    assert shown == [
        "[10 April 2026]",
        "- ハルカ: 今日は初めてスパイスからカレーを作ってみたよ。",
        "- Ark: すごいですね！",
        "- [11 April 2026]★ ハルカはカレーを作った。アークは喜んだ。",
        "[12 April 2026]",
        "- ハルカ: ただいま！",
        "recipe.txt: Spice curry, step 2: toast the cumin.",
        "[12 April 2026]",
        "- ハルカ: 私のアレルギー、覚えてる？",
    ]


def test_the_users_recalled_words_are_still_found_under_their_day():
    from agent.graph import recalled_user_lines_dated
    from agent.memory_lines import grouped_by_date

    context = grouped_by_date(["- [3 May 2026] Ken: I adopted a puppy.", "- [3 May 2026] Ken: His name is Mochi."])
    assert recalled_user_lines_dated(context, ["Ken"]) == [(date(2026, 5, 3), "I adopted a puppy."),
                                                         (date(2026, 5, 3), "His name is Mochi.")]


def test_the_users_recalled_words_keep_the_day_of_a_heading_with_its_weekday_and_only_under_it():
    from agent.graph import recalled_user_lines_dated
    from agent.memory_lines import grouped_by_date

    lines = ["- [10 February 2026] Lucía: Hoy empecé un curso de escalada.", "- [10 February 2026] Ark: ¡Qué bien!",
             "notes.txt: - Lucía: a line of a document", "- [1 March 2026] Lucía: Me duelen los brazos."]
    context = grouped_by_date(lines, weekdays=True)
    assert "[Tuesday, 10 February 2026]" in context
    assert recalled_user_lines_dated(context, ["Lucía"]) == [(date(2026, 2, 10), "Hoy empecé un curso de escalada."),
                                                           (date(2026, 3, 1), "Me duelen los brazos.")]
    assert recalled_user_lines_dated("- Lucía: said with no day", ["Lucía"]) == [(None, "said with no day")]
    assert recalled_user_lines_dated(context, []) == []
