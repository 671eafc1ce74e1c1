"""Quantities: a numeral with what it counts (days, hours, weeks, months, yuan) or alone, in Chinese or English.

"两天半" is 2.5 days, "一个半小时" 1.5 hours, "half a day" 0.5 days, "a day and a half" 1.5 days, "¥1200" and
"6,800 块" amounts of money. English "a"/"an" counts one only in front of a unit ("take a day off", "an hour"):
alone ("had an operation") it is no number. A numeral that is part of a date was taken by the date before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from tools.parsers.numerals import Numeral, find_numerals
from tools.parsers.text import mask_spans

Unit = Literal["day", "hour", "week", "month", "yuan", "none"]


@dataclass(frozen=True)
class Quantity:
    """A number the person stated, with its unit ("none" for a bare number) and where it is in the text."""

    value: float
    unit: Unit
    text: str
    start: int
    end: int


_ZH_UNITS = r"个?工作日|个?工作天|天|个?星期|个?礼拜|周(?![一二三四五六日天末])|个月|月|个?小时|个?钟头|个钟|块钱|块|元|圆"
_EN_UNITS = (
    r"(?:(?:working|business|calendar|full|whole|sick|personal|vacation|holiday|annual|leave)[\s-]+)?"
    r"(?:days?|weeks?|months?)|hours?|hrs?|"
    r"yuan|rmb|cny|kuai"
)
_ZH_AFTER_RE = re.compile(rf"\s*(?P<ge>个)?(?P<half1>半)?(?P<unit>{_ZH_UNITS})(?P<half2>半(?![夜路价]))?")
_EN_AFTER_RE = re.compile(
    rf"(?P<half1>\s+and\s+a\s+half)?[\s-]*(?P<unit>{_EN_UNITS})\b(?P<half2>\s+and\s+a\s+half\b)?", re.IGNORECASE
)
_MONEY_BEFORE_RE = re.compile(r"(?:[¥￥]|\b(?:rmb|cny))\s*$", re.IGNORECASE)
_ZH_HALF_RE = re.compile(r"半个?(?P<unit>天|日|个?星期|个?礼拜|周|月|小时|钟头|工作日)")
_EN_HALF_RE = re.compile(r"\bhalf[\s-]+(?:an?[\s-]+)?(?P<unit>day|hour|week|month)s?\b", re.IGNORECASE)
_EN_ARTICLE_RE = re.compile(
    r"\b(?P<art>an?)[\s-]+(?:(?:full|whole|single|extra|working|business|sick|personal|vacation|holiday|annual|leave)"
    r"[\s-]+)?(?P<unit>day|hour|week|month)s?\b"
    r"(?P<half>\s+and\s+a\s+half\b)?",
    re.IGNORECASE,
)
_COUNT_RANGE_RE = re.compile(r"\s*(?:or|to|-|–|~|到|至|或)\s*", re.IGNORECASE)
_RATE_BEFORE_RE = re.compile(r"\b(?:once|twice|times|per|every)\s+$", re.IGNORECASE)


def _unit_of(word: str) -> Unit:
    word = word.lower()
    if "小时" in word or "钟" in word or word.startswith(("hour", "hr")):
        return "hour"
    if "月" in word or word.endswith(("month", "months")):
        return "month"
    if word.endswith(("周", "星期", "礼拜", "week", "weeks")):
        return "week"
    if word in ("块钱", "块", "元", "圆", "yuan", "rmb", "cny", "kuai"):
        return "yuan"
    return "day"


def find_quantities(text: str, original: str | None = None) -> list[Quantity]:
    """Every quantity in `text` (folded and masked), its `text` taken from `original` (the text as written)."""
    original = text if original is None else original
    found: list[Quantity] = []
    taken: list[tuple[int, int]] = []

    def add(value: float, unit: Unit, start: int, end: int) -> None:
        found.append(Quantity(value, unit, original[start:end], start, end))
        taken.append((start, end))

    numerals = find_numerals(text)
    for index, numeral in enumerate(numerals):
        following = numerals[index + 1] if index + 1 < len(numerals) else None
        _read_numeral(text, numeral, add, following)
    rest = mask_spans(text, taken)
    for match in _ZH_HALF_RE.finditer(rest):
        add(0.5, _unit_of(match["unit"]), match.start(), match.end())
    for match in _EN_HALF_RE.finditer(rest):
        add(0.5, _unit_of(match["unit"]), match.start(), match.end())
    rest = mask_spans(text, taken)
    for match in _EN_ARTICLE_RE.finditer(rest):
        if _RATE_BEFORE_RE.search(rest[: match.start()]):
            continue
        add(1.5 if match["half"] else 1.0, _unit_of(match["unit"]), match.start(), match.end())
    return sorted(found, key=lambda q: (q.start, q.value))


def _unit_after(text: str, end: int) -> tuple[re.Match[str] | None, re.Match[str] | None]:
    """The Chinese or English unit right after a numeral that ends at `end`, if any."""
    after = text[end : end + 40]
    zh = _ZH_AFTER_RE.match(after)
    if zh and zh["unit"] == "月" and not (zh["ge"] or zh["half1"]):
        zh = None  # 3月 is March; a month count is 三个月 (or 一个半月)
    en = _EN_AFTER_RE.match(after) if not zh else None
    return zh, en


def _read_numeral(
    text: str, numeral: Numeral, add: Callable[[float, Unit, int, int], None], following: Numeral | None
) -> None:
    """One numeral: with the unit after it (or the currency before it), else a bare number. The first of two
    counts joined by "or", "to", "-" or 到 takes the unit of the second ("one or two days", 三到五天)."""
    start, end = numeral.start, numeral.end
    zh, en = _unit_after(text, end)
    if not zh and not en and following and _COUNT_RANGE_RE.fullmatch(text[end : following.start]):
        shared = next((m for m in _unit_after(text, following.end) if m), None)
        if shared:
            for value in numeral.values:
                add(value, _unit_of(shared["unit"]), start, end)
            return
    window = max(0, start - 6)
    money_before = _MONEY_BEFORE_RE.search(text[window:start])
    for value in numeral.values:
        if zh:
            half = 0.5 if (zh["half1"] or zh["half2"]) else 0.0
            add(value + half, _unit_of(zh["unit"]), start, end + zh.end())
        elif en:
            half = 0.5 if (en["half1"] or en["half2"]) else 0.0
            add(value + half, _unit_of(en["unit"]), start, end + en.end())
        elif money_before:
            add(value, "yuan", window + money_before.start(), end)
        else:
            add(value, "none", start, end)
