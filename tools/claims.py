"""What an answer states as fact, and whether the conversation showed it: figures, dates, times of day, record ids,
people and what someone said (`tools.quotes`), read with the request's parsers and compared by value (10 == 十 ==
10.0, 6,800 == 6800, a date however it is written).

The rule, as a person would state it: an answer may state a figure, a date, a time, a record's id or a person's name
only when the conversation showed it: the person said it, a tool's result held it, the assistant's own code said it,
or it is who and when the run is (the signed-in user, today). A count is shown when a list the tools returned has that
many items. What is not stated as fact:

- the answer's own numbering: a list's "1." or "(2)" at the start of a line, an ordinal (第1步, "the 2nd");
- "一" / "one" as an article (一个申请, "one of them"); one day, one yuan and any other count of one still count;
- anything inside a question the answer asks ("是3天吗？", "Shall I file 3 days?"): a question states nothing, and the
  person answers it.

Domain-free: nothing here knows a toolset. The engine's graph reads the conversation into a `Known` and an answer into
its `Claim`s (`graph/known.py`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, tzinfo
from typing import Any, Literal

from tools.parsers import TextFacts, read_text, working_days
from tools.parsers.date_phrases import add_months
from tools.parsers.numerals import find_numerals
from tools.parsers.text import fold_width, mask_identifiers, mask_spans, mask_words
from tools.parsers.times import times_in
from tools.patterns import compiled
from tools.people import may_name, mention_strength, name_pattern
from tools.quotes import quotes_in
from tools.quotes import shown as quote_shown

ClaimKind = Literal["number", "year", "month", "day", "date", "time", "id", "person", "quote"]
Precision = Literal["full", "month_day", "day", "weekday", ""]


@dataclass(frozen=True)
class Claim:
    """One value an answer states as fact."""

    kind: ClaimKind
    """A number (any unit), a year (2026年), a month (12月), a day of a month (17日), a date, a time of day, a record
    id, a person, or a quotation (what someone said)."""
    text: str
    """The words it was read from, as the answer wrote them."""
    value: Any
    """The value: a float for a number, year or month; a `date`; (hour, minute) for a time; the id; the person's id."""
    precision: Precision = ""
    """For a date, what its words state: the whole date (2026-12-08, 明天), a month and day (12月8日), a day of the
    month (8号) or a weekday (周五)."""


@dataclass(frozen=True)
class Known:
    """What a conversation showed: the numbers, dates and times stated or returned, and the texts that named records
    and people."""

    numbers: frozenset[float] = frozenset()
    dates: frozenset[date] = frozenset()
    times: frozenset[tuple[int, int]] = frozenset()
    texts: tuple[str, ...] = ()

    def __or__(self, other: Known) -> Known:
        return Known(self.numbers | other.numbers, self.dates | other.dates, self.times | other.times,
                     self.texts + other.texts)

    def supports(self, claim: Claim, people: Mapping[str, Mapping[str, Any]]) -> bool:
        """Whether the conversation showed the claimed value (`people`: the directory by id, for a person's names)."""
        if claim.kind == "number":
            return _number(claim.value) in self.numbers
        if claim.kind in ("year", "month", "day"):
            part = {d.year if claim.kind == "year" else d.month if claim.kind == "month" else d.day for d in self.dates}
            return _number(claim.value) in self.numbers or int(claim.value) in part
        if claim.kind == "date":
            return _date_known(claim.value, claim.precision, self.dates)
        if claim.kind == "time":
            hour, minute = claim.value
            return any(h % 12 == hour % 12 and m == minute for h, m in self.times)
        if claim.kind == "quote":
            return quote_shown(claim.value, self.texts)
        joined = "\n".join(self.texts)
        if claim.kind == "id":
            return compiled(rf"(?<![\w]){re.escape(claim.value)}(?![\w])").search(joined) is not None
        person = people.get(claim.value)
        return person is not None and mention_strength(joined, dict(person)) > 0


def _number(value: float) -> float:
    """A number as compared: 10 == 10.0, no float noise (0.1 + 0.2), and no sign (7 − 5: a minus between two
    numbers is an operator, not the second one's sign)."""
    return round(abs(float(value)), 6)


def _date_known(day: date, precision: Precision, dates: frozenset[date]) -> bool:
    if precision == "month_day":
        return any((d.month, d.day) == (day.month, day.day) for d in dates)
    if precision == "day":
        return any(d.day == day.day for d in dates)
    if precision == "weekday":
        return any(d.weekday() == day.weekday() for d in dates)
    return day in dates


# ---------------------------------------------------------------- what a conversation showed

_DAYS_OF_A_RANGE = 62
"""A range longer than this adds its two ends only to what is known (no day of a year-long range is "stated")."""
_ISO_MOMENT = re.compile(r"\b(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?\b")
_HAS_VALUE = re.compile(
    r"[\d〇零一二两三四五六七八九十百千万亿今明昨后前周月日号半]|星期|礼拜|\b(?:half|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|"
    r"mon|tue|wed|thu|fri|sat|sun|today|tomorrow|yesterday|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|a\s+(?:day|week|month))",
    re.IGNORECASE,
)
"""What a text with any value has (a digit, a numeral, a date's word): one without is read for its names only."""


def known_in_text(text: str, *, today: date, names: Sequence[str] = (), zone: tzinfo | None = None) -> Known:
    """What one text (a person's message, a tool's string value, the code's own words) states: its moments
    (2026-12-03T10:22:45Z: that day and time, and both in `zone`) and times of day, then its numbers in any numeral
    system, the day counts its ranges and lists give, its dates (every day of a range), and the text itself (records
    and people it names). `names`: the people's names, masked first (张三's 三 is no number)."""
    if not _HAS_VALUE.search(text):
        return Known(texts=(text,))
    folded = fold_width(text)
    dates: set[date] = set()
    times: set[tuple[int, int]] = set()
    for moment in _ISO_MOMENT.finditer(folded):
        dates_, times_ = _moment(moment, zone)
        dates |= dates_
        times |= times_
    folded = mask_spans(folded, [m.span() for m in _ISO_MOMENT.finditer(folded)])
    read_times = times_in(folded)
    times |= {value for _, value in read_times}
    folded = mask_spans(folded, [span for span, _ in read_times])
    facts = read_text(folded, today=today, ignore=names)
    numbers = {q.value for q in facts.quantities} | set(facts.days_implied()) | _numerals(folded, facts, names)
    for span in facts.dates:
        length = (span.end - span.start).days
        if length <= _DAYS_OF_A_RANGE:
            dates.update(span.start + timedelta(days=n) for n in range(length + 1))
        else:
            dates.update((span.start, span.end))
    return Known(frozenset(_number(n) for n in numbers), frozenset(dates), frozenset(times), (text,))


def _numerals(text: str, facts: TextFacts, names: Sequence[str] = ()) -> set[float]:
    """Every numeral outside the text's dates, read or not as a quantity: "最多3天" states 3 though the parsers leave a
    bound unread as a value."""
    masked = mask_spans(mask_identifiers(mask_words(text, names)), [d.at for d in facts.dates])
    return {value for numeral in find_numerals(masked) for value in numeral.values}


def _moment(match: re.Match[str], zone: tzinfo | None) -> tuple[set[date], set[tuple[int, int]]]:
    """The day and time of an ISO date or moment, as written and in `zone`."""
    try:
        day = date.fromisoformat(match[1])
    except ValueError:
        return set(), set()
    if match[2] is None:
        return {day}, set()
    dates, times = {day}, {(int(match[2]), int(match[3]))}
    if match[4] is not None and zone is not None:
        try:
            local = datetime.fromisoformat(match.group().replace("Z", "+00:00").replace(" ", "T")).astimezone(zone)
        except ValueError:
            return dates, times
        dates.add(local.date())
        times.add((local.hour, local.minute))
    return dates, times


def known_in_value(value: Any, *, today: date, names: Sequence[str] = (), zone: tzinfo | None = None) -> Known:
    """What a tool's result states: every number in it, how many items each of its lists has and the total of each of
    their number fields, and every string read as `known_in_text` reads a text; its JSON text names its records and
    people."""
    numbers: set[float] = set()
    found = Known()
    for item in _walk(value):
        if isinstance(item, list):
            numbers.add(float(len(item)))
            numbers.update(_totals(item))
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int | float):
            numbers.add(float(item))
        elif isinstance(item, str) and item:
            found = found | Known(*_values_only(known_in_text(item, today=today, names=names, zone=zone)))
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return found | Known(frozenset(_number(n) for n in numbers), texts=(text,))


def _totals(items: list[Any]) -> set[float]:
    """The total of each number field over a list's items ("两个申请共 5 天": 2 + 3), and of a list of numbers."""
    totals: dict[str, float] = {}
    for item in items:
        fields = item.items() if isinstance(item, Mapping) else [("", item)]
        for key, field_value in fields:
            if isinstance(field_value, int | float) and not isinstance(field_value, bool):
                totals[key] = totals.get(key, 0.0) + float(field_value)
    return set(totals.values()) if len(items) > 1 else set()


def _values_only(known: Known) -> tuple[frozenset[float], frozenset[date], frozenset[tuple[int, int]]]:
    return known.numbers, known.dates, known.times


def _walk(value: Any) -> Iterable[Any]:
    """Every value inside a JSON value, the lists themselves included."""
    stack = [value]
    while stack:
        item = stack.pop()
        yield item
        if isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)


def known_in_rules(text: str, *, today: date) -> Known:
    """The figures the deployment's own rules state (a toolset's prompt: "above 26°C short sleeves are fine"), read as
    an answer is read, so the rules' numbering states none."""
    claims = claims_in(text, today=today)
    return Known(numbers=frozenset(_number(c.value) for c in claims if c.kind == "number"))


def known_of_run(*, today: date, actor: Mapping[str, Any]) -> Known:
    """Who and when the run is: today (its year, month and weekday with it) and the signed-in user."""
    names = " ".join(str(actor.get(key) or "") for key in ("id", "name", "alias", "email"))
    return Known(dates=frozenset({today}), texts=(names,))


# ---------------------------------------------------------------- what an answer states

_CLAUSE = re.compile(r"(?:[^，,；;。！!？?\n.]|\.(?=\d))+(?:[，,；;。！!？?\n]|\.(?!\d)|$)")
_ASKS = re.compile(r"(?:[？?]|吗[。.]?)\s*$")
_LIST_MARKER = re.compile(
    r"[(（][ \t]*(?:\d{1,2}|[一二三四五六七八九十]{1,2})[ \t]*[)）]|"
    r"(?<![^\s:：;；])(?:\d{1,2}|[一二三四五六七八九十]{1,2})[)）](?!\d)|"
    r"(?:(?m:^)|(?<=[:：;；]))[ \t]*(?:[-*•·][ \t]*)?(?:\d{1,2}|[一二三四五六七八九十]{1,2})[ \t]*[.、](?!\d)"
)
_ORDINAL = re.compile(
    r"第[ \t]*(?:\d+|[〇零一二两三四五六七八九十百]+)|\b\d+(?:st|nd|rd|th)\b|\b(?:first|second|third|fourth|fifth|"
    r"sixth|seventh|eighth|ninth|tenth)\b", re.IGNORECASE
)
_LONE_HAN_NUMERAL = re.compile(r"[〇零一二两三四五六七八九十]")
"""One Chinese numeral character alone: with nothing it counts, part of a word or a name (李四, 王五), not a figure."""
_COUNTED = re.compile(r"\s*(?:个|[天日周月年元块次位件份张条项种笔岁号倍]|小时|钟头|分钟)")
_RELATIVE = re.compile(r"今|明|昨|前天|后天|[上下本这]|大后|\b(?:next|last|this|tomorrow|yesterday|today|ago)\b", re.I)
_YEAR = re.compile(r"\d{4}|[〇零一二三四五六七八九]{4}")
_MONTH = re.compile(r"月|\d[/.-]\d|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)", re.IGNORECASE)
_WEEKDAY = re.compile(r"周|星期|礼拜|\b(?:mon|tue|wed|thu|fri|sat|sun)", re.IGNORECASE)


def _precision(words: str) -> Precision:
    if _RELATIVE.search(words) or _YEAR.search(words):
        return "full"
    if _MONTH.search(words):
        return "month_day"
    return "weekday" if _WEEKDAY.search(words) else "day"


def _questions(text: str) -> list[tuple[int, int]]:
    """The clauses of a text that ask something ("是3天吗？", "Shall I file it?")."""
    return [m.span() for m in _CLAUSE.finditer(text) if _ASKS.search(m.group())]


@dataclass
class _Reading:
    """An answer being read: the text with what has been read masked, and the claims so far."""

    text: str
    claims: list[Claim] = field(default_factory=list)

    def take(self, spans: Iterable[tuple[int, int]]) -> None:
        self.text = mask_spans(self.text, list(spans))


def claims_in(
    text: str, *, today: date, people: Sequence[Mapping[str, Any]] = (), record_ids: str = "",
) -> list[Claim]:
    """Every value `text` (an answer) states as fact: record ids (matches of `record_ids`), the `people` (directory
    records: id, name, alias, email) it names, times of day, dates (relative ones counted from `today`), years,
    months and numbers; none inside a question, none that numbers the answer's own parts, and no "one" as an
    article (the module's rule)."""
    original = fold_width(text)
    reading = _Reading(original)
    reading.take(_questions(original))
    for span, quoted in quotes_in(reading.text):  # what someone said: shown as their words, not value by value
        reading.claims.append(Claim("quote", text[span[0] : span[1]], quoted))
        reading.take([span])
    if record_ids:
        for match in re.finditer(record_ids, reading.text):
            reading.claims.append(Claim("id", text[match.start() : match.end()], match.group()))
        reading.take(m.span() for m in re.finditer(record_ids, reading.text))
    _read_people(reading, text, people)
    for span, value in times_in(reading.text):
        reading.claims.append(Claim("time", text[span[0] : span[1]], value))
        reading.take([span])
    reading.take(m.span() for m in _LIST_MARKER.finditer(reading.text))
    reading.take(m.span() for m in _ORDINAL.finditer(reading.text))
    facts = read_text(reading.text, today=today)
    for dated in facts.dates:
        words = text[dated.at[0] : dated.at[1]]
        days = [dated.start] if dated.end == dated.start else [dated.start, dated.end]
        reading.claims += [Claim("date", words, day, _precision(words)) for day in days]
    for quantity in facts.quantities:
        after = reading.text[quantity.end : quantity.end + 1]
        if quantity.value == 1 and quantity.unit in ("none", "other"):
            continue  # 一个, "one of them": an article, not a count
        if quantity.unit == "none" and _LONE_HAN_NUMERAL.fullmatch(quantity.text):
            continue  # 李四, 王五: a lone 四 with nothing it counts is part of a word
        kind: ClaimKind = "number"
        if quantity.unit == "other" and after in ("年", "月", "日", "号"):
            kind = "year" if after == "年" else "month" if after == "月" else "day"  # 2026年, 12月, 17日: of a date
        reading.claims.append(Claim(kind, text[quantity.start : quantity.end], quantity.value))
    read = mask_spans(reading.text, [(q.start, q.end) for q in facts.quantities])
    masked = mask_spans(mask_identifiers(read), [d.at for d in facts.dates])
    for numeral in find_numerals(masked):  # a bound the parsers leave unread ("最多10天", "over 500") states it too
        lone = _LONE_HAN_NUMERAL.fullmatch(masked[numeral.start : numeral.end]) is not None
        if numeral.values != (1.0,) and not (lone and not _COUNTED.match(masked, numeral.end)):
            reading.claims.append(Claim("number", text[numeral.start : numeral.end], numeral.values[0]))
    return reading.claims


def _read_people(reading: _Reading, text: str, people: Sequence[Mapping[str, Any]]) -> None:
    """The directory's people the answer names, their words then masked: by id or e-mail address, by a Chinese name
    anywhere, by a Latin-script name or alias only as the directory writes it ("Li Si"; "an administrator" names
    nobody)."""
    squashed = ("".join(reading.text.split()).lower(), "".join(reading.text.split()).casefold())
    spans: list[tuple[int, int]] = []
    for person in people:
        record = dict(person)
        if not may_name(squashed, record):
            continue
        where = [m.span() for key in (record["id"], record.get("email") or "") if key
                 for m in compiled(rf"(?<![\w.]){re.escape(str(key))}(?![\w])", re.IGNORECASE).finditer(reading.text)]
        for name in (record.get("name") or "", record.get("alias") or ""):
            if name.strip():
                flags = 0 if name.isascii() else re.IGNORECASE
                where += [m.span() for m in re.finditer(name_pattern(name), reading.text, flags)]
        if where:
            start, end = min(where)
            reading.claims.append(Claim("person", text[start:end], str(record["id"])))
            spans += where
    reading.take(spans)


def unsupported(claims: Sequence[Claim], known: Known, people: Sequence[Mapping[str, Any]] = ()) -> list[Claim]:
    """The claims the conversation never showed, each value once. A count of days between two days the answer states
    and the conversation showed is shown too ("12月15日出发，17日回来，共3天")."""
    by_id = {str(p["id"]): p for p in people}
    known = known | Known(numbers=_spans_between(claims, known, by_id))
    out: list[Claim] = []
    for claim in claims:
        if not known.supports(claim, by_id) and all((c.kind, c.value) != (claim.kind, claim.value) for c in out):
            out.append(claim)
    return out


def _spans_between(claims: Sequence[Claim], known: Known, people: Mapping[str, Mapping[str, Any]]) -> frozenset[float]:
    """The calendar and working days between each two days an answer states that the conversation showed: its dates,
    and a day of the month (17日) in the month of the date before it."""
    days: list[date] = []
    for claim in claims:
        if claim.kind == "date" and claim.precision != "weekday" and known.supports(claim, people):
            days.append(claim.value)
        elif claim.kind == "day" and days and known.supports(claim, people):
            try:
                day = days[-1].replace(day=int(claim.value))
            except ValueError:
                continue
            days.append(day if day >= days[-1] else add_months(day, 1, day.day) or day)
    spans = {(a, b) for a in days for b in days if a < b and (b - a).days <= _DAYS_OF_A_RANGE}
    return frozenset(_number(n) for a, b in spans for n in ((b - a).days + 1, working_days(a, b)))
