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


def compare(corpus: dict[str, Any]) -> dict[str, list[Score]]:
    """Every job scored for each candidate."""
    jobs = job_cases(corpus)
    parsers = "tools.parsers"
    hand = "hand rules (today's)"
    return {
        "Chinese numerals (numbers stated, zh messages)": [
            score(parsers + " (pycnnum + context rules)", jobs["numbers_zh"], c.parsers_numbers),
            score(hand + " tools.words.numbers_said", jobs["numbers_zh"], c.hand_numbers),
            score("pycnnum alone on every numeral run", jobs["numbers_zh"], c.pycnnum_numbers),
            score("cn2an.transform, then the digits", jobs["numbers_zh"], c.cn2an_numbers),
            score("recognizers-text-number (Chinese)", jobs["numbers_zh"], c.recognizers_numbers),
        ],
        "English number words (numbers stated, en messages)": [
            score(parsers + " (text2num + unit and article rules)", jobs["numbers_en"], c.parsers_numbers),
            score(hand + " tools.words.numbers_said", jobs["numbers_en"], c.hand_numbers),
            score("text2num.alpha2digit, then the digits", jobs["numbers_en"], c.text2num_numbers),
            score("recognizers-text-number (English)", jobs["numbers_en"], c.recognizers_numbers),
        ],
        "Day counts stated (both languages)": [
            score(parsers + " TextFacts.days_stated", jobs["days"], c.parsers_days),
            score(hand + " numbers_said (what the days check used)", jobs["days"], c.hand_numbers),
        ],
        "Money amounts stated (both languages)": [
            score(parsers + " TextFacts.amounts_stated", jobs["amounts"], c.parsers_amounts),
            score(hand + " numbers_said", jobs["amounts"], c.hand_numbers),
        ],
        "Chinese date phrases (one phrase)": [
            score(parsers + " read_date", jobs["phrase_zh"], c.parsers_date),
            score(hand + " tools.travel.dates.read_date", jobs["phrase_zh"], c.hand_date),
            score("dateparser.parse", jobs["phrase_zh"], c.dateparser_date),
            score("jionlp.parse_time", jobs["phrase_zh"], c.jionlp_date),
            score("ChineseTimeNLP", jobs["phrase_zh"], c.timenlp_date),
            score("recognizers-text-date-time", jobs["phrase_zh"], c.recognizers_date),
        ],
        "Travel date phrases (tests/unit/test_travel_dates.py)": [
            score(parsers + " read_date", jobs["travel"], c.parsers_date),
            score(hand + " tools.travel.dates.read_date", jobs["travel"], c.hand_date),
        ],
        "English date phrases (one phrase)": [
            score(parsers + " read_date (dateutil + week rules)", jobs["phrase_en"], c.parsers_date),
            score(hand + " tools.travel.dates.read_date", jobs["phrase_en"], c.hand_date),
            score("dateparser.parse", jobs["phrase_en"], c.dateparser_date),
            score("recognizers-text-date-time", jobs["phrase_en"], c.recognizers_date),
        ],
        "Chinese dates and ranges in a message": [
            score(parsers + " read_text().dates", jobs["spans_zh"], c.parsers_spans),
            score(hand + " read_date on the whole message", jobs["spans_zh"], c.hand_spans),
            score("dateparser.search.search_dates", jobs["spans_zh"], c.dateparser_spans),
            score("jionlp.ner.extract_time", jobs["spans_zh"], c.jionlp_spans),
            score("recognizers-text-date-time", jobs["spans_zh"], c.recognizers_spans),
        ],
        "English dates and ranges in a message": [
            score(parsers + " read_text().dates", jobs["spans_en"], c.parsers_spans),
            score(hand + " read_date on the whole message", jobs["spans_en"], c.hand_spans),
            score("dateparser.search.search_dates", jobs["spans_en"], c.dateparser_spans),
            score("recognizers-text-date-time", jobs["spans_en"], c.recognizers_spans),
        ],
        "Working days of a range": [
            score(parsers + " working_days (chinese_calendar)", jobs["ranges"], c.calendar_working_days),
            score("Monday to Friday", jobs["ranges"], c.weekday_working_days),
        ],
        "Language of a message": [
            score(parsers + " language_of (script weights)", jobs["language"], c.parsers_language),
            score(hand + " graph.history.language_of (any Han character)", jobs["language"], c.hand_language),
            score("lingua-language-detector (zh, en)", jobs["language"], c.lingua_language),
        ],
        "Quoted texts": [
            score(parsers + " read_text().quoted", jobs["quoted"], c.parsers_quoted),
            score(hand + " tools.words.answered_text", jobs["quoted"], c.hand_quoted),
        ],
    }
