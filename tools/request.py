"""The person's request, read once per run: its language, what kind of message it is, and the values it states.

The graph builds one `Request` when a run starts (from the person's messages of the request in progress) and keeps it
in the thread's state; nodes and the policy read it, and nothing reads the messages again for it. Values are read by
the parsers in `tools.parsers` (numerals in Chinese and English, durations, dates and ranges counted in working days,
quoted texts); people are matched against the toolset's directory (`tools.people`). A value counts as the person's
when they said it: the same number in any numeral system, a date range counted in days, their own words for a text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, Literal, NotRequired

from typing_extensions import TypedDict

from tools.corrections import corrected_facts, without_alternatives
from tools.message_kind import kind_of
from tools.parsers import TextFacts, language_of, read_text
from tools.parsers.facts import CALENDAR_DAYS_PER_WEEK, WORKING_DAYS_PER_WEEK, due_by
from tools.parsers.slips import mended
from tools.parsers.text import mask_words
from tools.people import named_in, names_of

Lang = Literal["zh", "en"]


class StatedRange(TypedDict):
    """A date range the person stated ("下周三到周五", "下周四下午到周五"), with its length."""

    start: str
    """First day, ISO format."""
    end: str
    """Last day, ISO format."""
    working_days: float
    """Working days in the range (holidays and weekends left out, make-up workdays counted; an afternoon start or a
    morning end counts half its day)."""
    calendar_days: float
    """Days in the range, both ends included (halves as for `working_days`)."""
    start_half: NotRequired[str | None]
    """The first day's half as said: "pm" (下午, "afternoon") or "am"; None when none is said."""
    end_half: NotRequired[str | None]
    """The last day's half as said: "am" (上午, "morning") or "pm"; None when none is said."""


class Said(TypedDict):
    """A value the person's words state, with the words it was read from (what a confirmation card shows:
    "金额 6,800 元 ← 6千8百元")."""

    kind: Literal["amount", "days", "number", "date", "range"]
    """What it is: an amount of money in yuan, a count of days, a number with no unit, a date, or a date range."""
    value: float | str
    """The value: a number for an amount, days or a number (negative when the person wrote it so), an ISO date for a
    date, "start/end" (ISO dates) for a range."""
    text: str
    """The words it was read from, as the person wrote them ("6千8百元", "下周三到周五", "Thursday and Friday")."""
    message: int
    """Which of the person's recent messages (`Request.recent`, 0 the oldest) it was read from."""


class Stated(TypedDict):
    """The values one message states."""

    days: list[float]
    amounts: list[float]
    numbers: list[float]
    dates: list[str]
    quoted: list[str]


class Request(TypedDict):
    """What the person's request says, read once when the run starts."""

    index: int
    """Position of the person's message that started the run (a new message starts a new run and a new record)."""
    texts: list[str]
    """The person's messages of the request: the latest, after the earlier ones it answers (each was followed by
    the assistant's question)."""
    recent: list[str]
    """The person's recent messages (the request's among them, up to RECENT_MESSAGES), oldest first: what the values
    below were read from."""
    lang: Lang
    """The language the person writes in; every question and fixed answer uses it."""
    kind: Literal["information", "action", "capability"]
    """What the latest message asks for: information (a question), an action (anything else, including a polite
    question such as "can you approve it?"), or what the assistant can do."""
    days: list[float]
    """Day counts stated in the person's recent messages (`RECENT_MESSAGES`, the request's among them): durations in
    days (half days too), weeks as 5 working or 7 calendar days, date ranges' working and calendar days."""
    amounts: list[float]
    """Money amounts stated (yuan)."""
    numbers: list[float]
    """Every number stated, in any numeral system (never an article such as "a")."""
    dates: list[str]
    """Dates stated (ISO), the ends of ranges included."""
    ranges: list[StatedRange]
    """Date ranges stated."""
    quoted: list[str]
    """Texts the person spelled out ("内容：…", "the text is: …", quoted)."""
    people: list[list[str]]
    """Ids of the toolset's people each of the person's recent messages names (not the actor), latest message first;
    a message that names nobody gives an empty list."""
    names: dict[str, dict[str, str]]
    """The people the request names, by id: their `name` and `alias` (to tell how a message names them)."""
    shown: list[str]
    """The assistant's answers the person saw and replied to (a draft they may have confirmed)."""
    last: Stated
    """What the latest message alone states (the answer to the graph's question, filled in by code)."""
    answered: NotRequired[int]
    """How many of `texts` came first and were answered already: a message the latest acts on ("who approves a 450
    chair?" answered, then "ok, file it"), whose values are the request's and whose questions are not asked again."""
    declined: NotRequired[int]
    """How many of `texts` came before a card the person declined: the messages after it correct that request
    ("金额是1080，不是1280"), and tell nothing of why it is made."""
    today: NotRequired[str]
    """The day the request was read on (ISO): what its dates are past or to come from."""
    dates_unread: NotRequired[bool]
    """Whether a recent message says of a day what is not read ("back the next day", 第二天回来): the dates read are not
    all the days named, and no from-to pair is read from one of them alone."""
    said: list[Said]
    """Every value the person's recent messages state, with the words it was read from, in the order written: amounts,
    day counts (a week as 5 and as 7, a range's working and calendar days), numbers with no unit, dates (a range's
    first and last days too) and ranges: the values of `days`, `amounts`, `dates` and `ranges`, and the bare ones of
    `numbers`."""


RECENT_MESSAGES = 6
"""How many of the person's latest messages state the values of a request: "file the same request again" may rely on
days said a few messages earlier."""


def read_request(
    texts: Sequence[str],
    *,
    earlier: Sequence[str] = (),
    answering: str = "",
    index: int,
    today: date,
    people: Sequence[dict[str, Any]] = (),
    actor_id: str = "",
    shown: Sequence[str] = (),
    default_lang: Lang = "zh",
    declined: int = 0,
    done: int = 0,
    answered: int = 0,
) -> Request:
    """The record of a request: `texts` are the person's messages of it, oldest first (the latest last); `earlier` the
    person's messages before them, whose values count too (up to RECENT_MESSAGES in all); `answering` the unit of a
    number the graph asked for ("day"), which a bare number in the latest message then states ("let's say four");
    `people` the toolset's directory (records with `id`, `name`, `alias`), whose names are never read as numbers;
    `declined` how many of `texts` came before a card the person declined (the rest correct it); `done` how many of
    `earlier` came before a write carried out, whose values were that write's (a deputy's dates are no trip's): they
    name people still ("给他发个邮件"), and state no value."""
    texts, earlier = [mended(t) for t in texts], [mended(t) for t in earlier]  # "aprove", "afternon": the words meant
    latest = texts[-1] if texts else ""
    names = [str(n) for p in people for n in names_of(p)]
    others = [dict(p) for p in people if p.get("id") != actor_id]
    values = _Values()
    lang: Lang = default_lang
    last = Stated(days=[], amounts=[], numbers=[], dates=[], quoted=[])
    implied: Said | None = None  # the day a request message's only date gives, when no count is stated anywhere
    recent = [*earlier, *texts][-max(RECENT_MESSAGES, len(texts)):]
    one_date: float | None = None  # the latest length a request message's only date gives (`TextFacts.one_date`)
    for position, text in enumerate(recent):
        facts = corrected_facts(text, read_text(text, today=today, ignore=names, default_lang=default_lang), lambda part: (
            read_text(part, today=today, ignore=names, default_lang=default_lang)))  # "4天…啊不对，要6天": 6
        facts = without_alternatives(text, facts)  # "两三天": no length of theirs, asked
        facts = replace(facts, dates=tuple(d for d in facts.dates if not due_by(text, d)))  # "周五前发给他": when due
        if position >= len(recent) - len(texts) and facts.one_date is not None:
            one_date = facts.one_date  # the request's own messages only, never one before it
            implied = Said(kind="days", value=one_date, text=facts.dates[0].text, message=position)
        read = said_in(text, facts, position)
        if position < done - (len(earlier) + len(texts) - len(recent)) and not SAME_AGAIN.search(latest):
            continue  # a message of a request carried out: its values were that request's
        if position == len(recent) - 1:
            lang = facts.lang
            last, read = _latest(facts, answering, read, position)
            values.days.update(last["days"])
            values.amounts.update(last["amounts"])
        values.add(facts, read)
    if not values.days and one_date is not None and implied is not None:
        values.days.add(one_date)  # no count stated anywhere: the request's only date gives one ("Friday off" is one day)
        values.said.append(implied)
    mentioned = [named_in(text, others) for text in reversed(recent)]
    # The person's language over the whole request: an answer such as "lisi2@example.com 那位" or "OK" does not
    # change it.
    if len(texts) > 1:
        lang = language_of("\n".join(mask_words_of(texts, names)), lang)
    return Request(
        index=index,
        texts=list(texts),
        recent=list(recent),
        lang=lang,
        kind=kind_of(latest),
        days=sorted(values.days),
        amounts=sorted(values.amounts),
        numbers=sorted(values.numbers),
        dates=sorted(set(values.dates)),
        ranges=values.ranges,
        quoted=values.quoted,
        people=[[str(p["id"]) for p in named] for named in mentioned],
        names={str(p["id"]): {"name": str(p.get("name") or ""), "alias": str(p.get("alias") or "")}
               for named in mentioned for p in named},
        shown=list(shown),
        last=last,
        said=values.said,
        dates_unread=values.dates_unread,
        declined=declined,
        answered=answered,
        today=today.isoformat(),
    )


SAME_AGAIN = re.compile(
    r"再(?:提|交|发|报|申请)一(?:次|遍|下)|重新(?:提|交|发起|申请|报)|重提|一样的|同样的|照原样|原样|照旧|跟上次一样|和刚才一样|"
    r"\b(?:same|again|resubmit\w*|re-?file\w*|once\s+more)\b",
    re.IGNORECASE,
)
"""Words that ask for what was done once more ("File the same request again", 重新提一下): the values said for it are
said again."""


@dataclass
class _Values:
    """What the recent messages state, gathered message by message."""

    days: set[float] = field(default_factory=set)
    amounts: set[float] = field(default_factory=set)
    numbers: set[float] = field(default_factory=set)
    dates: list[str] = field(default_factory=list)
    ranges: list[StatedRange] = field(default_factory=list)
    quoted: list[str] = field(default_factory=list)
    said: list[Said] = field(default_factory=list)
    dates_unread: bool = False

    def add(self, facts: TextFacts, read: list[Said]) -> None:
        """One message's values (`facts`), and what it says with its words (`read`)."""
        self.said += read
        self.dates_unread |= facts.dates_unread
        self.days |= facts.days_stated()
        self.amounts |= facts.amounts_stated()
        self.numbers |= facts.numbers_stated()
        for span in facts.dates:
            self.dates += [span.start.isoformat(), span.end.isoformat()]
            if span.end != span.start:
                self.ranges.append(StatedRange(start=span.start.isoformat(), end=span.end.isoformat(),
                                               working_days=span.working_days, calendar_days=span.calendar_days,
                                               start_half=span.start_half, end_half=span.end_half))
        self.quoted += [q for q in facts.quoted if q not in self.quoted]


def _latest(facts: TextFacts, answering: str, read: list[Said], position: int) -> tuple[Stated, list[Said]]:
    """What the latest message alone states, and its values with their words: the answer to "how many days?" may be
    a bare number, which then states that many days (or yuan, `answering`)."""
    bare = sorted(q.value for q in facts.quantities if q.unit == "none")
    last = Stated(
        days=sorted(facts.days_stated()), amounts=sorted(facts.amounts_stated()),
        numbers=sorted(facts.numbers_stated()),
        dates=sorted({d.isoformat() for span in facts.dates for d in (span.start, span.end)}),
        quoted=list(facts.quoted),
    )
    if answering in ("day", "yuan") and len(bare) == 1:
        last["days" if answering == "day" else "amounts"] = bare
        read = [Said(kind="days" if answering == "day" else "amount", value=entry["value"], text=entry["text"],
                     message=position) if entry["kind"] == "number" else entry for entry in read]
    return last, read


def of_its_own_messages(request: Request) -> Request:
    """The request as its own messages state it (`texts`, without the earlier messages of `recent`): what a change
    says now ("改成下周四到下周五" after a trip filed for other dates), not the values it changes."""
    first = len(request["recent"]) - len(request["texts"])
    said = [s for s in request["said"] if s["message"] >= first]
    if first <= 0 or len(said) == len(request["said"]):
        return request
    said = [{**s, "message": s["message"] - first} for s in said]  # type: ignore[misc]  # of the messages kept

    def of(*kinds: str) -> list[float | str]:
        return [s["value"] for s in said if s["kind"] in kinds]

    numbers = {float(v) for v in of("amount", "days", "number")}
    spans = {str(v) for v in of("range")}
    return {**request, "recent": request["recent"][first:], "said": said,  # type: ignore[typeddict-item]
            "days": sorted({float(v) for v in of("days")}), "amounts": sorted({float(v) for v in of("amount")}),
            "numbers": [n for n in request["numbers"] if n in numbers], "dates": sorted({str(v) for v in of("date")}),
            "ranges": [r for r in request["ranges"] if f"{r['start']}/{r['end']}" in spans],
            "people": request["people"][:len(request["texts"])]}


def stated_numbers(values: Request | Stated, unit: str) -> list[float]:
    """The numbers stated with a unit (`PersonValue.unit`), in a request or its latest message: for "day" the day
    counts, for "yuan" the amounts of money (元, 块, RMB), for any other unit every number stated."""
    if unit == "day":
        return values["days"]
    if unit == "yuan":
        return values["amounts"]
    return values["numbers"]


def mask_words_of(texts: Sequence[str], names: Sequence[str]) -> list[str]:
    """The texts without the people's names (a name says nothing of the language a person writes in)."""
    return [mask_words(text, names) for text in texts]


def empty_request(index: int = -1, lang: Lang = "zh") -> Request:
    """The record of a run no person's message started (a script's run)."""
    return read_request([], index=index, today=date.today(), default_lang=lang)


def latest_message(request: Request) -> str:
    """The request's latest message ("" for a run no person's message started)."""
    return request["texts"][-1] if request["texts"] else ""


def named_in_latest(request: Request) -> list[str]:
    """The people the latest message of the request names (ids; never the actor)."""
    return request["people"][0] if request["people"] else []


def persons_in_latest(request: Request, but: str = "") -> list[dict[str, str]]:
    """The people the latest message of the request names, as records (`id`, `name`, `alias`), but `but`."""
    return [{"id": p, **request["names"].get(p, {})} for p in named_in_latest(request) if p != but]


def people_named(request: Request) -> list[str]:
    """The people the latest request message that names anybody names (ids; empty when none does)."""
    return next((ids for ids in request["people"] if ids), [])


_SAID_KIND: dict[str, Literal["amount", "days", "number"]] = {"yuan": "amount", "day": "days", "week": "days",
                                                                "none": "number"}


def said_in(text: str, facts: TextFacts, message: int) -> list[Said]:
    """The values one message (`text`, read into `facts`) states, for `Request.said`, in the order written: amounts,
    day counts (a week as 5 and 7 days), bare numbers, dates, ranges with their working and calendar days and their
    first and last days (dates, with the range's words), and lists of dates with the days they name."""
    found: list[tuple[int, Said]] = []
    for quantity in facts.quantities:
        kind = _SAID_KIND.get(quantity.unit)
        if kind is None:
            continue  # hours, months and numbers that count something else state none of these values
        values = [quantity.value]
        if quantity.unit == "week":
            values = [quantity.value * WORKING_DAYS_PER_WEEK, quantity.value * CALENDAR_DAYS_PER_WEEK]
        found += [(quantity.start, Said(kind=kind, value=v, text=quantity.text, message=message)) for v in values]
    for span in facts.dates:
        if span.end == span.start:
            found.append((span.at[0], Said(kind="date", value=span.start.isoformat(), text=span.text, message=message)))
            continue
        value = f"{span.start.isoformat()}/{span.end.isoformat()}"
        found.append((span.at[0], Said(kind="range", value=value, text=span.text, message=message)))
        counts = dict.fromkeys(float(n) for n in (span.working_days, span.calendar_days) if n > 0)
        found += [(span.at[0], Said(kind="days", value=n, text=span.text, message=message)) for n in counts]
        found += [(span.at[0], Said(kind="date", value=day.isoformat(), text=span.text, message=message))
                  for day in (span.start, span.end)]
    for count, (start, end) in zip(facts.listed, facts.listed_at, strict=True):
        found.append((start, Said(kind="days", value=float(count), text=text[start:end], message=message)))
    return [entry for _, entry in sorted(found, key=lambda pair: pair[0])]
