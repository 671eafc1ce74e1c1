"""The request parsers measured: their speed, and their accuracy on the phrase corpus against the alternatives.

    python -m evals.bench.parsers              # import time of tools.parsers, read_text per message (the budget)
    python -m evals.bench.parsers --compare    # + each job scored on tests/unit/data/parsers_corpus.toml for
                                               #   tools.parsers, the hand rules it replaces, and every candidate
                                               #   library that can be imported
    python -m evals.bench.parsers --compare --site /tmp/scratch/lib/python3.11/site-packages

`--site` appends a directory to the import path (last, so this project's packages win): the candidates that
were tried and not chosen (cn2an, dateparser, jionlp, lingua, ChineseTimeNLP, Microsoft's recognizers) live in
a scratch environment, not in the project's. The numbers are written up in docs/parsers.md.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "unit" / "data" / "parsers_corpus.toml"
IMPORT_BUDGET_S = 0.3
READ_BUDGET_MS = 3.0


def load_corpus(path: Path = CORPUS) -> dict[str, Any]:
    """The corpus, each sentence and date phrase with its `today` filled in."""
    corpus = tomllib.loads(path.read_text(encoding="utf-8"))
    for entry in corpus["sentence"] + corpus["date_phrase"]:
        entry.setdefault("today", corpus["today"])
        entry.setdefault("ignore", [])
    return corpus


# ---------------------------------------------------------------- timing


def import_seconds(repeat: int = 5) -> float:
    """Median cumulative import time of tools.parsers (its own modules and what they import at once), fresh
    interpreters; `tools/__init__` (the lead's, the workflow toolset) is imported first and not counted."""
    times = []
    for _ in range(repeat):
        run = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import tools; import tools.parsers"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parents[2],
        )
        line = next(ln for ln in run.stderr.splitlines() if ln.rstrip().endswith("| tools.parsers"))
        times.append(int(line.split("|")[1]) / 1e6)
    return statistics.median(times)


def read_text_timing(sentences: list[dict[str, Any]], rounds: int = 30) -> dict[str, float]:
    """read_text's first call (it loads pycnnum, text2num, dateutil, chinese_calendar), then the median per
    message over `rounds` passes of the corpus, the caches of numeral values and working days warm."""
    from tools.parsers import read_text

    started = time.perf_counter()
    read_text("下周三到周五请两天半假，报销五千二百元 next Friday", today=date(2026, 12, 1))
    first_ms = (time.perf_counter() - started) * 1000
    # Typical chat messages of 20 to 80 characters: each corpus message with the next one after it.
    messages = [
        {"text": f"{a['text']}。{b['text']}", "today": a["today"], "ignore": a["ignore"] + b["ignore"]}
        for a, b in zip(sentences, sentences[1:] + sentences[:1], strict=True)
    ]
    messages = [m for m in messages if 20 <= len(m["text"]) <= 80]
    per_call: list[float] = []
    for _ in range(rounds):
        for entry in messages:
            started = time.perf_counter()
            read_text(entry["text"], today=entry["today"], ignore=entry["ignore"])
            per_call.append((time.perf_counter() - started) * 1000)
    return {
        "first_call_ms": first_ms,
        "median_ms": statistics.median(per_call),
        "p95_ms": statistics.quantiles(per_call, n=20)[-1],
        "max_ms": max(per_call),
        "messages": len(messages),
        "median_chars": statistics.median(len(e["text"]) for e in messages),
    }


# ---------------------------------------------------------------- scoring


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


def _norm(values: Iterable[float]) -> frozenset[float]:
    return frozenset(round(float(v), 3) for v in values)


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


# --- candidates: numbers
def _parsers_numbers(entry: dict[str, Any]) -> frozenset[float]:
    from tools.parsers import read_text

    return _norm(read_text(entry["text"], today=entry["today"], ignore=entry["ignore"]).numbers_stated())


def _hand_numbers(entry: dict[str, Any]) -> frozenset[float]:
    from evals.bench.parsers_baseline import numbers_said

    return _norm(numbers_said(_masked(entry)))


def _masked(entry: dict[str, Any]) -> str:
    text = entry["text"]
    for name in entry["ignore"]:
        text = text.replace(name, " " * len(name))
    return text


_DIGITS_RE = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")


def _digits(text: str) -> frozenset[float]:
    return _norm(float(m.group().replace(",", "")) for m in _DIGITS_RE.finditer(text))


def _cn2an_numbers(entry: dict[str, Any]) -> frozenset[float]:
    import cn2an

    return _digits(cn2an.transform(_masked(entry), "cn2an"))


def _pycnnum_numbers(entry: dict[str, Any]) -> frozenset[float]:
    """pycnnum on every run of numeral characters, with no context rules, plus the digits."""
    from pycnnum import cn2num

    text = _masked(entry)
    found = set(_digits(text))
    for run in re.findall(r"[零〇一二两三四五六七八九十百千万亿]+", text):
        with contextlib.suppress(ValueError, KeyError, IndexError):
            found.add(float(cn2num(run)))
    return _norm(found)


def _text2num_numbers(entry: dict[str, Any]) -> frozenset[float]:
    from text_to_num import alpha2digit

    return _digits(alpha2digit(_masked(entry), "en", threshold=0))


def _recognizers_numbers(entry: dict[str, Any]) -> frozenset[float]:
    from recognizers_number import Culture, recognize_number

    culture = Culture.Chinese if entry["lang"] == "zh" else Culture.English
    return _norm(float(r.resolution["value"]) for r in recognize_number(_masked(entry), culture) if r.resolution.get("value"))


# --- candidates: days and amounts
def _parsers_days(entry: dict[str, Any]) -> frozenset[float]:
    from tools.parsers import read_text

    return _norm(read_text(entry["text"], today=entry["today"], ignore=entry["ignore"]).days_stated())


def _parsers_amounts(entry: dict[str, Any]) -> frozenset[float]:
    from tools.parsers import read_text

    return _norm(read_text(entry["text"], today=entry["today"], ignore=entry["ignore"]).amounts_stated())


# --- candidates: one date phrase
def _parsers_date(entry: dict[str, Any]) -> date:
    from tools.parsers import read_date

    return read_date(entry["text"], entry["today"])


def _hand_date(entry: dict[str, Any]) -> date:
    from evals.bench.parsers_baseline import read_date

    return read_date(entry["text"], entry["today"])


def _dateparser_date(entry: dict[str, Any]) -> date | None:
    import dateparser

    settings = {"RELATIVE_BASE": datetime.combine(entry["today"], datetime.min.time()), "PREFER_DATES_FROM": "future"}
    found = dateparser.parse(entry["text"], languages=["zh", "en"], settings=settings)  # type: ignore[arg-type]
    return found.date() if found else None


def _jionlp_date(entry: dict[str, Any]) -> date | None:
    import jionlp

    base = time.mktime(datetime.combine(entry["today"], datetime.min.time()).timetuple())
    found = jionlp.parse_time(entry["text"], time_base=base)
    return date.fromisoformat(found["time"][0][:10])


def _timenlp_date(entry: dict[str, Any]) -> date | None:
    import arrow
    from ChineseTimeNLP import TimeNormalizer

    found = TimeNormalizer().parse(entry["text"], arrow.get(entry["today"]))
    stamp = found.get("timestamp") or (found.get("timespan") or [None])[0]
    return date.fromisoformat(stamp[:10]) if stamp else None


def _recognizers_date(entry: dict[str, Any]) -> date | None:
    from recognizers_date_time import Culture, recognize_datetime

    culture = Culture.Chinese if re.search(r"[\u4e00-\u9fff]", entry["text"]) else Culture.English
    found = recognize_datetime(entry["text"], culture, reference=datetime.combine(entry["today"], datetime.min.time()))
    if not found:
        return None
    values = found[0].resolution["values"]
    value = values[-1].get("value") or values[-1].get("start")
    return date.fromisoformat(value[:10]) if value else None


# --- candidates: dates and ranges in a message
def _parsers_spans(entry: dict[str, Any]) -> frozenset[tuple[date, date]]:
    from tools.parsers import read_text

    return frozenset((d.start, d.end) for d in read_text(entry["text"], today=entry["today"], ignore=entry["ignore"]).dates)


def _hand_spans(entry: dict[str, Any]) -> frozenset[tuple[date, date]]:
    """Today's rules read one whole phrase; a message is a date only when it is nothing else."""
    from evals.bench.parsers_baseline import DateError, read_date

    try:
        day = read_date(entry["text"], entry["today"])
    except DateError:
        return frozenset()
    return frozenset({(day, day)})


def _dateparser_spans(entry: dict[str, Any]) -> frozenset[tuple[date, date]]:
    from dateparser.search import search_dates

    settings = {"RELATIVE_BASE": datetime.combine(entry["today"], datetime.min.time()), "PREFER_DATES_FROM": "future"}
    found = search_dates(entry["text"], languages=[entry["lang"]], settings=settings) or []  # type: ignore[arg-type]
    return frozenset((d.date(), d.date()) for _, d in found)


def _jionlp_spans(entry: dict[str, Any]) -> frozenset[tuple[date, date]]:
    import jionlp

    base = time.mktime(datetime.combine(entry["today"], datetime.min.time()).timetuple())
    spans = set()
    for item in jionlp.ner.extract_time(entry["text"], time_base=base, with_parsing=True):
        found = item["detail"]["time"]
        if item["type"] not in ("time_point", "time_span") or not isinstance(found, list):
            continue  # a duration (请10天假) or a repeating time: no date
        start, end = found[:2]
        if isinstance(start, str) and isinstance(end, str) and start[:1].isdigit() and end[:1].isdigit():
            spans.add((date.fromisoformat(start[:10]), date.fromisoformat(end[:10])))
    return frozenset(spans)


def _recognizers_spans(entry: dict[str, Any]) -> frozenset[tuple[date, date]]:
    from recognizers_date_time import Culture, recognize_datetime

    culture = Culture.Chinese if entry["lang"] == "zh" else Culture.English
    spans = set()
    for item in recognize_datetime(entry["text"], culture, reference=datetime.combine(entry["today"], datetime.min.time())):
        values = item.resolution.get("values") or []
        if not values or values[-1].get("type") not in ("date", "daterange"):
            continue
        value = values[-1]
        start, end = value.get("value") or value.get("start"), value.get("value") or value.get("end")
        if start and end:
            spans.add((date.fromisoformat(start[:10]), date.fromisoformat(end[:10])))
    return frozenset(spans)


# --- candidates: working days
def _calendar_working_days(case: tuple[date, date]) -> int:
    from tools.parsers import working_days

    return working_days(*case)


def _weekday_working_days(case: tuple[date, date]) -> int:
    start, end = case
    return sum(1 for n in range((end - start).days + 1) if date.fromordinal(start.toordinal() + n).weekday() < 5)


# --- candidates: language
def _parsers_language(entry: dict[str, Any]) -> str:
    from tools.parsers import language_of

    return language_of(entry["text"])


def _hand_language(entry: dict[str, Any]) -> str:
    from evals.bench.parsers_baseline import language_of

    return language_of(entry["text"])


_LINGUA: Any = None


def _lingua_language(entry: dict[str, Any]) -> str:
    global _LINGUA
    from lingua import Language, LanguageDetectorBuilder

    if _LINGUA is None:
        _LINGUA = LanguageDetectorBuilder.from_languages(Language.ENGLISH, Language.CHINESE).build()
    found = _LINGUA.detect_language_of(entry["text"])
    return "en" if found == Language.ENGLISH else "zh"


# --- candidates: quoted texts
def _parsers_quoted(entry: dict[str, Any]) -> tuple[str, ...]:
    from tools.parsers import read_text

    return read_text(entry["text"], today=entry["today"]).quoted


def _hand_quoted(entry: dict[str, Any]) -> tuple[str, ...]:
    from evals.bench.parsers_baseline import answered_text

    found = answered_text(entry["text"])
    return (found,) if found and found != entry["text"].strip() else ()


def travel_phrases() -> list[tuple[dict[str, Any], date]]:
    """The phrases the travel tools' tests resolve, with their today and date (from the test's parameters)."""
    from tests.unit.test_travel_dates import test_travel_date_resolves_the_persons_phrase as test

    marks = [m for m in getattr(test, "pytestmark", []) if m.name == "parametrize"]
    return [({"text": said, "today": today}, expected) for said, today, expected in marks[0].args[1]]


def compare(corpus: dict[str, Any]) -> dict[str, list[Score]]:
    """Every job scored for each candidate."""
    sentences = corpus["sentence"]

    def cases(lang: str | None, key: str, expect: Callable[[dict[str, Any]], Any]) -> list[tuple[Any, Any]]:
        return [(e, expect(e)) for e in sentences if key in e and (lang is None or e["lang"] == lang)]

    numbers_zh = cases("zh", "numbers", lambda e: _norm(e["numbers"]))
    numbers_en = cases("en", "numbers", lambda e: _norm(e["numbers"]))
    days = cases(None, "days", lambda e: _norm(e["days"]))
    amounts = cases(None, "amounts", lambda e: _norm(e["amounts"]))
    phrases = corpus["date_phrase"]
    phrase_zh = [(e, e["date"]) for e in phrases if re.search(r"[\u4e00-\u9fff]", e["text"])]
    phrase_en = [(e, e["date"]) for e in phrases if not re.search(r"[\u4e00-\u9fff]", e["text"])]
    spans_zh = cases("zh", "dates", _expected_dates)
    spans_en = cases("en", "dates", _expected_dates)
    ranges = [((d["start"], d["end"]), d["working_days"]) for e in sentences for d in e.get("dates", []) if "working_days" in d]
    language = [(e, e["lang"]) for e in sentences]
    quoted = cases(None, "quoted", lambda e: tuple(e["quoted"]))
    travel = travel_phrases()
    parsers = "tools.parsers"
    hand = "hand rules (today's)"
    return {
        "Chinese numerals (numbers stated, zh messages)": [
            score(parsers + " (pycnnum + context rules)", numbers_zh, _parsers_numbers),
            score(hand + " tools.words.numbers_said", numbers_zh, _hand_numbers),
            score("pycnnum alone on every numeral run", numbers_zh, _pycnnum_numbers),
            score("cn2an.transform, then the digits", numbers_zh, _cn2an_numbers),
            score("recognizers-text-number (Chinese)", numbers_zh, _recognizers_numbers),
        ],
        "English number words (numbers stated, en messages)": [
            score(parsers + " (text2num + unit and article rules)", numbers_en, _parsers_numbers),
            score(hand + " tools.words.numbers_said", numbers_en, _hand_numbers),
            score("text2num.alpha2digit, then the digits", numbers_en, _text2num_numbers),
            score("recognizers-text-number (English)", numbers_en, _recognizers_numbers),
        ],
        "Day counts stated (both languages)": [
            score(parsers + " TextFacts.days_stated", days, _parsers_days),
            score(hand + " numbers_said (what the days check used)", days, _hand_numbers),
        ],
        "Money amounts stated (both languages)": [
            score(parsers + " TextFacts.amounts_stated", amounts, _parsers_amounts),
            score(hand + " numbers_said", amounts, _hand_numbers),
        ],
        "Chinese date phrases (one phrase)": [
            score(parsers + " read_date", phrase_zh, _parsers_date),
            score(hand + " tools.travel.dates.read_date", phrase_zh, _hand_date),
            score("dateparser.parse", phrase_zh, _dateparser_date),
            score("jionlp.parse_time", phrase_zh, _jionlp_date),
            score("ChineseTimeNLP", phrase_zh, _timenlp_date),
            score("recognizers-text-date-time", phrase_zh, _recognizers_date),
        ],
        "Travel date phrases (tests/unit/test_travel_dates.py)": [
            score(parsers + " read_date", travel, _parsers_date),
            score(hand + " tools.travel.dates.read_date", travel, _hand_date),
        ],
        "English date phrases (one phrase)": [
            score(parsers + " read_date (dateutil + week rules)", phrase_en, _parsers_date),
            score(hand + " tools.travel.dates.read_date", phrase_en, _hand_date),
            score("dateparser.parse", phrase_en, _dateparser_date),
            score("recognizers-text-date-time", phrase_en, _recognizers_date),
        ],
        "Chinese dates and ranges in a message": [
            score(parsers + " read_text().dates", spans_zh, _parsers_spans),
            score(hand + " read_date on the whole message", spans_zh, _hand_spans),
            score("dateparser.search.search_dates", spans_zh, _dateparser_spans),
            score("jionlp.ner.extract_time", spans_zh, _jionlp_spans),
            score("recognizers-text-date-time", spans_zh, _recognizers_spans),
        ],
        "English dates and ranges in a message": [
            score(parsers + " read_text().dates", spans_en, _parsers_spans),
            score(hand + " read_date on the whole message", spans_en, _hand_spans),
            score("dateparser.search.search_dates", spans_en, _dateparser_spans),
            score("recognizers-text-date-time", spans_en, _recognizers_spans),
        ],
        "Working days of a range": [
            score(parsers + " working_days (chinese_calendar)", ranges, _calendar_working_days),
            score("Monday to Friday", ranges, _weekday_working_days),
        ],
        "Language of a message": [
            score(parsers + " language_of (script weights)", language, _parsers_language),
            score(hand + " graph.history.language_of (any Han character)", language, _hand_language),
            score("lingua-language-detector (zh, en)", language, _lingua_language),
        ],
        "Quoted texts": [
            score(parsers + " read_text().quoted", quoted, _parsers_quoted),
            score(hand + " tools.words.answered_text", quoted, _hand_quoted),
        ],
    }


def print_report(timing: dict[str, float], import_s: float, jobs: dict[str, list[Score]] | None, misses: bool) -> None:
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print(f"import tools.parsers: {import_s * 1000:.0f} ms (budget {IMPORT_BUDGET_S * 1000:.0f} ms)")
    print(
        f"read_text: first call {timing['first_call_ms']:.0f} ms; then median {timing['median_ms']:.3f} ms, "
        f"p95 {timing['p95_ms']:.3f} ms, max {timing['max_ms']:.2f} ms per message "
        f"({timing['messages']} messages, median {timing['median_chars']:.0f} characters; budget {READ_BUDGET_MS} ms median)"
    )
    for job, scores in (jobs or {}).items():
        print(f"\n## {job}")
        for result in scores:
            if result.error:
                print(f"  {result.candidate:<62} {result.error}")
                continue
            print(f"  {result.candidate:<62} {result.accuracy:>14}  {result.median_ms:8.3f} ms/call median")
            if misses:
                for miss in result.misses:
                    print(f"      miss {miss}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--compare", action="store_true", help="score every job for every importable candidate")
    parser.add_argument("--site", action="append", default=[], help="a site-packages directory to append to sys.path")
    parser.add_argument("--misses", action="store_true", help="list each candidate's misses")
    parser.add_argument("--json", type=Path, help="also write the numbers to this file")
    args = parser.parse_args(argv)
    sys.path.extend(args.site)
    corpus = load_corpus()
    import_s = import_seconds()
    timing = read_text_timing(corpus["sentence"])
    jobs = compare(corpus) if args.compare else None
    print_report(timing, import_s, jobs, args.misses)
    if args.json:
        data = {
            "import_s": import_s,
            "read_text": timing,
            "jobs": {
                job: [{"candidate": s.candidate, "right": s.right, "total": s.total, "median_ms": s.median_ms, "error": s.error}
                      for s in scores]
                for job, scores in (jobs or {}).items()
            },
        }
        args.json.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    within = import_s <= IMPORT_BUDGET_S and timing["median_ms"] <= READ_BUDGET_MS
    return 0 if within else 1


if __name__ == "__main__":
    raise SystemExit(main())
