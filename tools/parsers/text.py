"""Text preparation shared by the parsers: width folding and masking, both keeping every character's position."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

# Full-width ASCII (ＡＢＣ１２３：，) as people type it with a Chinese keyboard, folded to ASCII one for one, so
# every span found in the folded text is a span of the text as written. The ideographic space becomes a space.
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}
MASK = "\u2007"  # a figure space: no letter, digit or Han character, so no parser reads it


_CAPITALS = str.maketrans("壹贰貳叁參肆伍陆陸柒捌玖拾佰仟萬億圆圓", "一二二三三四五六六七八九十百千万亿元元")
_CAPITAL_RUN = re.compile(r"[壹贰貳叁參肆伍陆陸柒捌玖拾佰仟萬億零万亿]{2,}[圆圓元]?|[壹贰貳叁參肆伍陆陸柒捌玖拾佰仟][圆圓元]")
"""Chinese capital numerals as invoices write them (壹仟贰佰圆整): a run of two or more, or one before 圆 or 元 (拾元); a
capital alone in a word is a word (队伍, 大陆, 陆续). A run of everyday ones only (万亿) folds to itself."""


def fold_width(text: str) -> str:
    """The text with full-width ASCII folded to ASCII, and capital numerals to everyday ones (壹仟贰佰 → 一千二百); the
    same length, so positions carry over."""
    return _CAPITAL_RUN.sub(lambda m: m.group().translate(_CAPITALS), text.translate(_FULL_WIDTH))


def mask_words(text: str, words: Iterable[str]) -> str:
    """The text with each occurrence of `words` (longest first) replaced by as many mask characters."""
    pattern = _words_pattern(tuple(sorted({w for w in words if w and w.strip()})))
    return pattern.sub(lambda m: MASK * len(m.group()), text) if pattern is not None else text


@lru_cache(maxsize=64)
def _words_pattern(words: tuple[str, ...]) -> re.Pattern[str] | None:
    """One pattern for a set of words, the longest first (a directory's names are masked at every read)."""
    if not words:
        return None
    return re.compile("|".join(re.escape(fold_width(w)) for w in sorted(words, key=len, reverse=True)), re.IGNORECASE)


def mask_spans(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """The text with the given character spans replaced by mask characters."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = MASK * (end - start)
    return "".join(chars)


# Words that name something rather than state a value: e-mail addresses, web addresses, and identifiers whose digits
# are glued to letters or an underscore (user_2, task_3, req_12, lisi2), or joined by a hyphen to capitals (a code:
# ATL-7, A-3项目, SKU-1234): their digits are no number, their letters no English. A currency code before an amount
# (RMB6800, CNY500, RMB-500) names no thing: it is money.
_IDENTIFIER_RE = re.compile(
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|https?://\S+|"
    r"(?<![\w])(?!(?i:rmb|cny)-?[0-9.,]+(?![A-Za-z_]))(?:[A-Za-z]+_?|[A-Z]+-)[0-9]+[A-Za-z0-9_]*(?![\w])",
    re.ASCII,
)


def mask_identifiers(text: str) -> str:
    """The text with e-mail addresses, web addresses and identifiers (user_2, task_3) masked."""
    return _IDENTIFIER_RE.sub(lambda m: MASK * len(m.group()), text)
