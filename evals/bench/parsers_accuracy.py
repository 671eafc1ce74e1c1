"""Each parsing job scored for every candidate on the phrase corpus: how many right, how fast, which missed."""

from __future__ import annotations

import contextlib
import io
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from evals.bench import parsers_candidates as c
from evals.bench.parsers_candidates import norm

HAN = re.compile(r"[\u4e00-\u9fff]")
Cases = list[tuple[Any, Any]]


@dataclass
class Score:
    """One candidate's result on one job."""

    candidate: str
    right: int = 0
    total: int = 0
    ms: list[float] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)
    error: str = ""

    @property
    def accuracy(self) -> str:
        return f"{self.right}/{self.total} ({self.right / self.total:.0%})" if self.total else "n/a"

    @property
    def median_ms(self) -> float:
        """The median time per call (the first call, which may load the library, is one of them)."""
        return statistics.median(self.ms) if self.ms else float("nan")


def score(candidate: str, cases: list[tuple[Any, Any]], run: Callable[[Any], Any]) -> Score:
    """Run `run` on each case's input; right when it equals the expected output. A candidate that cannot be
    imported (ImportError on the first case) is reported as such."""
    result = Score(candidate)
    for given, expected in cases:
        started = time.perf_counter()
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                got = run(given)
        except ImportError as missing:
            return Score(candidate, error=f"not installed ({missing.name})")
        except Exception as failed:  # noqa: BLE001 - a library's failure is a miss, not a crash of the bench
            got = f"error: {type(failed).__name__}"
        result.ms.append((time.perf_counter() - started) * 1000)
        result.total += 1
        if got == expected:
            result.right += 1
        else:
            text = given["text"] if isinstance(given, dict) else given
            result.misses.append(f"{text!r}: got {_show(got)}, expected {_show(expected)}")
    return result


def _show(value: Any) -> str:
    if isinstance(value, frozenset):
        return "{" + ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in sorted(value, key=str)) + "}"
    return str(value)


def _expected_dates(entry: dict[str, Any]) -> frozenset[tuple[date, date]]:
    return frozenset((d["start"], d["end"]) for d in entry["dates"])


def travel_phrases() -> list[tuple[dict[str, Any], date]]:
    """The phrases the travel tools' tests resolve, with their today and date (from the test's parameters)."""
    from tests.unit.test_travel_dates import test_travel_date_resolves_the_persons_phrase as test

    marks = [m for m in getattr(test, "pytestmark", []) if m.name == "parametrize"]
    return [({"text": said, "today": today}, expected) for said, today, expected in marks[0].args[1]]



def job_cases(corpus: dict[str, Any]) -> dict[str, Cases]:
    """Each job's cases, (what is read, what it should give), from the corpus and the travel tests' phrases."""
    sentences = corpus["sentence"]

    def cases(lang: str | None, key: str, expect: Callable[[dict[str, Any]], Any]) -> Cases:
        return [(e, expect(e)) for e in sentences if key in e and (lang is None or e["lang"] == lang)]

    phrases = corpus["date_phrase"]
    return {
        "numbers_zh": cases("zh", "numbers", lambda e: norm(e["numbers"])),
        "numbers_en": cases("en", "numbers", lambda e: norm(e["numbers"])),
        "days": cases(None, "days", lambda e: norm(e["days"])),
        "amounts": cases(None, "amounts", lambda e: norm(e["amounts"])),
        "phrase_zh": [(e, e["date"]) for e in phrases if HAN.search(e["text"])],
        "phrase_en": [(e, e["date"]) for e in phrases if not HAN.search(e["text"])],
        "spans_zh": cases("zh", "dates", _expected_dates),
        "spans_en": cases("en", "dates", _expected_dates),
        "ranges": [((d["start"], d["end"]), d["working_days"])
                   for e in sentences for d in e.get("dates", []) if "working_days" in d],
        "language": [(e, e["lang"]) for e in sentences],
        "quoted": cases(None, "quoted", lambda e: tuple(e["quoted"])),
        "travel": travel_phrases(),
    }


PARSERS = "tools.parsers"
HAND = "hand rules (today's)"
JOBS: tuple[tuple[str, str, tuple[tuple[str, Callable[[Any], Any]], ...]], ...] = (
    ("Chinese numerals (numbers stated, zh messages)", "numbers_zh", (
        (PARSERS + " (pycnnum + context rules)", c.parsers_numbers),
        (HAND + " tools.words.numbers_said", c.hand_numbers),
        ("pycnnum alone on every numeral run", c.pycnnum_numbers),
        ("cn2an.transform, then the digits", c.cn2an_numbers),
        ("recognizers-text-number (Chinese)", c.recognizers_numbers),
    )),
    ("English number words (numbers stated, en messages)", "numbers_en", (
        (PARSERS + " (text2num + unit and article rules)", c.parsers_numbers),
        (HAND + " tools.words.numbers_said", c.hand_numbers),
        ("text2num.alpha2digit, then the digits", c.text2num_numbers),
        ("recognizers-text-number (English)", c.recognizers_numbers),
    )),
    ("Day counts stated (both languages)", "days", (
        (PARSERS + " TextFacts.days_stated", c.parsers_days),
        (HAND + " numbers_said (what the days check used)", c.hand_numbers),
    )),
    ("Money amounts stated (both languages)", "amounts", (
        (PARSERS + " TextFacts.amounts_stated", c.parsers_amounts),
        (HAND + " numbers_said", c.hand_numbers),
    )),
    ("Chinese date phrases (one phrase)", "phrase_zh", (
        (PARSERS + " read_date", c.parsers_date),
        (HAND + " tools.travel.dates.read_date", c.hand_date),
        ("dateparser.parse", c.dateparser_date),
        ("jionlp.parse_time", c.jionlp_date),
        ("ChineseTimeNLP", c.timenlp_date),
        ("recognizers-text-date-time", c.recognizers_date),
    )),
    ("Travel date phrases (tests/unit/test_travel_dates.py)", "travel", (
        (PARSERS + " read_date", c.parsers_date),
        (HAND + " tools.travel.dates.read_date", c.hand_date),
    )),
    ("English date phrases (one phrase)", "phrase_en", (
        (PARSERS + " read_date (dateutil + week rules)", c.parsers_date),
        (HAND + " tools.travel.dates.read_date", c.hand_date),
        ("dateparser.parse", c.dateparser_date),
        ("recognizers-text-date-time", c.recognizers_date),
    )),
    ("Chinese dates and ranges in a message", "spans_zh", (
        (PARSERS + " read_text().dates", c.parsers_spans),
        (HAND + " read_date on the whole message", c.hand_spans),
        ("dateparser.search.search_dates", c.dateparser_spans),
        ("jionlp.ner.extract_time", c.jionlp_spans),
        ("recognizers-text-date-time", c.recognizers_spans),
    )),
    ("English dates and ranges in a message", "spans_en", (
        (PARSERS + " read_text().dates", c.parsers_spans),
        (HAND + " read_date on the whole message", c.hand_spans),
        ("dateparser.search.search_dates", c.dateparser_spans),
        ("recognizers-text-date-time", c.recognizers_spans),
    )),
    ("Working days of a range", "ranges", (
        (PARSERS + " working_days (chinese_calendar)", c.calendar_working_days),
        ("Monday to Friday", c.weekday_working_days),
    )),
    ("Language of a message", "language", (
        (PARSERS + " language_of (script weights)", c.parsers_language),
        (HAND + " graph.history.language_of (any Han character)", c.hand_language),
        ("lingua-language-detector (zh, en)", c.lingua_language),
    )),
    ("Quoted texts", "quoted", (
        (PARSERS + " read_text().quoted", c.parsers_quoted),
        (HAND + " tools.words.answered_text", c.hand_quoted),
    )),
)
"""Each job: its title, the cases it is scored on (a key of `job_cases`), and its candidates, each with its label."""


def compare(corpus: dict[str, Any]) -> dict[str, list[Score]]:
    """Every job scored for each candidate."""
    cases = job_cases(corpus)
    return {title: [score(label, cases[key], read) for label, read in candidates] for title, key, candidates in JOBS}
