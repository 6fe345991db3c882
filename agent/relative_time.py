"""Relative time in a remembered message, resolved from the day it was said.

"I went to a support group yesterday", recalled months later, tells the persona nothing about
when that was; asked "When did Caroline go to the support group?" the embedded model answered
"Last week." or "Yesterday." from such lines (bench qa transcripts, session 9). In a dated memory
line shown to the model, each relative expression becomes the date it stands for, in the words
people use for it: "7 May 2023", "the week before 8 May 2023", "the Friday before 9 October
2022", 「2023年4月」. The log keeps the user's words; pure functions of the text and the day said.
"""
from __future__ import annotations

import re
from datetime import date, timedelta

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}


def spelled_out(day: date) -> str:
    """"7 May 2023": the day, the month's name and the year, as people say a date."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def _japanese(day: date) -> str:
    return f"{day.year}年{day.month}月{day.day}日"


def _month_shift(day: date, months: int) -> tuple[int, int]:
    index = day.year * 12 + day.month - 1 + months
    return index // 12, index % 12 + 1


def _month_name(day: date, months: int) -> str:
    year, month = _month_shift(day, months)
    return f"{MONTHS[month - 1]} {year}"


_DAY_WORDS = {"yesterday": -1, "last night": -1, "today": 0, "tonight": 0, "this morning": 0,
              "this afternoon": 0, "this evening": 0, "tomorrow": 1}
_WEEKDAY = "|".join(WEEKDAYS)
_COUNT = r"\d{1,2}|a couple of|a few|several|" + "|".join(_NUMBER_WORDS)
_ENGLISH = re.compile(
    rf"\b(?P<day>yesterday|last night|today|tonight|this (?:morning|afternoon|evening)|tomorrow)\b"
    rf"|\b(?P<which>last|past|next|this) (?P<unit>weekend|week|month|year)\b"
    rf"|\b(?P<side>last|next) (?P<weekday>{_WEEKDAY})\b"
    rf"|\b(?P<count>{_COUNT}) (?P<ago_unit>day|week|month|year)s? ago\b",
    re.IGNORECASE,
)


def _english_anchor(match: re.Match, said: date) -> str:
    groups = match.groupdict()
    if groups["day"]:
        return spelled_out(said + timedelta(days=_DAY_WORDS[groups["day"].lower()]))
    if groups["unit"]:
        which, unit = groups["which"].lower(), groups["unit"].lower()
        step = {"last": -1, "past": -1, "next": 1, "this": 0}[which]
        if unit == "month":
            return _month_name(said, step)
        if unit == "year":
            return str(said.year + step)
        relation = {-1: "before", 1: "after", 0: "of"}[step]
        return f"the {unit} {relation} {spelled_out(said)}"
    if groups["weekday"]:
        relation = "before" if groups["side"].lower() == "last" else "after"
        return f"the {groups['weekday'].capitalize()} {relation} {spelled_out(said)}"
    count, unit = groups["count"].lower(), groups["ago_unit"].lower()
    number = int(count) if count.isdigit() else _NUMBER_WORDS.get(count)
    if unit == "day" and number is not None:
        return spelled_out(said - timedelta(days=number))
    if unit == "year" and number is not None:
        return str(said.year - number)
    return f"{count} {unit}s before {spelled_out(said)}" if number != 1 else f"the {unit} before {spelled_out(said)}"


# A date word inside a longer run of kanji is part of another word, most often a name: 明日香 (Asuka)
# became "2023年5月9日香" in recalled lines (issue 18). Only kanji that carry on a time (来週月曜,
# 先月末, 今年中, 昨日夜) may follow one; no kanji may come before it.
_KANJI = r"\u3005\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TIME_KANJI = "月火水木金土日曜朝昼夜晩午前後末中内初半頃以度春夏秋冬"
_JAPANESE = re.compile(
    rf"(?<![{_KANJI}])(?:"
    r"(?P<day>一昨日|おととい|昨日|きのう|昨夜|昨晩|今日|今朝|今夜|今晩|明日|あした)"
    r"|(?P<week>先週末|今週末|来週末|先週|今週|来週)"
    r"|(?P<month>先月|今月|来月)|(?P<year>去年|昨年|今年|来年)"
    r"|(?P<count>\d{1,2})(?P<ago_unit>日|週間|か月|ヶ月|年)前"
    rf")(?:(?=[{_TIME_KANJI}])|(?![{_KANJI}]))"
)
_JAPANESE_DAYS = {"一昨日": -2, "おととい": -2, "昨日": -1, "きのう": -1, "昨夜": -1, "昨晩": -1, "今日": 0, "今朝": 0,
                  "今夜": 0, "今晩": 0, "明日": 1, "あした": 1}


def _japanese_anchor(match: re.Match, said: date) -> str:
    groups = match.groupdict()
    if groups["day"]:
        return _japanese(said + timedelta(days=_JAPANESE_DAYS[groups["day"]]))
    if groups["week"]:
        word = groups["week"]
        relation = {"先": "前の", "今": "", "来": "次の"}[word[0]]
        span = "週末" if word.endswith("末") else "週"
        return f"{_japanese(said)}の{relation}{span}"
    if groups["month"]:
        year, month = _month_shift(said, {"先": -1, "今": 0, "来": 1}[groups["month"][0]])
        return f"{year}年{month}月"
    if groups["year"]:
        return f"{said.year + {'去': -1, '昨': -1, '今': 0, '来': 1}[groups['year'][0]]}年"
    number, unit = int(groups["count"]), groups["ago_unit"]
    if unit == "日":
        return _japanese(said - timedelta(days=number))
    if unit == "年":
        return f"{said.year - number}年"
    return f"{_japanese(said)}の{number}{unit}前"


def resolve_relative_times(text: str, said: date) -> str:
    """`text` with each relative time expression replaced by the date it stands for ("Last week I
    painted" → "The week before 8 May 2023 I painted"). Replaced, not bracketed beside it: with
    "yesterday (7 May 2023)" the model still answered "Yesterday." (bench qa, session 9: category 2
    F1 40.2 bracketed, 49.7 replaced)."""
    def english(match: re.Match) -> str:
        anchor = _english_anchor(match, said)
        return anchor[0].upper() + anchor[1:] if match.group(0)[0].isupper() else anchor

    return _JAPANESE.sub(lambda m: _japanese_anchor(m, said), _ENGLISH.sub(english, text))
