"""Phrasings that state no one value, which must be left unread: more or less than a number (两千多, "over 500"),
two numbers (两三千, 3到5天), no number (几百, "a few days"), another currency ($500), or digits that run on ("3 30元",
"1万 2千")."""

from __future__ import annotations

import random

from evals.corpora import days, money
from evals.corpora.phrasing import MAX_TRIES, Kind, Lang, Phrasing
from evals.corpora.spell import ZH_DIGITS, en_number, zh_count, zh_number


def numbers(rng: random.Random) -> dict[str, str]:
    """The numbers a shape below is filled with: an amount `n` (200 to 90000) and a small count `d` (2 to 9), written
    in the ways the shapes name."""
    n, d = rng.randint(2, 9) * 10 ** rng.randint(2, 4), rng.randint(2, 9)
    return {
        "n": str(n), "n_next": str(n + 100), "n_twice": str(n * 2), "n_zh": zh_number(n, liang=True),
        "d": str(d), "d_next": str(d + 1), "d_after": str(d + 2), "d_zh": zh_count(d), "tens_zh": zh_number(d * 10),
        "two_zh": f"{ZH_DIGITS[d - 1]}{ZH_DIGITS[d]}".replace("二", "两"), "d_en": en_number(d),
        "d_after_en": en_number(d + 2), "three_digits": str(rng.randint(100, 999)),
    }


WRITERS: tuple[tuple[Kind, Lang, str, tuple[str, ...]], ...] = (
    ("money", "zh", "more than (多, 来, 几, 以上)", ("{n_zh}多", "{n_zh}多块", "{n}多元", "{n_zh}来块", "{n}元以上", "一千几")),
    ("money", "zh", "bounds (不到, 超过, 将近)", ("不到{n}元", "超过{n}元", "将近{n}元", "小{n_zh}")),
    ("money", "zh", "two figures (两三千, 五六百)", ("{two_zh}千块", "五六百块", "{n}到{n_twice}元", "{d}到{d_next}千元")),
    ("money", "zh", "no number (几百, 上千)", ("几百块", "好几千", "上千块", "几千块钱", "成千上万")),
    ("money", "zh", "another currency", ("{n}美元", "${n}", "{n}欧元", "{n}港币")),
    ("money", "zh", "run-on digits", ("{d} {d}0元", "{d}万 {d_next}千元", "{d}.{d_next}.{d_after}元", "八十六块五十")),
    ("money", "en", "more than (+, ish, or more)", ("¥{n}+", "{n}-ish yuan", "{n} yuan or more", "{n} yuan max")),
    ("money", "en", "bounds (over, nearly, up to)", ("over {n} yuan", "nearly {n} yuan", "up to {n} yuan",
                                                     "less than {n} yuan")),
    ("money", "en", "two figures (500 or 600)", ("{n} or {n_next} yuan", "{n}-{n_twice} RMB")),
    ("money", "en", "no number (a few hundred)", ("a few hundred yuan", "several thousand RMB", "a couple hundred bucks",
                                                  "hundreds of yuan")),
    ("money", "en", "another currency", ("${n}", "{n} dollars", "€{n}", "{n} euros", "US${n}")),
    ("money", "en", "run-on words", ("one fifty yuan", "two fifty bucks", "{d} {d}0 yuan")),
    ("days", "zh", "more than (多, 来)", ("{tens_zh}多天", "{tens_zh}来天", "{d_zh}天多", "十几天")),
    ("days", "zh", "two figures (三五天, 3到5天)", ("{d}到{d_after}天", "三五天", "两三天", "{d}-{d_after}天")),
    ("days", "zh", "no number (几天)", ("几天", "好几天", "几个工作日")),
    ("days", "zh", "bounds (不超过, 至少)", ("不超过{d}天", "至少{d}天", "最多{d}天")),
    ("days", "en", "more than (+, or more)", ("{d}+ days", "{d} or more days")),
    ("days", "en", "two figures (3 or 4 days)", ("{d} or {d_next} days", "{d_en} to {d_after_en} days", "{d}-{d_after} days")),
    ("days", "en", "no number (a few days)", ("a few days", "several days", "a couple of days")),
    ("days", "en", "bounds (over, at least)", ("over {d} days", "at least {d} days", "more than {d} days", "up to {d} days")),
)
"""Each way of stating no one value: the kind of sentence it goes in, its language, its name and its shapes."""


def unclear_phrasings(rng: random.Random, per_style: int) -> list[Phrasing]:
    """Up to `per_style` different requests for each way of stating no one value, in the money and day-count
    sentences."""
    found: list[Phrasing] = []
    for kind, lang, name, shapes in WRITERS:
        sentences = (money.SENTENCES if kind == "money" else days.SENTENCES)[lang]
        seen: set[str] = set()
        for _ in range(per_style * MAX_TRIES):
            if len(seen) == per_style:
                break
            text = sentences.around(rng.choice(shapes).format(**numbers(rng)), rng)
            if text not in seen:
                seen.add(text)
                found.append(Phrasing(kind, lang, f"unclear: {name}", text, None))
    return found
