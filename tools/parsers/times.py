"""Times of day as people write them, in Chinese or English: 15:30, 下午3点半, 3pm.

A Chinese numeral before 点 is a time only with a part of the day before it or its minutes after it (下午三点, 三点半):
"有三点需要注意" is three points. A part of the day that is the afternoon or evening (下午, 晚上, pm) moves an hour
before 12 on by 12.
"""

from __future__ import annotations

import re

_TIME = re.compile(
    r"(?:(?P<half>上午|下午|早上|中午|晚上|凌晨|傍晚)[ \t]*)?(?<![\d.])(?P<h>[01]?\d|2[0-3])[:：](?P<m>[0-5]\d)(?!\d)"
    r"(?:[ \t]*(?P<ampm>[ap]\.?m\.?)(?![a-z]))?"
    r"|(?:(?P<half2>上午|下午|早上|中午|晚上|凌晨|傍晚)[ \t]*)?(?P<h2>\d{1,2}|[一二两三四五六七八九十]{1,3})[ \t]*点"
    r"(?:[ \t]*(?P<m2>半|\d{1,2}[ \t]*分|[一二三四五六七八九十]{1,3}[ \t]*分))?"
    r"|\b(?P<h3>1[0-2]|0?[1-9])[ \t]*(?P<ampm3>[ap]\.?m\.?)(?![a-z])",
    re.IGNORECASE,
)
_AFTERNOON = ("下午", "晚上", "傍晚", "pm", "p.m.", "p.m", "pm.")
_CN_SMALL = {c: i for i, c in enumerate("零一二三四五六七八九十")} | {"两": 2}


def _cn_small(text: str) -> int:
    """一 … 二十四 (an hour or a minute written in Chinese)."""
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (_CN_SMALL.get(tens, 1) if tens else 1) * 10 + (_CN_SMALL.get(ones, 0) if ones else 0)
    return _CN_SMALL.get(text, 0)


def times_in(text: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every time of day (15:30, 下午3点半, 3pm) as (span, (hour, minute)). A Chinese numeral before 点 is a time only
    with a part of the day before it or its minutes after it (下午三点, 三点半; 有三点 is three points)."""
    found: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for match in _TIME.finditer(text):
        if match["h"] is not None:
            hour, minute, half = int(match["h"]), int(match["m"]), match["half"] or match["ampm"]
        elif match["h2"] is not None:
            minute_words = match["m2"] or ""
            if not match["h2"].isdigit() and not (match["half2"] or minute_words):
                continue
            minute = 30 if minute_words == "半" else _cn_small(minute_words.rstrip("分 \t")) if minute_words else 0
            hour, half = _cn_small(match["h2"]), match["half2"]
        else:
            hour, minute, half = int(match["h3"]), 0, match["ampm3"]
        if hour > 24 or minute > 59:
            continue
        if half is not None and half.lower() in _AFTERNOON and hour < 12:
            hour += 12
        found.append((match.span(), (hour % 24, minute)))
    return found
