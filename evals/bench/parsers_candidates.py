"""Each candidate reader the parsers bench scores: tools.parsers, the hand rules it replaced, the libraries tried."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterable
from datetime import date, datetime
from typing import Any


def norm(values: Iterable[float]) -> frozenset[float]:
    """Numbers as a set, rounded to three places so that float noise is no miss."""
    return frozenset(round(float(v), 3) for v in values)


# --- candidates: numbers
def parsers_numbers(entry: dict[str, Any]) -> frozenset[float]:
    from tools.parsers import read_text

    return norm(read_text(entry["text"], today=entry["today"], ignore=entry["ignore"]).numbers_stated())


def hand_numbers(entry: dict[str, Any]) -> frozenset[float]:
    from evals.bench.parsers_baseline import numbers_said

    return norm(numbers_said(_masked(entry)))


def _masked(entry: dict[str, Any]) -> str:
    text = entry["text"]
    for name in entry["ignore"]:
        text = text.replace(name, " " * len(name))
    return text


_DIGITS_RE = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")


def _digits(text: str) -> frozenset[float]:
    return norm(float(m.group().replace(",", "")) for m in _DIGITS_RE.finditer(text))


def cn2an_numbers(entry: dict[str, Any]) -> frozenset[float]:
    import cn2an

    return _digits(cn2an.transform(_masked(entry), "cn2an"))


def pycnnum_numbers(entry: dict[str, Any]) -> frozenset[float]:
    """pycnnum on every run of numeral characters, with no context rules, plus the digits."""
    from pycnnum import cn2num

    text = _masked(entry)
    found = set(_digits(text))
    for run in re.findall(r"[零〇一二两三四五六七八九十百千万亿]+", text):
        with contextlib.suppress(ValueError, KeyError, IndexError):
            found.add(float(cn2num(run)))
    return norm(found)


def text2num_numbers(entry: dict[str, Any]) -> frozenset[float]:
    from text_to_num import alpha2digit

    return _digits(alpha2digit(_masked(entry), "en", threshold=0))


def recognizers_numbers(entry: dict[str, Any]) -> frozenset[float]:
    from recognizers_number import Culture, recognize_number

    culture = Culture.Chinese if entry["lang"] == "zh" else Culture.English
    return norm(float(r.resolution["value"]) for r in recognize_number(_masked(entry), culture) if r.resolution.get("value"))


# --- candidates: days and amounts
def parsers_days(entry: dict[str, Any]) -> frozenset[float]:
    from tools.parsers import read_text

    return norm(read_text(entry["text"], today=entry["today"], ignore=entry["ignore"]).days_stated())


def parsers_amounts(entry: dict[str, Any]) -> frozenset[float]:
    from tools.parsers import read_text

    return norm(read_text(entry["text"], today=entry["today"], ignore=entry["ignore"]).amounts_stated())


# --- candidates: one date phrase
def parsers_date(entry: dict[str, Any]) -> date:
    from tools.parsers import read_date

    return read_date(entry["text"], entry["today"])


def hand_date(entry: dict[str, Any]) -> date:
    from evals.bench.parsers_baseline import read_date

    return read_date(entry["text"], entry["today"])


def dateparser_date(entry: dict[str, Any]) -> date | None:
    import dateparser

    settings = {"RELATIVE_BASE": datetime.combine(entry["today"], datetime.min.time()), "PREFER_DATES_FROM": "future"}
    found = dateparser.parse(entry["text"], languages=["zh", "en"], settings=settings)  # type: ignore[arg-type]
    return found.date() if found else None


def jionlp_date(entry: dict[str, Any]) -> date | None:
    import jionlp

    base = time.mktime(datetime.combine(entry["today"], datetime.min.time()).timetuple())
    found = jionlp.parse_time(entry["text"], time_base=base)
    return date.fromisoformat(found["time"][0][:10])


def timenlp_date(entry: dict[str, Any]) -> date | None:
    import arrow
    from ChineseTimeNLP import TimeNormalizer

    found = TimeNormalizer().parse(entry["text"], arrow.get(entry["today"]))
    stamp = found.get("timestamp") or (found.get("timespan") or [None])[0]
    return date.fromisoformat(stamp[:10]) if stamp else None


def recognizers_date(entry: dict[str, Any]) -> date | None:
    from recognizers_date_time import Culture, recognize_datetime

    culture = Culture.Chinese if re.search(r"[\u4e00-\u9fff]", entry["text"]) else Culture.English
    found = recognize_datetime(entry["text"], culture, reference=datetime.combine(entry["today"], datetime.min.time()))
    if not found:
        return None
    values = found[0].resolution["values"]
    value = values[-1].get("value") or values[-1].get("start")
    return date.fromisoformat(value[:10]) if value else None


# --- candidates: dates and ranges in a message
def parsers_spans(entry: dict[str, Any]) -> frozenset[tuple[date, date]]:
    from tools.parsers import read_text

    return frozenset((d.start, d.end) for d in read_text(entry["text"], today=entry["today"], ignore=entry["ignore"]).dates)


def hand_spans(entry: dict[str, Any]) -> frozenset[tuple[date, date]]:
    """Today's rules read one whole phrase; a message is a date only when it is nothing else."""
    from evals.bench.parsers_baseline import DateError, read_date

    try:
        day = read_date(entry["text"], entry["today"])
    except DateError:
        return frozenset()
    return frozenset({(day, day)})


def dateparser_spans(entry: dict[str, Any]) -> frozenset[tuple[date, date]]:
    from dateparser.search import search_dates

    settings = {"RELATIVE_BASE": datetime.combine(entry["today"], datetime.min.time()), "PREFER_DATES_FROM": "future"}
    found = search_dates(entry["text"], languages=[entry["lang"]], settings=settings) or []  # type: ignore[arg-type]
    return frozenset((d.date(), d.date()) for _, d in found)


def jionlp_spans(entry: dict[str, Any]) -> frozenset[tuple[date, date]]:
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


def recognizers_spans(entry: dict[str, Any]) -> frozenset[tuple[date, date]]:
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
def calendar_working_days(case: tuple[date, date]) -> int:
    from tools.parsers import working_days

    return working_days(*case)


def weekday_working_days(case: tuple[date, date]) -> int:
    start, end = case
    return sum(1 for n in range((end - start).days + 1) if date.fromordinal(start.toordinal() + n).weekday() < 5)


# --- candidates: language
def parsers_language(entry: dict[str, Any]) -> str:
    from tools.parsers import language_of

    return language_of(entry["text"])


def hand_language(entry: dict[str, Any]) -> str:
    from evals.bench.parsers_baseline import language_of

    return language_of(entry["text"])


_LINGUA: Any = None


def lingua_language(entry: dict[str, Any]) -> str:
    global _LINGUA
    from lingua import Language, LanguageDetectorBuilder

    if _LINGUA is None:
        _LINGUA = LanguageDetectorBuilder.from_languages(Language.ENGLISH, Language.CHINESE).build()
    found = _LINGUA.detect_language_of(entry["text"])
    return "en" if found == Language.ENGLISH else "zh"


# --- candidates: quoted texts
def parsers_quoted(entry: dict[str, Any]) -> tuple[str, ...]:
    from tools.parsers import read_text

    return read_text(entry["text"], today=entry["today"]).quoted


def hand_quoted(entry: dict[str, Any]) -> tuple[str, ...]:
    from evals.bench.parsers_baseline import answered_text

    found = answered_text(entry["text"])
    return (found,) if found and found != entry["text"].strip() else ()
