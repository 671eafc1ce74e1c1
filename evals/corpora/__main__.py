"""`python -m evals.corpora [--seed N] [--scale X] [--wrong N] [--unread N]`: the generated corpora read through the
form fields; a table of size, exact, unread and wrong per kind, language and style, and the phrasings read wrong.
Exits 1 when a phrasing is read wrong or a kind reads fewer than 98 % of its phrasings exactly in a language."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from evals.corpora import SEED, corpus
from evals.corpora.judge import Judged, exact_share, judge, tally

EXACT_GOAL = 0.98
"""The share of each kind's phrasings, in each language, read exactly (and no phrasing may be read wrong)."""


def table(judged: Sequence[Judged]) -> list[str]:
    """Rows of size, exact, unread and wrong: per kind and language (ALL), and per style under them."""
    lines = [f"{'kind':<16}{'lang':<5}{'style':<36}{'size':>7}{'exact':>9}{'unread':>8}{'wrong':>7}"]
    for (group, lang, style), count in sorted(tally(judged).items()):
        lines.append(f"{group:<16}{lang:<5}{style or 'ALL':<36}{sum(count.values()):>7}{exact_share(count):>9.2%}"
                     f"{count['unread']:>8}{count['wrong']:>7}")
    return lines


def short_of_goal(judged: Sequence[Judged]) -> list[tuple[str, str, str]]:
    """The kinds and languages that read a phrasing wrong, or fewer than `EXACT_GOAL` of them exactly."""
    return [key for key, count in tally(judged, by_style=False).items()
            if count["wrong"] or exact_share(count) < EXACT_GOAL]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.corpora", description=__doc__)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--scale", type=float, default=1.0, help="phrasings per style, times this")
    parser.add_argument("--wrong", type=int, default=50, help="how many phrasings read wrong to print")
    parser.add_argument("--unread", type=int, default=0, help="how many unread phrasings to print")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    judged = judge(corpus(args.seed, args.scale))
    print(f"{len(judged)} phrasings, seed {args.seed}, made and read in {time.perf_counter() - started:.1f} s\n")
    print("\n".join(table(judged)))
    for title, verdict, limit in (("READ WRONG", "wrong", args.wrong), ("UNREAD", "unread", args.unread)):
        shown = [one for one in judged if one.verdict == verdict]
        if shown and limit:
            print(f"\n{title} ({len(shown)}):")
            for one in shown[:limit]:
                said = one.phrasing
                print(f"  [{said.kind} {said.lang} {said.style}] {said.text!r} (today {said.today}): meant "
                      f"{said.expected!r}, read {one.read!r}")
    missed = short_of_goal(judged)
    if missed:
        print(f"\nshort of the goal (none wrong, {EXACT_GOAL:.0%} exact): {missed}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
