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


_SPELLED_OUT = re.compile(r"(\d{1,2}) (" + "|".join(MONTHS) + r") (\d{4})")


def day_spelled_out(text: str) -> date | None:
    """The day a `spelled_out` text names ("5 March 2026", also after its weekday: "Thursday, 5 March
    2026"), or None."""
    found = _SPELLED_OUT.fullmatch(re.sub(rf"^(?:{'|'.join(WEEKDAYS)}), ", "", text.strip()))
    if found is None:
        return None
    try:
        return date(int(found.group(3)), MONTHS.index(found.group(2)) + 1, int(found.group(1)))
    except ValueError:
        return None


def with_weekday(spelled: str) -> str:
    """"Thursday, 5 March 2026" for a `spelled_out` day; any other text as it is."""
    day = day_spelled_out(spelled) if _SPELLED_OUT.fullmatch(spelled.strip()) else None
    return spelled if day is None else f"{WEEKDAYS[day.weekday()]}, {spelled.strip()}"


def spelled_out_days(*days: str) -> str:
    """ISO days ("2023-05-01", "2023-05-07": an episode's first and last) spelled out and joined
    ("1 May 2023 – 7 May 2023"), one day once; a day that is no ISO date (a hand-edited file) as written.
    The prompt's earlier days are dated as its recalled lines are (`spelled_out`), so the model copies
    one form of a date into its answers."""
    def one(day: str) -> str:
        try:
            return spelled_out(date.fromisoformat(day))
        except ValueError:
            return day
    return " – ".join(one(day) for day in dict.fromkeys(days))


def _japanese(day: date) -> str:
    return f"{day.year}年{day.month}月{day.day}日"


def _month_shift(day: date, months: int) -> tuple[int, int]:
    index = day.year * 12 + day.month - 1 + months
    return index // 12, index % 12 + 1


def _month_name(day: date, months: int) -> str:
    return _month_in("en", *_month_shift(day, months))


_DAY_WORDS = {"yesterday": -1, "last night": -1, "today": 0, "tonight": 0, "this morning": 0,
              "this afternoon": 0, "this evening": 0, "tomorrow": 1}
_WEEKDAY = "|".join(WEEKDAYS)
# How people shorten them ("last Fri I took the kids to a pottery workshop": LoCoMo 26, left undated in
# §5's memories). "Sat" and "Sun" only with a capital: "when I last sat down", "the last sun of summer".
_WEEKDAY_SHORT = r"Mon|Tues?|Wed|Thu(?:rs?)?|Fri|(?-i:Sat|Sun)"
_COUNT = r"\d{1,2}|a couple of|a few|several|" + "|".join(_NUMBER_WORDS)
_ENGLISH = re.compile(
    rf"\b(?P<day>yesterday|last night|today|tonight|this (?:morning|afternoon|evening)|tomorrow)\b"
    rf"|\b(?P<which>last|past|next|this) (?P<unit>weekend|week|month|year)\b"
    rf"|\b(?P<side>last|next) (?:(?P<weekday>{_WEEKDAY})|(?P<short>{_WEEKDAY_SHORT}))\b"
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
    if groups["side"]:
        relation = "before" if groups["side"].lower() == "last" else "after"
        weekday = groups["weekday"] or next(d for d in WEEKDAYS if d.lower().startswith(groups["short"][:3].lower()))
        return f"the {weekday.capitalize()} {relation} {spelled_out(said)}"
    count, unit = groups["count"].lower(), groups["ago_unit"].lower()
    number = int(count) if count.isdigit() else _NUMBER_WORDS.get(count)
    if unit == "day" and number is not None:
        return spelled_out(said - timedelta(days=number))
    if unit == "year" and number is not None:
        return str(said.year - number)
    return f"{count} {unit}s before {spelled_out(said)}" if number != 1 else f"the {unit} before {spelled_out(said)}"


# A date word that is part of a name is no date: 明日香 (Asuka) became "2023年5月9日香" in recalled
# lines (issue 18). Not after a kanji (佐藤明日香), and not before the kanji that finish names
# starting with 明日 or 今日 (明日香, 明日菜, 明日美, 今日子 — but 子供 is a child). Any other kanji after
# it is the next word (明日会う, 明日東京に行く, 先月末).
_KANJI = r"\u3005\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
NOT_IN_A_WORD = rf"(?<![{_KANJI}])"
NOT_A_NAME = r"(?![香菜美奈架葉花海華佳夏歌]|子(?!供|ども))"
_JAPANESE = re.compile(
    rf"{NOT_IN_A_WORD}(?:"
    r"(?P<day>一昨日|おととい|昨日|きのう|昨夜|昨晩|今日|今朝|今夜|今晩|明日|あした)"
    r"|(?P<week>先週末|今週末|来週末|先週|今週|来週)"
    r"|(?P<month>先月|今月|来月)|(?P<year>去年|昨年|今年|来年)"
    r"|(?P<count>\d{1,2})(?P<ago_unit>日|週間|か月|ヶ月|年)前"
    rf"){NOT_A_NAME}"
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
        return _month_in("ja", *_month_shift(said, {"先": -1, "今": 0, "来": 1}[groups["month"][0]]))
    if groups["year"]:
        return f"{said.year + {'去': -1, '昨': -1, '今': 0, '来': 1}[groups['year'][0]]}年"
    number, unit = int(groups["count"]), groups["ago_unit"]
    if unit == "日":
        return _japanese(said - timedelta(days=number))
    if unit == "年":
        return f"{said.year - number}年"
    return f"{_japanese(said)}の{number}{unit}前"


def _cased_like(match: re.Match, written: str) -> str:
    """`written` with a capital where the words it replaces had one ("Gestern war ich…" → "Am 20. September 2026…")."""
    return written[0].upper() + written[1:] if written and match.group(0)[0].isupper() else written


def resolve_relative_times(text: str, said: date) -> str:
    """`text` with each relative time expression replaced by the date it stands for ("Last week I
    painted" → "The week before 8 May 2023 I painted"). Replaced, not bracketed beside it: with
    "yesterday (7 May 2023)" the model still answered "Yesterday." (bench qa, session 9: category 2
    F1 40.2 bracketed, 49.7 replaced)."""
    def english(match: re.Match) -> str:
        return _cased_like(match, _english_anchor(match, said))

    return _JAPANESE.sub(lambda m: _japanese_anchor(m, said), _ENGLISH.sub(english, text))


# --- Kept notes: what lies ahead, in the seven reply languages ------------------------------
# A note kept today ("remind me to call the vet tomorrow", 「来週の金曜に健康診断」) is read on other days:
# each relative day becomes its date. Forward-looking forms come first (next week's Friday, the day
# after tomorrow); what remains goes through `resolve_relative_times`.
_MONTHS_IN = {
    "es": ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
           "noviembre", "diciembre"),
    "fr": ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
           "novembre", "décembre"),
    "de": ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
           "November", "Dezember"),
    "it": ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre",
           "novembre", "dicembre"),
    "pt": ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
           "novembro", "dezembro"),
}


def date_in(language: str, day: date) -> str:
    """The date as people write it in `language` ("5 March 2026", 「2026年3月5日」, "5 de marzo de 2026")."""
    if language in ("ja", "zh"):
        return _japanese(day)
    if language == "ko":
        return f"{day.year}년 {day.month}월 {day.day}일"
    if language in ("es", "pt"):
        return f"{day.day} de {_MONTHS_IN[language][day.month - 1]} de {day.year}"
    if language in ("fr", "it"):
        return f"{day.day} {_MONTHS_IN[language][day.month - 1]} {day.year}"
    if language == "de":
        return f"{day.day}. {_MONTHS_IN['de'][day.month - 1]} {day.year}"
    return spelled_out(day)


_WEEKDAY_NAMES = {
    "es": ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
    "fr": ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"),
    "de": ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"),
    "it": ("lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica"),
    "pt": ("segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado", "domingo"),
}


def weekday_and_date(language: str, day: date) -> str:
    """The date with its weekday, for a day the user named by its weekday ("next Saturday" →
    "Saturday 16 May 2026", 「来週の土曜日」 → 「2026年5月16日（土）」): the note keeps the day the user
    said (a kept 「来週の土曜日」 had become a date alone, and 「土曜」 was no longer in it)."""
    written, weekday = date_in(language, day), day.weekday()
    if language == "ja":
        return f"{written}（{'月火水木金土日'[weekday]}）"
    if language == "zh":
        return f"{written}（周{'一二三四五六日'[weekday]}）"
    if language == "ko":
        return f"{written} ({'월화수목금토일'[weekday]}요일)"
    if language in ("de", "pt"):
        return f"{_WEEKDAY_NAMES[language][weekday]}, {written}"
    if language in _WEEKDAY_NAMES:
        return f"{_WEEKDAY_NAMES[language][weekday]} {written}"
    return f"{WEEKDAYS[weekday]} {written}"


def _week_of(language: str, monday: date) -> str:
    return {"ja": "{}の週", "zh": "{}那周", "ko": "{} 주", "es": "la semana del {}", "fr": "la semaine du {}",
            "de": "die Woche vom {}", "it": "la settimana del {}", "pt": "a semana de {}"
            }.get(language, "the week of {}").format(date_in(language, monday))


_WEEKDAY_WORDS = {  # Monday = 0
    "en": [d.lower() for d in WEEKDAYS],
    "ja": ["月", "火", "水", "木", "金", "土", "日"],
    "zh": ["一", "二", "三", "四", "五", "六", "[日天]"],
    "ko": ["월", "화", "수", "목", "금", "토", "일"],
    "es": ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"],
    "fr": ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"],
    "de": ["montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag"],
    "it": ["lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica"],
    "pt": ["segunda(?:-feira)?", "terça(?:-feira)?", "quarta(?:-feira)?", "quinta(?:-feira)?", "sexta(?:-feira)?",
           "sábado", "domingo"],
}


def _alternatives(language: str) -> str:
    return "|".join(f"(?P<d{i}>{w})" for i, w in enumerate(_WEEKDAY_WORDS[language]))


# (language, pattern, kind): kind "next-week-day" (that weekday of next calendar week), "coming-day" (the
# first such weekday after today), "this-week-day", "days+N", "next-week".
_FORWARD: list[tuple[str, re.Pattern, str]] = [
    ("ja", re.compile(rf"再来週の?(?:{_alternatives('ja')})曜日?"), "week2-day"),
    ("ja", re.compile(rf"来週の?(?:{_alternatives('ja')})曜日?"), "next-week-day"),
    ("ja", re.compile(rf"今週の?(?:{_alternatives('ja')})曜日?"), "this-week-day"),
    ("zh", re.compile(rf"下(?:个)?(?:周|星期|礼拜|禮拜)(?:{_alternatives('zh')})"), "next-week-day"),
    ("zh", re.compile(rf"(?:这|這|本)(?:个)?(?:周|星期|礼拜|禮拜)(?:{_alternatives('zh')})"), "this-week-day"),
    ("ko", re.compile(rf"다음 ?주 ?(?:{_alternatives('ko')})요일"), "next-week-day"),
    ("ko", re.compile(rf"이번 ?주 ?(?:{_alternatives('ko')})요일"), "this-week-day"),
    ("en", re.compile(rf"\b(?:{_alternatives('en')}) next week\b", re.I), "next-week-day"),
    ("en", re.compile(rf"\bnext (?:{_alternatives('en')})\b", re.I), "coming-day"),
    ("en", re.compile(rf"\bthis (?:{_alternatives('en')})\b", re.I), "this-week-day"),
    ("es", re.compile(rf"\bel (?:próximo|proximo) (?:{_alternatives('es')})\b", re.I), "coming-day"),
    ("es", re.compile(rf"\b(?:el )?(?:{_alternatives('es')}) que viene\b", re.I), "coming-day"),
    ("fr", re.compile(rf"\b(?:{_alternatives('fr')}) prochain\b", re.I), "coming-day"),
    ("de", re.compile(rf"\b(?:am )?nächsten (?:{_alternatives('de')})\b", re.I), "coming-day"),
    ("it", re.compile(rf"\b(?:{_alternatives('it')}) prossimo\b", re.I), "coming-day"),
    ("it", re.compile(rf"\b(?:il |la )?prossim[oa] (?:{_alternatives('it')})", re.I), "coming-day"),
    ("pt", re.compile(rf"\b(?:na |no )?próxim[oa] (?:{_alternatives('pt')})", re.I), "coming-day"),
    ("pt", re.compile(rf"\b(?:na |no )?(?:{_alternatives('pt')}) que vem\b", re.I), "coming-day"),
    ("ja", re.compile(r"明後日|あさって"), "days+2"),
    ("ja", re.compile(r"再来週"), "week2"),
    ("zh", re.compile(r"后天|後天"), "days+2"),
    ("zh", re.compile(r"明天"), "days+1"),
    ("zh", re.compile(r"今天"), "days+0"),
    ("zh", re.compile(r"下(?:个)?(?:周|星期|礼拜|禮拜)"), "next-week"),
    ("ko", re.compile(r"모레"), "days+2"),
    ("ko", re.compile(r"내일"), "days+1"),
    ("ko", re.compile(r"오늘"), "days+0"),
    ("ko", re.compile(r"다음 ?주"), "next-week"),
    ("en", re.compile(r"\b(?:the )?day after tomorrow\b", re.I), "days+2"),
    ("en", re.compile(r"\btomorrow(?: (?P<part>morning|afternoon|evening|night))?\b", re.I), "days+1"),
    ("en", re.compile(r"\btoday\b", re.I), "days+0"),
    ("ja", re.compile(rf"{NOT_IN_A_WORD}明日{NOT_A_NAME}|あした"), "days+1"),
    ("en", re.compile(r"\bnext week\b", re.I), "next-week"),
    ("es", re.compile(r"\bpasado mañana\b", re.I), "days+2"),
    ("es", re.compile(r"(?<!la )(?<!esta )(?<!una )\bmañana\b", re.I), "days+1"),
    ("es", re.compile(r"\bhoy\b", re.I), "days+0"),
    ("es", re.compile(r"\b(?:la )?(?:semana que viene|próxima semana|proxima semana)\b", re.I), "next-week"),
    ("fr", re.compile(r"\baprès-demain\b", re.I), "days+2"),
    ("fr", re.compile(r"\bdemain\b", re.I), "days+1"),
    ("fr", re.compile(r"\baujourd'hui\b", re.I), "days+0"),
    ("fr", re.compile(r"\b(?:la )?semaine prochaine\b", re.I), "next-week"),
    ("de", re.compile(r"\bübermorgen\b", re.I), "days+2"),
    ("de", re.compile(r"(?<!guten )(?<!am )(?<!jeden )(?<!heute )\bmorgen\b(?!s)", re.I), "days+1"),
    ("de", re.compile(r"\bheute\b", re.I), "days+0"),
    ("de", re.compile(r"\bnächste Woche\b", re.I), "next-week"),
    ("it", re.compile(r"\bdopodomani\b", re.I), "days+2"),
    ("it", re.compile(r"\bdomani\b", re.I), "days+1"),
    ("it", re.compile(r"\boggi\b", re.I), "days+0"),
    ("it", re.compile(r"\b(?:la )?settimana prossima\b|\b(?:la )?prossima settimana\b", re.I), "next-week"),
    ("pt", re.compile(r"\bdepois de amanhã\b", re.I), "days+2"),
    ("pt", re.compile(r"(?<!de )\bamanhã\b", re.I), "days+1"),
    ("pt", re.compile(r"\bhoje\b", re.I), "days+0"),
    ("pt", re.compile(r"\b(?:na )?(?:semana que vem|próxima semana)\b", re.I), "next-week"),
]
def _forward_date(kind: str, match: re.Match, said: date) -> date | None:
    weekday = next((int(k[1:]) for k, v in match.groupdict().items() if v and k.startswith("d")), None)
    monday = said - timedelta(days=said.weekday())
    if kind.startswith("days+"):
        return said + timedelta(days=int(kind[5:]))
    if kind.startswith("days-"):
        return said - timedelta(days=int(match.group("n")) if kind == "days-n" else int(kind[5:]))
    if kind == "next-week-day":
        return monday + timedelta(days=7 + weekday)
    if kind == "week2-day":
        return monday + timedelta(days=14 + weekday)
    if kind == "this-week-day":
        day = monday + timedelta(days=weekday)
        return day if day >= said else day + timedelta(days=7)
    if kind == "coming-day":
        return said + timedelta(days=(weekday - said.weekday() - 1) % 7 + 1)
    return None


# What lies behind, in the reply languages `resolve_relative_times` does not read (it reads English and Japanese):
# "Gestern war ich beim Zahnarzt", recalled days later, still said "gestern", and the model answered with it. Only
# the line's own language is read: French "hier" is German "here".
_BACKWARD_WORDS = {
    "es": [(r"\b(?:anteayer|antier)\b", "days-2"), (r"\bayer(?: por la (?:mañana|tarde|noche))?\b|\banoche\b", "days-1"),
           (r"\besta (?:mañana|tarde|noche)\b", "days+0"), (r"\b(?:la )?semana pasada\b", "last-week"),
           (r"\b(?:el )?mes pasado\b", "last-month"), (r"\b(?:el )?año pasado\b", "last-year"),
           (r"\bhace (?P<n>\d{1,2}) días\b", "days-n")],
    "fr": [(r"\bavant-hier\b", "days-2"), (r"\bhier(?: (?:matin|après-midi|soir))?\b", "days-1"),
           (r"\b(?:ce matin|cet après-midi|ce soir)\b", "days+0"), (r"\b(?:la )?semaine dernière\b", "last-week"),
           (r"\b(?:le )?mois dernier\b", "last-month"), (r"\bl'(?:année|an) derni(?:ère|er)\b", "last-year"),
           (r"\bil y a (?P<n>\d{1,2}) jours\b", "days-n")],
    "de": [(r"\bvorgestern\b", "days-2"), (r"\bgestern(?: (?:früh|morgen|vormittag|nachmittag|abend))?\b", "days-1"),
           (r"\bheute (?:früh|morgen|vormittag|nachmittag|abend)\b", "days+0"),
           (r"\b(?:letzte|vorige|vergangene)[nr]? woche\b", "last-week"),
           (r"\b(?:letzte[nm]|vorige[nm]|vergangene[nm]) monat\b", "last-month"),
           (r"\b(?:letztes|voriges|vergangenes) jahr\b", "last-year"), (r"\bvor (?P<n>\d{1,2}) tagen\b", "days-n")],
    "it": [(r"\b(?:l'altro ieri|avantieri)\b", "days-2"), (r"\bieri(?: (?:mattina|pomeriggio|sera))?\b", "days-1"),
           (r"\b(?:stamattina|stamani|stasera|stanotte)\b", "days+0"), (r"\b(?:la )?settimana scorsa\b", "last-week"),
           (r"\b(?:il )?mese scorso\b", "last-month"), (r"\bl'anno scorso\b", "last-year"),
           (r"\b(?P<n>\d{1,2}) giorni fa\b", "days-n")],
    "pt": [(r"\banteontem\b", "days-2"), (r"\bontem(?: (?:de manhã|à tarde|à noite))?\b", "days-1"),
           (r"\bhoje (?:de manhã|à tarde|à noite)\b|\besta (?:manhã|noite)\b", "days+0"),
           (r"\b(?:na )?semana passada\b", "last-week"), (r"\b(?:no )?mês passado\b", "last-month"),
           (r"\b(?:no )?ano passado\b", "last-year"), (r"\bhá (?P<n>\d{1,2}) dias\b", "days-n")],
    "zh": [(r"前天", "days-2"), (r"昨天(?:早上|上午|下午|晚上)?|昨晚", "days-1"),
           (r"今天(?:早上|上午|下午|晚上)|今早|今晚", "days+0"),
           (r"上(?:个)?(?:周|星期|礼拜)(?![一二三四五六日天末])", "last-week"),  # 上个星期天 is last Sunday
           (r"上个月", "last-month"), (r"去年", "last-year"), (r"(?P<n>\d{1,2})天前", "days-n")],
    "ko": [(r"그저께|그제", "days-2"), (r"어젯밤|어제(?: (?:아침|저녁|밤))?", "days-1"), (r"오늘 (?:아침|저녁|밤)", "days+0"),
           (r"지난 ?주(?!말)", "last-week"), (r"지난 ?달", "last-month"), (r"작년", "last-year"),
           (r"(?P<n>\d{1,2})일 ?전", "days-n")],
}
_BACKWARD = {language: [(re.compile(pattern, re.IGNORECASE), kind) for pattern, kind in rows]
             for language, rows in _BACKWARD_WORDS.items()}
_IN_MONTH = {"es": "en ", "fr": "en ", "de": "im ", "it": "a ", "pt": "em "}  # "en abril de 2026", "im April 2026"
_IN_YEAR = {"es": "en ", "fr": "en ", "it": "nel ", "pt": "em "}


def _month_in(language: str, year: int, month: int) -> str:
    """The month as people write it in `language` ("April 2026", 「2026年4月」, "abril de 2026")."""
    if language in ("ja", "zh"):
        return f"{year}年{month}月"
    if language == "ko":
        return f"{year}년 {month}월"
    if language in ("es", "pt"):
        return f"{_MONTHS_IN[language][month - 1]} de {year}"
    return f"{_MONTHS_IN.get(language, MONTHS)[month - 1]} {year}"


def resolve_note_dates(text: str, said: date, language: str) -> str:
    """A kept note or a recalled line with its relative days as dates, written for `language` ("tomorrow" → "on 5
    March 2026", 「来週の金曜」 → 「2026年3月13日」, "next week" → "the week of 9 March 2026", "gestern" → "am 4. März
    2026"); in English and Japanese what lies behind ("last week", 「先月」) goes through `resolve_relative_times`.
    明日香 stays a name."""
    def replace(kind: str, match: re.Match) -> str:
        monday = said - timedelta(days=said.weekday())
        before = match.string[:match.start()].rstrip().lower()
        after_preposition = re.search(r"\b(?:" + _AFTER_PREPOSITION + r")$", before)
        if kind in ("next-week", "week2", "last-week"):
            week = _week_of(language, monday + timedelta(days={"next-week": 7, "week2": 14, "last-week": -7}[kind]))
            return "in " + week if language == "en" and not re.search(r"\b(?:in|of|for|during)$", before) else week
        if kind == "last-month":
            written = _month_in(language, *_month_shift(said, -1))
            return written if after_preposition else _IN_MONTH.get(language, "") + written
        if kind == "last-year":
            written = f"{said.year - 1}" + {"zh": "年", "ko": "년"}.get(language, "")
            return written if after_preposition else _IN_YEAR.get(language, "") + written
        day = _forward_date(kind, match, said)
        named_weekday = any(v and k.startswith("d") for k, v in match.groupdict().items())
        written = weekday_and_date(language, day) if named_weekday else date_in(language, day)
        part = match.groupdict().get("part")
        if part:
            written = f"the {part.lower()} of {written}"
        after = match.string[match.end():]
        preposition = _DAY_PREPOSITIONS.get(language)
        if language == "pt":  # "na sexta-feira, 6 de março", "no sábado, …", "no dia 5 de março"
            preposition = ("no " if day.weekday() >= 5 else "na ") if named_weekday else "no dia "
        if preposition and not after_preposition:
            written = preposition + written
        if language == "ja" and re.match(r"[一-龥ァ-ヶ]", after):
            written += "、"  # 「2026年3月6日、美容院の予約」
        return written

    for pattern, kind in _BACKWARD.get(language, ()):
        text = pattern.sub(lambda m, k=kind: _cased_like(m, replace(k, m)), text)
    for _, pattern, kind in _FORWARD:
        text = pattern.sub(lambda m, k=kind: _cased_like(m, replace(k, m)), text)
    return resolve_relative_times(text, said)


_DAY_PREPOSITIONS = {"en": "on ", "es": "el ", "fr": "le ", "de": "am ", "it": "il ", "pt": "em "}
_AFTER_PREPOSITION = ("on|by|until|till|from|since|before|after|for|of|el|la|del|hasta|para|desde|antes|le|du|"
                      "pour|avant|après|dès|jusqu'au|am|bis|vom|für|vor|nach|ab|zum|seit|il|entro|fino al|dal|per|prima|dopo|"
                      "em|no|na|até|desde|antes|depois|por")


def resolve_said_on(text: str, said: date, language: str) -> str:
    """A remembered message with its relative times as dates (a recalled line, a day's message for the night): in
    English and Japanese by `resolve_relative_times` (what §5's memories were measured with), in the other reply
    languages by `resolve_note_dates`, which reads them."""
    return resolve_note_dates(text, said, language) if language in _BACKWARD else resolve_relative_times(text, said)


# --- What lies ahead -----------------------------------------------------------------------------
# A message that names a day or a month to come, or a weekday or a month at all (said of a day to
# come more often than not: "my recital: Saturday the 26th", 「6月の大会」), tells of something still
# open — what a persona wonders about afterwards. Built from the tables above, in every language
# they hold; "today" and what lies behind ("last week", 「先月」) are not ahead.
_AHEAD_WORDS = [
    *(w for lang, words in _WEEKDAY_WORDS.items() if lang not in ("ja", "zh", "ko") for w in words),
    *(m.lower() for m in MONTHS if m not in ("May", "March")),
    *(m.lower() for names in _MONTHS_IN.values() for m in names),
]
_COUNT_AHEAD = (r"a|an|one|two|three|four|five|six|a few|a couple of|un|una|dos|tres|cuatro|cinco|unos|unas|pocos|pocas"
                r"|une|deux|trois|quatre|cinq|quelques|einem|einer|zwei|drei|vier|fünf|ein paar|wenigen|due|tre|quattro"
                r"|cinque|qualche|pochi|poche|um|uma|duas|três|quatro|alguns|algumas|\d{1,2}")
_AHEAD = re.compile(
    r"\b(?:" + "|".join(_AHEAD_WORDS) + r")\b|(?-i:\b(?:May|March)\b)"  # "may" and "march" are verbs too
    r"|\b(?:next|coming) (?:week|weekend|month|year)\b|\bend of (?:the|this) (?:week|month|year)\b"
    # the month or year to come, and a count of days, weeks or months from now, in the Latin-script languages
    # ("Il mese prossimo mia figlia fa l'esame", "in two weeks" named nothing ahead: session 53)
    r"|\b(?:el |la )?(?:mes|año) que viene\b|\b(?:el )?pr[óo]ximo (?:mes|año)\b|\b(?:le )?mois prochain\b"
    r"|\bl'année prochaine\b|\bnächste[ns]? (?:monat|jahr)\b|\b(?:il )?(?:mese|anno) prossimo\b|\b(?:il )?prossimo"
    r" (?:mese|anno)\b|\b(?:no )?(?:mês|ano) que vem\b|\b(?:no )?próximo (?:mês|ano)\b"
    rf"|\b(?:in|within|dentro de|en|dans|tra|fra|daqui a|em) (?:{_COUNT_AHEAD}) (?:days?|weeks?|months?|días|semanas|meses"
    r"|jours|semaines|mois|tagen|wochen|monaten|giorni|settimane|mesi|dias)\b"
    r"|[月火水木金土日]曜|(?:来週|週末|来月|来年|再来)|\d{1,2}月(?!前)"
    r"|(?:星期|礼拜|禮拜|周)[一二三四五六日天]|下(?:个)?(?:周|星期|月)|明年"
    r"|[월화수목금토일]요일|\d{1,2}월|다음 ?(?:주|달)|내년",
    re.IGNORECASE,
)


def points_ahead(text: str) -> bool:
    """Whether the message names a day or a month (not today, not one behind it): a thing to come."""
    if _AHEAD.search(text):
        return True
    return any(kind != "days+0" and pattern.search(text) for _, pattern, kind in _FORWARD)


# --- A summary's dates, with their year ------------------------------------------------------
# The model writes a day's episode with dates as people say them that week ("the Friday before June
# 24th", 「6月24日」); read months later, or copied into an answer, such a date has lost its year
# (§5 with episodes, session 32: "When did Nate make vegan ice cream…?" → "June 24th").
_YEAR_AFTER = r"(?!\d|(?:st|nd|rd|th)?,?\s*(?:of\s+|de\s+)?\d{4})"
_EN_MONTH = "|".join(MONTHS)
_EN_MONTH_DAY = re.compile(rf"\b({_EN_MONTH})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b{_YEAR_AFTER}")
_EN_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_EN_MONTH})\b{_YEAR_AFTER}")
_CJK_MONTH_DAY = re.compile(r"(?<![年\d])(\d{1,2})月(\d{1,2})日")
# "24 de junio" (es, pt), "24. Juni" (de), "24 giugno" (fr, it: the same form, so either reading writes it right)
_DAY_MONTH_JOIN = {"es": r"\s+de\s+", "pt": r"\s+de\s+", "de": r"\.\s*", "fr": r"\s+", "it": r"\s+"}
_DAY_MONTH_IN = {language: re.compile(rf"\b(\d{{1,2}}){_DAY_MONTH_JOIN[language]}({'|'.join(names)})\b{_YEAR_AFTER}",
                                      re.I) for language, names in _MONTHS_IN.items()}

_MONTH_NUMBER_IN = {language: {name.casefold(): number for number, name in enumerate(names, 1)}
                    for language, names in _MONTHS_IN.items()}

def _nearest(month: int, day: int, around: date) -> date | None:
    """The date with this month and day nearest to `around` (the year before, its own or the next)."""
    candidates = []
    for year in (around.year - 1, around.year, around.year + 1):
        try:
            candidates.append(date(year, month, day))
        except ValueError:
            continue
    return min(candidates, key=lambda d: abs((d - around).days)) if candidates else None


def dates_with_year(text: str, around: date) -> str:
    """`text` with each date written without its year ("June 24th", "24 de junio", 「6月24日」) given
    the year that puts it nearest to `around` (the day the text tells of), in the form the text's
    language writes a whole date; dates with a year, and numbers that are no date, as they are."""
    def english(month_name: str, day: str, whole: str) -> str:
        found = _nearest(MONTHS.index(month_name) + 1, int(day), around)
        return spelled_out(found) if found else whole

    text = _EN_MONTH_DAY.sub(lambda m: english(m.group(1), m.group(2), m.group(0)), text)
    text = _EN_DAY_MONTH.sub(lambda m: english(m.group(2), m.group(1), m.group(0)), text)
    for language, pattern in _DAY_MONTH_IN.items():
        def other(m: re.Match, language: str = language) -> str:
            found = _nearest(_MONTH_NUMBER_IN[language][m.group(2).casefold()], int(m.group(1)), around)
            return date_in(language, found) if found else m.group(0)
        text = pattern.sub(other, text)

    def cjk(m: re.Match) -> str:
        found = _nearest(int(m.group(1)), int(m.group(2)), around)
        return _japanese(found) if found else m.group(0)
    return _CJK_MONTH_DAY.sub(cjk, text)
