"""Relative times in remembered messages become the dates they stand for, counted from the day said."""
from datetime import date

import pytest

from agent.relative_time import (dates_with_year, points_ahead, resolve_note_dates, resolve_relative_times, resolve_said_on,
                                 spelled_out_days)

SAID = date(2023, 5, 8)  # a Monday


@pytest.mark.parametrize("text, resolved", [
    ("I went to a support group yesterday.", "I went to a support group 7 May 2023."),
    ("Tomorrow is my first day.", "9 May 2023 is my first day."),
    ("Last week I painted a sunset.", "The week before 8 May 2023 I painted a sunset."),
    ("We went camping last weekend", "We went camping the weekend before 8 May 2023"),
    ("I met him last Friday.", "I met him the Friday before 8 May 2023."),
    ("Last Fri I took my kids to a pottery workshop.", "The Friday before 8 May 2023 I took my kids to a pottery workshop."),
    ("see you next thurs!", "see you the Thursday after 8 May 2023!"), ("last Tue. was fun", "the Tuesday before 8 May 2023. was fun"),
    ("We hiked last Sat.", "We hiked the Saturday before 8 May 2023."),
    ("The launch is next month.", "The launch is June 2023."),
    ("I quit last year.", "I quit 2022."),
    ("We moved here 3 years ago.", "We moved here 2020."),
    ("I started two weeks ago.", "I started two weeks before 8 May 2023."),
    ("It broke 10 days ago.", "It broke 28 April 2023."),
    ("A month ago I left.", "The month before 8 May 2023 I left."),
    ("昨日、先週末に行ったカフェにまた行った。", "2023年5月7日、2023年5月8日の前の週末に行ったカフェにまた行った。"),
    ("先月から習い始めた。", "2023年4月から習い始めた。"),
    ("3日前に届いた。", "2023年5月5日に届いた。"),
])
def test_each_relative_time_becomes_its_date(text, resolved):
    assert resolve_relative_times(text, SAID) == resolved


def test_a_month_back_from_january_is_the_previous_years_december():
    assert resolve_relative_times("last month", date(2023, 1, 15)) == "December 2022"


@pytest.mark.parametrize("text", [
    "I love the week of festivals.", "See you on Friday!", "It was the best day.", "Todays news", "lastly",
    "When I last sat down to paint, it rained.", "We watched the last sun of summer.", "the last Frisbee game",
    "next Wednesdays are free", "the last Monsoon",
])
def test_text_without_a_relative_time_is_unchanged(text):
    assert resolve_relative_times(text, SAID) == text


@pytest.mark.parametrize("text, resolved", [
    ("明日香と映画を見た", "明日香と映画を見た"),  # a name, not "tomorrow" (was 2023年5月9日香)
    ("佐藤明日香です", "佐藤明日香です"),
    ("今日子さんと話した", "今日子さんと話した"),
    ("昨日、明日香に会った", "2023年5月7日、明日香に会った"),
    ("明日", "2023年5月9日"),  # alone it is still tomorrow
    ("明日は雨", "2023年5月9日は雨"),
    ("先月末に引っ越した", "2023年4月末に引っ越した"),  # kanji that carry the time on
    ("今日の夜", "2023年5月8日の夜"),
])
def test_a_date_word_inside_a_longer_kanji_word_is_left_alone(text, resolved):
    assert resolve_relative_times(text, date(2023, 5, 8)) == resolved


@pytest.mark.parametrize("text, language, written", [
    ("来週の土曜日に友達の結婚式がある", "ja", "2026年5月16日（土）に友達の結婚式がある"),
    ("next Saturday I have the dentist", "en", "on Saturday 16 May 2026 I have the dentist"),
    ("am nächsten Freitag Zahnarzt", "de", "am Freitag, 15. Mai 2026 Zahnarzt"),
    ("tomorrow the dentist", "en", "on 10 May 2026 the dentist"),  # no weekday said: none added
])
def test_a_day_named_by_its_weekday_keeps_the_weekday_beside_its_date(text, language, written):
    assert resolve_note_dates(text, date(2026, 5, 9), language) == written


@pytest.mark.parametrize("text, ahead", [
    ("My cello teacher gave me the date for my recital: Saturday the 26th.", True),
    ("She starts her nursing degree next week.", True),
    ("Leila will help me move on the first weekend of October.", True),
    ("I have to choose by the end of the month.", True),
    ("来週ゲーム会社の面接があるんだって。", True),
    ("6月の大会に出るかまだ迷ってる。", True),
    ("予算の資料は明日やるよ。", True),
    ("El próximo viernes tengo un examen.", True),
    ("내일 면접이 있어요.", True),
    ("下周三考试。", True),
    ("The exam is in May.", True),
    # the month to come, and a count of days, weeks or months from now (session 53)
    ("Il mese prossimo mia figlia fa l'esame di maturità.", True),
    ("El mes que viene me mudo a Sevilla.", True),
    ("Le mois prochain je change de travail.", True),
    ("Nächsten Monat ziehe ich nach Köln.", True),
    ("No mês que vem começo o curso.", True),
    ("In two weeks I fly to Rome.", True),
    ("In zwei Wochen habe ich die Prüfung.", True),
    ("Daqui a três dias viajo.", True),
    ("In the past two weeks I was sick.", False),
    ("In den letzten zwei Wochen war ich krank.", False),
    ("Hace dos semanas me mudé.", False),
    ("I waited in line for two hours.", False),
    # nothing ahead: today, the past, a name, the verbs "may" and "march"
    ("Today was long.", False),
    ("Yesterday I recorded myself.", False),
    ("I went there last week.", False),
    ("明日香と会った。", False),
    ("3か月前に引っ越した。", False),
    ("I may go, or we march on.", False),
    ("", False),
])
def test_a_message_that_names_a_day_or_a_month_points_ahead(text, ahead):
    assert points_ahead(text) is ahead


@pytest.mark.parametrize("days, expected", [
    (("2023-05-08", "2023-05-08"), "8 May 2023"),
    (("2023-04-24", "2023-04-30"), "24 April 2023 – 30 April 2023"),
    (("2023-13-40",), "2023-13-40"),  # a hand-edited date that is none stays as written
    (("",), ""),
])
def test_an_episodes_days_are_spelled_out_as_recalled_lines_date_them(days, expected):
    assert spelled_out_days(*days) == expected


@pytest.mark.parametrize("text, expected", [
    ("I made ice cream the Friday before June 24th.", "I made ice cream the Friday before 24 June 2022."),
    ("We met on the 9th of October.", "We met on the 9 October 2022."),
    ("A party on December 30th.", "A party on 30 December 2021."),  # nearer than the next December
    ("Nos vimos el 3 de agosto.", "Nos vimos el 3 de agosto de 2022."),
    ("Am 24. Juni war es heiß.", "Am 24. Juni 2022 war es heiß."),
    ("Il 24 marzo siamo andati.", "Il 24 marzo 2022 siamo andati."),
    ("6月3日に映画を見た。", "2022年6月3日に映画を見た。"),
    # a date with its year, a modal "May", a day no month has, and plain numbers: as they are
    ("On June 24, 2022 and on 3 de agosto de 2022.", "On June 24, 2022 and on 3 de agosto de 2022."),
    ("May I come? She ran 10 km on 2023年6月3日.", "May I come? She ran 10 km on 2023年6月3日."),
    ("June 31st never came.", "June 31st never came."),
])
def test_a_summarys_dates_get_the_year_nearest_the_day_it_tells(text, expected):
    assert dates_with_year(text, date(2022, 6, 24)) == expected


@pytest.mark.parametrize("text, language, resolved", [
    # what lies behind, in the reply languages beside English and Japanese (session 43)
    ("Gestern war ich beim Zahnarzt.", "de", "Am 7. Mai 2023 war ich beim Zahnarzt."),
    ("Seit letztem Monat spiele ich Tennis.", "de", "Seit April 2023 spiele ich Tennis."),
    ("Ich war letzte Woche in Split.", "de", "Ich war die Woche vom 1. Mai 2023 in Split."),
    ("Hace 3 días compré una bici.", "es", "El 5 de mayo de 2023 compré una bici."),
    ("El año pasado viví en Lima.", "es", "En 2022 viví en Lima."),
    ("Hier soir, j'ai dîné avec Paul.", "fr", "Le 7 mai 2023, j'ai dîné avec Paul."),
    ("Je suis allée à Lyon la semaine dernière.", "fr", "Je suis allée à Lyon la semaine du 1 mai 2023."),
    ("L'anno scorso ho finito la tesi.", "it", "Nel 2022 ho finito la tesi."),
    ("Fui ao show ontem à noite.", "pt", "Fui ao show no dia 7 de maio de 2023."),
    ("昨天我去看了牙医。", "zh", "2023年5月7日我去看了牙医。"),
    ("어제 출판사 면접을 봤어요.", "ko", "2023년 5월 7일 출판사 면접을 봤어요."),
    # a word of another language, or the same word meaning something else, stays
    ("Ich bin hier.", "de", "Ich bin hier."), ("Por la mañana corro.", "es", "Por la mañana corro."),
    ("Il mese di maggio è bello.", "it", "Il mese di maggio è bello."), ("上个星期天很开心", "zh", "上个星期天很开心"),
    ("지난 주말에 캠핑 갔어요.", "ko", "지난 주말에 캠핑 갔어요."), ("Am letzten Wochenende war ich in Köln.", "de", "Am letzten Wochenende war ich in Köln."),
])
def test_what_lies_behind_is_dated_in_the_other_reply_languages(text, language, resolved):
    assert resolve_said_on(text, SAID, language) == resolved


def test_english_and_japanese_lines_are_read_as_before():
    for text in ("I went there yesterday and today.", "Tomorrow is my first day.", "昨日、カフェに行った。"):
        assert resolve_said_on(text, SAID, "en" if text.isascii() else "ja") == resolve_relative_times(text, SAID)
