"""The date-range corpus: business trips from one day to another, written every way people write them, in Chinese and
English, each against a fixed today (one for each day of a week, so every weekday rule is met).

The days a phrase means follow the project's rules as docs/parsers.md states them, computed here on their own: weeks
start on Monday; 下周五 and "next Friday" are next week's Friday; 周五, "Friday" and "this Friday" the coming one (today
if it is one); 这周五/本周五 this calendar week's; a month-day without a year is the one nearest today (this corpus
writes ranges ahead); a day alone (8号, "the 8th") is this month's, or next month's once past; a range's end naming
only a weekday, a day or a month-day is in the start's week, month or year, and one later when it would fall before
the start.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, timedelta

from evals.corpora.phrasing import Lang, Phrasing, Sentences, Written, fill_dated
from evals.corpora.spell import zh_number

TODAYS = tuple(date(2026, 12, 14) + timedelta(days=n) for n in range(7))
"""Monday 2026-12-14 to Sunday 2026-12-20: ranges run into January 2027."""

SENTENCES: dict[Lang, Sentences] = {
    "zh": Sentences(
        openings=("", "", "你好，", "麻烦", "帮我"),
        cores=(
            "{}要去上海出差", "{}去北京见客户，提个出差申请", "出差申请：{}，去深圳参加展会",
            "申请出差，时间是{}，目的地杭州", "{}出差广州", "去成都出差，{}", "{}去武汉做项目验收",
            "提交出差，{}，去南京培训",
        ),
        closes=("", "", "。", "，谢谢", "，李四审批", "，审批人王五", "！"),
    ),
    "en": Sentences(
        openings=("", "", "Hi, ", "Please ", "Hey, "),
        cores=(
            "I'm travelling to Shanghai {} to meet a client", "business trip to Beijing {}, please file it",
            "file a travel request: Shenzhen, {}, for the trade fair", "I need to go to Hangzhou {} for training",
            "submit a business trip to Guangzhou {}", "I'll be in Chengdu {} for the project review",
        ),
        closes=("", "", ".", " Thanks!", "; Li Si approves.", " - Wang Wu approves."),
    ),
}

ZH_WEEKDAYS = "一二三四五六日"
EN_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
EN_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
             "November", "December")

Range = tuple[date, date]
Writer = Callable[[date, random.Random], tuple[Range, str] | None]
"""A way of writing a range: from a today, a range it picks and its words (None when it cannot write one then)."""


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _zh_weekday(weekday: int, rng: random.Random, word: str | None = None) -> str:
    word = word or rng.choice(("周", "周", "星期", "礼拜"))
    name = ZH_WEEKDAYS[weekday]
    if weekday == 6 and word != "周":
        name = rng.choice("日天")
    return word + name


def _week_range(today: date, weeks: int, rng: random.Random, *, from_today: bool = False) -> Range | None:
    """Two weekdays of the week `weeks` after today's, the second after the first (None: none left this week)."""
    if from_today and today.weekday() == 6:
        return None
    first = rng.randint(today.weekday() if from_today else 0, 5)
    second = rng.randint(first + 1, 6)
    monday = _monday(today) + timedelta(weeks=weeks)
    return monday + timedelta(days=first), monday + timedelta(days=second)


def zh_next_week(today: date, rng: random.Random) -> tuple[Range, str] | None:
    """下周二到周四, 下星期二至下星期四."""
    found = _week_range(today, 1, rng)
    if found is None:
        return None
    start, end = found
    word = rng.choice(("周", "星期", "礼拜"))
    second = ("下" if rng.random() < 0.3 else "") + _zh_weekday(end.weekday(), rng, word)
    return (start, end), f"下{_zh_weekday(start.weekday(), rng, word)}{rng.choice(('到', '至', '到', '-'))}{second}"


def zh_week_after_next(today: date, rng: random.Random) -> tuple[Range, str] | None:
    """下下周一到周三."""
    found = _week_range(today, 2, rng)
    if found is None:
        return None
    start, end = found
    return (start, end), f"下下{_zh_weekday(start.weekday(), rng, '周')}到{_zh_weekday(end.weekday(), rng, '周')}"


def zh_this_week(today: date, rng: random.Random) -> tuple[Range, str] | None:
    """这周三到周五, 本周四至周六: days of this calendar week, from today on."""
    found = _week_range(today, 0, rng, from_today=True)
    if found is None:
        return None
    start, end = found
    this = rng.choice(("这", "本"))
    return (start, end), f"{this}{_zh_weekday(start.weekday(), rng, '周')}到{_zh_weekday(end.weekday(), rng, '周')}"


def _coming(today: date, weekday: int) -> date:
    return today + timedelta(days=(weekday - today.weekday()) % 7)


def _end_in_week(start: date, weekday: int) -> date:
    """A range's end that names a weekday: in the start's week, or the next one when it would fall before the start."""
    end = _monday(start) + timedelta(days=weekday)
    return end if end >= start else end + timedelta(weeks=1)


def _other_weekday(day: date, rng: random.Random) -> int:
    """A weekday other than `day`'s (周五到周五 is no range anybody writes)."""
    return (day.weekday() + rng.randint(1, 6)) % 7


def zh_weekdays(today: date, rng: random.Random) -> tuple[Range, str]:
    """周三到周五, 周五到周一: the coming weekday, and the end after it."""
    start = _coming(today, rng.randint(0, 6))
    end = _end_in_week(start, _other_weekday(start, rng))
    return (start, end), f"{_zh_weekday(start.weekday(), rng, '周')}到{_zh_weekday(end.weekday(), rng, '周')}"


def _ahead(today: date, rng: random.Random, *, longest: int = 14) -> Range:
    start = today + timedelta(days=rng.randint(1, 75))
    return start, start + timedelta(days=rng.randint(1, longest))


def _zh_md(day: date, rng: random.Random, chinese: bool = False) -> str:
    if chinese:
        return f"{zh_number(day.month)}月{zh_number(day.day)}{rng.choice('日号')}"
    return f"{day.month}月{day.day}{rng.choice('日号')}"


def zh_month_days(today: date, rng: random.Random) -> tuple[Range, str]:
    """12月8日到12月10日, 12月8日至10日, 12月28号到1月3号, 十二月八日到十日, 2026年12月8日至2026年12月10日."""
    start, end = _ahead(today, rng)
    chinese = rng.random() < 0.2
    join = rng.choice(("到", "至", "-", "~"))
    lead = rng.choice(("", "", "从"))
    if rng.random() < 0.15:
        return (start, end), f"{lead}{start.year}年{start.month}月{start.day}日{join}{end.year}年{end.month}月{end.day}日"
    if end.month == start.month and rng.random() < 0.5:
        suffix = rng.choice("日号")
        day = zh_number(end.day) if chinese else str(end.day)
        return (start, end), f"{lead}{_zh_md(start, rng, chinese)}{join}{day}{suffix}"
    return (start, end), f"{lead}{_zh_md(start, rng, chinese)}{join}{_zh_md(end, rng, chinese)}"


def zh_dotted(today: date, rng: random.Random) -> tuple[Range, str]:
    """12.8-12.10, 12.28到1.3."""
    start, end = _ahead(today, rng)
    return (start, end), f"{start.month}.{start.day}{rng.choice(('-', '到', '~'))}{end.month}.{end.day}"


def iso_dates(today: date, rng: random.Random) -> tuple[Range, str]:
    """2026-12-08到2026-12-10, 2026/12/08 to 2026/12/10."""
    start, end = _ahead(today, rng)
    sep = rng.choice("-/")
    first, last = (d.strftime(f"%Y{sep}%m{sep}%d") for d in (start, end))
    return (start, end), f"{first}{rng.choice(('到', '至', ' to ', ' - '))}{last}"


def _days_of_month(today: date, rng: random.Random) -> Range | None:
    """A range whose start a day alone names (8号, "the 8th"): this month's from today on, or next month's before
    today's day of the month."""
    start = today + timedelta(days=rng.randint(0, 27))
    if start.month != today.month and start.day >= today.day:
        return None
    return start, start + timedelta(days=rng.randint(1, 6))


def zh_day_numbers(today: date, rng: random.Random) -> tuple[Range, str] | None:
    """8号到10号, 28号到3号."""
    found = _days_of_month(today, rng)
    if found is None:
        return None
    start, end = found
    return (start, end), f"{start.day}号{rng.choice(('到', '至'))}{end.day}号"


def en_next_week(today: date, rng: random.Random) -> tuple[Range, str] | None:
    """next Tuesday to Thursday, from next Monday to next Wednesday, Tuesday to Thursday next week."""
    found = _week_range(today, 1, rng)
    if found is None:
        return None
    start, end = found
    first, last = EN_WEEKDAYS[start.weekday()], EN_WEEKDAYS[end.weekday()]
    return (start, end), rng.choice((
        f"next {first} to {last}", f"from next {first} to next {last}", f"{first} to {last} next week",
        f"next {first} through {last}", f"next week from {first} to {last}",
    ))


def en_week_after_next(today: date, rng: random.Random) -> tuple[Range, str] | None:
    """Monday to Wednesday the week after next, from Tuesday through Thursday of next week, next next Monday to
    Wednesday: both days in the week the words name."""
    weeks = rng.choice((1, 2))
    found = _week_range(today, weeks, rng)
    if found is None:
        return None
    start, end = found
    first, last = EN_WEEKDAYS[start.weekday()], EN_WEEKDAYS[end.weekday()]
    week = "the week after next" if weeks == 2 else "next week"
    shapes = [f"{first} to {last} of {week}", f"from {first} through {last} of {week}"]
    if weeks == 2:
        shapes += [f"{first} to {last} the week after next", f"from next next {first} to {last}"]
    return (start, end), rng.choice(shapes)


def en_this_week(today: date, rng: random.Random) -> tuple[Range, str]:
    """this Wednesday to Friday, from Thursday to Saturday: the coming weekday, and the end after it."""
    start = _coming(today, rng.randint(0, 6))
    end = _end_in_week(start, _other_weekday(start, rng))
    first, last = EN_WEEKDAYS[start.weekday()], EN_WEEKDAYS[end.weekday()]
    return (start, end), rng.choice((f"this {first} to {last}", f"from {first} to {last}", f"{first} to {last}",
                                     f"{first} until {last}"))


def _en_md(day: date, rng: random.Random, style: int) -> str:
    month = EN_MONTHS[day.month - 1]
    short = month[:3]
    return (f"{short} {day.day}", f"{month} {day.day}", f"{month} {day.day}{_ordinal(day.day)}",
            f"{day.day} {month}", f"the {day.day}{_ordinal(day.day)} of {month}")[style]


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def en_month_days(today: date, rng: random.Random) -> tuple[Range, str]:
    """from Dec 8 to Dec 10, Dec 8-10, December 8th to 10th, 8-10 December, between Dec 8 and Dec 10."""
    start, end = _ahead(today, rng)
    style = rng.randint(0, 4)
    same_month = end.month == start.month
    if same_month and rng.random() < 0.4:
        month = EN_MONTHS[start.month - 1]
        return (start, end), rng.choice((
            f"{month[:3]} {start.day}-{end.day}", f"{start.day}-{end.day} {month}", f"{start.day} to {end.day} {month[:3]}",
            f"{month} {start.day}{_ordinal(start.day)} to {end.day}{_ordinal(end.day)}",
        ))
    first, last = _en_md(start, rng, style), _en_md(end, rng, style)
    return (start, end), rng.choice((f"from {first} to {last}", f"{first} to {last}", f"{first} - {last}",
                                     f"between {first} and {last}", f"{first} through {last}"))


def en_numeric(today: date, rng: random.Random) -> tuple[Range, str]:
    """12/8 to 12/10, 12/28 - 1/3 (month/day)."""
    start, end = _ahead(today, rng)
    return (start, end), f"{start.month}/{start.day}{rng.choice((' to ', ' - ', '-', ' until '))}{end.month}/{end.day}"


def en_following(today: date, rng: random.Random) -> tuple[Range, str]:
    """from next Friday to the following Monday, Thursday to the Tuesday after: the first such weekday after the start,
    in a later week than the start's (a day later in its own week is not said this way)."""
    coming = rng.random() < 0.5
    start = _coming(today, rng.randint(0, 6)) if coming else _monday(today) + timedelta(weeks=1, days=rng.randint(0, 6))
    weekday = rng.randint(0, start.weekday())
    end = start + timedelta(days=(weekday - start.weekday()) % 7 or 7)
    if rng.random() < 0.4:
        first = f"{EN_MONTHS[start.month - 1][:3]} {start.day}"
    else:
        first = EN_WEEKDAYS[start.weekday()] if coming else f"next {EN_WEEKDAYS[start.weekday()]}"
    last = EN_WEEKDAYS[weekday]
    return (start, end), rng.choice((f"from {first} to the following {last}", f"{first} to the {last} after",
                                     f"{first} through the following {last}", f"{first} until the {last} after that"))


def en_days_of_month(today: date, rng: random.Random) -> tuple[Range, str] | None:
    """from the 8th to the 10th."""
    found = _days_of_month(today, rng)
    if found is None:
        return None
    start, end = found
    return (start, end), (f"from the {start.day}{_ordinal(start.day)} to the {end.day}{_ordinal(end.day)}")


WRITERS: tuple[tuple[Lang, str, Writer], ...] = (
    ("zh", "下周X到周Y", zh_next_week),
    ("zh", "下下周X到周Y", zh_week_after_next),
    ("zh", "这周/本周X到周Y", zh_this_week),
    ("zh", "周X到周Y", zh_weekdays),
    ("zh", "M月D日到M月D日", zh_month_days),
    ("zh", "M.D-M.D", zh_dotted),
    ("zh", "D号到D号", zh_day_numbers),
    ("zh", "ISO", iso_dates),
    ("en", "next X to Y", en_next_week),
    ("en", "this X to Y", en_this_week),
    ("en", "X to Y of the week after next", en_week_after_next),
    ("en", "from Dec 8 to Dec 10", en_month_days),
    ("en", "12/8 to 12/10", en_numeric),
    ("en", "the 8th to the 10th", en_days_of_month),
    ("en", "X to the following Y", en_following),
    ("en", "ISO", iso_dates),
)


def _as_range(write: Writer) -> Callable[[date, random.Random], Written | None]:
    def written(today: date, rng: random.Random) -> Written | None:
        found = write(today, rng)
        if found is None:
            return None
        (start, end), words = found
        return words, (start.isoformat(), end.isoformat())

    return written


def range_phrasings(rng: random.Random, per_style: int) -> list[Phrasing]:
    """Up to `per_style` different business-trip requests for each way of writing a date range, each against one of
    `TODAYS`."""
    writers = tuple((lang, name, _as_range(write)) for lang, name, write in WRITERS)
    return fill_dated("range", writers, SENTENCES, TODAYS, rng, per_style)
