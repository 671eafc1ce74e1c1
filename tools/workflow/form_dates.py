"""The dates of a form as a person says them: a from-to pair's first and last day (the one range they stated, a day
or two they named, working days listed one after another for a leave) and a leave's half days at its ends."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from tools.choices import read_choice
from tools.parsers import read_date
from tools.parsers.calendar import is_working_day
from tools.parsers.dates import AM_PM, am_or_pm
from tools.parsers.day_names import EN_DAYS
from tools.parsers.facts import FROM_AFTER, FROM_BEFORE
from tools.parsers.text import MASK
from tools.request import Request, Said, read_request
from tools.taken_back import TAKEN_BACK
from tools.workflow.engine import FormField


def _one_leave(request: Request) -> set[tuple[str, str]]:
    """Ranges that are one leave said twice over ("all of next week, Monday through Friday"; 下周一整周，周一到周五):
    the same first day and the same working days. It ends on the last of them (the Friday, not the Sunday); ranges
    that differ are no one leave (empty)."""
    ranges = request["ranges"]
    if len({(r["start"], r["working_days"]) for r in ranges}) != 1:
        return set()
    return {(ranges[0]["start"], min(r["end"] for r in ranges))}


def range_end(which: str, *, ranges_only: bool = False, trip: bool = False) -> Any:
    """The reader of the first or last day of what the person said for a from-to pair of dates: the one date range
    they stated (the same range said twice is one); without a range, the one date they stated is both ends (a deputy
    for a day; a trip's, `trip`, only where the words say it ends that day: `longer_than_its_date`), and two dates
    are from the earlier to the later ("next Thursday and Friday", "12月8日出发，10日回来"), the second said read after
    the first where alone it fell before it ("下下周二出发，周四回来").
    A leave (`ranges_only`) reads a range alone: "明天开始请3天" says its first day, not its last, and each weekday of
    "周四周五" is read on its own (said on a Friday: today and next Thursday); but one working day with one day or half
    a day said is that day ("下周五歇一天", 下周二下午休半天), and one leave said twice over is one range (`_one_leave`).
    None when they stated different ranges, or no date, or more than two."""

    def stated(request: Request) -> str | None:
        request = dated_anew(request)
        ranges = {(r["start"], r["end"]) for r in request["ranges"]}
        if ranges_only and len(ranges) > 1:
            ranges = _one_leave(request)
        if len(ranges) > 1:
            ranges = _latest_ranges(request)  # "I'm out all of next week." … "ok, Wang Wu from Monday to Friday"
        if len(ranges) == 1:
            start, end = ranges.pop()
            return start if which == "start" else end
        dates = sorted(set(request["dates"]))
        to_come = [d for d in dates if d >= request.get("today", "")]
        lengths = _lengths(request)
        if ranges_only and not ranges and len(to_come) == 1 and lengths in ({1.0}, {0.5}):
            dates = to_come  # "worked last Saturday, a comp day this Friday": the one day to come is the leave's
        if ranges_only and not ranges and len(dates) == 1 and lengths in ({1.0}, {0.5}) and \
                is_working_day(date.fromisoformat(dates[0])):
            return dates[0]  # "下周五歇一天", "next Monday morning off": a leave of a day or half of it on the one day said
        if ranges_only and not ranges and which == "start" and (first := said_as_first_day(request)):
            return first  # "下周二起请俩天假": its first day; the last is counted from the days
        if ranges_only and not ranges and len(dates) > 1 and _working_days_in_a_row(dates) and \
                (not lengths or float(len(dates)) in lengths):
            return dates[0] if which == "start" else dates[-1]  # "下周四、周五这两天": one leave, Thursday to Friday
        if ranges or ranges_only or not 1 <= len(dates) <= 2 or (len(dates) == 1 and request.get("dates_unread")):
            return None  # "周一出发，第二天回来": the one date read is not the trip's both ends
        if len(dates) == 1 and (longer_than_its_date if trip else stays_longer)(request):
            # "周一去杭州，待三天": its first day (not one said as the day back), and its end asked
            return dates[0] if which == "start" and not _said_as_coming_back(request) else None
        if len(dates) == 1 and trip and which == "start" and back_date_only(request):
            return None  # "周五回来": the day they come back, not the day they set off
        if len(dates) == 2:
            dates = _the_end_after_the_start(request) or dates
        return dates[0] if which == "start" else dates[-1]

    return stated


def dated_anew(request: Request) -> Request:
    """The request as dated by the latest of the person's messages that states its dates whole (a range, two dates or
    more, or a date and a length) and those after it: the dates, ranges and lengths said before it are no longer the
    person's (a leave declined or refused, then said again: "那就先请2天病假，下周一和下周二" after Monday to Wednesday;
    "a full day next Tuesday" after its afternoon; "then file Wednesday and Thursday instead" after asking about
    Monday and Tuesday). A message whose one date follows words that take back what was said ("Actually, make it next
    Wednesday", "不对，改到下周四") moves the day, and the length said before stays. Unchanged where no message states
    them whole ("从下周一开始" then "到周三": both are read)."""
    said = request.get("said", [])
    for message in sorted({s["message"] for s in said}, reverse=True):
        mine = [s for s in said if s["message"] == message]
        dates = {str(s["value"]) for s in mine if s["kind"] == "date"}
        kinds = {s["kind"] for s in mine}
        said_length = any(s["kind"] == "days" and s["text"] not in {d["text"] for d in mine if d["kind"] == "date"}
                          for s in mine)  # not the day a lone date implies ("1/28" answering the end date)
        if "range" in kinds or len(dates) > 1 or (dates and said_length):
            break
        if _takes_back_to_a_date(request, mine):  # "Actually, make it next Wednesday": the day moves, the length stays
            kept = [s for s in said if s["message"] < message and s["kind"] == "days"]
            own = kept + [s for s in said if s["message"] >= message]
            return {**request, "dates": [str(s["value"]) for s in own if s["kind"] == "date"],
                    "ranges": [], "said": own}
    else:
        return request
    own = [s for s in said if s["message"] >= message]
    if len(own) == len(said):
        return request
    spans = {str(s["value"]) for s in own if s["kind"] == "range"}
    return {**request, "dates": [str(s["value"]) for s in own if s["kind"] == "date"],
            "ranges": [r for r in request["ranges"] if f"{r['start']}/{r['end']}" in spans],
            "days": [float(s["value"]) for s in own if s["kind"] == "days"], "said": own}


def _takes_back_to_a_date(request: Request, said: list[Said]) -> bool:
    """Whether a message's one date comes after words that take back what was said ("Actually, make it next
    Wednesday", "不对，改成下周三", after a card of next Tuesday): the date said instead, not one more."""
    texts = request.get("recent", [])
    at_dates = [(s["message"], s["text"]) for s in said if s["kind"] == "date" and 0 <= s["message"] < len(texts)]
    return any((cue := TAKEN_BACK.search(texts[m])) is not None and texts[m].find(words, cue.start()) >= 0
               for m, words in at_dates)


def _lengths(request: Request) -> set[float]:
    """The lengths the person said: those of their latest message where it says one ("Two days, next Wednesday and
    Thursday" answering how long, after "I've had this cough for three weeks"), else every one said."""
    return set(request["last"]["days"]) or set(request["days"])


def said_as_first_day(request: Request) -> str | None:
    """The one date to come a leave's words say it starts on ("下周二起请俩天假", 从周三开始休, "starting next Monday, 3
    days"), beside any other date they give as its occasion ("我下周六办婚礼，想从下周一开始请5天婚假": Monday); None when
    none is said as its start, or several are."""
    today = request.get("today", "")
    starts = {str(said["value"]) for said, text, at in _dates_where_said(request)
              if str(said["value"]) >= today and (
                  FROM_BEFORE.search(text[:at]) or FROM_AFTER.search(text[at + len(said["text"]):]))}
    return starts.pop() if len(starts) == 1 else None


def _dates_where_said(request: Request) -> list[tuple[Said, str, int]]:
    """Each date the request states, with the message it was said in and where in it (a date said twice, "next
    Wednesday … starting next Wednesday", at each of its places in turn)."""
    found = []
    after: dict[tuple[int, str], int] = {}
    for said in request.get("said", []):
        if said["kind"] == "date" and 0 <= said["message"] < len(request["recent"]):
            text = request["recent"][said["message"]]
            key = (said["message"], said["text"])
            if (at := text.find(said["text"], after.get(key, 0))) >= 0:
                found.append((said, text, at))
                after[key] = at + len(said["text"])
    return found


def _latest_ranges(request: Request) -> set[tuple[str, str]]:
    """The date ranges of the latest message that states any: a later message says the dates anew."""
    said = [s for s in request.get("said", []) if s["kind"] == "range"]
    last = max((s["message"] for s in said), default=None)
    return {tuple(str(s["value"]).split("/", 1)) for s in said if s["message"] == last}  # type: ignore[misc]


_SEVERAL_DAYS = re.compile(
    r"[几数]天|好几天|多天|一阵|一段时间|一周|一个?星期|一个?礼拜|整周|\b(?:a\s+few|several|a\s+couple\s+of|some|many|multiple)\s+"
    r"(?:days|nights)\b|\b(?:the|a|whole)\s+week\b|\bfor\s+a\s+while\b",
    re.IGNORECASE,
)
"""How long a trip is, said without a number: 待几天, 一周, "a few days", "for the week"."""


_LEAVING = re.compile(
    r"出发|动身|启程|起程|(?<![不别])走(?!访|路|一趟)|开始|\b(?:leav(?:e|es|ing)|depart(?:s|ing)?|fly(?:ing)?\s+out|"
    r"set(?:ting)?\s+(?:off|out)|head(?:ing)?\s+(?:out|off)|starting|from)\b", re.IGNORECASE)
"""Words that say the date is when the person sets off: 明天出发, 明儿走, "leaving tmrw", "flying out Monday"."""
_BACK = re.compile(r"回来|回程|返回|返程|回到|结束|最后一天|截止|\b(?:back|return(?:s|ing)?|end(?:s|ing)?(?:\s+date)?|"
                   r"last\s+day|until|till)\b", re.IGNORECASE)
"""Words that say the date is when the person comes back, or when it ends (回来的日期改成28号, "back on the 28th",
"change the end date to next Thursday")."""
_CLAUSE_BREAK = re.compile(r"[，,。;；!！?？\n]|\.(?:\s|$)")
_SAME_DAY = re.compile(
    r"当天|当日|一日游|\b(?:same\s+day|(?:one[-\s])?day\s+trip|there\s+and\s+back|back\s+(?:that|the\s+same|by)\s+"
    r"(?:night|evening|day)|back\s+(?:tonight|in\s+the\s+evening))\b", re.IGNORECASE)
"""Words that say the trip ends on the day it starts: 当天回, 当日往返, "a day trip", "back the same night"."""


def longer_than_its_date(request: Request) -> bool:
    """Whether the person said one date, no range, and not that the trip ends on it: a stay longer than that day
    ("周一去杭州，待三天", "from the 26th for a few days"), or the date alone, as the day they set off or go ("明儿出发",
    "下周二去杭州出差"), with no word of coming back that day (当天回, "a day trip", 出差一天): the date is the first day
    only, and the last is theirs to say (`PersonValue.left_out_unsaid` of a trip's end: a model's end on that same day
    is not theirs). A date said as the day they come back ("周五回来") is not read here."""
    if request["ranges"] or len(set(request["dates"])) != 1:
        return False
    words = " ".join(request["texts"])
    if stays_longer(request):
        return True
    dated = {said["text"] for said in request["said"] if said["kind"] == "date"}
    said_days = {float(said["value"]) for said in request["said"] if said["kind"] == "days" and said["text"] not in dated}
    if said_days & {1.0, 0.5} or _SAME_DAY.search(words):  # "出差一天"; not the day a date alone implies
        return False
    return _said_as_setting_off(request) or not _said_as_coming_back(request)


def stays_longer(request: Request) -> bool:
    """Whether the person said one date, no range, and a stay longer than that day ("周一去杭州，待三天", "from the 26th
    for a few days", "从下周一开始王五替我批几天"), or said it as the day they set off ("明儿出发", "leaving tmrw")."""
    if request["ranges"] or len(set(request["dates"])) != 1:
        return False
    words = " ".join(request["texts"])
    return bool(set(request["days"]) - {1.0, 0.5} or _SEVERAL_DAYS.search(words)
                or (_said_as_setting_off(request) and not _SAME_DAY.search(words)))


def back_date_only(request: Request) -> bool:
    """Whether the person's one date is said as the day they come back ("下周五回来", "back on the 22nd") and none as
    the day they set off or of a trip of one day: a trip's first day is theirs to say (`PersonValue.left_out_unsaid` of
    a trip's start: a model's start on that day is not theirs)."""
    if request["ranges"] or len(set(request["dates"])) != 1 or _SAME_DAY.search(" ".join(request["texts"])):
        return False
    return _said_as_coming_back(request) and not _said_as_setting_off(request)


def _said_as_coming_back(request: Request) -> bool:
    """Whether the clause a date is said in says it is the day the person comes back ("周五回来", "back on the 28th")."""
    for said, text, at in _dates_where_said(request):
        starts = [m.end() for m in _CLAUSE_BREAK.finditer(text, 0, at)]
        end = _CLAUSE_BREAK.search(text, at + len(said["text"]))
        if _BACK.search(text[starts[-1] if starts else 0: end.start() if end else len(text)]):
            return True
    return False


def _said_as_setting_off(request: Request) -> bool:
    """Whether the clause a date is said in says it is the day the person sets off ("leaving tmrw", 下周一出发去武汉),
    and not the day they come back (回来的日期改成28号，出发那天不变)."""
    for said, text, at in _dates_where_said(request):
        starts = [m.end() for m in _CLAUSE_BREAK.finditer(text, 0, at)]
        end = _CLAUSE_BREAK.search(text, at + len(said["text"]))
        clause = text[starts[-1] if starts else 0: end.start() if end else len(text)]
        if _LEAVING.search(clause) and not _BACK.search(clause):
            return True
    return False


def _working_days_in_a_row(dates: list[str]) -> bool:
    """Whether sorted ISO dates are working days one after another, no working day between them left out (下周四、周五;
    a Friday and the Monday after), so that they are one leave from the first to the last."""
    days = [date.fromisoformat(d) for d in dates]
    if not all(is_working_day(d) for d in days):
        return False
    span = (days[-1] - days[0]).days + 1
    between = sum(is_working_day(date.fromordinal(days[0].toordinal() + i)) for i in range(span))
    return between == len(days)


def _the_end_after_the_start(request: Request) -> list[str] | None:
    """Two dates said for a from-to pair, the second read after the first as a range's end is ("下下周二出发，周四回来":
    the Thursday after that Tuesday, not this week's), when read on its own it fell before it; None otherwise."""
    said = [(str(s["value"]), s["text"]) for s in request.get("said", []) if s["kind"] == "date"]
    if len({value for value, _ in said}) != 2:
        return None
    (first, _), (second, words) = said[0], next(s for s in said if s[0] != said[0][0])
    if second >= first:
        return None
    start = date.fromisoformat(first)
    try:
        end = read_date(words, start, after=start)
    except ValueError:
        return None
    return [first, end.isoformat()] if end > start else None


HALF_NAMES = {"am": "上午", "pm": "下午"}
"""A half of the day as read from a date range (`StatedRange.start_half`) as the leave form's option."""


def range_half(which: str, form_field: FormField) -> Any:
    """The reader of a leave's half-day field (`which`: "start" or "end"): the half said at that end of the one range
    the person stated ("下周四下午到周五": 下午 at the start, none at the end; "周一下午到周三上午": 上午 at the end);
    without a range, the option their words name or imply (下周二下午: 下午), as any choice is read. None when they
    stated different ranges, or a range with no half at that end, or words that name both."""
    choices = tuple((c.id, c.name, c.name_en) for c in form_field.choices)
    hints = tuple((c.id, *c.words) for c in form_field.choices if c.words)

    def stated(request: Request) -> str | None:
        request = dated_anew(request)
        ranges = {(r["start"], r["end"], r.get("start_half"), r.get("end_half")) for r in request["ranges"]}
        if len(ranges) > 1:
            return None
        if ranges:
            half = ranges.pop()[2 if which == "start" else 3]
            return HALF_NAMES.get(half) if half else None
        if request["days"] and all(d == int(d) for d in request["days"]):
            return None  # "帮我请一天病假，早上烧到38度5": a whole day's count, and no half said with a date
        texts = [_HABIT.sub(lambda m: MASK * len(m.group()), _HAPPENED.sub(lambda m: MASK * len(m.group()), t))
                 for t in request["texts"]]
        for text in reversed(texts):  # "下周五 PM", "Fri AM": the half said after the day
            halves = {am_or_pm(m) for m in _AM_PM_AFTER_A_DAY.finditer(text)}
            if halves:
                return HALF_NAMES[halves.pop()] if len(halves) == 1 else None
        found = read_choice(choices, hints, texts)
        return str(found.value) if found is not None else None

    return stated


_HAPPENED = re.compile(
    r"(?:早上|早晨|今早|上午|中午|下午|晚上)(?=\s*(?:一?起来|醒来|起床|睡醒|开始(?!请|休)|突然|发现|的时候))|"
    r"\b(?:woke\s+up|since|earlier)\s+(?:this\s+)?(?:morning|afternoon)\b|"
    r"\b(?:this\s+)?(?:morning|afternoon)\b(?=,?\s+i\s+(?:woke|was|felt|started|had|got)\b)",
    re.IGNORECASE,
)
"""A half of the day that says when something happened, not which half the leave is ("早上起来烧到38度5，今天请一天",
"woke up this morning with a fever, need today off"): no half said."""


_HABIT = re.compile(r"\b(?:mornings|afternoons)\b|每(?:天|日|个|周[一二三四五六日天]?)的?(?:上午|下午)|(?:上午|下午)班",
                    re.IGNORECASE)
"""Halves of the day said of a habit ("I only work mornings", "afternoons are my busy time", 每天上午, 我上午班): no half
of the leave, whichever half it is said beside."""


_AM_PM_AFTER_A_DAY = re.compile(
    r"(?:(?:周|星期|礼拜)[一二三四五六日天1-7]|[0-9一二三四五六七八九十]{1,3}\s*[号日]|明天|后天|\d{1,2}[/.]\d{1,2}|"
    rf"\b(?:{EN_DAYS}|weds)\b\.?|\b\d{{1,2}}(?:st|nd|rd|th)|\btomorrow)"
    rf"\s*{AM_PM}", re.IGNORECASE)
"""AM or PM said after a day ("下周五 PM", "next Fri AM", "Wednesday p.m.", "the 9th a.m."): which half of that day."""


_DAYS_OF_MINE = re.compile(
    r"(?:出差|请假|休假|年假|假期|培训|出去)(?:的)?(?:那几天|那些天|那段时间|期间|的时候|那周|这几天)|"
    r"\b(?:while|when)\s+I['’]?m\s+(?:away|off|out|on\s+(?:leave|holiday|vacation|(?:the|my|that)\s+(?:\w+\s+)?trip))\b|"
    r"\b(?:during|for)\s+(?:my|the|that)\s+(?:\w+\s+)?(?:trip|leave|time\s+off|holiday|vacation)\b|"
    r"\b(?:those|the\s+same)\s+days\b", re.IGNORECASE)
"""Words that give a range as the days of the person's own time away said before ("出差那几天我的审批让赵六代一下",
"while I'm on that trip", "the same days")."""


def range_or_days_of_mine(which: str) -> Any:
    """`range_end` of what the person said, else, where their latest message speaks of the days of their own time
    away ("出差那几天"), the one date range an earlier message of theirs stated, even one a write already filed (its
    values are that write's, but these words point back at them)."""
    said = range_end(which)

    def stated(request: Request) -> str | None:
        found = said(request)
        texts = request.get("recent") or []
        if found is not None or not texts or not _DAYS_OF_MINE.search(texts[-1]) or not request.get("today"):
            return found
        today = date.fromisoformat(str(request["today"]))  # each earlier message read as it was when said
        ranges = {(r["start"], r["end"]) for text in texts[:-1] for r in read_request([text], index=0, today=today)["ranges"]}
        if len(ranges) != 1:
            return None
        start, end = ranges.pop()
        return start if which == "start" else end

    return stated
