"""Guard: a leave said from its first day and for so many days ("下周一开始连休5天年假", "from next Monday, 3 days of
annual leave") ends where those working days are complete on the calendar. The model files the first day alone, or
the first day as the last too; counted as written, that is one day, and the request was refused as the days not
matching the dates. The last day is counted instead (holidays left out, make-up workdays counted, as the card says)
and shown on the card as inferred, for the person to check before anything is filed. Nothing is counted where the
person's words state a last day of their own, or where the days cannot be made of whole working days from that
start (the mismatch is then said as before); a last day the model gave that the person never said is counted anew."""

from __future__ import annotations

from datetime import date, timedelta

from tools.grounding import stated_as_given
from tools.guards.call import Call
from tools.hooks import Source
from tools.person_values import get_param, set_param
from tools.workflow.leave.calendar import CountError, Half, count_leave
from tools.workflow.leave.rules import END, HALVES, START, form_halves, iso_date, starts_a_leave

_FIRST, _LAST, _LAST_HALF = f"fields.{START}", f"fields.{END}", "fields.endHalf"
_LONGEST = 60
"""The most calendar days a counted leave may span: past them, the person's own last day is asked for instead."""


def last_day(start: date, days: float, start_half: Half | None) -> tuple[date, Half | None] | None:
    """The day (and half) on which `days` working days from `start` are complete; None when none is."""
    for n in range(_LONGEST):
        end = start + timedelta(days=n)
        for half in (("am", None) if days % 1 else (None,)):
            try:
                count = count_leave(start, end, start_half=start_half, end_half=half)
            except CountError:
                continue  # the first day's afternoon to its morning: no span
            if count.days == days and (n == 0 or count.days > count_leave(start, end - timedelta(days=1),
                                                                              start_half=start_half).days):
                return end, half
            if count.days > days:
                return None
    return None


def _stated(call: Call) -> bool:
    """Whether the last day the model gave is one the person stated (a last day of the model's own, "下周三" for "2 days
    from next Tuesday", is counted anew: it had been asked for as never said)."""
    assert call.request is not None
    value = next((v for v in call.person_values if v.param == _LAST), None)
    return value is None or stated_as_given(call.toolset, value, call.values, call.found, call.handle, call.ctx,
                                            call.request)


class LeaveEndCounted:
    """Counts a leave's last day from its first and its days, where the person said no last day."""

    name = "leave_end_counted"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        if not starts_a_leave(call):
            return
        start, end = iso_date(get_param(call.values, _FIRST)), get_param(call.values, _LAST)
        days = call.values.get("days")
        if start is None or not isinstance(days, int | float) or days <= 1:
            return
        source = call.sources.get(_LAST)
        if end not in (None, "") and ((source is not None and source["how"] in ("filled", "stated")) or (
                iso_date(end) != start and _stated(call))):
            return  # a last day of their own (read from their words, or the model's as they said it)
        start_half: Half | None = "pm" if HALVES.get(str(get_param(call.values, "fields.startHalf"))) == "pm" else None
        counted = last_day(start, float(days), start_half)
        if counted is None:
            return
        last, half = counted
        call.values = set_param(call.values, _LAST, last.isoformat())
        call.kept[_LAST] = last.isoformat()  # not the person's words: counted from them, and not asked again
        call.sources[_LAST] = Source(how="inferred", said="")
        if half:
            call.values = set_param(call.values, _LAST_HALF, "上午")
            call.kept[_LAST_HALF] = "上午"
            call.sources[_LAST_HALF] = Source(how="inferred", said="")
        call.notes.append(f"[leave] the last day is counted from the first and {days:g} working days: {last.isoformat()}"
                          f"{' morning' if half else ''}")


class LeaveDaysFromDates:
    """The days of a leave whose first and last days are both the person's and who said no length ("comp time for
    Wednesday afternoon and all of Thursday next week") are the working days those dates count (1.5), in place of the
    model's own count (two days named: 2), which was refused as not matching the dates and the person asked which was
    right. Shown on the card as inferred. A length they said is theirs, and a mismatch with it is asked as before."""

    name = "leave_days_from_dates"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if not starts_a_leave(call) or call.request["days"]:
            return
        start, end = iso_date(get_param(call.values, _FIRST)), iso_date(get_param(call.values, _LAST))
        said = set(call.request["dates"])
        if start is None or end is None or start.isoformat() not in said or end.isoformat() not in said:
            return
        halves = form_halves(start, end, get_param(call.values, "fields.startHalf"), get_param(call.values, _LAST_HALF))
        try:
            days = count_leave(start, end, start_half=halves[0], end_half=halves[1]).days
        except CountError:
            return  # no span: the rules say why
        if days <= 0 or call.values.get("days") == days:
            return
        call.values = {**call.values, "days": days}
        call.kept["days"] = days  # counted from their dates, not asked again
        call.sources["days"] = Source(how="inferred", said="")
        call.notes.append(f"[leave] the days are counted from the dates they said: {days:g} working days")
