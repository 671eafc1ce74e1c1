"""The day-count corpus: lengths of leave written every way people write them, in Chinese and English requests."""

from __future__ import annotations

import random

from evals.corpora.phrasing import Lang, Phrasing, Sentences, Style, fill
from evals.corpora.spell import en_number, zh_count

SENTENCES: dict[Lang, Sentences] = {
    "zh": Sentences(
        openings=("", "", "你好，", "麻烦", "老板，", "帮我", "我想"),
        cores=(
            "请{}的假", "下周一开始请{}年假", "提交请假，{}", "家里有事，需要请假{}", "请假{}，原因是身体不舒服",
            "申请{}病假", "孩子生病了，我要请{}的假", "请{}事假", "明天起休{}，去医院复查", "休{}年假",
            "搬家要请{}假", "请{}的婚假", "陪老人看病，请假{}", "腰扭了，得请{}病假",
        ),
        closes=("", "", "。", "，谢谢", "，李四审批", "，审批人王五", "，回老家", "，麻烦尽快批一下", "！"),
    ),
    "en": Sentences(
        openings=("", "", "Hi, ", "Hey, ", "Please ", "Hello, "),
        cores=(
            "I need {} off next week", "file {} of leave for me", "can I take {} off to move house?",
            "put in a leave request for {}, reason: family matters", "I'd like {} of annual leave starting Monday",
            "requesting {} of sick leave", "take {} off please, I have a fever", "I'm ill and need {} to recover",
            "book {} of leave for my wedding", "I have to take {} off for a family emergency",
            "my back is hurt, I need {} of sick leave", "log {} of personal leave for me",
        ),
        closes=("", "", ".", " Thanks!", ", thanks", ". Li Si approves.", " - Wang Wu approves.", "!"),
    ),
}


def whole_days(rng: random.Random) -> float:
    """A length in whole days: mostly one to ten, now and then up to thirty."""
    return rng.randint(1, 10) if rng.random() < 0.8 else rng.randint(11, 30)


def and_a_half(rng: random.Random) -> float:
    return rng.randint(1, 9) + 0.5


def negative_days(rng: random.Random) -> float:
    return -(rng.randint(1, 5) + (0.5 if rng.random() < 0.2 else 0))


def _zh_negative(value: float, rng: random.Random) -> str:
    whole = int(-value)
    half = "半" if -value != whole else ""
    if rng.random() < 0.5:
        return f"负{zh_count(whole)}天{half}"
    return f"-{-value:g}天"


def _en_days(n: int) -> str:
    return "day" if n == 1 else "days"


STYLES: tuple[Style, ...] = (
    Style("zh", "digits 天", whole_days, lambda v, r: f"{int(v)}天"),
    Style("zh", "digits 个工作日", whole_days, lambda v, r: f"{int(v)}{r.choice(('个工作日', '个工作日', '工作日'))}"),
    Style("zh", "Chinese 天", whole_days, lambda v, r: f"{zh_count(int(v))}天"),
    Style("zh", "Chinese 个工作日", whole_days, lambda v, r: f"{zh_count(int(v))}个工作日"),
    Style("zh", "天半", and_a_half, lambda v, r: f"{zh_count(int(v))}天半"),
    Style("zh", "半天", lambda r: 0.5, lambda v, r: "半天"),
    Style("zh", "decimal 天", and_a_half, lambda v, r: f"{v:g}天"),
    Style("zh", "negative", negative_days, _zh_negative),
    Style("en", "digits days", whole_days,
          lambda v, r: f"{int(v)} {r.choice(('', 'working ', 'business ', 'full '))}{_en_days(int(v))}"),
    Style("en", "words days", whole_days,
          lambda v, r: f"{en_number(int(v), hyphen=r.random() < 0.7)} {r.choice(('', 'working ', 'sick '))}{_en_days(int(v))}"),
    Style("en", "a day", lambda r: 1.0, lambda v, r: r.choice(("a day", "one day", "a full day", "a whole day", "a sick day"))),
    Style("en", "half a day", lambda r: 0.5, lambda v, r: r.choice(("half a day", "a half day", "half a working day"))),
    Style("en", "and a half", and_a_half,
          lambda v, r: r.choice((f"{en_number(int(v))} and a half days", f"{en_number(int(v))} days and a half"))
          if v > 1.5 else r.choice(("a day and a half", "one and a half days"))),
    Style("en", "decimal days", and_a_half, lambda v, r: f"{v:g} days"),
    Style("en", "kind of leave between (comp days, PTO days)", whole_days,
          lambda v, r: f"{r.choice((str(int(v)), en_number(int(v))))} "
                       f"{r.choice(('comp ', 'PTO ', 'vacation ', 'annual leave ', 'personal ', 'paid '))}{_en_days(int(v))}"),
    Style("en", "half days counted (three half days)", lambda r: r.randint(2, 9) / 2,
          lambda v, r: f"{en_number(int(v * 2))} half{r.choice((' ', '-'))}days"),
    Style("en", "negative", negative_days,
          lambda v, r: r.choice((f"minus {-v:g} days", f"{v:g} days", f"negative {-v:g} days"))),
)


def day_phrasings(rng: random.Random, per_style: int) -> list[Phrasing]:
    """`per_style` leave requests for each way of writing a length in days."""
    return fill("days", STYLES, SENTENCES, rng, per_style)
