"""The half-day range corpus (issue 33): leave from one day to another whose ends carry a half of the day (下周四下午到周五,
"Monday afternoon to Wednesday morning"), in Chinese and English, each against a fixed today of one week (`TODAYS`).

What a phrase means follows docs/parsers.md and docs/leave.md, computed here on its own: a range that starts in the
afternoon counts half of its first day, one that ends in the morning half of its last; a morning start or an
afternoon end is a whole day, said and kept on the form (上午 at the start, 下午 at the end). The days run from
2026-12-14 into January 2027; December 2026 has no holiday left after the 13th and the calendar does not know 2027,
so the working days are Monday to Friday, as the calendar's own rule for an unknown year says.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, timedelta

from evals.corpora.phrasing import HalfRange, Lang, Phrasing, Sentences, Written, fill_dated
from evals.corpora.ranges import EN_MONTHS, EN_WEEKDAYS, TODAYS, Range, _coming, _end_in_week, _monday, _zh_weekday

SENTENCES: dict[Lang, Sentences] = {
    "zh": Sentences(
        openings=("", "", "你好，", "麻烦", "帮我"),
        cores=("{}请年假，回老家", "我想{}请假，家里有事", "{}请事假", "申请{}的年假", "{}休息，孩子生病了", "请假：{}，搬家"),
        closes=("", "", "。", "，谢谢", "，李四审批", "，审批人王五"),
    ),
    "en": Sentences(
        openings=("", "", "Hi, ", "Hey, "),
        cores=("I need {} off for a family matter", "can I take {} off? moving house", "annual leave {}, please",
               "please file leave for me {}", "I'd like {} off to see a doctor"),
        closes=("", "", ".", " Thanks!", "; Li Si approves.", " - Wang Wu approves."),
    ),
}
HALF_ZH = {"am": "上午", "pm": "下午"}
HALF_EN = {"am": "morning", "pm": "afternoon"}
Halves = tuple[str | None, str | None]


def _halves(rng: random.Random) -> Halves:
    """A start's and an end's half as a person says them: at least one of them."""
    return rng.choice((("pm", None), ("pm", None), ("pm", "am"), (None, "am"), ("am", "pm"), ("am", None), (None, "pm")))


def _expected(start: date, end: date, halves: Halves) -> HalfRange:
    """The form's values: the dates, the halves by their options' names, and the working days (Monday to Friday)."""
    days = sum(1.0 for n in range((end - start).days + 1) if (start + timedelta(days=n)).weekday() < 5)
    if halves[0] == "pm" and start.weekday() < 5:
        days -= 0.5
    if halves[1] == "am" and end.weekday() < 5:
        days -= 0.5
    first, last = (HALF_ZH[h] if h else None for h in halves)
    return start.isoformat(), end.isoformat(), first, last, days


def _next_week(today: date, rng: random.Random) -> Range:
    first = rng.randint(0, 5)
    monday = _monday(today) + timedelta(weeks=1)
    return monday + timedelta(days=first), monday + timedelta(days=rng.randint(first + 1, 6))


def _ahead(today: date, rng: random.Random) -> Range:
    start = today + timedelta(days=rng.randint(1, 28))
    return start, start + timedelta(days=rng.randint(1, 6))


def zh_next_week(today: date, rng: random.Random) -> tuple[Range, Halves, str]:
    """下周四下午到周五, 下周一下午到周三上午."""
    (start, end), halves = _next_week(today, rng), _halves(rng)
    first, last = (HALF_ZH.get(h or "", "") for h in halves)
    word = rng.choice(("周", "星期"))
    text = (f"下{_zh_weekday(start.weekday(), rng, word)}{first}{rng.choice(('到', '至', '-'))}"
            f"{_zh_weekday(end.weekday(), rng, word)}{last}")
    return (start, end), halves, text


def zh_weekdays(today: date, rng: random.Random) -> tuple[Range, Halves, str]:
    """周四下午到周五, 周五下午到周一上午: the coming weekday, and the end after it."""
    start = _coming(today, rng.randint(0, 6))
    end = _end_in_week(start, (start.weekday() + rng.randint(1, 6)) % 7)
    halves = _halves(rng)
    first, last = (HALF_ZH.get(h or "", "") for h in halves)
    text = f"{_zh_weekday(start.weekday(), rng, '周')}{first}到{_zh_weekday(end.weekday(), rng, '周')}{last}"
    return (start, end), halves, text


def zh_month_days(today: date, rng: random.Random) -> tuple[Range, Halves, str]:
    """12月22日下午到12月24日上午, 12月30号下午至1月2号."""
    (start, end), halves = _ahead(today, rng), _halves(rng)
    first, last = (HALF_ZH.get(h or "", "") for h in halves)
    suffix = rng.choice("日号")
    return (start, end), halves, (f"{start.month}月{start.day}{suffix}{first}{rng.choice(('到', '至'))}"
                                  f"{end.month}月{end.day}{suffix}{last}")


def en_next_week(today: date, rng: random.Random) -> tuple[Range, Halves, str]:
    """next Thursday afternoon through Friday, from next Monday afternoon to next Wednesday morning."""
    (start, end), halves = _next_week(today, rng), _halves(rng)
    first, last = (f" {HALF_EN[h]}" if h else "" for h in halves)
    begin, finish = EN_WEEKDAYS[start.weekday()], EN_WEEKDAYS[end.weekday()]
    return (start, end), halves, rng.choice((
        f"next {begin}{first} through {finish}{last}", f"from next {begin}{first} to next {finish}{last}",
        f"next {begin}{first} to {finish}{last}",
    ))


def en_half_then_week(today: date, rng: random.Random) -> tuple[Range, Halves, str]:
    """Thursday afternoon next week to Tuesday morning the week after next, Mon PM next week through Wed a.m. next
    week: the half said between the day and its week."""
    monday, first = _monday(today) + timedelta(weeks=1), rng.randint(0, 4)
    start = monday + timedelta(days=first)
    later = rng.random() < 0.5
    end = monday + (timedelta(weeks=1, days=rng.randint(0, 4)) if later else timedelta(days=rng.randint(first + 1, 6)))
    halves, letters = _halves(rng), rng.random() < 0.4
    first_half, last_half = ("" if not h else f" {h.upper()}" if letters else f" {HALF_EN[h]}" for h in halves)
    begin, finish = EN_WEEKDAYS[start.weekday()], EN_WEEKDAYS[end.weekday()]
    week = "the week after next" if later else "next week"
    return (start, end), halves, (f"{begin}{first_half} next week {rng.choice(('to', 'through', 'until'))} "
                                  f"{finish}{last_half} {week}")


def en_month_days(today: date, rng: random.Random) -> tuple[Range, Halves, str]:
    """Dec 22 afternoon to Dec 24 morning, from the afternoon of December 22 to the 24th."""
    (start, end), halves = _ahead(today, rng), _halves(rng)
    begin = f"{EN_MONTHS[start.month - 1][:3]} {start.day}"
    finish = f"{EN_MONTHS[end.month - 1][:3]} {end.day}"
    if rng.random() < 0.4:
        first, last = (f"the {HALF_EN[h]} of " if h else "" for h in halves)
        return (start, end), halves, f"from {first}{begin} to {last}{finish}"
    first, last = (f" {HALF_EN[h]}" if h else "" for h in halves)
    return (start, end), halves, f"{begin}{first} {rng.choice(('to', 'through', 'until', '-'))} {finish}{last}"


WRITERS: tuple[tuple[Lang, str, Callable[[date, random.Random], tuple[Range, Halves, str]]], ...] = (
    ("zh", "下周X下午到周Y", zh_next_week),
    ("zh", "周X下午到周Y上午", zh_weekdays),
    ("zh", "M月D日下午到M月D日上午", zh_month_days),
    ("en", "next X afternoon to Y", en_next_week),
    ("en", "Dec 8 afternoon to Dec 10 morning", en_month_days),
    ("en", "X PM next week to Y AM week after next", en_half_then_week),
)


def _as_half(write: Callable[[date, random.Random], tuple[Range, Halves, str]]) -> Callable[[date, random.Random], Written]:
    def written(today: date, rng: random.Random) -> Written:
        (start, end), halves, words = write(today, rng)
        return words, _expected(start, end, halves)

    return written


def half_range_phrasings(rng: random.Random, per_style: int) -> list[Phrasing]:
    """Up to `per_style` different leave requests for each way of writing a half-day range, each against one of
    `TODAYS`."""
    writers = tuple((lang, name, _as_half(write)) for lang, name, write in WRITERS)
    return fill_dated("half", writers, SENTENCES, TODAYS, rng, per_style)
