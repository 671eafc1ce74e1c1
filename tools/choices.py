"""A choice read from the person's words, from words a toolset declares as data (差旅费 → 差旅, 打车 → 差旅): an option
is *named* when its name stands as the choice: alone in its clause ("，差旅，"), before a word that makes it a category
(差旅费, 餐饮类, "office expenses"), or after one ("category Travel", "as meals", 类别是餐饮). It is *implied* when a
word of what was bought or done stands anywhere ("打车", "a taxi", "printer paper"). A name used as an ordinary word
("the client's office", 办公室) names nothing when what was bought says otherwise. Named beats implied, implied beats a
name found anywhere; the latest message that says any of them decides, and one that points to two options decides
nothing (the person is asked). What the person takes back, keeps for later or asks about beside the request names
nothing (`tools.taken_back`, `tools.message_kind.questions_beside`). The texts' readers are `tools.readers`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from tools import words
from tools.courtesy import GREETING
from tools.message_kind import questions_of_mine_spans
from tools.parsers.slips import sound_mended
from tools.parsers.text import MASK, mask_spans
from tools.patterns import compiled
from tools.taken_back import unchosen_hidden


@dataclass(frozen=True)
class Reading:
    """A value read from the person's words, how, and the words it was read from."""

    value: Any
    how: Literal["stated", "inferred"]
    said: str


# ---------------------------------------------------------------- choices

_CLAUSES = re.compile(r"[^，,。.;；!！?？\n、:：]+")
_PARTICLES = re.compile(r"(吧|啊|呀|的|类|了|哈|嘛)+$|\s+(please|pls)$", re.IGNORECASE)
_LENGTH_ZH = r"\s*(?:[0-9一二两三四五六七八九十半]+\s*个?(?:天|日)|半天)"
_AFTER_ZH = rf"费用|费|类|开支|支出|{_LENGTH_ZH}"
_AFTER_EN = r"expenses?|costs?|category|claims?|supplies"
_BEFORE_ZH = (r"(?:类别|类型|分类|科目|算|选|记为|记|按|用|休|请(?:个|一个)?|[0-9一二两三四五六七八九十半]+\s*(?:个)?(?:天|日))"
              r"\s*(?:是|为|选|填)?\s*[:：]?\s*")
_BEFORE_EN = r"\b(?:category|type|as|under|use|using|days? of|a day of)\s*(?:is\s*)?[:：]?\s*"
"""Words a choice's name follows when it is named as the choice: 类别是餐饮, 按差旅, "category Travel"; and what a kind of
leave is asked with (请年假, 用调休, 休病假, 3天年假, "2 days of annual leave", "use comp time")."""


def _named_as_choice(word: str, text: str, *, asked_with: bool = False) -> bool:
    """Whether the text names `word` as the choice itself, not as an ordinary word; with `asked_with`, only as what is
    asked for (a word of an option: "as comp time", 用倒休, 补休两天), never alone in its clause or as a category
    (打车，聚餐 and 车费 tell what was done, and imply)."""
    flat = words.squash(word)
    if not flat:
        return False
    for clause in _CLAUSES.findall(text) if not asked_with else ():
        if words.squash(_PARTICLES.sub("", clause.strip())) == flat:
            return True
    escaped = re.escape(word)
    if word.isascii():
        after = "" if asked_with else rf"(?<![a-z0-9_]){escaped}\s+(?:{_AFTER_EN})\b|"
        pattern = rf"{after}{_BEFORE_EN}{escaped}(?![a-z0-9_])"
    else:
        pattern = rf"{escaped}(?:{_LENGTH_ZH if asked_with else _AFTER_ZH})|{_BEFORE_ZH}{escaped}"
    return compiled(pattern, re.IGNORECASE).search(text) is not None


def _as_written(word: str, text: str) -> str | None:
    """The word as the text writes it ("Uber" for uber, "taxis" for taxi, 打了两趟车 for 打车), when the text names it
    (`tools.words.names_term`)."""
    if not word.isascii():
        return word if word in text else words.split_term(word, text)
    found = compiled(words.latin_term(word), re.IGNORECASE).search(text)
    return found.group() if found else None


def _implied(hints: Sequence[tuple[str, ...]], text: str) -> dict[str, str]:
    """The options the text's words imply, each with the (longest) word that implies it, as written."""
    found: dict[str, str] = {}
    for option, *said in hints:
        for word in sorted((w for w in said if w), key=len, reverse=True):
            written = _as_written(word, text)
            if written:
                found.setdefault(option, written)
                break
    return found


def read_choice(
    choices: Sequence[tuple[str, ...]], hints: Sequence[tuple[str, ...]], texts: Sequence[str]
) -> Reading | None:
    """The one option the latest of `texts` that says anything about it names or implies (see the module's rules);
    None when none does, or the deciding message points to several."""
    return _choice_in(choices, hints, texts)[0]


def options_said(choices: Sequence[tuple[str, ...]], hints: Sequence[tuple[str, ...]], texts: Sequence[str]) -> set[str]:
    """Every option the latest of `texts` that says anything about them names or implies, where it chooses none:
    "两笔：请客户吃饭…，另外买打印纸…" names a claim's 餐饮 and another's 办公, each said; none where they are offered
    as alternatives (年假或者调休都行)."""
    return _choice_in(choices, hints, texts)[1]


def _choice_in(choices: Sequence[tuple[str, ...]], hints: Sequence[tuple[str, ...]],
               texts: Sequence[str]) -> tuple[Reading | None, set[str]]:
    said = [w for o in choices for w in o[1:]] + [w for h in hints for w in h[1:]]
    names = [w for o in choices for w in o[1:] if w and not w.isascii()]
    for text in reversed(texts):
        text = sound_mended(text, names)  # 年价: 年假 typed with a pinyin keyboard's other 价
        text = _GREETED.sub(lambda m: MASK * len(m.group()), _THE_REST.sub(lambda m: MASK * len(m.group()), text))
        text = unchosen_hidden(text, said, MASK)  # "annual leave. Actually no, a comp day"; 年假留着过年用
        text = mask_spans(text, questions_of_mine_spans(text))  # "…toner. And what happened to my taxi claim?"
        named = {o[0]: _as_written(w, text) or w for o in choices for w in o[1:] if w and _named_as_choice(w, text)}
        named |= {h[0]: _as_written(w, text) or w for h in hints for w in h[1:]
                  if w and h[0] not in named and _named_as_choice(w, text, asked_with=True)}
        anywhere = {o[0]: _as_written(w, text) or w for o in choices for w in o[1:] if w and words.names_term(w, text)}
        implied = _implied(hints, text)
        if named or anywhere or implied:
            found = set() if _EITHER.search(text) else {*named, *anywhere, *implied}
            return _read_choice(named, anywhere, implied, bool(_EITHER.search(text))), found
    return None, set()


def _read_choice(named: dict[str, str], anywhere: dict[str, str], implied: dict[str, str], either: bool) -> Reading | None:
    if named:  # "用年假或者调休都行": one named as the choice, another beside it as the alternative: none chosen
        beside = (set(anywhere) | set(implied)) - set(named)
        return None if beside and either else _one(named, "stated")
    if implied:  # "annual leave or a comp day, whichever": the one implied is offered beside another
        return None if set(anywhere) - set(implied) and either else _one(implied, "inferred")
    return _one(anywhere, "stated")


_GREETED = re.compile(GREETING, re.IGNORECASE)
"""A greeting names no option: 下午好 is no afternoon."""
_EITHER = re.compile(r"或|还是|都行|都可以|随便|哪个都|\b(?:or|either|whichever|any\s+of)\b", re.IGNORECASE)
"""Words that offer options as alternatives (年假或者调休, "annual or comp", 哪个都行)."""
_THE_REST = re.compile(
    r"(?:其他|其它|其余)(?=的?(?:都|不变|照旧|一样|没|也|还|信息|内容|东西|部分|地方|项|字段|人|同事|事|照常))|"
    r"\b(?:the|any|no|every|each|all)\s+other\b|"
    r"\bother\s+(?:than|details?|stuff|things?|info|information|fields?|items?|parts?|people|colleagues?|ones?)\b",
    re.IGNORECASE,
)
""""Other" said of the rest, not as an option: 其他不变, 其他的都照旧, "the other details", "other than that"."""


def _one(found: dict[str, str], how: Literal["stated", "inferred"]) -> Reading | None:
    """The one option found (with the word that said it), or None for several."""
    if len(found) != 1:
        return None
    option, word = found.popitem()
    return Reading(value=option, how=how, said=word)
