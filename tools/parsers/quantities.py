"""Quantities: a numeral with what it counts (days, hours, weeks, months, yuan), alone, or counting something else.

"两天半" is 2.5 days, "一个半小时" 1.5 hours, "half a day" 0.5 days, "a day and a half" 1.5 days, "¥1200", "6,800 块"
and 三块五 amounts of money (`tools.parsers.money`). English "a"/"an" counts one only in front of a unit ("take a day
off", "an hour"): alone ("had an operation") it is no number. A numeral that is part of a date was taken by the date
before.

A number with no unit is "none" (bare: "报销两千三", "spent 6800 on flights"), unless what stands around it says it
counts something else ("other"): a counter (三张发票, "5 taxis", 3km, 2026年), another currency or a rate ($40, 每人50),
an id or an ordinal (航班1234, room 1203, 第3), a time or a percentage (3:30, 5%), or a sum (3 x 200); English "one"
alone is a pronoun as often as a number ("Quick one:", "the blue one"). A number said to be
more or less than it is (两千多, 十来天, 500+, 不到500, "over 500", "nearly 3 days") states no value and is not read.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from tools.parsers.money import CurrencyBefore, Money, coins, currency_before, is_rate_before, money_after
from tools.parsers.numerals import Numeral, find_numerals
from tools.parsers.text import mask_spans

Unit = Literal["day", "hour", "week", "month", "yuan", "none", "other"]


@dataclass(frozen=True)
class Quantity:
    """A number the person stated, with its unit ("none" for a bare number, "other" for one that counts something
    this package does not read) and where it is in the text."""

    value: float
    unit: Unit
    text: str
    start: int
    end: int


_ZH_UNITS = r"个?工作日|个?工作天|天|个?星期|个?礼拜|周(?![一二三四五六日天末])|个月|月|个?小时|个?钟头|个钟"
_EN_UNITS = (
    r"(?:(?:more|extra|additional|further|working|business|calendar|full|whole|sick|personal|vacation|holiday|annual|"
    r"leave|comp|compensatory|pto|paid|unpaid|off)[\s-]+){0,2}(?:days?|weeks?|months?)|hours?|hrs?"
)
_ZH_AFTER_RE = re.compile(rf"\s*(?P<ge>个)?(?:整个?)?(?P<half1>半)?(?P<unit>{_ZH_UNITS})(?P<half2>半(?![夜路价]))?")
_EN_AFTER_RE = re.compile(
    rf"(?P<half1>\s+and\s+a\s+half)?[\s-]*(?P<halves>half[\s-]+)?(?P<unit>{_EN_UNITS})\b(?P<half2>\s+and\s+a\s+half\b)?",
    re.IGNORECASE,
)
"""A unit of time after an English numeral: "3 days", "two comp days", "2 PTO days", "three half days" (1.5), "two
more days" (an extension's own length)."""
_ZH_HALF_RE = re.compile(r"半个?(?P<unit>天|日|个?星期|个?礼拜|周|月|小时|钟头|工作日)")
_EN_KINDS = (r"(?:(?:full|whole|single|extra|working|business|sick|personal|vacation|holiday|annual|leave|comp|compensatory|pto|"
             r"paid|unpaid|lieu|rest)[\s-]+)?")
_EN_HALF_RE = re.compile(rf"\bhalf[\s-]+(?:an?[\s-]+)?{_EN_KINDS}(?P<unit>day|hour|week|month)s?\b", re.IGNORECASE)
_EN_ARTICLE_RE = re.compile(
    rf"\b(?<!half\s)(?P<art>an?)[\s-]+{_EN_KINDS}(?P<unit>day|hour|week|month)s?\b(?P<half>\s+and\s+a\s+half\b)?",
    re.IGNORECASE,
)
_COUNT_RANGE_RE = re.compile(r"\s*(?:or|to|-|–|~|到|至|或)\s*", re.IGNORECASE)
_RATE_BEFORE_RE = re.compile(r"\b(?:once|twice|times|per|every)\s+$", re.IGNORECASE)

_OPEN_AFTER_RE = re.compile(
    r"\s*(?:多(?!少|谢|久)|余(?!额|下)|来(?=\s*(?:[天块元个周万千百十岁]|小时|$))|几|出头|以上|以下|以内|之内|封顶|"
    r"\+|-?ish\b|-odd\b|\s+odd\b|\s+or\s+(?:more|less|so|fewer)\b|\s+and\s+up\b|\s+(?:max|tops|at\s+most|at\s+least)\b)",
    re.IGNORECASE,
)
"""两千多, 十来天, 一千几, 500+, "500-ish", "3 or more days", "500 max": more or less than the number said."""
_BOUND_BEFORE_RE = re.compile(
    r"(?:不到|不足|不超过|不多于|不少于|超过|多于|少于|低于|高于|大于|小于|将近|接近|近|小|至少|最多|最少|约莫|"
    r"大概|大约|约|差不多|估计|可能是?|也许是?|或许是?|左右是|"
    r"\b(?:over|under|more\s+than|less\s+than|fewer\s+than|at\s+least|at\s+most|up\s+to|nearly|almost|below|above|"
    r"exceeding|no\s+more\s+than|no\s+less\s+than|a\s+few|a\s+couple(?:\s+of)?|several|some|about|around|"
    r"approximately|approx\.?|roughly|maybe|perhaps|possibly|probably|circa|or\s+so)|~|约)\s*$",
    re.IGNORECASE,
)
"""不到500, "over 500", "nearly 3 days": a bound, not the value; 大概1200, 也可能是一千二, "about 500", "maybe 3 days": a
guess, not the value (asked)."""
_COUNTERS = (
    "个位名口只条头匹张本册件套双对副台辆架艘部家间栋座层楼次回趟遍顿场份杯瓶碗盘盒包袋箱桶罐斤克吨米里尺寸公年岁号"
    "月日周点分秒刻倍成折期届批组支把根颗粒片项笔单晚夜站路种样类级人度行页章节题道门科所封首句字两"
    "沓叠摞堆捆串束扎排幅棵朵滴些阵通轮拨声"
)
_COUNTED_AFTER_RE = re.compile(rf"\s*[大小整满]?[{_COUNTERS}%‰℃°]|[A-Za-z]|[:：/]\d|\s*[×*xX]\s*\d")
"""三张, 一大沓, 3km, 2nd, 5%, 3:30, 3/4, 3 x 200: the number counts something, or is part of something else."""
_COUNTED_BEFORE_RE = re.compile(
    r"(?:编号|单号|工号|订单号?|发票号码?|航班号?|房间号?|房号|车次|座位号?|电话|手机号?|号码|尾号|卡号|账号|第|百分之|千分之|"
    r"#|\bno\.|\b(?:flight|room|order|invoice|ticket|seat|gate|platform|bus|line|phone|tel|ext|number|ref|id|version)"
    r"\b\s*[:：#]?|\d[:：]|[+×*/=]|\bx)\s*$|[A-Za-z]$|\d度$",
    re.IGNORECASE,
)
"""航班1234, room 1203, 第3, x200, 3:30's 30, 500+300's 300: an id, an ordinal, or part of a time or a sum."""
_EN_WORD_AFTER_RE = re.compile(r"\s+(?P<word>[A-Za-z]+)")
_BARE_FOLLOWERS = frozenset(
    "on for in at to from and or but with by as total altogether overall yesterday today tomorrow tonight last this "
    "that these please pls plz thanks thx thank so because since which if when i we you it he she they me us is was "
    "were are be been will would should could can may might the already then now too also only just ok okay right all "
    "spent paid back including incl plus after before during via through flat even exactly cash again not no yet "
    "here there without minus less excluding instead rather than into over under about around roughly max tops".split()
)
"""English words after a bare number that leave it bare ("spent 6800 on flights", "claim 500 for taxis", "make it 1,050
without the minibar"); before any other word ("5 taxis", "3 nights"), a number counts that word."""


def _unit_of(word: str) -> Unit:
    word = word.lower()
    if "小时" in word or "钟" in word or word.startswith(("hour", "hr")):
        return "hour"
    if "月" in word or word.endswith(("month", "months")):
        return "month"
    if word.endswith(("周", "星期", "礼拜", "week", "weeks")):
        return "week"
    return "day"


def _plus(value: float, extra: Decimal) -> float:
    """`value` and a part more (a half day, the coins after the yuan), away from zero: 负一天半 is -1.5."""
    exact = Decimal(str(value))
    return float(exact - extra if value < 0 else exact + extra)


def find_quantities(text: str, original: str | None = None) -> list[Quantity]:
    """Every quantity in `text` (folded and masked), its `text` taken from `original` (the text as written)."""
    original = text if original is None else original
    found: list[Quantity] = []
    taken: list[tuple[int, int]] = []

    def add(value: float, unit: Unit, start: int, end: int) -> None:
        found.append(Quantity(value, unit, original[start:end], start, end))
        taken.append((start, end))

    numerals = find_numerals(text)
    reached = 0
    for index, numeral in enumerate(numerals):
        if numeral.start < reached:
            continue  # the coins of 三块五毛, or a number 八十六块五十 left unread
        following = numerals[index + 1] if index + 1 < len(numerals) else None
        reached = _read_numeral(text, numeral, add, following)
        taken.append((numeral.start, reached))
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
    return _corrected(sorted(found, key=lambda q: (q.start, q.value)), text)


_CUE = (r"(?:哦|噢|啊|呃)?(?:不对|不是|错了|说错了|写错了|更正(?:一下)?|纠正一下|我是说|应该是)|no(?:\s+wait)?|not|wait|"
        r"sorry|oops|I\s+mean|make\s+(?:that|it)|or\s+rather|rather|correction|scratch\s+that|my\s+bad")
_CORRECTION_RE = re.compile(
    rf"(?:\s+off\b)?[\s,，.。;；:：!！—–-]*(?:{_CUE})"
    rf"(?:[\s,，.。;；:：!！—–-]*(?:{_CUE}|no|是|it'?s|it\s+was|actually))*[\s,，.。;；:：!！—–-]*",
    re.IGNORECASE,
)
"""Words that take back the number just said for the next one ("320 yuan, no wait, 350", 320元，哦不对，是350)."""
_NOT_THIS = re.compile(r"(?:不是|\bnot)[\s,，:：]*$", re.IGNORECASE)
"""Correction words that end in a negation say the next number is not it ("金额是1080，不是1280")."""


def _corrected(found: list[Quantity], text: str) -> list[Quantity]:
    """The quantities with each one the person took back in the same breath left out: the number after the correction
    is the one meant, in the unit of the one it corrects when it has none ("320 yuan, no wait, 350" is 350 yuan; "三百二，
    不对，是四百五" is 450 with no unit, as 三百二 was)."""
    kept: list[Quantity] = []
    for quantity in found:
        last = kept[-1] if kept else None
        if last is not None and (quantity.unit == last.unit or "none" in (quantity.unit, last.unit)) and \
                _CORRECTION_RE.fullmatch(text, last.end, quantity.start):
            if _NOT_THIS.search(text, last.end, quantity.start):
                continue  # "1080，不是1280": the one said not to be it is no value
            unit = quantity.unit if quantity.unit != "none" else last.unit
            kept[-1] = Quantity(quantity.value, unit, quantity.text, quantity.start, quantity.end)
            continue
        kept.append(quantity)
    return kept


def _unit_after(text: str, end: int) -> re.Match[str] | None:
    """The Chinese or English unit of time right after a numeral that ends at `end`, if any."""
    zh = _ZH_AFTER_RE.match(text, end)
    if zh and zh["unit"] == "月" and not (zh["ge"] or zh["half1"]):
        zh = None  # 3月 is March; a month count is 三个月 (or 一个半月)
    return zh or _EN_AFTER_RE.match(text, end)


Add = Callable[[float, Unit, int, int], None]


def _read_numeral(text: str, numeral: Numeral, add: Add, following: Numeral | None) -> int:
    """One numeral: with the unit after it, the currency after or before it, else a bare number or one that counts
    something else; nothing when it is said to be more or less than it is. Gives back where what it read ends."""
    start, end = numeral.start, numeral.end
    before = currency_before(text, start)
    lead = before.start if before else start
    if _BOUND_BEFORE_RE.search(text, max(0, lead - 16), lead) or _OPEN_AFTER_RE.match(text, end):
        return end
    money = money_after(text, end) or coins(text, end, numeral.values[0])
    if money is not None:
        return _read_money(text, numeral, money, before, add, following)
    time = _unit_after(text, end)
    if time is not None:
        if _OPEN_AFTER_RE.match(text, time.end()):
            return time.end()  # 两天多: more than two days
        groups = time.groupdict()
        if groups.get("ge") and groups.get("half1") and time["unit"] == "天":
            return time.end()  # 三个半天: three half days, or three days and a half? Asked
        half = Decimal("0.5") if (time["half1"] or time["half2"]) else Decimal(0)
        for value in numeral.values:
            if groups.get("halves"):  # "three half days": one and a half
                add(float(Decimal(str(value)) * Decimal("0.5")), _unit_of(time["unit"]), start, time.end())
            else:
                add(_plus(value, half), _unit_of(time["unit"]), start, time.end())
        return time.end()
    if before is not None:
        for value in numeral.values:
            add(-value if before.negative else value, "yuan" if before.yuan else "other", lead, end)
        return end
    if following is not None and _COUNT_RANGE_RE.fullmatch(text, end, following.start):
        shared = _read_range_of(text, numeral, following, add)
        if shared is not None:
            return shared
    counted = _counts_something(text, start, end) or text[start:end].lower() == "one"
    for value in numeral.values:
        add(value, "other" if counted else "none", start, end)
    return end


def _read_money(
    text: str, numeral: Numeral, money: Money, before: CurrencyBefore | None, add: Add, following: Numeral | None
) -> int:
    """A numeral with its currency after it: yuan and its coins (三块五), or another currency or a rate ("other"); no
    amount when what follows is unclear (八十六块五十) or says more (三块多)."""
    if money.kind == "unclear" or _OPEN_AFTER_RE.match(text, money.end):
        return following.end if following is not None and following.start <= money.end else money.end
    lead = before.start if before else numeral.start
    yuan = money.kind == "yuan" and (before is None or before.yuan) and not is_rate_before(text, lead)
    for value in numeral.values:
        negative = (value < 0) != bool(before and before.negative)  # -500元, 负五毛, -¥500
        amount = (Decimal(str(abs(value))) if money.counts_yuan else Decimal(0)) + Decimal(money.cents) / 100
        add(float(-amount if negative else amount), "yuan" if yuan else "other", lead, money.end)
    return money.end


def _read_range_of(text: str, numeral: Numeral, following: Numeral, add: Add) -> int | None:
    """The first of two counts joined by "or", "to", "-" or 到 takes the unit of the second ("one or two days",
    三到五天); two amounts so joined are none (两到三千元: neither 2 nor 3000 yuan). None when the second has no unit."""
    money = money_after(text, following.end)
    if money is not None:
        add(numeral.values[0], "other", numeral.start, numeral.end)
        add(following.values[0], "other", following.start, money.end)
        return money.end
    shared = _unit_after(text, following.end)
    if shared is None:
        return None
    for value in numeral.values:
        add(value, _unit_of(shared["unit"]), numeral.start, numeral.end)
    return numeral.end


def _counts_something(text: str, start: int, end: int) -> bool:
    """A number with no unit that counts something else, or is part of an id, a time or a sum (see the module)."""
    if _COUNTED_AFTER_RE.match(text, end) or _COUNTED_BEFORE_RE.search(text, max(0, start - 12), start):
        return True
    if is_rate_before(text, start):
        return True
    word = _EN_WORD_AFTER_RE.match(text, end)
    return word is not None and word["word"].lower() not in _BARE_FOLLOWERS
