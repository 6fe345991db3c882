from datetime import date

import pytest

from agent.time_period import Period, named_period

TODAY = date(2023, 10, 24)  # a Tuesday


@pytest.mark.parametrize("text, start, end", [
    ("What painting did Melanie show on October 13, 2023?", date(2023, 10, 13), date(2023, 10, 13)),
    ("What happened on 7 July, 2023?", date(2023, 7, 7), date(2023, 7, 7)),
    ("on the 3rd of March", date(2023, 3, 3), date(2023, 3, 3)),
    ("the note of 2023-05-07", date(2023, 5, 7), date(2023, 5, 7)),
    ("Where did Joanna travel to in July 2022?", date(2022, 7, 1), date(2022, 7, 31)),
    ("When did we go camping in July?", date(2023, 7, 1), date(2023, 7, 31)),
    ("What did I plan in December?", date(2022, 12, 1), date(2022, 12, 31)),  # December has not come yet this year
    ("What state did Joanna visit in summer 2021?", date(2021, 6, 1), date(2021, 8, 31)),
    ("What did we do in 2022?", date(2022, 1, 1), date(2022, 12, 31)),
    ("What did I say yesterday?", date(2023, 10, 23), date(2023, 10, 23)),
    ("What did I tell you last week?", date(2023, 10, 16), date(2023, 10, 22)),
    ("先月話した旅行、覚えてる？", date(2023, 9, 1), date(2023, 9, 30)),
    ("2023年5月25日に何した？", date(2023, 5, 25), date(2023, 5, 25)),
    ("5月に行った店", date(2023, 5, 1), date(2023, 5, 31)),
    ("上个月我们去了哪里", date(2023, 9, 1), date(2023, 9, 30)),
    ("What did we do from May to July?", date(2023, 5, 1), date(2023, 7, 31)),
    ("what did I cook in may", date(2023, 5, 1), date(2023, 5, 31)),
    ("Since March I have been running", date(2023, 3, 1), date(2023, 3, 31)),
    # a day of the week: the latest one before today, a week ago when today is that day (§4: "last Tuesday night")
    ("What did we chat about last Friday night?", date(2023, 10, 20), date(2023, 10, 20)),
    ("What did I tell you on Tuesday?", date(2023, 10, 17), date(2023, 10, 17)),
    ("¿De qué charlamos el domingo por la noche?", date(2023, 10, 22), date(2023, 10, 22)),
    ("Was haben wir am Samstagabend gemacht?", date(2023, 10, 21), date(2023, 10, 21)),
    ("Lundi, j'ai vu Paul.", date(2023, 10, 23), date(2023, 10, 23)),
    ("Cosa ho fatto giovedì?", date(2023, 10, 19), date(2023, 10, 19)),
    ("O que eu fiz na quarta-feira?", date(2023, 10, 18), date(2023, 10, 18)),
    ("金曜日に何を話したっけ？", date(2023, 10, 20), date(2023, 10, 20)),
    ("周六我们聊了什么？", date(2023, 10, 21), date(2023, 10, 21)),
    ("월요일에 뭐 했지?", date(2023, 10, 23), date(2023, 10, 23)),
    # the weekend: the latest one over
    ("Ti ricordi dove sono stata lo scorso fine settimana?", date(2023, 10, 21), date(2023, 10, 22)),
    ("週末に何をしたっけ？", date(2023, 10, 21), date(2023, 10, 22)),
])
def test_the_period_a_message_names(text, start, end):
    period = named_period(text, TODAY)
    assert (period.start, period.end) == (start, end)


@pytest.mark.parametrize("text", [
    "May I ask you something?", "We will march for it", "I may go there in 2030", "What is my cat called?",
    "I have 2023 photos", "猫の名前は？",
    # May the person, may the verb: a month needs a date's context (issue 18)
    "What did I get from May?", "I got a lovely letter from May", "This may take a while",
    "Did you meet a friend of May's?",
    # a day still to come, a name, and "once a week"
    "What am I doing next Friday?", "El martes que viene tengo médico.", "来週の金曜日は空いてる？", "下周六我们去爬山吧",
    "Domingo is coming over", "现在每周跑三次，每次十公里左右。",
])
def test_no_period_where_none_is_named(text):
    assert named_period(text, TODAY) is None


def test_days_outside_a_period_count_the_slack_after_it_as_inside():
    july = Period(date(2022, 7, 1), date(2022, 7, 31))
    assert july.days_outside(date(2022, 7, 15)) == 0
    assert july.days_outside(date(2022, 8, 5)) == 0  # told a few days later
    assert july.days_outside(date(2022, 8, 10)) == 3
    assert july.days_outside(date(2022, 6, 20)) == 11


def test_a_day_named_by_its_weekday_has_a_slack_of_its_own():
    tuesday = named_period("What did we talk about last Tuesday?", TODAY)
    dated = named_period("What did we talk about on October 17?", TODAY)
    assert (tuesday.start, tuesday.end) == (dated.start, dated.end)
    assert tuesday.days_outside(date(2023, 10, 17)) == 0 and tuesday.days_outside(date(2023, 10, 18)) == 1
    assert dated.days_outside(date(2023, 10, 20)) == 0


def test_this_weekend_is_the_one_under_way_or_none_before_it():
    saturday, wednesday = date(2023, 10, 21), date(2023, 10, 25)
    now_on = named_period("What did I do this weekend?", saturday)
    assert (now_on.start, now_on.end) == (saturday, saturday)
    assert named_period("¿Qué hacemos este fin de semana?", wednesday) is None
    last = named_period("今週末何した？", date(2023, 10, 22))
    assert (last.start, last.end) == (saturday, date(2023, 10, 22))


@pytest.mark.parametrize("text", [
    "What do I have to do on Thursday?", "Where am I going on Saturday?", "I'll see Paul on Monday.",
    "Cosa devo fare giovedì?", "¿Qué tengo que hacer el jueves?", "Qu'est-ce que je dois faire jeudi ?",
    "Was muss ich am Donnerstag machen?", "O que eu tenho que fazer na quinta-feira?", "木曜日の予定、覚えてる？",
    "木曜日に何しなきゃいけないんだっけ？", "周四我要做什么？", "목요일에 뭐 해야 돼?",
    # an obligation in the past tense: often a plan forgotten, and told before that day either way
    "What did I have to do on Thursday?", "Cosa dovevo fare giovedì?", "¿Qué tenía que hacer el jueves?",
    "Was musste ich am Donnerstag erledigen?", "What was I supposed to bring on Friday?",
])
def test_a_weekday_asked_about_with_a_plan_or_an_obligation_names_no_past_day(text):
    assert named_period(text, TODAY) is None


@pytest.mark.parametrize("text, day", [
    ("What did I do on Thursday?", date(2023, 10, 19)), ("Was habe ich am Donnerstag gemacht?", date(2023, 10, 19)),
    ("¿Qué hice el jueves?", date(2023, 10, 19)), ("Where was I going on Saturday?", date(2023, 10, 21)),
    ("木曜日に何したっけ？", date(2023, 10, 19)),
    ("你记得周四我说了什么吗？", date(2023, 10, 19)), ("我觉得周四的课很难。", date(2023, 10, 19)),
])
def test_a_weekday_of_what_was_done_stays_the_last_one(text, day):
    # 得 as part of a word (记得 "remember", 觉得 "think") is no "must"
    period = named_period(text, TODAY)
    assert (period.start, period.end) == (day, day)
