"""Numerals as written, in digits, Chinese or English words: where they are and what they are worth.

The values come from libraries: `pycnnum` reads Chinese numerals (十五, 两千五, 一万二), `text2num` English
number words (twenty-one, five thousand two hundred). Finding the numerals in a sentence is done here, with
three corrections where `pycnnum` is wrong, each shown by a test (tests/unit/test_parsers_numbers.py):
two neighbouring digits are an estimate (三四天: 3 or 4 days; pycnnum says 4, 一两 it says 2), digits alone are
read one by one (二〇二六 is 2026; pycnnum says 6), and a decimal takes its 万 (一点五万 is 15000; pycnnum says
1.5). Words where 一, 十 or 万 is no number (一下, 一起, 十分, 万一) and English "one" as a pronoun ("an urgent
one") are not numerals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from tools.parsers.text import MASK

CN_DIGITS = "零〇一二两俩三四五六七八九"
_CN_DIGIT_VALUE = {c: i for i, c in enumerate("〇一二三四五六七八九")} | {"零": 0, "两": 2, "俩": 2}
_CN_RUN = rf"[{CN_DIGITS}十百千万亿]+(?:点[{CN_DIGITS}]+[万亿]?)?"
_ARABIC = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
EN_NUMBER_WORDS = (
    "zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
    "seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million"
)
MAX_NUMBER_WORDS = 12  # "nine hundred ninety-nine thousand nine hundred and ninety-nine" is within it
_EN_RUN = rf"\b(?:{EN_NUMBER_WORDS})(?:(?:[\s-]+|\s+and\s+)(?:{EN_NUMBER_WORDS}))*\b"

NUMERAL_RE = re.compile(
    rf"(?P<mixed>(?<![\d.,])(?:{_ARABIC})[万千百亿][{CN_DIGITS}十百千万亿]*)"
    rf"|(?P<arabic>(?<![\d.,])(?:{_ARABIC})(?![\d]))"
    rf"|(?P<cn>{_CN_RUN})"
    rf"|(?P<en>{_EN_RUN})",
    re.IGNORECASE,
)
# Words in which a numeral character is no number.
_NOT_NUMBERS_RE = re.compile(
    r"一下|一些|一起|一直|一定|一样|一般|一切|一旦|一向|一致|一律|一再|一同|一并|一路|一口气|一会儿?|一边|一共|"
    r"一点儿|一点点|一方面|一番|一贯|一块儿|一早|一大早|一心|统一|唯一|万一|万万|千万(?![元块])|十分(?!钟)|"
    r"不三不四|三心二意|一五一十|乱七八糟|七上八下|五花八门"
)
_PRONOUN_ONE_RE = re.compile(
    r"\b(?:a|an|the|this|that|which|each|every|no|any|another|other)\s+(?:[a-z]+\s+)?$", re.IGNORECASE
)
_COUNTED_ONE_RE = re.compile(r"[\s-]*(?:day|hour|week|month|yuan|rmb|kuai|working|business|full|whole)", re.IGNORECASE)


@dataclass(frozen=True)
class Numeral:
    """A numeral in the text: its span and the value or values it states (two for an estimate like 三四)."""

    start: int
    end: int
    values: tuple[float, ...]
    system: str  # "arabic", "cn", "mixed", "en"


@lru_cache(maxsize=2048)
def chinese_value(run: str) -> tuple[float, ...]:
    """The value(s) of a Chinese numeral run (pycnnum), with this module's three corrections; () if unreadable."""
    from pycnnum import cn2num  # 60 ms to import: loaded on the first Chinese numeral

    run = run.replace("俩", "两")
    if all(c in _CN_DIGIT_VALUE for c in run) and len(run) >= 2:
        digits = [_CN_DIGIT_VALUE[c] for c in run]
        if len(run) == 2 and digits[1] == digits[0] + 1 and digits[0] > 0:
            return (float(digits[0]), float(digits[1]))  # 三四天: three or four days
        return (float("".join(map(str, digits))),)  # 二〇二六: digit by digit
    multiplier = 1.0
    if "点" in run and run[-1] in "万亿":
        multiplier = 1e4 if run[-1] == "万" else 1e8
        run = run[:-1]
    try:
        return (float(cn2num(run)) * multiplier,)
    except (ValueError, KeyError, IndexError):
        return ()


@lru_cache(maxsize=2048)
def english_value(run: str) -> tuple[float, ...]:
    """The value of a run of English number words (text2num); () if it is not one number."""
    from text_to_num import text2num

    try:
        return (float(text2num(run.lower(), "en")),)
    except ValueError:
        return ()


def _split_english(text: str, start: int, end: int) -> list[Numeral]:
    """A run text2num refuses as a whole ("three and four"): its longest readable pieces, left to right."""
    words = [m for m in re.finditer(rf"\b(?:{EN_NUMBER_WORDS})\b", text[start:end], re.IGNORECASE)]
    found: list[Numeral] = []
    i = 0
    while i < len(words):
        for j in range(min(len(words), i + MAX_NUMBER_WORDS), i, -1):
            piece = text[start + words[i].start() : start + words[j - 1].end()]
            if value := english_value(piece):
                found.append(Numeral(start + words[i].start(), start + words[j - 1].end(), value, "en"))
                i = j
                break
        else:
            i += 1
    return found


_MULTIPLIERS = {"万": 1e4, "亿": 1e8, "千": 1e3, "百": 1e2}


def _mixed_value(run: str) -> tuple[float, ...]:
    """1万, 1.5万, 1万2千: digits times the character after them; with more after it, read as a Chinese numeral."""
    head = re.match(r"[\d,.]+", run)
    assert head is not None
    number, rest = head.group().replace(",", ""), run[head.end() :]
    if rest in _MULTIPLIERS:
        return (float(number) * _MULTIPLIERS[rest],)
    if "." in number or int(number) >= 10000:
        return ()
    return chinese_value(_to_cn_number(int(number)) + rest)


def _to_cn_number(n: int) -> str:
    """An integer below 10000 as a Chinese numeral (the 1 of 1万2千, the 15 of 15万5千)."""
    if n == 0:
        return "零"
    parts, units = [], ["", "十", "百", "千"]
    for power in range(3, -1, -1):
        digit = (n // 10**power) % 10
        if digit:
            parts.append("一二三四五六七八九"[digit - 1] + units[power])
        elif parts and n % 10**power:
            parts.append("零")
    return re.sub("零+", "零", "".join(parts))


def find_numerals(text: str) -> list[Numeral]:
    """Every numeral in `text` (already masked where nothing should be read), left to right."""
    masked = _NOT_NUMBERS_RE.sub(lambda m: MASK * len(m.group()), text)
    found: list[Numeral] = []
    for match in NUMERAL_RE.finditer(masked):
        kind = match.lastgroup or ""
        start, end = match.span()
        run = match.group()
        if kind == "arabic":
            found.append(Numeral(start, end, (float(run.replace(",", "")),), "arabic"))
        elif kind == "mixed":
            if value := _mixed_value(run):
                found.append(Numeral(start, end, value, "mixed"))
        elif kind == "cn":
            if _is_weekday(masked, start, end):
                continue
            if value := chinese_value(run):
                found.append(Numeral(start, end, value, "cn"))
        elif value := english_value(run):
            if run.lower() == "one" and _is_pronoun_one(masked, start, end):
                continue
            found.append(Numeral(start, end, value, "en"))
        else:
            found.extend(_split_english(masked, start, end))
    return found


def _is_weekday(text: str, start: int, end: int) -> bool:
    """周三, 星期五, 礼拜天: a weekday's name, not a number."""
    return end - start == 1 and text[max(0, start - 2) : start].endswith(("周", "星期", "礼拜"))


def _is_pronoun_one(text: str, start: int, end: int) -> bool:
    """"an urgent one", "which one", "this one": "one" standing for a thing, not a count."""
    return bool(_PRONOUN_ONE_RE.search(text[:start])) and not _COUNTED_ONE_RE.match(text[end:])
