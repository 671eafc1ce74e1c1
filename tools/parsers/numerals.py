"""Numerals as written, in digits, Chinese or English words: where they are and what they are worth.

A numeral is read to exactly the number it writes, or not at all. Chinese numerals (十五, 两千三, 一万二, 一百二十万,
一千零五, 八十六点五) and digits with Chinese units (6千8百, 1万2千, 1.5万) are read by this module's own strict reader:
`pycnnum`, used before, reads 一百二十万 as 10200000 and 三十万五 as 350000 (tests/unit/test_parsers_numbers.py).
English number words (twenty-one, twelve hundred, a thousand) are read by `text2num`; digits with a scale (1.2k, 3K,
2 thousand) are multiplied here. Two neighbouring digits are an estimate (三四天: 3 or 4 days), digits alone are read
one by one (二〇二六 is 2026). A minus sign, 负, "minus" or "negative" before a numeral makes it negative.

What is not one number is left unread: a numeral not well formed (两三千, 一千五十, 十七八), digits that run on
("1.2.3", "6,80", "6 800" with no amount's unit, "1万 2千", "one fifty"). Words where 一, 十 or 万 is no number (一下,
一起, 十分, 万一) and English "one" as a pronoun ("an urgent one") are not numerals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from tools.parsers.text import MASK

CN_DIGITS = "零〇一二两俩三四五六七八九"
_CN_DIGIT_VALUE = {c: i for i, c in enumerate("〇一二三四五六七八九")} | {"零": 0, "两": 2, "俩": 2}
_SMALL_UNITS = {"十": 10, "百": 100, "千": 1000}
_BIG_UNITS = {"万": 10**4, "亿": 10**8}
_CN_RUN = rf"[{CN_DIGITS}十百千万亿]+(?:点[{CN_DIGITS}]+[万亿]?)?"
_ARABIC = (r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?:(?<=[¥￥])|(?<=RMB )|(?<=CNY )|"
           r"(?=[\d \u00a0\u202f.]{1,32}+\s{0,3}(?:元|块|(?:yuan|rmb|kuai|bucks?)(?![A-Za-z]))))"
           r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
"""Digits, in groups of three after commas ("1,250"), or after spaces in an amount, its unit after or ¥ or RMB before
it ("1 250 yuan", "¥1 250", "RMB 1 250", as the SI writes thousands; "6 800" alone stays two numbers, nothing reads).
The look-ahead for the unit reads at most 32 digits and spaces, each once: a long run of spaces had it try every split
of the run at every position (a hostile argument of 2,000 spaces took minutes)."""
_OPENS = r"(?<!\d)(?<!\d[.,])"
_RUNS_ON = r"(?!\d)(?![.,]\d)"
"""Digits start and end where no digits run on ("1.2.3", "6,80" are no number read here; "，25天" is 25 days)."""
EN_NUMBER_WORDS = (
    "zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
    "seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million"
)
_EN_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "k": 1000, "grand": 1000}
_EN_DIGIT_WORDS = "zero|oh|one|two|three|four|five|six|seven|eight|nine"
_EN_RUN = (
    rf"\b(?:an?\s+(?=(?:hundred|thousand|million)\b))?(?:{EN_NUMBER_WORDS})"
    rf"(?:(?:[\s-]+|\s+and\s+|(?:(?<=thousand)|(?<=million)),\s*)(?:{EN_NUMBER_WORDS}))*\b"
    rf"(?:\s+point(?:\s+(?:{_EN_DIGIT_WORDS}))+\b)?"
)
"""English number words: "twenty-one", "a thousand", "one thousand, two hundred and fifty" (a comma after a scale word
goes on with the same number), "forty-two point six" (the digits after "point" one by one)."""

_EN_UNITS = ("one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
             "seventeen|eighteen|nineteen|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(?:one|two|three|"
             "four|five|six|seven|eight|nine))?")
_HALF_SCALED = (rf"(?:{_OPENS}(?>{_ARABIC})|\b(?:{_EN_UNITS}))\s+and\s+a\s+half\s+(?:hundred|thousand|million|grand|k)\b|"
                rf"\b(?:{_EN_UNITS})\s+grand\b")
"""A whole and a half of a scale ("seven and a half grand", "2 and a half thousand": 7500, 2500), and number words of
grands ("seven grand": 7000); `text2num` reads neither."""

NUMERAL_RE = re.compile(
    rf"(?P<mixed>{_OPENS}(?>{_ARABIC})[十百千万亿][\d{CN_DIGITS}十百千万亿]*+{_RUNS_ON})"
    rf"|(?P<halved>{_HALF_SCALED})"
    rf"|(?P<scaled>{_OPENS}(?>{_ARABIC})(?:[kK](?![A-Za-z])|\s+(?:hundred|thousand|million|grand)\b))"
    rf"|(?P<arabic>{_OPENS}(?>{_ARABIC}){_RUNS_ON}(?![十百千万亿]))"
    rf"|(?P<cn>{_CN_RUN})"
    rf"|(?P<en>{_EN_RUN})",
    re.IGNORECASE,
)
# Words in which a numeral character is no number.
_NOT_NUMBERS_RE = re.compile(
    rf"(?<![{CN_DIGITS}十百千万亿\d])(?:"
    r"一下|一些|一起|一直|一定|一样|一般|一切|一旦|一向|一致|一律|一再|一同|一并|一路|一口气|一会儿?|一边|一共|"
    r"一点儿|一点点|一方面|一番|一贯|一块儿|一块(?=[去走吃玩做干办来回住坐聊看出])|一早|一大早|一心|统一|唯一|"
    r"万一|万万|千万(?![元块])|十分(?!钟)|不三不四|三心二意|一五一十|乱七八糟|七上八下|五花八门|"
    rf"(?P<verb>(?![{CN_DIGITS}十百千万亿周期拜月日号天年第])[\u4e00-\u9fff])了?一(?P=verb))"
)
"""Not after a numeral: 三十七万一千 and 三千万 are numbers, 万一 and 千万 alone are words; a verb said twice around 一
does a little of it (理一理账, 看了一看), no number."""
_PRONOUN_ONE_RE = re.compile(
    r"(?:\b(?:a|an|the|this|that|which|each|every|no|any|another|other|his|her|their|my|your|our|its)|['’]s)\s+(?:[a-z]+\s+)?"
    r"(?:[¥$￥]?\d[\d,.]*(?:[- ]?(?:yuan|rmb|kuai|bucks?))?\s+)?$", re.IGNORECASE
)
"""What stands before a "one" that stands for a thing: "an urgent one", "which one", "the 3,200 one", "the ¥560 one",
"his 4,180 one", "Zhang San's 2,350 one"."""
_COUNTED_ONE_RE = re.compile(r"[\s-]*(?:day|hour|week|month|yuan|rmb|kuai|working|business|full|whole)", re.IGNORECASE)
_POINT_BEFORE_RE = re.compile(r"\bpoint\s+$", re.IGNORECASE)
_SIGN_RE = re.compile(r"(?:[-−–—]|负|\b(?:minus|negative)\s+)$", re.IGNORECASE)
_NUMERAL_CHARS = frozenset(f"0123456789{CN_DIGITS}十百千万亿")
_SCALE_WORD_RE = re.compile(r"hundred|thousand|million", re.IGNORECASE)
_TOKEN_RE = re.compile(rf"[\d,.]+|[{CN_DIGITS}十百千万亿]")
_RUN_GAP_RE = re.compile(r"[ \t\u3000]*")
"""What may stand between two numerals that are then one expression this module cannot read ("6 800", "1万 2千")."""
_RANGE_GAP_RE = re.compile(r"\s*(?:or|to|-|–|~|到|至|或)\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Numeral:
    """A numeral in the text: its span and the value or values it states (two for an estimate like 三四)."""

    start: int
    end: int
    values: tuple[float, ...]
    system: str  # "arabic", "cn", "mixed", "en"


def _arabic_value(digits: str) -> float:
    return float(re.sub(r"[,\s]", "", digits))


def _tokens(run: str) -> list[tuple[str, float, bool]] | None:
    """A Chinese or mixed numeral as tokens (kind, value, written 两): "d" a digit or Arabic digits, "u" 十/百/千,
    "b" 万/亿, "z" 零; None when a decimal is not its first token (only 1.5万 opens with one)."""
    tokens: list[tuple[str, float, bool]] = []
    for match in _TOKEN_RE.finditer(run):
        part = match.group()
        if part[0].isdigit():
            if "." in part and tokens:
                return None
            tokens.append(("d", _arabic_value(part), False))
        elif part in _SMALL_UNITS:
            tokens.append(("u", _SMALL_UNITS[part], False))
        elif part in _BIG_UNITS:
            tokens.append(("b", _BIG_UNITS[part], False))
        elif part in "零〇":
            tokens.append(("z", 0, False))
        else:
            tokens.append(("d", _CN_DIGIT_VALUE[part], part in "两俩"))
    return tokens


def _is_digit(token: tuple[str, float, bool]) -> bool:
    """A digit 1 to 9, not written 两 (last, after a unit, 两 is a weight: 三十两, 一万两)."""
    return token[0] == "d" and not token[2] and token[1] == int(token[1]) and 0 < token[1] <= 9


def _section(tokens: list[tuple[str, float, bool]], *, first: bool) -> tuple[float, float] | None:
    """A section below 10000 (一千零五, 两千三, 十五): its value and its highest unit; None when not well formed.

    A last digit right after a unit counts in the place below it (两千三 is 2300, 三百三 330, 二十五 25); after 零 it
    counts ones (一千零五 is 1005); a place skipped needs 零 (一千五十 is none). `first`: the numeral's first
    section, which may open with 十 (十五, 十万)."""
    value, top, last_unit, zero, i = 0.0, 0.0, 0.0, False, 0
    if first and tokens and tokens[0][:2] == ("u", 10):
        value, top, last_unit, i = 10.0, 10.0, 10.0, 1
    while i < len(tokens):
        token = tokens[i]
        if token[0] == "z":
            if zero or not last_unit:
                return None
            zero, i = True, i + 1
            continue
        if not (_is_digit(token) or token[0] == "d" and token[2]):
            return None  # a unit where a digit goes, or digits before a unit (12千)
        unit = tokens[i + 1][1] if i + 1 < len(tokens) and tokens[i + 1][0] == "u" else None
        if unit is None:
            if i + 1 != len(tokens) or last_unit and not _is_digit(token):
                return None  # digits after the last one, or 两 as a last digit (三十两 is a weight)
            if not last_unit:
                return token[1], 1.0
            if zero:
                return (value + token[1], top) if last_unit >= 100 else None
            return value + token[1] * last_unit / 10, top
        if last_unit and (unit >= last_unit or unit == last_unit / 10 if zero else unit != last_unit / 10):
            return None  # units out of order, 零 where no place is skipped, or a place skipped without 零
        value += token[1] * unit
        top = top or unit
        last_unit, zero, i = unit, False, i + 2
    return None if zero else (value, top)


def _unit_numeral(run: str) -> float | None:
    """A numeral with units (十, 百, 千, 万, 亿), in Chinese digits or Arabic ones (1万2千): its value, or None.

    Sections are split at 万 and 亿, each below 10000 (Arabic digits may write one whole: 12万). After 万 or 亿 a
    section starts with 零 or fills the highest place (一万零五百, 一万五千); a last digit alone counts in the place
    below (一万二 is 12000, 十万八 108000, 1万2 12000)."""
    tokens = _tokens(run)
    if not tokens:
        return None
    if tokens[0][1] != int(tokens[0][1]):
        # 1.5万, 2.5千: a decimal times one unit, and nothing after it
        if len(tokens) == 2 and tokens[1][0] in "ub":
            return float(Decimal(str(tokens[0][1])) * int(tokens[1][1]))
        return None
    total: float = 0
    last_big, begin = 0, 0
    for index in range(len(tokens) + 1):
        if index < len(tokens) and tokens[index][0] != "b":
            continue
        group = tokens[begin:index]
        if index < len(tokens):  # a section before 万 or 亿
            big = int(tokens[index][1])
            if not group or last_big and big >= last_big:
                return None
            if len(group) == 1 and group[0][0] == "d" and 0 < group[0][1] < 10000:
                value: float | None = group[0][1]  # 12万, 1234万, 两万
            else:
                value = _after_big(group, last_big, first=not last_big, last=False)
            if value is None:
                return None
            total, last_big, begin = total + value * big, big, index + 1
            continue
        if not group:
            return float(total) if last_big else None
        if last_big and len(group) == 1:
            return float(total + group[0][1] * last_big // 10) if _is_digit(group[0]) else None
        value = _after_big(group, last_big, first=not last_big, last=True)
        return None if value is None else float(total + value)
    return None


def _after_big(group: list[tuple[str, float, bool]], after: int, *, first: bool, last: bool) -> float | None:
    """One section of a numeral; after 万 or 亿 (`after`) it starts with 零 or has 千 as its highest place, and the
    last section right after 亿 starts with 零 (一亿五千 is 150000000 as people say it, 100005000 as written)."""
    zero_led = bool(group) and group[0][0] == "z"
    section = _section(group[1:] if zero_led else group, first=first)
    if section is None or zero_led and not after:
        return None
    value, top = section
    below = 10**4 if last and after == 10**8 else 1000  # 一亿零五千 is 100005000; 一万零五百 10500
    if after and (zero_led and value >= below or not zero_led and (top != 1000 or last and after == 10**8)):
        return None
    return value


@lru_cache(maxsize=4096)
def chinese_value(run: str) -> tuple[float, ...]:
    """The value(s) of a Chinese numeral run: digits one by one (二〇二六), an estimate of two neighbouring digits
    (三四: 3 or 4), a numeral with units, a decimal (八十六点五, 一点五万); () if it is not one well-formed number."""
    run = run.replace("俩", "两")
    if all(c in _CN_DIGIT_VALUE for c in run) and len(run) >= 2:
        figures = [_CN_DIGIT_VALUE[c] for c in run]
        if len(run) == 2 and figures[1] == figures[0] + 1 and figures[0] > 0:
            return (float(figures[0]), float(figures[1]))  # 三四天: three or four days
        if len(run) >= 3 or "〇" in run or "零" in run:
            return (float("".join(map(str, figures))),)  # 二〇二六: digit by digit
        return ()  # 三五, 五八: an estimate or a guess, not one number
    if "点" in run:
        whole, _, fraction = run.partition("点")
        big = _BIG_UNITS.get(fraction[-1:], 1)
        fraction = fraction[:-1] if big != 1 else fraction
        integer = chinese_value(whole) if whole else ()
        if not fraction or any(c not in "零〇一二三四五六七八九" for c in fraction) or len(integer) != 1:
            return ()
        digits = "".join(str(_CN_DIGIT_VALUE[c]) for c in fraction)
        return (float(Decimal(f"{int(integer[0])}.{digits}") * big),)
    if run in _CN_DIGIT_VALUE:
        return (float(_CN_DIGIT_VALUE[run]),)
    value = _unit_numeral(run)
    return (value,) if value is not None else ()


_EN_DIGITS = {w: str(i) for i, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                                                "nine"))} | {"oh": "0"}


@lru_cache(maxsize=4096)
def english_value(run: str) -> tuple[float, ...]:
    """The value of a run of English number words (text2num; "a hundred" is one hundred); () if it is not one."""
    from text_to_num import text2num

    words = re.sub(r"^an?\s+", "one ", run.lower()).replace(",", " ")
    whole, _, decimals = words.partition(" point ")
    digits = "".join(_EN_DIGITS[d] for d in decimals.split())
    try:
        value = text2num(whole, "en")
    except ValueError:
        return ()
    return (float(Decimal(f"{value}.{digits}")) if digits else float(value),)


def _split_english(text: str, start: int, end: int) -> list[Numeral]:
    """A run text2num refuses as a whole ("three and four"): its pieces between "and", each read whole. None when a
    piece is no number or has a scale word ("one fifty", "five and six hundred": unclear)."""
    found: list[Numeral] = []
    begin = start
    for cut in [*re.finditer(r"\s+and\s+", text[start:end], re.IGNORECASE), None]:
        stop = start + cut.start() if cut is not None else end
        words = text[begin:stop]
        value = english_value(words)
        if not value or _SCALE_WORD_RE.search(words):
            return []
        found.append(Numeral(begin, stop, value, "en"))
        begin = start + cut.end() if cut is not None else end
    return found if len(found) > 1 else []


def _scaled_value(run: str) -> tuple[float, ...]:
    """1.2k, 3K, 2 thousand, 1.5 million: digits times the scale after them."""
    match = re.match(rf"({_ARABIC})\s*([a-z]+)", run, re.IGNORECASE)
    assert match is not None
    return (float(Decimal(match[1].replace(",", "")) * _EN_SCALES[match[2].lower()]),)


def _halved_value(run: str) -> tuple[float, ...]:
    """"seven and a half grand" (7500), "2 and a half thousand" (2500), "seven grand" (7000)."""
    match = re.match(r"(.+?)\s+(?:and\s+a\s+(half)\s+)?([a-z]+)$", run.strip(), re.IGNORECASE)
    assert match is not None
    head = match[1].replace(",", "")
    whole = float(head) if head[0].isdigit() else (english_value(head) or (0.0,))[0]
    if not whole:
        return ()
    return ((whole + (0.5 if match[2] else 0.0)) * _EN_SCALES[match[3].lower()],)


def negative_from(text: str, start: int) -> int | None:
    """Where a minus sign (-, 负, "minus", "negative") right before `start` begins, or None. A dash glued to a word
    (COVID-19) or after another number ("3-5", "3 - 5") is no sign."""
    sign = _SIGN_RE.search(text, max(0, start - 10), start)
    if sign is None:
        return None
    if sign.group() in "-−–—" and sign.start() > 0:
        glued = text[sign.start() - 1]
        spaced = text[: sign.start()].rstrip(" \t")[-1:]
        if glued.isascii() and glued.isalnum() or glued in ".-" or spaced and spaced in _NUMERAL_CHARS:
            return None
    return sign.start()


def _value_of(kind: str, run: str) -> tuple[float, ...]:
    """The value(s) of a numeral found as `kind` (a group of `NUMERAL_RE`); () when it is not one number."""
    if kind == "arabic":
        return (_arabic_value(run),)
    if kind == "scaled":
        return _scaled_value(run)
    if kind == "halved":
        return _halved_value(run)
    if kind == "cn":
        return chinese_value(run)
    if kind == "en":
        return english_value(run)
    value = _unit_numeral(run)  # mixed: 6千8百, 1万2千, 1.5万
    return (value,) if value is not None else ()


def find_numerals(text: str) -> list[Numeral]:
    """Every numeral in `text` (already masked where nothing should be read), left to right; two numerals with
    nothing or only spaces between them ("6 800", "1万 2千") are one expression this cannot read, and neither is
    returned."""
    masked = _NOT_NUMBERS_RE.sub(lambda m: MASK * len(m.group()), text)
    found: list[Numeral] = []
    for match in NUMERAL_RE.finditer(masked):
        kind = match.lastgroup or ""
        start, end = match.span()
        run = match.group()
        if kind == "cn" and _is_weekday(masked, start, end):
            continue
        if kind == "en" and run.lower() == "one" and _is_pronoun_one(masked, start, end):
            continue
        if kind == "en" and _POINT_BEFORE_RE.search(masked, max(0, start - 8), start):
            continue  # "point six": a fraction whose whole was left out, no number read
        values = _value_of(kind, run)
        if kind == "en" and not values:
            found.extend(_split_english(masked, start, end) or [Numeral(start, end, (), kind)])
            continue
        sign = negative_from(masked, start) if values else None
        if sign is not None:
            start, values = sign, tuple(-v for v in values)
        found.append(Numeral(start, end, values, kind))  # one with no value spoils its neighbours, then goes
    return _without_runs(masked, found)


def _without_runs(text: str, found: list[Numeral]) -> list[Numeral]:
    """The numerals, less the unreadable ones, those that run into a neighbour with nothing or only spaces between,
    and those joined to an unreadable one as a range ("9到10千元": neither end is read)."""
    spoiled = set()
    for index in range(len(found) - 1):
        first, second = found[index], found[index + 1]
        if _RUN_GAP_RE.fullmatch(text, first.end, second.start) or (
            not (first.values and second.values) and _RANGE_GAP_RE.fullmatch(text, first.end, second.start)
        ):
            spoiled |= {index, index + 1}
    return [n for i, n in enumerate(found) if i not in spoiled and n.values]


def _is_weekday(text: str, start: int, end: int) -> bool:
    """周三, 星期五, 礼拜天: a weekday's name, not a number."""
    return end - start == 1 and text[max(0, start - 2) : start].endswith(("周", "星期", "礼拜"))


def _is_pronoun_one(text: str, start: int, end: int) -> bool:
    """"an urgent one", "which one", "this one": "one" standing for a thing, not a count."""
    return bool(_PRONOUN_ONE_RE.search(text[:start])) and not _COUNTED_ONE_RE.match(text[end:])
