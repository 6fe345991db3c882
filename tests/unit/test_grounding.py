"""A dream's sentences are kept only when their days bear them out (agent/grounding.py), in each language;
what the days say in other words, the names and the small words of person never count against a sentence."""
import pytest

from agent.grounding import grounded, units_of

DAYS_EN = ("- [2026-10-03] Priya told me she repotted her fern and the new pot cracked. Her brother Sam "
           "helped her carry the soil. She is nervous about the driving test on Thursday.")
DAYS_JA = "- [2026-10-03] ハルカさんは妹と水族館に行った。ペンギンの写真をたくさん撮った。来週は歯医者の予約がある。"
DAYS_ZH = "- [2026-10-03] 小林今天和同事去爬山，山顶的风景很美。下个月他要参加马拉松。"
DAYS_KO = "- [2026-10-03] 민지는 친구와 한강에서 자전거를 탔다. 다음 주에 면접이 있다."
DAYS_ES = "- [2026-10-03] Lucía cocinó una paella para su abuela y la abuela quedó encantada. El lunes empieza un curso de cerámica."
NAMES = ("Ark", "Priya")


@pytest.mark.parametrize("sentence, days, names", [
    ("Priya plays the violin in an orchestra every weekend.", DAYS_EN, NAMES),
    ("Priya values hard work and loyalty above everything.", DAYS_EN, NAMES),
    ("ハルカさんは料理教室で天ぷらを習っている。", DAYS_JA, ("Ark", "ハルカ")),
    ("小林喜欢在家里弹钢琴和画画。", DAYS_ZH, ("Ark", "小林")),
    ("민지는 요리 수업에서 케이크를 만들었다.", DAYS_KO, ("Ark", "민지")),
    ("Lucía trabaja como enfermera en un hospital grande.", DAYS_ES, ("Ark", "Lucía")),
])
def test_a_sentence_of_things_the_days_never_said_is_left_out(sentence, days, names):
    result = grounded(sentence, days, names)
    assert result.kept == "" and result.left_out == (sentence,) and result.missing


@pytest.mark.parametrize("sentence, days, names", [
    ("Priya's new pot cracked after she repotted the fern.", DAYS_EN, NAMES),  # a possessive, other words
    ("Sam helped his sister with the soil, and she is nervous about Thursday's test.", DAYS_EN, NAMES),
    ("I understood that the driving test makes Priya nervous.", DAYS_EN, NAMES),  # "understood": the ask's word
    ("ハルカさんは水族館でペンギンの写真を撮って楽しんだ。", DAYS_JA, ("Ark", "ハルカ")),
    ("小林和同事爬山，看到了美丽的风景。", DAYS_ZH, ("Ark", "小林")),
    ("민지가 친구랑 자전거를 탔다.", DAYS_KO, ("Ark", "민지")),  # other particles on the same words
    ("Lucía cocinó paella y su abuela quedó encantada.", DAYS_ES, ("Ark", "Lucía")),
    ("おやすみ。", DAYS_JA, ("Ark", "ハルカ")),  # nothing to bear out
    ("Priya!", DAYS_EN, NAMES),  # only a name
])
def test_what_the_days_say_in_other_words_is_kept(sentence, days, names):
    material = days + "\nWhat you understood about Priya, in one to three sentences."
    assert grounded(sentence, material, names).kept == sentence


def test_an_invented_sentence_is_left_out_and_the_rest_of_the_text_stays():
    text = ("Priya's fern got a new pot, which cracked. She loves jazz concerts in the park. "
            "Her brother Sam carried the soil.")
    result = grounded(text, DAYS_EN, NAMES)
    assert result.kept == "Priya's fern got a new pot, which cracked. Her brother Sam carried the soil."
    assert result.left_out == ("She loves jazz concerts in the park.",)
    assert "jazz" in result.missing and "fern" not in result.missing


def test_when_the_first_sentence_is_invented_what_leans_on_it_goes_too():
    text = "Priya collects antique clocks from flea markets. They remind her of the pot she repotted the fern in."
    result = grounded(text, DAYS_EN, NAMES)
    assert result.kept == "" and len(result.left_out) == 2


def test_two_latin_letters_in_a_japanese_sentence_are_a_word_the_days_must_have():
    days = "- [2026-05-12] ユイさんは弟の健太と餃子を作った。"
    assert "ui" in units_of("UIは餃子を作った。")
    assert grounded("UIの改善に取り組む。", days, ("Ark", "ユイ")).kept == ""
    assert "ok" not in units_of("Priya said ok.")  # in English, a short word is no sign
    # however much else of it the days hold
    assert grounded("UIは弟の健太と餃子を作った。", days, ("Ark", "ユイ")).kept == ""
    assert grounded("OKと言って、ユイさんは弟の健太と餃子を作った。", days + "OKだって。", ("Ark", "ユイ")).kept != ""


def test_names_and_words_of_person_are_not_what_a_sentence_is_about():
    assert units_of("Priya's brother helped her.", ("Priya",)) == units_of("brother helped")
    assert units_of("He told her that she and Ark would see them.", ("Ark",)) == units_of("told see")
