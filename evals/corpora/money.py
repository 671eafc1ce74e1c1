"""The money corpus: amounts written every way people write them, in Chinese and English sentences of expense claims."""

from __future__ import annotations

import random
from collections.abc import Callable

from evals.corpora.phrasing import Lang, Phrasing, Sentences, Style, fill
from evals.corpora.spell import (
    ZH_DIGITS,
    decimal_of,
    en_hundreds_count,
    en_number,
    grouped,
    spaced,
    zh_count,
    zh_mixed,
    zh_mixed_short,
    zh_number,
    zh_short,
)

SENTENCES: dict[Lang, Sentences] = {
    "zh": Sentences(
        openings=("", "", "你好，", "麻烦", "帮个忙，", "我想", "请帮我"),
        cores=(
            "报销{}差旅费", "报销{}的打车费", "上周出差花了{}，帮我提报销", "报销餐费{}", "报销金额{}，类别是差旅",
            "{}的机票，帮我报一下", "这次去上海的住宿费是{}，请帮我报销", "申请报销：办公用品{}", "提交一个报销，金额{}",
            "打车花了{}，能报吗", "报销{}", "昨天请客户吃饭花了{}，走报销流程", "把上个月的培训费{}报了",
            "团建聚餐一共花了{}，报在餐饮类", "买打印纸和墨盒花了{}，要报销", "报一下高铁票，{}",
        ),
        closes=("", "", "。", "，谢谢", "，李四审批", "，审批人王五", "，尽快处理一下", "，发票已经上传了", "！"),
    ),
    "en": Sentences(
        openings=("", "", "Hi, ", "Hey, ", "Quick one: ", "Please ", "Could you "),
        cores=(
            "file an expense claim for {}", "I spent {} on taxis last week, can you submit a reimbursement?",
            "reimburse {} for the client dinner", "Expense: {}, category travel", "I need to claim {} for the hotel",
            "the flight cost {}; please file the claim", "put in a reimbursement of {}", "claim {} for office supplies",
            "{} for the team lunch yesterday, please reimburse it", "my train tickets came to {}. File it under travel",
            "submit my conference fee of {}", "the printer toner was {}, expense it please",
            "log {} for the Shanghai trip", "I paid {} for the training course",
        ),
        closes=("", "", ".", " Thanks!", ", thanks", ". Li Si approves.", " - Wang Wu is the approver.", "!"),
    ),
}


def any_amount(rng: random.Random) -> float:
    """A whole amount: tens (15 %), hundreds and thousands (50 %), tens of thousands and more (35 %)."""
    draw = rng.random()
    if draw < 0.15:
        return rng.randint(1, 99)
    if draw < 0.65:
        return rng.randint(100, 9999)
    return rng.randint(10000, 500000)


def two_figures(rng: random.Random) -> float:
    """An amount of two leading figures, as the short forms say them: 2300, 12000, 330, 125000."""
    unit = rng.choice((100, 1000, 10000))
    head = rng.randint(1, 99 if unit == 10000 else 9)
    return head * unit + rng.randint(1, 9) * unit // 10


def round_amount(rng: random.Random) -> float:
    """An amount people write with 千, 百 and 万: 6800, 12000, 3000, 125000, 500."""
    unit = rng.choice((100, 1000, 10000))
    head = rng.randint(1, 9) if unit < 10000 else rng.randint(1, 99)
    return head * unit + (rng.randint(0, 9) * unit // 10 if rng.random() < 0.7 else 0)


def tenths_of(unit: int) -> Callable[[random.Random], float]:
    """An amount of `unit`s with one decimal (1.2万 is 12000, 1.5k 1500)."""

    def value(rng: random.Random) -> float:
        return rng.randint(10, 999) * unit // 10

    return value


def with_cents(rng: random.Random) -> float:
    """An amount with cents: 86.5, 1234.75."""
    return rng.randint(100, 999999) / 100 if rng.random() < 0.7 else rng.randint(1, 9999) + 0.5


def with_coins(rng: random.Random) -> float:
    """Yuan and 毛: 86.5, 3.5, 2.5 (and the 分 now and then: 3.52)."""
    cents = rng.randint(1, 9) * 10 + (rng.randint(1, 9) if rng.random() < 0.2 else 0)
    return (rng.randint(1, 199) * 100 + cents) / 100


def coins_only(rng: random.Random) -> float:
    return rng.randint(1, 9) / 10


def negative(rng: random.Random) -> float:
    return -any_amount(rng)


def _coins(value: float, rng: random.Random) -> str:
    """八十六块五, 三块五毛, 两块五毛钱, 86块5, 3块5毛, 三块五毛二, 三块零五."""
    cents = round(value * 100)
    yuan, rest = divmod(cents, 100)
    jiao, fen = divmod(rest, 10)
    arabic = rng.random() < 0.3
    head = f"{yuan}块" if arabic else f"{zh_count(yuan)}块"

    def digit(d: int) -> str:
        return str(d) if arabic else ("两" if d == 2 and rng.random() < 0.5 else ZH_DIGITS[d])

    if fen:
        return f"{head}{digit(jiao)}毛{digit(fen)}" if jiao else f"{head}零{digit(fen)}"
    return head + digit(jiao) + rng.choice(("", "毛", "毛钱", "", "毛"))


def _digits(suffix: str) -> Style:
    return Style("zh", f"digits{suffix}", any_amount, lambda v, r: f"{int(v)}{suffix}")


STYLES: tuple[Style, ...] = (
    _digits("元"),
    _digits("块"),
    _digits("块钱"),
    Style("zh", "¥ digits", any_amount, lambda v, r: f"{r.choice('¥￥')}{int(v)}"),
    Style("zh", "RMB / 人民币 digits", any_amount,
          lambda v, r: r.choice((f"RMB{int(v)}", f"RMB {int(v)}", f"人民币{int(v)}元", f"{int(v)}元人民币"))),
    Style("zh", "grouped 元", any_amount, lambda v, r: f"{grouped(v)}{r.choice(('元', '块', '块钱'))}"),
    Style("zh", "grouped with spaces 元", any_amount, lambda v, r: f"{spaced(v)}{r.choice(('元', '块', ' 元'))}"),
    Style("zh", "decimal 元", with_cents, lambda v, r: r.choice((f"{v:.2f}元", f"{v:g}元", f"¥{v:.2f}"))),
    Style("zh", "Chinese 元", any_amount, lambda v, r: f"{zh_number(int(v), liang=r.random() < 0.5)}元"),
    Style("zh", "Chinese 块", any_amount, lambda v, r: f"{zh_count(int(v))}{r.choice(('块', '块钱'))}"),
    Style("zh", "Chinese short, bare", two_figures, lambda v, r: zh_short(int(v)) or ""),
    Style("zh", "Chinese, bare", any_amount, lambda v, r: zh_number(int(v), liang=True)),
    Style("zh", "digits 千百万 元", round_amount, lambda v, r: f"{zh_mixed(int(v))}{r.choice(('元', '块', ''))}"),
    Style("zh", "digits 千/万 short, bare", two_figures, lambda v, r: zh_mixed_short(int(v)) or zh_mixed(int(v)) or ""),
    Style("zh", "1.5万", tenths_of(10000), lambda v, r: f"{decimal_of(int(v), 10000)}万{r.choice(('元', '块', ''))}"),
    Style("zh", "1.2k", tenths_of(1000), lambda v, r: r.choice((f"{decimal_of(int(v), 1000)}k", f"¥{decimal_of(int(v), 1000)}k",
                                                              f"{decimal_of(int(v), 1000)}K"))),
    Style("zh", "块 and 毛", with_coins, _coins),
    Style("zh", "毛 alone", coins_only, lambda v, r: f"{ZH_DIGITS[round(v * 10)]}{r.choice(('毛', '毛钱', '角', '角钱'))}"),
    Style("zh", "digits, bare", any_amount, lambda v, r: str(int(v))),
    Style("zh", "negative", negative,
          lambda v, r: r.choice((f"{int(v)}元", f"负{zh_number(-int(v), liang=True)}元", f"-¥{-int(v)}", f"负{-int(v)}块"))),
    Style("en", "digits yuan", any_amount,
          lambda v, r: r.choice((f"{int(v)} yuan", f"{int(v)} RMB", f"{int(v)} kuai", f"{int(v)} CNY", f"{int(v)}rmb"))),
    Style("en", "¥ / RMB digits", any_amount, lambda v, r: r.choice((f"¥{int(v)}", f"RMB {int(v)}", f"CNY {int(v)}"))),
    Style("en", "bucks", any_amount, lambda v, r: f"{int(v)} bucks"),
    Style("en", "grouped", any_amount, lambda v, r: r.choice((f"{grouped(v)} yuan", f"¥{grouped(v)}", f"RMB {grouped(v)}"))),
    Style("en", "grouped with spaces", any_amount,
          lambda v, r: r.choice((f"{spaced(v)} yuan", f"¥{spaced(v)}", f"RMB {spaced(v)}", f"{spaced(v)} bucks"))),
    Style("en", "decimal", with_cents, lambda v, r: r.choice((f"{v:.2f} yuan", f"¥{v:.2f}", f"RMB {v:g}"))),
    Style("en", "words", any_amount,
          lambda v, r: f"{en_number(int(v), british=r.random() < 0.4, hyphen=r.random() < 0.8, article=r.random() < 0.3)} "
                       f"{r.choice(('yuan', 'RMB', 'bucks', 'kuai'))}"),
    Style("en", "hundreds", lambda r: r.randint(11, 99) * 100 + (r.randint(1, 99) if r.random() < 0.2 else 0),
          lambda v, r: f"{en_hundreds_count(int(v)) or en_number(int(v))} {r.choice(('yuan', 'bucks', 'RMB'))}"),
    Style("en", "1.2k", tenths_of(1000),
          lambda v, r: r.choice((f"¥{decimal_of(int(v), 1000)}k", f"{decimal_of(int(v), 1000)}k yuan",
                                 f"{decimal_of(int(v), 1000)}k RMB", f"{decimal_of(int(v), 1000)}k bucks"))),
    Style("en", "digits thousand", lambda r: r.randint(1, 99) * 1000,
          lambda v, r: f"{int(v) // 1000} thousand {r.choice(('yuan', 'RMB', 'bucks'))}"),
    Style("en", "digits, bare", any_amount, lambda v, r: r.choice((str(int(v)), grouped(v)))),
    Style("en", "words, bare", any_amount, lambda v, r: en_number(int(v), british=r.random() < 0.4)),
    Style("en", "negative", negative,
          lambda v, r: r.choice((f"minus {-int(v)} yuan", f"{int(v)} RMB", f"-¥{-int(v)}", f"negative {-int(v)} yuan"))),
)


def money_phrasings(rng: random.Random, per_style: int) -> list[Phrasing]:
    """`per_style` expense-claim sentences for each way of writing an amount."""
    return fill("money", STYLES, SENTENCES, rng, per_style)
