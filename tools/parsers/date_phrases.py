"""Single date phrases found in a text and resolved against the run's today: relative days (明天, tomorrow), weekdays
of a week (下周五, next Friday), whole weeks, ISO, Chinese and English month-days, days of the month (8号, the 8th),
"in 3 days"; which of them a range or a list joins is `tools.parsers.dates`'s (its docstring gives the rules)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Literal

from tools.parsers.day_names import EN_DAYS as _EN_DAYS
from tools.parsers.day_names import HALF_BETWEEN, ends_a_range, half_said, is_day
from tools.parsers.numerals import EN_NUMBER_WORDS, chinese_value, english_value

_CN = "〇零一二两三四五六七八九十"
NUM = rf"\d{{1,2}}|[{_CN}]{{1,3}}"
_MONTHS = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_WEEKDAY_ZH = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "末": 5}
_WEEKDAY_EN = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
_WEEKS_AHEAD = {"下下下": 3, "下下": 2, "再下": 2, "下": 1, "这": 0, "本": 0, "上": -1, "next": 1, "last": -1}
_REL_DAYS = {
    "今天": 0, "今日": 0, "明天": 1, "明日": 1, "后天": 2, "大后天": 3, "大大后天": 4, "昨天": -1, "前天": -2,
    "today": 0, "tomorrow": 1, "tmr": 1, "tmrw": 1, "yesterday": -1,
    "this morning": 0, "this afternoon": 0, "今儿": 0, "明儿": 1, "后儿": 2, "昨儿": -1, "前儿": -2,  # 明儿(个): spoken
}

# Month.day as Chinese chats write a range ("12.7到12.11", "12.7-12.11"); alone, 12.7 is a number.
_DOT_M, _DOT_D = r"1[0-2]|0?[1-9]", r"3[01]|[12]\d|0?[1-9]"
_DOT = rf"(?:{_DOT_M})\.(?:{_DOT_D})"
_DASH = r"到|至|~|～|—|–|-|to"
_NO_UNIT = r"(?!\s*(?:天|days?|小时|hours?|元|块|yuan|周|weeks?|个|[kK万千百]|rmb|cny|bucks|kuai))"

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("rel", re.compile(r"大大后天|大后天|后天|明天|明日|今天|今日|昨天|前天|[今明昨]儿个?|(?<![以之提])[前后]儿个")),
    ("rel_en", re.compile(r"\b(?:the\s+)?day\s+after\s+tomorrow\b|\b(?:today|tomorrow|tmrw|tmr|yesterday)\b|"
                          r"(?<!woke up )(?<!since )(?<!earlier )\bthis\s+(?:morning|afternoon)\b"
                          r"(?!,?\s+i\s+(?:woke|was|felt|started|had|got)\b)", re.I)),  # not when it happened
    # 下周三, 下个星期的周三, 下周周三 (the week named, then the day), 下下下周一, 再下周一 (the week after next)
    # not a weekend of habit or of the past ("前阵子周末老加班", "最近几个周末", "每个周末"): no one day is named;
    # nor 一 beginning a word of its own (这周一直在加班, 这周一共跑了三趟: "this week", no Monday)
    ("week_zh", re.compile(r"(?<!每)(?<!每个)(?<!几个)(?<!前阵子)(?<!最近)(?<!之前)(?<!以前)(?<!月)(?<!月的)"
                           r"(?P<pre>下下下|下下|再下|下|这|本|上)?个?(?:周|星期|礼拜)"
                           r"(?:(?<=[下这本上周期拜])的?(?:周|星期|礼拜))?"
                           r"(?P<wd>一(?!直|般|样|切|律|向|共|定)|[二三四五六日天]|末(?!老|总|经常|一直|常常|都在|都要|也要|还要))")),
    (
        "week_en",
        re.compile(
            rf"\b(?:(?P<nwb>next\s+week)\s*,?\s*(?:on\s+|from\s+)?|(?P<pre>next|this\s+coming|this|coming|last)\s+)?"
            rf"(?P<wd>{_EN_DAYS})\b\.?(?:{HALF_BETWEEN}?(?:(?P<nw>\s+next\s+week\b)|(?P<lw>,?\s+(?:of\s+)?last\s+week\b)))?",
            re.I,
        ),
    ),
    # A weekday after another date ("the following Monday", "the Monday after", "the Monday after that"): only a
    # range's end, the first such day after its start; alone, no date. "the Monday after next" is the Monday of the
    # week after next; "the Friday after Christmas" no date at all.
    (
        "after_en",
        re.compile(
            rf"\b(?:the\s+)?(?P<wd3>{_EN_DAYS})\s+after\s+next\b"
            rf"|\b(?:the\s+)?following\s+(?P<wd>{_EN_DAYS})\b\.?"
            rf"|\bthe\s+(?P<wd2>{_EN_DAYS})\s+(?:after|following)\b(?:\s+(?:that|it)\b)?"
            r"(?!\s+(?!(?:and|or|then|to|in|at|on|with|for|from|because|as|since|so|but|off|back|please|pls|plz|if|"
            r"when|i|we|my|is|will|thanks|thank|thx|cheers)\b)[a-z0-9])"
            rf"|\bthe\s+(?P<wd4>{_EN_DAYS})\s+(?:after|following|before)\s+(?=[a-z0-9])",  # "the Friday after Christmas"
            re.I,
        ),
    ),
    # A date said as another shifted by a week or a month ("Monday the week after next", "next next Friday", "the 3rd
    # of next month", "next month on the 3rd"): read whole, so no part of it is read alone as another date; "Friday
    # week" (a week after this Friday, as some say it, the coming Friday to others) is no date at all, and asked.
    # ("a week from Monday" is left as it was read: "take a week from Monday" starts on Monday.)
    (
        "shifted_en",
        re.compile(
            rf"\b(?P<wd>{_EN_DAYS})\b\.?{HALF_BETWEEN}?,?\s+(?:(?:of\s+)?the\s+week\s+after\s+next|(?P<of>of\s+(?:the\s+)?(?P<w>next|this)\s+week))\b"
            rf"|\bnext\s+next\s+(?P<wd2>{_EN_DAYS})\b"
            rf"|\b(?P<wd4>{_EN_DAYS})\s+week\b(?!\s+(?:of|after)\b)"
            r"|\bthe\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m>next|this)\s+month\b"
            r"|\b(?P<m2>next|this)\s+month\s*,?\s*(?:on\s+)?the\s+(?P<d2>\d{1,2})(?:st|nd|rd|th)?\b",
            re.I,
        ),
    ),
    # The day after another said without naming it ("the next day", "the day after", 第二天, 次日, 隔天): no date, and
    # no range's end this package reads; a date said with it is then no trip's or leave's whole (asked).
    ("next_day", re.compile(r"\bthe\s+(?:next|following)\s+day\b|\bthe\s+day\s+after\b(?!\s+(?:tomorrow|tmrw|tmr)\b)"
                            r"|第二天|次日|隔天|翌日", re.I)),
    # A whole week ("all of next week", "the whole week after next", "整个下周", "下周一整周"): Monday to Sunday.
    ("whole_week_en", re.compile(r"\b(?:(?:all|the\s+whole|the\s+entire|whole|entire|the\s+full|full)\s+(?:of\s+)?"
                                 r"(?:the\s+)?(?P<w>next|this|coming|following)\s+week|"
                                 r"the\s+(?:whole\s+|entire\s+)?week\s+after\s+next)\b", re.I)),
    ("whole_week_zh", re.compile(r"整个?(?P<pre>下下|下|这|本)个?(?:周|星期|礼拜)|(?P<pre2>下下|下|这|本)个?(?:周|星期|礼拜)"
                                 r"(?:一整周|整周|全周|一整个星期|整个星期|一整个礼拜|整个礼拜)")),
    ("iso", re.compile(r"(?<![\d.])(?P<y>\d{4})(?P<sep>[-/.])(?P<m>\d{1,2})(?P=sep)(?P<d>\d{1,2})(?![\d])")),
    (
        "ymd_zh",
        re.compile(rf"(?:(?P<y>\d{{4}}|[〇零一二三四五六七八九]{{4}})\s*年\s*)?(?P<m>{NUM})\s*月\s*(?P<d>{NUM})\s*(?P<suf>[日号])?"),
    ),
    ("dotted", re.compile(rf"(?<![\d.])(?P<m>{_DOT_M})\.(?P<d>{_DOT_D})"
                          rf"(?=\s*(?:上午|下午)?\s*(?:{_DASH})\s*{_DOT}(?!\d|\.\d){_NO_UNIT})")),  # 12.8下午-12.10 too
    ("dotted", re.compile(rf"(?:(?<=[到至~～—–-])|(?<=to ))\s*(?P<m>{_DOT_M})\.(?P<d>{_DOT_D})(?!\d|\.\d){_NO_UNIT}")),
    ("month_rel", re.compile(rf"(?P<mr>下下个?月|下个?月|这个?月|本月|上个?月)(?P<d>{NUM})[日号]")),
    # a month's end as a range's end (到月底, "until the end of the month"): its last day; alone, too vague to read
    ("month_end", re.compile(r"(?:(?<=[到至~～—–-])|(?<=until )|(?<=through )|(?<=till )|(?<=thru )|(?<=to ))\s*(?:"
                             r"(?P<mr>下下个?月|下个?月|这个?月|本月|月)(?:底|末)|(?:the\s+)?end\s+of\s+(?P<me>the|this|next)"
                             r"\s+month\b)", re.I)),
    ("day_zh", re.compile(rf"(?<![\d月{_CN}])(?P<d>{NUM})号")),
    ("in_zh", re.compile(rf"(?P<n>\d{{1,3}}|[{_CN}]{{1,3}})(?:天|日)(?:后|以后|之后)")),
    ("md_en", re.compile(rf"\b(?P<mon>{_MONTHS})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(?P<y>\d{{4}})\b)?", re.I)),
    ("dm_en", re.compile(rf"\b(?:the\s+)?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>{_MONTHS})\b\.?"
                         rf"(?:,?\s+(?P<y>\d{{4}})\b)?", re.I)),
    # A day of the month in English, with its article ("the 8th", "from the 8th to the 10th"): like 8号. Followed
    # by a word, only by one that starts a new part of the sentence ("the 2nd floor" is no date).
    (
        "day_en",
        re.compile(
            r"\bthe\s+(?P<d>\d{1,2})(?:st|nd|rd|th)\b"
            r"(?!\s+(?!(?:to|till|until|through|thru|and|or|for|because|as|since|so|but|off|please|if|when|i|we|my|"
            r"is|will|would|next|this|at|in|on|from|thanks|thank|thx|cheers|pls|plz|any|anymore|too|either|again|"
            r"instead|anyway)\b)[a-z])",
            re.I,
        ),
    ),
    # Two days of one month, the month written once after them ("7 to 9 December", "14-16 Dec"): a range by itself.
    (
        "days_month_en",
        re.compile(
            rf"\b(?P<btw>between\s+)?(?:the\s+)?(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\s*"
            rf"(?:-|–|—|to|until|till|through|thru|(?(btw)and|(?!)))\s*(?:the\s+)?"
            rf"(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>{_MONTHS})\b\.?(?:,?\s+(?P<y>\d{{4}})\b)?",
            re.I,
        ),
    ),
    ("numeric", re.compile(r"(?<![\d/.])(?P<m>\d{1,2})/(?P<d>\d{1,2})(?![\d/])(?!\s*(?:days?|hours?|天|小时))", re.I)),
    (
        "in_en",
        re.compile(
            # "in 3 days" is a date, but "put in 3 days of leave" / "in 2 days off" is a length.
            rf"\bin\s+(?P<n>\d{{1,3}}|{EN_NUMBER_WORDS})\s+days?\b(?!\s+(?:of|off)\b)"
            rf"|\b(?P<n2>\d{{1,3}}|{EN_NUMBER_WORDS})\s+days?\s+(?:from\s+now|later)\b",
            re.I,
        ),
    ),
]
_MONTH_CUES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_CUES: dict[str, tuple[str, ...]] = {
    "rel": ("天", "日", "儿"), "rel_en": ("day", "tod", "tom", "tmr", "yest", "this"), "week_zh": ("周", "星期", "礼拜"),
    "week_en": ("mon", "tue", "wed", "thu", "fri", "sat", "sun"), "after_en": ("follow", "after", "before"),
    "whole_week_en": ("week",),
    "next_day": ("day", "第二天", "次日", "隔天", "翌日"), "shifted_en": ("week", "next", "month"),
    "whole_week_zh": ("周", "星期", "礼拜"), "iso": tuple("0123456789"), "ymd_zh": ("月",), "dotted": (".",),
    "month_rel": ("月",), "month_end": ("月", "month"), "day_zh": ("号",), "in_zh": ("后",),
    "md_en": _MONTH_CUES, "dm_en": _MONTH_CUES,
    "day_en": ("the",), "days_month_en": _MONTH_CUES, "numeric": ("/",), "in_en": ("day",),
}
"""For each kind of date phrase, words one of which its every match contains (lower case)."""


@dataclass(frozen=True)
class Phrase:
    """One date phrase: its kind, span, resolved date (None: not on the calendar) and what a range end needs."""

    kind: str
    start: int
    end: int
    day: date | None
    weekday: int | None = None  # a bare weekday ("周五", "Friday"): re-read in the range start's week
    month_day: tuple[int, int] | None = None  # a month-day without a year: re-read in the range start's year
    day_of_month: int | None = None  # a bare day ("5号"): re-read in the range start's month
    until: date | None = None  # a phrase that is a range by itself (a whole week): its last day
    scopes_range: bool = False  # "… to Thursday next week": the week it names is the range start's week too
    after_start: bool = False  # "the following Monday": only after a range's start (`weekday` after it); `day` None
    half: Literal["am", "pm"] | None = None  # "am" or "pm" said between the day and its week ("Tuesday morning next week")


def number(text: str) -> int:
    """A day, month, year or count written in digits, Chinese or English numerals; ValueError when it is none."""
    if text.isdigit():
        return int(text)
    values = chinese_value(text) or english_value(text)
    if not values:
        raise ValueError(text)
    return int(values[0])


def safe_date(year: int, month: int, day: int) -> date | None:
    """That day, or None when it is not on the calendar (February 30)."""
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _nearest_month_day(today: date, month: int, day: int) -> date | None:
    """A month-day written without a year: the one nearest today, last year's, this year's or next year's (the later
    of two as near). "1月3号" in December is the coming January's; "11月23号" said on 7 December is the past November's,
    not one almost a year ahead, so a form that allows no past date refuses it, and a claim is dated when it was spent.
    February 29 is the nearest year's that has one (up to four years on)."""
    found = [d for year in range(today.year - 1, today.year + 4) if (d := safe_date(year, month, day)) is not None]
    if not found:
        return None
    return min(found, key=lambda d: (abs((d - today).days), d < today))


def _week_day(today: date, weekday: int, weeks_ahead: int | None) -> date:
    """`weeks_ahead` None: the coming such day (today included); else that day in the week `weeks_ahead` from now."""
    if weeks_ahead is None:
        return today + timedelta(days=(weekday - today.weekday()) % 7)
    monday = today - timedelta(days=today.weekday()) + timedelta(weeks=weeks_ahead)
    return monday + timedelta(days=weekday)


def add_months(day: date, months: int, day_of_month: int) -> date | None:
    """That day of the month `months` after `day`'s, or None when that month has no such day."""
    index = day.year * 12 + day.month - 1 + months
    return safe_date(index // 12, index % 12 + 1, day_of_month)


def _read_english(phrase: str, today: date, has_year: bool) -> tuple[date | None, tuple[int, int] | None]:
    """An English or numeric month-day read by dateutil; without a year, the nearest one."""
    from dateutil import parser  # 20 ms to import: loaded on the first English date

    phrase = re.sub(r"^\s*the\s+", "", phrase, flags=re.I)  # "the 8th of December": dateutil reads no article
    try:
        read = parser.parse(phrase, default=datetime(today.year, 1, 1)).date()
    except (ValueError, OverflowError):
        return None, None
    if has_year:
        return read, None
    return _nearest_month_day(today, read.month, read.day), (read.month, read.day)


def _shifted(m: re.Match[str], today: date) -> Phrase | None:
    """A date said as another shifted by weeks, days or a month (the `shifted_en` pattern)."""
    start, end = m.span()
    if m["wd4"]:
        return Phrase("shifted_en", start, end, None, after_start=True) if is_day(m["wd4"], cued=True) else None
    if m["d"] or m["d2"]:
        months = 1 if (m["m"] or m["m2"]).lower() == "next" else 0
        return Phrase("shifted_en", start, end, add_months(today, months, int(m["d"] or m["d2"])))
    wd_text = m["wd"] or m["wd2"]
    if not is_day(wd_text, cued=True):
        return None
    weeks = (0 if m["w"].lower() == "this" else 1) if m["of"] else 2
    # "Monday to Wednesday the week after next": the week it names is the range start's too
    return Phrase("week_en", start, end, _week_day(today, _WEEKDAY_EN[wd_text[:3].lower()], weeks),
                  scopes_range=bool(m["wd"]), half=half_said(m))


def _last_en(today: date, weekday: int) -> date:
    """"last Tuesday": the latest such day before today (said on a Sunday, the Tuesday five days back), but not
    yesterday, which would be said so (said on a Wednesday, the Tuesday eight days back). 上周二 is the Tuesday of the
    week before, weeks starting on Monday."""
    back = (today.weekday() - weekday) % 7 or 7
    return today - timedelta(days=back + 7 if back == 1 else back)


def _month_end(m: re.Match[str], today: date) -> Phrase:
    """The last day of the month a month's end names (到月底, 到下个月底, "until the end of next month")."""
    word = (m["mr"] or m["me"]).lower()
    following = add_months(today, (2 if word.startswith("下下") else 1 if word[0] in "下n" else 0) + 1, 1)
    return Phrase("month_end", *m.span(), following - timedelta(days=1) if following else None)


def _resolve(kind: str, m: re.Match[str], today: date) -> Phrase | None:
    start, end = m.span()
    if kind in ("rel", "rel_en"):
        word = re.sub(r"\s+", " ", m.group().lower())
        offset = 2 if "day after" in word else _REL_DAYS[word.removesuffix("个")]
        return Phrase(kind, start, end, today + timedelta(days=offset))
    if kind in ("whole_week_en", "whole_week_zh"):
        if kind == "whole_week_en":
            word = (m["w"] or "").lower()
            weeks = 2 if not word else 0 if word == "this" else 1
        else:
            weeks = _WEEKS_AHEAD[m["pre"] or m["pre2"]]
        monday = _week_day(today, 0, weeks)
        return Phrase(kind, start, end, monday, until=monday + timedelta(days=6))
    if kind == "next_day":
        return Phrase(kind, start, end, None, after_start=True)
    if kind == "shifted_en":
        return _shifted(m, today)
    if kind == "after_en":
        wd_text = m["wd"] or m["wd2"] or m["wd3"] or m["wd4"]
        if not is_day(wd_text):
            return None
        if m["wd4"]:  # a weekday after an event or a day this package does not read: no date, and no range's end
            return Phrase(kind, start, end, None, after_start=True)
        if m["wd3"]:  # "the Monday after next": that week's
            return Phrase("week_en", start, end, _week_day(today, _WEEKDAY_EN[wd_text[:3].lower()], 2))
        return Phrase(kind, start, end, None, weekday=_WEEKDAY_EN[wd_text[:3].lower()], after_start=True)
    if kind in ("week_zh", "week_en"):
        wd_text = m["wd"]
        if kind == "week_zh":
            weekday = _WEEKDAY_ZH[wd_text]
            pre = m["pre"]
            ahead = _WEEKS_AHEAD.get(pre) if pre else None
        else:
            if not is_day(wd_text, cued=bool(m["pre"] or m["nwb"]) or ends_a_range(m.string, start)):
                return None  # "sat", "sun", "wed" in lower case are words; "Sat", "Wed", "next sat" are days
            weekday = _WEEKDAY_EN[wd_text[:3].lower()]
            pre = (m["pre"] or "").lower().split()[-1] if m["pre"] else ""
            ahead = 1 if m["nw"] or m["nwb"] else -1 if m["lw"] else _WEEKS_AHEAD.get(pre)  # "Thursday last week"
        english = kind == "week_en"
        bare = not m["pre"] and not (english and (m["nw"] or m["nwb"] or m["lw"]))
        day = _last_en(today, weekday) if english and pre == "last" else _week_day(today, weekday, ahead)
        return Phrase(kind, start, end, day, weekday=weekday if bare else None,
                      scopes_range=english and bool(m["nw"] or m["lw"]), half=half_said(m) if english else None)
    if kind == "iso":
        return Phrase(kind, start, end, safe_date(int(m["y"]), int(m["m"]), int(m["d"])))
    if kind == "ymd_zh":
        if not m["y"] and not m["suf"]:
            return None
        month, day_of_month = number(m["m"]), number(m["d"])
        if m["y"]:
            return Phrase(kind, start, end, safe_date(number(m["y"]), month, day_of_month))
        return Phrase(kind, start, end, _nearest_month_day(today, month, day_of_month), month_day=(month, day_of_month))
    if kind == "dotted":
        month, day_of_month = int(m["m"]), int(m["d"])
        return Phrase(kind, start, end, _nearest_month_day(today, month, day_of_month), month_day=(month, day_of_month))
    if kind == "month_rel":
        word = m["mr"]
        months = 2 if word.startswith("下下") else 1 if word.startswith("下") else -1 if word.startswith("上") else 0
        return Phrase(kind, start, end, add_months(today, months, number(m["d"])))
    if kind == "month_end":
        return _month_end(m, today)
    if kind == "days_month_en":
        last = m.group()[m.start("d") - start :]
        read, month_day = _read_english(last, today, has_year=bool(m["y"]))
        first = safe_date(read.year, read.month, int(m["d1"])) if read is not None else None
        if read is None or first is None or first > read:
            return None
        return Phrase(kind, start, end, first, until=read)
    if kind in ("day_zh", "day_en"):
        day_of_month = number(m["d"])
        this_month = safe_date(today.year, today.month, day_of_month)
        if this_month is not None and this_month < today:
            this_month = add_months(today, 1, day_of_month)
        return Phrase(kind, start, end, this_month, day_of_month=day_of_month)
    if kind in ("in_zh", "in_en"):
        return Phrase(kind, start, end, today + timedelta(days=number(m["n"] or m["n2"])))
    # md_en, dm_en, numeric: dateutil reads them
    read, month_day = _read_english(m.group(), today, has_year=bool(m.groupdict().get("y")))
    return Phrase(kind, start, end, read, month_day=month_day)


_SHIFT_BEFORE = re.compile(
    rf"\b(?:the\s+)?(?:(?<![\d.])(?:a|one|\d{{1,2}}|{EN_NUMBER_WORDS})\s+)?(?:days?|weeks?|{_EN_DAYS})\s+"
    r"(?:before|after|prior\s+to)\s+$"
    rf"|[一二两三四五六七八九十\d]+个?(?:天|日|周|星期|礼拜|月)(?:后|以后|之后|前|以前|之前)的?$",
    re.I,
)
_SHIFT_AFTER = re.compile(
    r"的?(?:下一天|后一天|前一天|第二天|次日|后面那天|后面一天|前面那天|前面一天|往后推|往前推)"
    r"|(?:之后|以后|后|之前|以前|前)的(?:(?:下下|下|这|本)?个?(?:周|星期|礼拜)[一二三四五六日天末])?"
)
"""Words that shift a date to another ("the day after next Wednesday", "two days before the 20th", "一周后的周一",
"下周三的下一天", "周五之后的周一"): the date they shift is not the one meant, and the one meant is not read."""


def _shifted_away(text: str, found: Phrase) -> Phrase | None:
    """A phrase that is no date, over `found` and the words that shift it to another day, or None when none do."""
    before = _SHIFT_BEFORE.search(text, max(0, found.start - 40), found.start)
    after = _SHIFT_AFTER.match(text, found.end)
    if before is None and after is None:
        return None
    return Phrase("shifted", before.start() if before else found.start, after.end() if after else found.end, None,
                  after_start=True)


def phrases(text: str, today: date) -> list[Phrase]:
    """Every single date phrase, the earliest and then longest winning where two overlap; a date shifted by words
    around it to another day is none (`_SHIFT_BEFORE`, `_SHIFT_AFTER`)."""
    candidates: list[Phrase] = []
    lowered = text.lower()
    for kind, pattern in _PATTERNS:
        if not any(cue in lowered for cue in _CUES[kind]):
            continue  # a pattern whose every match has one of its cues: most texts have none of most
        for match in pattern.finditer(text):
            try:
                found = _resolve(kind, match, today)
            except ValueError:
                found = None
            if found is not None:
                candidates.append(found)
    candidates += [away for found in candidates if (away := _shifted_away(text, found)) is not None]
    candidates.sort(key=lambda f: (f.start, -(f.end - f.start)))
    chosen: list[Phrase] = []
    for found in candidates:
        if not chosen or found.start >= chosen[-1].end:
            chosen.append(found)
    return chosen
