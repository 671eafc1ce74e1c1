"""Generated corpora: amounts, day counts, date ranges and leave's half-day ranges written every way people write them,
read through the form fields that file them, and counted read exactly, unread or read wrong.

`corpus(seed)` makes them (seeded, deterministic, nothing cached); `evals.corpora.judge.judge` reads them;
`python -m evals.corpora` prints the table. The renderers (`evals.corpora.spell`) share no code with the parsers.
"""

from __future__ import annotations

import random

from evals.corpora.days import day_phrasings
from evals.corpora.half_ranges import half_range_phrasings
from evals.corpora.money import money_phrasings
from evals.corpora.phrasing import Phrasing
from evals.corpora.ranges import range_phrasings
from evals.corpora.unclear import unclear_phrasings

SEED = 32
MONEY_PER_STYLE = 340
"""31 ways of writing an amount: 10,540 phrasings."""
DAYS_PER_STYLE = 670
"""15 ways of writing a day count: 10,050 phrasings."""
RANGES_PER_STYLE = 250
"""15 ways of writing a date range: 3,750 phrasings."""
HALF_RANGES_PER_STYLE = 300
"""5 ways of writing a leave's range with half days: 1,500 phrasings."""
UNCLEAR_PER_STYLE = 50
"""20 ways of stating no one value: 1,000 phrasings."""


def corpus(seed: int = SEED, scale: float = 1.0) -> list[Phrasing]:
    """Every phrasing of the four corpora, the same for the same seed; `scale` shrinks or grows each style's count."""
    rng = random.Random(seed)

    def count(n: int) -> int:
        return max(1, round(n * scale))

    return [
        *money_phrasings(rng, count(MONEY_PER_STYLE)),
        *day_phrasings(rng, count(DAYS_PER_STYLE)),
        *range_phrasings(rng, count(RANGES_PER_STYLE)),
        *half_range_phrasings(rng, count(HALF_RANGES_PER_STYLE)),
        *unclear_phrasings(rng, count(UNCLEAR_PER_STYLE)),
    ]
