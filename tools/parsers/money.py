"""Money around a numeral: the yuan and its coins (块, 毛, 角, 分), currency signs and words, other currencies and rates.

A numeral is an amount in yuan when a currency follows it (元, 块, 块钱, 圆, yuan, RMB, CNY, kuai, bucks) or precedes
it (¥, ￥, RMB, CNY, 人民币). Chinese writes the coins after the yuan: 三块五毛 and 三块五 are 3.5, 八十六块五 86.5,
两块五毛钱 2.5, 三块零五 3.05, 五毛 0.5. What else follows the yuan decides whether it is money at all: 块 is also the
counter of pieces (三块蛋糕: three cakes), so followed by another word it is money only when that word goes with a sum
(的, 钱, 买, 报销…). A number in another currency ($40, 50 美元, 30 euros) or a rate (每人50元, 300 yuan a night) is
no amount in yuan, and a number after 块 that is no coin (八十六块五十) leaves the whole unread.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from tools.parsers.numerals import english_value, negative_from

_D = "一二三四五六七八九两"
_COIN_DIGIT = {c: i + 1 for i, c in enumerate("一二三四五六七八九")} | {"两": 2} | {str(i): i for i in range(1, 10)}
_COUNTERS = (
    "个位名口只条头匹张本册件套双对副台辆架艘部家间栋座层楼次回趟遍顿场份杯瓶碗盘盒包袋箱桶罐斤克吨米里尺寸公年岁号"
    "月日周点分秒刻倍成折期届批组支把根颗粒片项笔单晚夜站路种样类级人度行页章节题道门科所封首句字天"
)
_ZH_AFTER_RE = re.compile(
    rf"\s*(?P<unit>块|元|圆)"
    rf"(?:(?P<jiao>[{_D}1-9])(?P<jiao_unit>毛|角)(?:(?P<fen>[{_D}1-9])分?)?"
    rf"|零(?P<fen_only>[{_D}1-9])分?"
    rf"|(?P<bare_jiao>[{_D}1-9])(?![\d{_D}零〇十百千万亿.毛角{_COUNTERS}]))?"
    r"(?P<qian>钱)?(?:人民币)?"
)
_COINS_RE = re.compile(rf"\s*(?P<unit>毛|角)(?:(?P<fen>[{_D}1-9])分?)?(?P<qian>钱)?")
"""五毛, 五角, 五毛钱, 五毛五: coins alone, after a numeral of one digit."""
_EN_AFTER_RE = re.compile(r"[\s-]*(?:yuan(?:\s+renminbi)?|renminbi|rmb|cny|kuai|bucks?)\b", re.IGNORECASE)
_BEFORE_RE = re.compile(r"(?:[¥￥]|(?<![a-z])(?:rmb|cny|renminbi)\.?|人民币)\s*$", re.IGNORECASE)
_EN_COIN_RE = re.compile(
    r"(?:\s*,?\s+and)?\s+(?P<n>\d{1,2}|[a-z]+(?:-[a-z]+)?)[\s-]*(?P<coin>fen|jiao|mao|cents?)\b"
    r"|\s(?P<bare>\d{1,2}|[a-z]+(?:-[a-z]+)?)(?=\s*(?:$|[.;!?)]|,\s|\s(?:for|on|in|at|to|of|from|with|because|please|pls|"
    r"total|altogether|in\s+total|each|and|so|but)\b))",
    re.IGNORECASE,
)
"""The coins after an English amount: "86 yuan and 50 fen", "12 yuan 5 jiao", "86 yuan 50 cents"; "86 yuan 50" and
"twelve kuai five" said as Chinese says 八十六块五毛 (one digit is jiao, two are fen)."""
_FOREIGN_BEFORE_RE = re.compile(
    r"(?:US\$|HK\$|NT\$|S\$|A\$|C\$|[$€£₩₹]|\b(?:usd|eur|hkd|gbp|jpy|sgd|aud|cad|twd)\b)\s*$", re.IGNORECASE
)
_FOREIGN_AFTER_RE = re.compile(
    r"\s*(?:美元|美金|港币|港元|欧元|英镑|日元|韩元|台币|卢布|卢比|刀(?!子))"
    r"|[\s-]*(?:dollars?|usd|eur|euros?|hkd|gbp|pounds?|yen|jpy|cents?|pence|quid|sgd|aud|cad|twd)\b",
    re.IGNORECASE,
)
_RATE_AFTER_RE = re.compile(
    r"\s*(?:/|每|一(?=[天晚人次个位月周张份])|\b(?:per|each|apiece)\b|"
    r"\ba\s+(?:day|night|person|head|month|week|piece|time|trip|ticket)\b)",
    re.IGNORECASE,
)
_RATE_BEFORE_RE = re.compile(r"(?:每[人天日晚次个位月周张份]?|\b(?:per|each)\s+[a-z]+|\beach)\s*$", re.IGNORECASE)
_SUM_WORDS = (
    "的了吧呢啊呀哦嘛吗呗哈啦左多整给买打坐吃报还交付花用拿退补是不也都就已在和跟加再共等作当算请先转发到从及与或另外"
    "钱，。、！？；：,.!?;:)）】」』”’"
)
"""What may follow 块 when it is money (两千块的机票, 花了三块买水, 三块钱); any other word makes it a counter."""
_MONEY_NOUN_RE = re.compile(r"[\u4e00-\u9fff]{0,4}?(?:费|钱|款|票|账|额|补贴|报销|预算|房租|租金|工资|薪)")
"""报销6800块差旅费: after 块, a word of money (…费, …钱, …款, 机票) makes it money, not a counter."""


@dataclass(frozen=True)
class Money:
    """What the words around a numeral make of it: an amount in yuan (`cents` added after the yuan, 三块五: 50), an
    amount in another currency or a rate ("other"), or a phrase that cannot be read ("unclear"); `end` is where the
    phrase ends."""

    kind: Literal["yuan", "other", "unclear"]
    end: int
    cents: int = 0
    counts_yuan: bool = True
    """False for coins alone (五毛): the numeral counts the coins, not yuan."""


def money_after(text: str, end: int) -> Money | None:
    """The currency right after a numeral that ends at `end` (元, 块, 块钱, 三块五毛, yuan, bucks, 美元), or None."""
    if foreign := _FOREIGN_AFTER_RE.match(text, end):
        return Money("other", foreign.end())
    if english := _EN_AFTER_RE.match(text, end):
        return _with_rate(text, _en_coins(text, english.end()))
    zh = _ZH_AFTER_RE.match(text, end)
    if zh is None:
        return None
    follows = text[zh.end() : zh.end() + 1]
    if follows and (follows.isdigit() or follows in f"{_D}零〇十百千万亿"):
        return Money("unclear", zh.end())  # 八十六块五十, 三块五二: no coins as people say them
    cents = 0
    if zh["jiao"] or zh["bare_jiao"]:
        cents = 10 * _COIN_DIGIT[zh["jiao"] or zh["bare_jiao"]] + (_COIN_DIGIT[zh["fen"]] if zh["fen"] else 0)
    elif zh["fen_only"]:
        cents = _COIN_DIGIT[zh["fen_only"]]
    if (zh["unit"] == "块" and not (cents or zh["qian"]) and follows and _is_han(follows) and follows not in _SUM_WORDS
            and not _MONEY_NOUN_RE.match(text, zh.end())):
        return Money("other", zh.end())  # 三块蛋糕: 块 counts pieces
    return _with_rate(text, Money("yuan", zh.end(), cents))


def _en_coins(text: str, end: int) -> Money:
    """Yuan said in English that end at `end`, with the coins after them when their words say them (`_EN_COIN_RE`)."""
    match = _EN_COIN_RE.match(text, end)
    if match is None:
        return Money("yuan", end)
    said = match["n"] or match["bare"]
    values = english_value(said) if said[0].isalpha() else (float(said),)
    if len(values) != 1 or values[0] != int(values[0]) or not 1 <= values[0] <= 99:
        return Money("yuan", end)
    number, coin = int(values[0]), (match["coin"] or "").lower()
    if coin in ("jiao", "mao") or (not coin and (number < 10 and not said.startswith("0"))):
        return Money("yuan", match.end(), 10 * number) if number < 10 else Money("unclear", match.end())
    return Money("yuan", match.end(), number)


def coins(text: str, end: int, value: float) -> Money | None:
    """Coins alone after a numeral of one digit (五毛, 五角钱, 五毛五): their value in cents, or None."""
    match = _COINS_RE.match(text, end)
    if match is None or value != int(value) or not 1 <= abs(value) <= 9:
        return None
    cents = 10 * int(abs(value)) + (_COIN_DIGIT[match["fen"]] if match["fen"] else 0)
    return _with_rate(text, Money("yuan", match.end(), cents, counts_yuan=False))


@dataclass(frozen=True)
class CurrencyBefore:
    """A currency sign or word before a numeral (¥, RMB, 人民币; $, €, USD): yuan or not, where it starts (at its minus
    sign, if one stands before it: -¥500), and whether one does."""

    yuan: bool
    start: int
    negative: bool


def currency_before(text: str, start: int) -> CurrencyBefore | None:
    """The currency sign or word right before a numeral that starts at `start`, or None; a rate (每人¥50) is no yuan."""
    window = max(0, start - 12)
    if foreign := _FOREIGN_BEFORE_RE.search(text, window, start):
        return CurrencyBefore(False, foreign.start(), False)
    match = _BEFORE_RE.search(text, window, start)
    if match is None:
        return None
    sign = negative_from(text, match.start())
    begin = sign if sign is not None else match.start()
    return CurrencyBefore(not is_rate_before(text, begin), begin, sign is not None)


def is_rate_before(text: str, start: int) -> bool:
    """每人50元, "per night 300 yuan": the amount is a rate, not a sum."""
    return bool(_RATE_BEFORE_RE.search(text, max(0, start - 12), start))


def _with_rate(text: str, money: Money) -> Money:
    """The money, or "other" when a rate follows it (50元/天, 300 yuan a night, 100块一晚)."""
    if _RATE_AFTER_RE.match(text, money.end):
        return Money("other", money.end, money.cents, money.counts_yuan)
    return money


def _is_han(char: str) -> bool:
    return "\u3400" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff"
