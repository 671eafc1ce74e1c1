"""Numbers spelled as people write them, in Chinese and English: the corpora's renderers.

Written from scratch for the corpora, from how the numbers are written, not from how `tools.parsers` reads them: this
module imports nothing of the parsers and no number library (pycnnum, text2num, num2words), so a reading error the two
shared would not hide itself.
"""

from __future__ import annotations

ZH_DIGITS = "零一二三四五六七八九"
ZH_PLACES = ((1000, "千"), (100, "百"), (10, "十"), (1, ""))

EN_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen"
).split()
EN_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def zh_number(n: int, *, liang: bool = False) -> str:
    """`n` (0 ≤ n < 10**12) as a Chinese numeral in full: 6800 六千八百, 10500 一万零五百, 15 十五, 1200000 一百二十万.

    `liang`: 2 before 百, 千, 万 or 亿 written 两 (两千三百), as people mostly say it; never before 十 or last."""
    if n == 0:
        return "零"
    out: list[str] = []
    gap = False
    for value, big in ((n // 10**8, "亿"), (n // 10**4 % 10**4, "万"), (n % 10**4, "")):
        if value == 0:
            gap = gap or bool(out)
            continue
        if out and (gap or value < 1000):
            out.append("零")
        out.append(_zh_section(value, first=not out, before_big=bool(big), liang=liang) + big)
        gap = False
    return "".join(out)


def _zh_section(value: int, *, first: bool, before_big: bool, liang: bool) -> str:
    """A section below 10000, places skipped written with one 零; a numeral's first section opens 十五, not 一十五."""
    out: list[str] = []
    gap = False
    for place, unit in ZH_PLACES:
        digit = value // place % 10
        if digit == 0:
            gap = gap or bool(out)
            continue
        if gap:
            out.append("零")
            gap = False
        if digit == 1 and unit == "十" and not out and first:
            out.append("十")
            continue
        two = liang and digit == 2 and (unit in ("百", "千") or (unit == "" and not out and before_big))
        out.append(("两" if two else ZH_DIGITS[digit]) + unit)
    return "".join(out)


def zh_count(n: int) -> str:
    """A number in Chinese as it goes before a measure word: 2 is 两 (两块, 两天), 22 is 二十二."""
    return "两" if n == 2 else zh_number(n, liang=True)


def zh_short(n: int, *, liang: bool = True) -> str | None:
    """The short way Chinese says a number of two figures: 2300 两千三, 12000 一万二, 330 三百三, 125000 十二万五;
    None for a number not of that shape (a·U + b·U/10, U a hundred, thousand, ten thousand or 亿)."""
    for unit in (10**8, 10**4, 1000, 100):
        head, rest = divmod(n, unit)
        if head == 0 or rest == 0 or rest % (unit // 10) or rest // (unit // 10) > 9:
            continue
        if unit >= 10**4 and head >= 10**4:
            continue
        if unit < 10**4 and head > 9:
            continue
        return zh_number(head * unit, liang=liang) + ZH_DIGITS[rest // (unit // 10)]
    return None


def zh_mixed(n: int) -> str | None:
    """Arabic digits with Chinese units, as chats write them: 6800 6千8百, 12000 1万2千, 125000 12万5千, 3000 3千;
    None when a place is skipped (1万零5百 is not written so)."""
    wan, rest = divmod(n, 10**4)
    if wan >= 10**4:
        return None
    digits = [(rest // place % 10, unit) for place, unit in ZH_PLACES]
    while digits and digits[-1][0] == 0:
        digits.pop()
    while digits and not wan and digits[0][0] == 0:
        digits.pop(0)
    if any(digit == 0 for digit, _ in digits):
        return None
    return ((f"{wan}万" if wan else "") + "".join(f"{digit}{unit}" for digit, unit in digits)) or None


def zh_mixed_short(n: int) -> str | None:
    """Digits with one Chinese unit and the next figure after it: 6800 6千8, 12000 1万2; None otherwise."""
    for unit, name in ((10**4, "万"), (1000, "千")):
        head, rest = divmod(n, unit)
        if 0 < head <= 9 and rest and not rest % (unit // 10) and rest // (unit // 10) <= 9:
            return f"{head}{name}{rest // (unit // 10)}"
    return None


def decimal_of(n: int, unit: int) -> str | None:
    """`n` in `unit`s with one decimal when it has one (12000 in 万s: "1.2"), else whole ("3"); None when finer."""
    if n % (unit // 10):
        return None
    whole, tenth = divmod(n // (unit // 10), 10)
    return f"{whole}.{tenth}" if tenth else str(whole)


def grouped(n: int | float) -> str:
    """Digits with a comma every three places: 6800 "6,800", 1234567.5 "1,234,567.5"."""
    whole = int(n)
    text = str(whole)
    groups: list[str] = []
    while len(text) > 3:
        groups.insert(0, text[-3:])
        text = text[:-3]
    groups.insert(0, text)
    fraction = f"{n:.2f}"[-3:] if n != whole else ""
    return ",".join(groups) + fraction


def spaced(n: int | float) -> str:
    """Digits with a space every three places, as the SI writes them: 6800 "6 800", 1234567.5 "1 234 567.5"."""
    return grouped(n).replace(",", " ")


def en_number(n: int, *, british: bool = False, hyphen: bool = True, article: bool = False) -> str:
    """`n` (0 ≤ n < 10**9) in English words: 2356 "two thousand three hundred fifty-six" ("… three hundred and
    fifty-six", "two thousand and five" `british`), 21 "twenty-one" ("twenty one" without `hyphen`); `article`: a
    leading one as "a" ("a thousand", "a hundred and fifty")."""
    if n == 0:
        return "zero"
    parts: list[str] = []
    for scale, name in ((10**6, "million"), (1000, "thousand"), (1, "")):
        value = n // scale % 1000
        if value == 0:
            continue
        words = _en_hundreds(value, british=british, hyphen=hyphen)
        if scale == 1 and british and parts and value < 100:
            words = f"and {words}"
        parts.append(f"{words} {name}".strip())
    text = " ".join(parts)
    if article and text.startswith("one "):
        text = "a " + text[4:]
    return text


def _en_hundreds(value: int, *, british: bool, hyphen: bool) -> str:
    """Below a thousand: "three hundred fifty-six", "three hundred and fifty-six" (`british`)."""
    hundreds, rest = divmod(value, 100)
    words = [f"{EN_ONES[hundreds]} hundred"] if hundreds else []
    if rest:
        words += ["and"] * (bool(hundreds) and british) + [_en_below_hundred(rest, hyphen=hyphen)]
    return " ".join(words)


def _en_below_hundred(value: int, *, hyphen: bool) -> str:
    if value < 20:
        return EN_ONES[value]
    tens, ones = divmod(value, 10)
    if not ones:
        return EN_TENS[tens]
    return f"{EN_TENS[tens]}{'-' if hyphen else ' '}{EN_ONES[ones]}"


def en_hundreds_count(n: int) -> str | None:
    """A number between 1100 and 9999 said in hundreds: 1200 "twelve hundred", 2350 "twenty-three hundred fifty";
    None when it is a round thousand or out of range."""
    hundreds, rest = divmod(n, 100)
    if not 11 <= hundreds <= 99 or hundreds % 10 == 0:
        return None
    words = f"{_en_below_hundred(hundreds, hyphen=True)} hundred"
    return f"{words} {_en_below_hundred(rest, hyphen=True)}" if rest else words
