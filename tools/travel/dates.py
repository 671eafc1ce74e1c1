"""A travel date as people say it ("下周五", "明天", "next Friday", "2025-06-20"), resolved against today.

Today comes from the run (the graph's clock in `Context.timezone`, handed to tools as `CallContext.today`), never
from the model. The phrase is read by `tools.parsers.read_date` (its rules: docs/parsers.md). Week phrases count
weeks from Monday: "下周五" and "next Friday" are the Friday of next week; "周五", "这周五" and "this Friday" the
coming Friday (today if it is Friday).
"""

from __future__ import annotations

from datetime import date, timedelta

from tools.errors import DomainError
from tools.parsers import DateReadError
from tools.parsers import read_date as read_date_phrase

MAX_DAYS_AHEAD = 365
# Days before today named by a word: no travel date, refused as one the travel tools do not read (as before the
# parsers, which read them for other uses).
PAST_WORDS = {"昨天", "昨日", "前天", "yesterday"}
HELP = "use an ISO date (2025-06-20) or 今天/明天/后天/下周五/6月20日/tomorrow/next Friday"


class DateError(DomainError):
    """A travel date that cannot be read, or that lies in the past or too far ahead."""


def read_date(text: str, today: date) -> date:
    """The date a phrase means, counted from `today`; raises DateError when it cannot be read."""
    try:
        if text.strip().lower().removesuffix(".") in PAST_WORDS:
            raise DateReadError("unreadable", text)
        return read_date_phrase(text, today)
    except DateReadError as unread:
        if unread.reason == "not_on_calendar":
            raise DateError(
                "unreadable_date", f"{text.strip()[:40]!r} is not a date on the calendar; {HELP}."
            ) from None
        raise DateError("unreadable_date", f"Cannot read the date {text.strip()[:40]!r}; {HELP}.") from None


def travel_date(text: str, today: date, *, param: str = "date") -> date:
    """A date to travel on: read from the person's phrase, today or later, at most a year ahead."""
    found = read_date(text, today)
    if found < today:
        raise DateError(
            "past_date",
            f"{param} {found.isoformat()} is in the past (today is {today.isoformat()}); choose today or a later date.",
        )
    if found > today + timedelta(days=MAX_DAYS_AHEAD):
        raise DateError(
            "date_too_far", f"{param} {found.isoformat()} is more than {MAX_DAYS_AHEAD} days ahead; nothing is on sale yet."
        )
    return found
