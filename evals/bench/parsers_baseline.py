"""Frozen copies of the hand rules that tools/parsers replaces, as they were at commit 351d6df, for comparison.

`python -m evals.bench.parsers --compare` scores them on the same corpus as the parsers. They are copied, not
imported, so the comparison still runs once the originals are rewritten: numbers_said and answered_text from
tools/words.py, read_date from tools/travel/dates.py, language_of from graph/history.py.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

# ---- tools/words.py
_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "俩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_EN_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "twenty": 20, "thirty": 30,
}
_CN_NUMBER_RE = re.compile(r"[零〇一二两俩三四五六七八九十百]+")
_ARABIC_RE = re.compile(r"\d+(?:\.\d+)?")
_EN_RE = re.compile(r"\b(" + "|".join(_EN_NUMBERS) + r")\b(?:[\s-]+and[\s-]+a[\s-]+half)?", re.IGNORECASE)


def chinese_number(text: str) -> int | None:
    """The value of a Chinese numeral below 1000 (十五 → 15, 二十 → 20, 两 → 2), or None."""
    if not text or any(ch not in _CN_DIGITS and ch not in "十百" for ch in text):
        return None
    total, current = 0, 0
    for ch in text:
        if ch in _CN_DIGITS:
            current = _CN_DIGITS[ch]
        elif ch == "十":
            total += (current or 1) * 10
            current = 0
        elif ch == "百":
            total += (current or 1) * 100
            current = 0
    return total + current


def numbers_said(text: str) -> set[float]:
    """Every number the text states, in digits, Chinese or English words, half days included.

    "10天" → 10, "两天" → 2, "半天" → 0.5, "一天半" / "1.5天" → 1.5, "three days" → 3, "half a day" → 0.5.
    """
    found: set[float] = set()
    for match in _ARABIC_RE.finditer(text):
        value = float(match.group())
        found.add(value)
        if text[match.end() : match.end() + 2] == "天半":
            found.add(value + 0.5)
    for match in _CN_NUMBER_RE.finditer(text):
        number = chinese_number(match.group())
        if number is not None:
            found.add(float(number))
            if text[match.end() : match.end() + 2] == "天半":
                found.add(number + 0.5)
    if "半天" in text or re.search(r"half[\s-]+(a[\s-]+)?day", text, re.IGNORECASE):
        found.add(0.5)
    for match in _EN_RE.finditer(text):
        value = float(_EN_NUMBERS[match.group(1).lower()])
        found.add(value + 0.5 if "half" in match.group().lower() else value)
    return found


_CANCEL_RE = re.compile(r"^\s*(算了|不用了?|不要了?|取消|不请了|不发了|cancel|never ?mind|forget it|no\b|stop)", re.IGNORECASE)
_LEAD_RE = re.compile(
    r"^\s*(就?(这么|这样)?写(成|道|上)?|(邮件)?内容(是|为)?|正文|原因(是|为)?|理由(是|为)?|因为|"
    r"the text is|text|the reason is|reason|because|say|write)\s*[:：,，]?\s*",
    re.IGNORECASE,
)


def answered_text(message: str) -> str | None:
    """The text a person gives when asked for one ("就写：…", "原因是…"), or None for a cancel or a question."""
    if _CANCEL_RE.match(message) or message.strip().endswith(("?", "？")):
        return None
    text = _LEAD_RE.sub("", message.strip(), count=1).strip()
    return text if len(text) >= 2 else None


# ---- graph/history.py
_CJK_RE = re.compile(r"[\u3400-\u9fff]")
_LATIN_RE = re.compile(r"[A-Za-z]{2,}")


def language_of(text: str, default: str = "zh") -> str:
    """The language of a person's message: Chinese if it has Chinese characters, English if Latin words."""
    if _CJK_RE.search(text):
        return "zh"
    if _LATIN_RE.search(text):
        return "en"
    return default


# ---- tools/travel/dates.py
class DateError(ValueError):
    """A date the rules cannot read."""


WEEKDAYS_ZH = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "末": 5}
WEEKDAYS_EN = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6,
               "mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
OFFSETS = {"今天": 0, "今日": 0, "明天": 1, "明日": 1, "后天": 2, "大后天": 3, "today": 0, "tomorrow": 1,
           "the day after tomorrow": 2, "day after tomorrow": 2}


_ISO = re.compile(r"^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})[日号]?$")
_MONTH_DAY = re.compile(r"^(\d{1,2})月(\d{1,2})[日号]?$")
_WEEK_ZH = re.compile(r"^(下下|下|这|本)?(?:个)?(?:周|星期|礼拜)([一二三四五六日天末])$")
_WEEK_EN = re.compile(r"^(next|this|coming)?\s*([a-z]+)$")
_IN_DAYS = re.compile(r"^(?:in\s+)?(\d{1,3})\s*(?:days?\s*(?:later|from now)?|天后|天以后)$")


def _week_day(today: date, weekday: int, weeks_ahead: int | None) -> date:
    """`weeks_ahead` None: the coming such day (today included); else that day in the week `weeks_ahead` from now."""
    if weeks_ahead is None:
        return today + timedelta(days=(weekday - today.weekday()) % 7)
    monday = today - timedelta(days=today.weekday()) + timedelta(weeks=weeks_ahead)
    return monday + timedelta(days=weekday)


def read_date(text: str, today: date) -> date:
    """The date a phrase means, counted from `today`; raises DateError when it cannot be read."""
    said = re.sub(r"\s+", " ", text.strip().lower()).removesuffix(".")
    if said in OFFSETS:
        return today + timedelta(days=OFFSETS[said])
    if match := _ISO.match(said.replace(" ", "")):
        return _make(int(match[1]), int(match[2]), int(match[3]), text)
    if match := _MONTH_DAY.match(said.replace(" ", "")):
        month, day = int(match[1]), int(match[2])
        found = _make(today.year, month, day, text)
        return found if found >= today else _make(today.year + 1, month, day, text)
    if match := _WEEK_ZH.match(said.replace(" ", "")):
        ahead = {"下下": 2, "下": 1, "这": 0, "本": 0}.get(match[1] or "")
        return _week_day(today, WEEKDAYS_ZH[match[2]], ahead)
    if (match := _WEEK_EN.match(said)) and match[2] in WEEKDAYS_EN:
        return _week_day(today, WEEKDAYS_EN[match[2]], 1 if match[1] == "next" else None)
    if match := _IN_DAYS.match(said):
        return today + timedelta(days=int(match[1]))
    raise DateError(f"Cannot read the date {text.strip()[:40]!r}.")


def _make(year: int, month: int, day: int, text: str) -> date:
    try:
        return date(year, month, day)
    except ValueError:
        raise DateError(f"{text.strip()[:40]!r} is not a date on the calendar.") from None


