"""The stretch of time a message asks about ("on 25 May 2023", "in July", "last week", 「先月」).

"Where did Joanna travel in July 2022?" names when; memory search by words and meaning alone
recalled "Awesome! Enjoy yourself!" from February, and the temporal intent's preference for fresh
memories pulled the wrong way. Recall boosts the memories dated within the period and measures
freshness from it (persona/recall.py). Pure functions of the text and `today`.
"""
from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

import constants
from agent.relative_time import MONTHS


@dataclass(frozen=True)
class Period:
    start: date
    end: date  # inclusive
    slack_days: int = constants.PERIOD_SLACK_DAYS  # days after it still inside (none for a weekday)

    def days_outside(self, day: date) -> int:
        """0 when `day` falls in the period or within its slack after it (what happened is often
        told a few days later), else how many days it lies before or after that."""
        if day < self.start:
            return (self.start - day).days
        return max(0, (day - self.end).days - self.slack_days)


def _month(year: int, month: int) -> Period:
    return Period(date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1]))


def _latest_month(month: int, today: date) -> Period:
    """That month in this year, or last year's if it has not come yet."""
    return _month(today.year if month <= today.month else today.year - 1, month)


def _month_range(first: int, last: int, today: date) -> Period:
    """From the start of one month to the end of another, the latest such stretch up to today's month."""
    end = _latest_month(last, today)
    start = _month(end.end.year if first <= last else end.end.year - 1, first)
    return Period(start.start, end.end)


def _day(year: int | None, month: int, day: int, today: date) -> Period | None:
    try:
        found = date(year if year else today.year, month, day)
        if not year and found > today:
            found = date(today.year - 1, month, day)
    except ValueError:
        return None
    return Period(found, found)


_MONTH = "|".join(MONTHS) + "|" + "|".join(m[:3] for m in MONTHS) + "|Sept"
_SEASONS = {"spring": (3, 5), "summer": (6, 8), "autumn": (9, 11), "fall": (9, 11)}
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_CJK_DATE = re.compile(r"(?:(\d{4})年)?(\d{1,2})月(?:(\d{1,2})[日号])?")
_CJK_YEAR = re.compile(r"(\d{4})年")
_EN_MONTH_DAY = re.compile(rf"\b({_MONTH})\.? (\d{{1,2}})(?:st|nd|rd|th)?(?:,? (\d{{4}}))?\b", re.IGNORECASE)
_EN_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?({_MONTH})\.?(?:,? (\d{{4}}))?\b", re.IGNORECASE)
# A month after a preposition, unless it is someone's ("a friend of May's"); "from" only opens a
# range ("from May to July"): "a letter from May" is from a person (issue 18).
_EN_MONTH = re.compile(rf"\b(?:(in|during|of|since|from|last|this) )?({_MONTH})\b(?!['’]s\b)(?:,? (\d{{4}}))?"
                       rf"(?: (?:to|until|till|through) ({_MONTH})\b)?", re.IGNORECASE)
# Months that are also common words: "may" and "march" the verbs, in lower case a month only after in/during/since.
_MONTH_VERBS = ("may", "march", "mar")
_EN_SEASON = re.compile(r"\b(spring|summer|autumn|fall) (?:of )?(\d{4})\b", re.IGNORECASE)
_EN_YEAR = re.compile(r"\b(?:in|during|of) (\d{4})\b", re.IGNORECASE)
_RELATIVE = re.compile(r"\b(yesterday|last week|last month|last year)\b|(昨日|きのう|昨天)|(先週|上周|上个?星期)"
                       r"|(先月|上个?月)|(去年|昨年)", re.IGNORECASE)


# The days of the week (Monday = 0) in the supported languages, and the weekend: "What did we chat about
# last Tuesday night?", 「火曜日に何話したっけ？」, "lo scorso fine settimana" named no period (issue 18).
_WEEKDAY_NAMES = (
    ("monday", "lunes", "lundi", "montag", "lunedì", "lunedi", "segunda-feira", "月曜", "星期一", "周一", "礼拜一", "월요일"),
    ("tuesday", "martes", "mardi", "dienstag", "martedì", "martedi", "terça-feira", "火曜", "星期二", "周二", "礼拜二", "화요일"),
    ("wednesday", "miércoles", "miercoles", "mercredi", "mittwoch", "mercoledì", "mercoledi", "quarta-feira", "水曜",
     "星期三", "周三", "礼拜三", "수요일"),
    ("thursday", "jueves", "jeudi", "donnerstag", "giovedì", "giovedi", "quinta-feira", "木曜", "星期四", "周四", "礼拜四",
     "목요일"),
    ("friday", "viernes", "vendredi", "freitag", "venerdì", "venerdi", "sexta-feira", "金曜", "星期五", "周五", "礼拜五",
     "금요일"),
    ("saturday", "sábado", "sabado", "samedi", "samstag", "sonnabend", "sabato", "土曜", "星期六", "周六", "礼拜六", "토요일"),
    ("sunday", "domingo", "dimanche", "sonntag", "domenica", "日曜", "星期日", "星期天", "周日", "礼拜天", "礼拜日",
     "일요일"),
)
_WEEKDAY_OF = {name: day for day, names in enumerate(_WEEKDAY_NAMES) for name in names}
# Latin-script names as whole words (German "Dienstagabend" too), "domingo" in lower case only ("Domingo"
# is a name); CJK names anywhere.
_WEEKDAY = re.compile(
    r"(?<![\w-])(?i:(monday|tuesday|wednesday|thursday|friday|saturday|sunday|montag|dienstag|mittwoch|donnerstag|freitag"
    r"|samstag|sonnabend|sonntag))(?:abend|morgen|nachmittag|nacht)?\b"
    r"|(?<![\w-])(?i:(lunes|martes|miércoles|miercoles|jueves|viernes|sábado|sabado|lundi|mardi|mercredi|jeudi"
    r"|vendredi|samedi|dimanche|lunedì|lunedi|martedì|martedi|mercoledì|mercoledi|giovedì|giovedi|venerdì|venerdi"
    r"|sabato|domenica|segunda-feira|terça-feira|quarta-feira|quinta-feira|sexta-feira))(?![\w-])"
    r"|(?<![\w-])(domingo)(?![\w-])"
    # not 每周一次 "once a week", 每周三次 "three times a week"
    r"|(月曜|火曜|水曜|木曜|金曜|土曜|日曜|星期[一二三四五六日天]|(?<![每一])周[一二三四五六日]|礼拜[一二三四五六日天]"
    r"|[월화수목금토일]요일)")
_WEEKEND = re.compile(r"\b(?:week-?end|wochenende|fin de semana|fine settimana|fim de semana)\b|週末|周末|주말",
                      re.IGNORECASE)
# A day or weekend still to come is not asked about as past: "next Tuesday", "el martes que viene", 来週の金曜.
_AHEAD = re.compile(r"\b(?:next|coming|upcoming|próxim[oa]|prochaine?|nächste[nmrs]?|kommende[nmrs]?|prossim[oa]"
                    r"|que viene|qui vient)\b|来週|再来週|下周|下个?星期|下个?礼拜|다음 ?주", re.IGNORECASE)

# A day of the week asked about with a plan or an obligation names no past day: "What do I have to do on Thursday?",
# "Cosa devo fare giovedì?", 「木曜日の予定は？」 ask of one still to come, and even "What did I have to do on
# Thursday?" or "Cosa dovevo fare giovedì?" (often a plan forgotten) ask of something told before that day — the day
# itself holds neither (a bare weekday read as the last one boosted what was said that day: §4 dev-it-napoli,
# session 38). The forms go with their person, so "What did I do on Thursday?" and 「木曜日に何したっけ？」 stay the last.
_PLAN_OR_OBLIGATION = re.compile(
    r"\b(?:I|you|we)(?:'ll| will| am going to|'m going to| are going to|'re going to| gonna)\b"
    r"|\b(?:I|you|we) (?:have|need|had) to\b|\b(?:do|did|will|should) (?:I|you|we) (?:have|need) to\b"
    r"|\b(?:should|must) (?:I|we)\b|\bI (?:must|should)\b|\bam I \w+ing\b|\bsupposed to\b"
    r"|\b(?:tengo|tienes|tiene|tenemos|tenía|tenías|teníamos|tuve|tuviste) que\b|\bhay que\b"
    r"|\b(?:debo|debes|debemos|debía|debías)\b|\b(?:voy|vas|vamos) a\b"
    r"|\b(?:je dois|tu dois|on doit|nous devons|je devais|tu devais|il faut|il fallait|je vais|tu vas|on va|nous allons)\b"
    r"|\b(?:muss|musst|müssen|musste|musstest|mussten|werde|wirst|soll|sollte|sollen)\b"
    r"|\b(?:devo|devi|deve|dobbiamo|dovete|devono|dovevo|dovevi|doveva|dovevamo)\b"
    r"|\b(?:tenho|tens|temos|tinha|tínhamos) (?:que|de)\b|\b(?:preciso|precisas|precisamos|precisava|vou|vais|vamos)\b"
    r"|予定|なきゃ|なければ|なくちゃ|つもり|ないといけない|(?:我|你|我们|咱们)(?:要|得|需要|打算|准备|应该)"
    r"|해야|할 거|예정|계획", re.IGNORECASE)
_THIS = re.compile(r"\b(?:this|ce|este|dieses|diesem|questo|neste|nesse)\s*$|今週の?$|今$|这个?$|이번 ?$", re.IGNORECASE)


def names_a_past_weekday(text: str) -> bool:
    """Whether the text names a day of the week gone by ("el jueves pasado", 「木曜日に何したっけ？」,
    "Dienstagabend"): not one still to come ("next Saturday"), nor a plan for one ("What do I have to do on Thursday?")."""
    day = _WEEKDAY.search(text)
    return day is not None and not _AHEAD.search(text[max(0, day.start() - 16):day.end() + 12]) \
        and not _PLAN_OR_OBLIGATION.search(text)


def _past_weekday(text: str, today: date) -> Period | None:
    """The latest day before today named by its weekday, or the latest weekend over (that day a
    week ago when today is it); None when the text names none, names one still to come ("next
    Friday"), or asks of a plan or an obligation for it (`_PLAN_OR_OBLIGATION`)."""
    day = _WEEKDAY.search(text)
    weekend = _WEEKEND.search(text)
    found = day or weekend
    if (found is None or _AHEAD.search(text[max(0, found.start() - 16):found.end() + 12])
            or _PLAN_OR_OBLIGATION.search(text)):
        return None
    if day:
        weekday = _WEEKDAY_OF[next(g for g in day.groups() if g).lower()]
        back = (today.weekday() - weekday) % 7 or 7
        return Period(today - timedelta(days=back), today - timedelta(days=back), constants.WEEKDAY_SLACK_DAYS)
    if _THIS.search(text[max(0, found.start() - 8):found.start()]):  # "this weekend": now, or one still to come
        if today.weekday() < 5:
            return None
        return Period(today - timedelta(days=today.weekday() - 5), today, constants.WEEKDAY_SLACK_DAYS)
    back = (today.weekday() - 6) % 7 or 7  # to the Sunday that ended the latest weekend before today
    sunday = today - timedelta(days=back)
    return Period(sunday - timedelta(days=1), sunday, constants.WEEKDAY_SLACK_DAYS)


def _month_number(name: str) -> int:
    return next(i for i, m in enumerate(MONTHS, 1) if m.lower().startswith(name.lower()[:3]))


def _relative(match: re.Match, today: date) -> Period:
    day, week, month, year = (match.group(1) or "").lower(), match.group(3), match.group(4), match.group(5)
    if day == "yesterday" or match.group(2):
        return Period(today - timedelta(days=1), today - timedelta(days=1))
    if day == "last week" or week:
        monday = today - timedelta(days=today.weekday() + 7)
        return Period(monday, monday + timedelta(days=6))
    if day == "last month" or month:
        year_, month_ = (today.year, today.month - 1) if today.month > 1 else (today.year - 1, 12)
        return _month(year_, month_)
    return Period(date(today.year - 1, 1, 1), date(today.year - 1, 12, 31))


def named_period(text: str, today: date | None) -> Period | None:
    """The period the text names, the most precise first (a day, a month, a season, a year, then
    relative words), or None (always None without `today`). A year may not lie ahead of `today`."""
    if today is None:
        return None
    def valid(year: str | None) -> bool:
        return year is None or 1900 <= int(year) <= today.year

    if (m := _ISO.search(text)) and valid(m.group(1)):
        return _day(int(m.group(1)), int(m.group(2)), int(m.group(3)), today)
    for m in _CJK_DATE.finditer(text):
        if valid(m.group(1)) and 1 <= int(m.group(2)) <= 12:
            year = int(m.group(1)) if m.group(1) else None
            if m.group(3):
                return _day(year, int(m.group(2)), int(m.group(3)), today)
            return _month(year, int(m.group(2))) if year else _latest_month(int(m.group(2)), today)
    for pattern, month_at, day_at in ((_EN_MONTH_DAY, 1, 2), (_EN_DAY_MONTH, 2, 1)):
        if (m := pattern.search(text)) and valid(m.group(3)):
            return _day(int(m.group(3)) if m.group(3) else None, _month_number(m.group(month_at)),
                        int(m.group(day_at)), today)
    for m in _EN_MONTH.finditer(text):
        preposition, month, year, until = m.groups()
        if month.lower() in _MONTH_VERBS and not month[0].isupper() and (preposition or "").lower() not in (
                "in", "during", "since"):
            continue  # "this may take a while", but "in may"
        if year and valid(year):
            return _month(int(year), _month_number(month))
        if until and preposition and preposition.lower() == "from":
            return _month_range(_month_number(month), _month_number(until), today)
        if not year and preposition and preposition.lower() != "from":  # words too: without a year, only "in May"
            return _latest_month(_month_number(month), today)
    if (m := _EN_SEASON.search(text)) and valid(m.group(2)):
        first, last = _SEASONS[m.group(1).lower()]
        year = int(m.group(2))
        return Period(date(year, first, 1), _month(year, last).end)
    if (m := _CJK_YEAR.search(text) or _EN_YEAR.search(text)) and valid(m.group(1)):
        year = int(m.group(1))
        return Period(date(year, 1, 1), date(year, 12, 31))
    if period := _past_weekday(text, today):
        return period
    if m := _RELATIVE.search(text):
        return _relative(m, today)
    return None
