"""`resubmitRequest`: the requester changes what an approver's comment asked for and sends the returned request again.
The same request (its id, its history) then goes through its steps from the start. Its check (only the requester, only
a request sent back; the changed values valid on the whole form and stated by the person), its card (the comment, each
change old → new, the values as they will be filed, who decides it first), and its effect, in one transaction."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import date
from typing import Any

from pydantic import Field, field_validator
from sqlalchemy import Connection

from tools.errors import NeedsPersonError, PolicyError
from tools.guards.call import Call
from tools.request import Request, of_its_own_messages
from tools.spec import CallContext, Found, PersonValue, Verdict, get_param
from tools.words import without_consent
from tools.workflow.args import FormArgs, FormValue, is_zero
from tools.workflow.cards import after_start
from tools.workflow.conditions import CONDITION
from tools.workflow.deputies import held_for
from tools.workflow.engine import Definition, EngineError, FormError
from tools.workflow.forms import check_form, form_data, person_values
from tools.workflow.leave.requests import hold_again
from tools.workflow.leave.rules import check_leave, is_leave
from tools.workflow.lookup import ALL_USERS, engine_of
from tools.workflow.notify import form_summary, notify, process_noun
from tools.workflow.policy import check_resubmit, parse_days
from tools.workflow.request_lookup import require_request
from tools.workflow.request_words import (
    CHANGE_WORDS,
    NAMES_THE_REQUEST,
    REASON_WORD,
    RESEND,
    changes_asked,
    fields_named,
    labels,
    reason_now,
    relayed_note,
    says_to_what,
)
from tools.workflow.shown import form_words
from tools.workflow.timeline import changes_words, name_of
from tools.workflow.words import CHINESE_SPACE

_AS_IT_WAS = re.compile(r"原样|照原来|不用改|不改了?|没(?:有)?改|不变|\bas\s+(?:it\s+)?(?:is|was)\b|\bunchanged\b|"
                        r"\bno\s+changes?\b|\bnothing\s+(?:to\s+)?change|\bsame\s+as\s+before\b", re.IGNORECASE)
"""Words that send a request again as it was: 原样, 不用改, "as it is", "unchanged", "no changes"."""


class ResubmitRequestArgs(FormArgs):
    requestId: str = Field(description="The request sent back: its id from queryMyRequests (req_3), or what the user "
                           "calls it (请假).")
    days: float | None = Field(default=None, description="The new days of leave, when the user changes them.")
    reason: str | None = Field(default=None, description="The new reason, in the user's words, when they change it.")
    fields: dict[str, FormValue | None] | None = Field(
        default=None, description='Other changed form fields by id, as the user gave them, e.g. {"amount": 4800}.')
    note: str | None = Field(default=None, description="What the user tells the approver with the resend, in their "
                             "words, e.g. that the receipts were handed in (补交了发票); the request may go as it was.")

    @field_validator("days", mode="before")
    @classmethod
    def _days(cls, value: Any) -> float | None:
        if value is None or is_zero(value):
            return None  # "days": 0 beside a resend as it was changes no days (no leave is of none)
        return parse_days(value, bounded=False)  # the form bounds them, if it has days

    @field_validator("reason", mode="before")
    @classmethod
    def _blank_reason(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value  # "reason": "" changes no reason

    @field_validator("note")
    @classmethod
    def _note(cls, value: str | None) -> str | None:
        return (value or "").strip() or None  # an empty note is none


def arrange_resubmit(values: dict[str, Any]) -> dict[str, Any]:
    """Keys that are no parameter of their own ("amount": 4800 at the top) go into `fields`, as for a start; a note put
    into `fields` ("fields": {"note": "doctor's note attached"}) is the resend's note, no field of any form."""
    inner = values.get("fields")
    if isinstance(inner, dict) and isinstance(inner.get("note"), str) and not values.get("note"):
        values = {**values, "note": inner["note"], "fields": {k: v for k, v in inner.items() if k != "note"}}
    own = set(ResubmitRequestArgs.model_fields)
    extra = {k: v for k, v in values.items() if k not in own and (v is None or isinstance(v, str | int | float | bool))}
    if not extra:
        return values
    fields = dict(values["fields"]) if isinstance(values.get("fields"), dict) else {}
    for key, value in extra.items():
        fields.setdefault(key, value)
    return {**{k: v for k, v in values.items() if k not in extra}, "fields": fields}


def changed_person_values(handle: Any, ctx: CallContext, values: dict[str, Any], found: Found) -> tuple[PersonValue, ...]:
    """`ToolSpec.person_values_for`: every form field of the request's process, none asked for (the person changes
    what they name). Each is read as its reader reads the request's own messages ("改成下周四到下周五": the new dates,
    not those the trip was filed with), and none is filled in beyond that ("改成3天" is 3 days: the rest of
    "改成3天，重新提交" is no new reason, and no value is read from a cue or implied, as a start reads them). A value
    the model gave that the person did not say (a reason for "it should've been 1350 yuan") is left out, not asked."""
    request = found.get("requestId")
    if request is None:
        return ()
    form = person_values(request["definition"])
    pairs = _pairs(form)
    return tuple(
        PersonValue(param=v.param, kind=v.kind, ask=v.ask, unit=v.unit, optional=True,
                    stated=reason_now if v.param == "reason" else _now(_its_end(pairs.get(v.param), v.stated)),
                    label=v.label, meaningful=v.meaningful, choices=v.choices, refuse=v.refuse, left_out_unsaid=_always)
        for v in form
    ) + (RESEND_NOTE,)


_NOTE_CLAUSE = re.compile(r"[^，,。；;！!？?\n]+[？?]?")
_NOTE_JOINS = re.compile(r"\s+(?:and|so|then|please|pls)\s+|(?<=\S)(?:所以|然后|那就|麻烦(?:你|您)?|帮我)", re.IGNORECASE)
_NOTE_CUE = re.compile(r"^(?:(?:and\s+)?(?:with|add|adding|plus)\s+(?:a|the|this)\s+(?:note|message|comment)|(?:a\s+)?note|"
                       r"(?:附上?|加上?|带上?)?(?:备注|附言|留言|说明|一句话?))\s*(?:[:：]|saying\b|说)\s*", re.IGNORECASE)
"""The words that introduce a resend's note ("with a note: …", 备注：…): not the note."""
_ONLY_THANKS = re.compile(r"^\W*(?:谢谢|多谢|谢了|辛苦了?|麻烦了|\b(?:many\s+)?(?:thanks|thank\s+you|thx|cheers)\b)\W*$",
                          re.IGNORECASE)


def resend_note(request: Request) -> str | None:
    """What the requester tells the approver with a resend that changes nothing, in their words: the clauses of the
    message that sends it again that are neither that instruction, a condition, a question, a yes or thanks
    ("发票已经补交给财务了，原样重新提交吧" → 发票已经补交给财务了; "I emailed the receipts to finance, please resend it as
    it is" → I emailed the receipts to finance). None where no message of the resend says to send it, where it changes
    a value, or where nothing else is said."""
    own = of_its_own_messages(request)["recent"]
    text = next((t for t in reversed(own) if RESEND.search(t) or _AS_IT_WAS.search(t)), None)
    if text is None:
        return None
    if len(told := relayed_note(text)) >= 2:
        return told  # "跟李四说抬头已经改成公司全称了": what they ask to be told, whatever change it tells of
    dates = {s["text"] for s in request["said"] if s["kind"] == "date"}
    values = [s["text"] for s in request["said"] if s["text"] not in dates]  # 三天, 一千二: a change; "this morning" is when
    clauses = [c.strip() for part in _NOTE_JOINS.split(text) for spaced in re.split(CHINESE_SPACE, part)
               for c in _NOTE_CLAUSE.findall(spaced)]  # "发票重开好了 再提交一下": a space between Chinese words ends one
    answers = own[len(own) - own[::-1].index(text):]  # "发票上是八百六十五块五", answering what it is changed to
    if any(CHANGE_WORDS.search(c) or re.search(r"\d", c) or any(w in c for w in values) for c in [*clauses, *answers]):
        return None  # a resend that changes something: the change says why, and the rest is how they asked for it
    kept = [without_consent(c).strip() for c in clauses if not (  # "send it again" is no "ok, send it" and "again"
        RESEND.search(c) or _AS_IT_WAS.search(c) or c.endswith(("?", "？")) or CONDITION.match(c) or
        _ONLY_THANKS.match(c) or NAMES_THE_REQUEST.match(c))]
    kept = [c for c in (_NOTE_CUE.sub("", c).strip() for c in kept) if len(c) >= 2]  # "with a note: …": its words
    if not kept:
        return None
    return ("，" if re.search(r"[\u4e00-\u9fff]", text) else ", ").join(kept)


def _pairs(values: tuple[PersonValue, ...]) -> dict[str, str]:
    """The from-to pairs of dates of a form: each end's parameter and which end it is ("fields.endDate": "end")."""
    return {v.param: "end" for v in values if v.after} | {v.after: "start" for v in values if v.after}


_CLAUSE = re.compile(r"[^，,。；;！!？?\n]+")
_ENDS = {
    "end": re.compile(r"回来|返回|回程|结束|最后一天|截止|\b(?:return|back|ends?|ending|until|till|last day)\b", re.I),
    "start": re.compile(r"出发|开始|动身|启程|第一天|\b(?:start|starts|starting|depart|departure|departing|leave|"
                        r"leaving|first day)\b", re.I),
}


def _its_end(which: str | None, stated: Callable[[Request], Any] | None) -> Callable[[Request], Any] | None:
    """The reader of one end of a from-to pair of dates, for a change: the one date a change names is the end its
    clause speaks of ("回来的日期改成28号，出发那天不变": the last day only, the first stays as filed; "move the departure
    to the 26th": the first only), and both ends (a trip of one day) only where its clause speaks of neither or both."""
    if which is None or stated is None:
        return stated

    def read(request: Request) -> Any:
        value = stated(request)
        return None if value is not None and _the_other_end(which, request) else value

    return read


def _the_other_end(which: str, request: Request) -> bool:
    """Whether the one date a change states (no range) is said of the other end of a from-to pair than `which`: its
    clause speaks of that end alone. `request` is the change's own messages."""
    dates = [s for s in request["said"] if s["kind"] == "date"]
    if request["ranges"] or len({s["value"] for s in dates}) != 1:
        return False
    words = dates[0]["text"]
    clause = next((c for text in request["recent"] for c in _CLAUSE.findall(text) if words in c), "")
    named = {end for end, pattern in _ENDS.items() if pattern.search(clause.replace(words, " "))}
    return named == {"end", "start"} - {which}


def _always(request: Request) -> bool:
    return True  # a resend changes only what the person says now: whatever else the model gives is left out


RESEND_NOTE = PersonValue("note", "text", "resend_note", optional=True, stated=resend_note, on_card=True,
                          left_out_unsaid=_always)
"""The requester's note on a resend: read from their words, never the model's (a note they did not write is left out)."""


def as_it_was(own: Request) -> bool:
    """Whether the messages of a resend (`of_its_own_messages`) send it as it was and change nothing ("原样再提交",
    "resend it as is"): no word of a change, and no value said but in its note ("cut it to 2 days … if he hasn't,
    leave it as it is" changes the days, "出发日期提前到24号，其他不变" the first day; a note's "this morning" is the note's)."""
    texts = own["recent"]
    note = resend_note(own) or ""  # "… with the note: handed to HR this morning": its day is the note's
    return any(_AS_IT_WAS.search(t) for t in texts) and not any(CHANGE_WORDS.search(t) for t in texts) and not any(
        s["text"] not in note for s in own["said"])


def _now(stated: Callable[[Request], Any] | None) -> Callable[[Request], Any] | None:
    """A value's reader over the request's own messages only (`of_its_own_messages`); none where they send it again as
    it was and change nothing (its note's "this morning" is no half day)."""
    if stated is None:
        return None

    def read(request: Request) -> Any:
        own = of_its_own_messages(request)
        if as_it_was(own):
            return None  # "send it again as it is, with the note: … handed to HR this morning": nothing changes
        return stated(own)

    return read


def _changes(request: dict[str, Any], args: ResubmitRequestArgs) -> dict[str, Any]:
    return form_data(args.model_dump(), request["definition"])


def _returned_with(request: dict[str, Any]) -> Any:
    return next((d for d in reversed(request["view"].history) if d.returned), None)


def check_resubmit_request(conn: Connection, ctx: CallContext, args: ResubmitRequestArgs, found: Found) -> Verdict:
    request = found["requestId"]
    check_resubmit(ctx.actor_id, request)
    given = _changes(request, args)
    definition: Definition = request["definition"]
    note = args.note
    if not given and not note:  # asked with the request's own fields as examples (an expense claim's amount, not a leave's days)
        raise NeedsPersonError("no_changes", "give the values the user changes (days, reason, fields); ask the user",
                               ask="changes", param="fields", choices=tuple(
                                   (f.label_en or f.id) if ctx.lang == "en" else f.label
                                   for f in definition.fields if f.required))
    merged = {**{k: v for k, v in request["form"].items() if v is not None}, **given}
    form = check_form(definition, {"fields": merged}, ctx.today)
    changes = {k: (request["form"].get(k), v) for k, v in form.items() if request["form"].get(k) != v}
    if is_leave(definition):  # a leave's type, dates and balance by its rules (held again on the way in)
        check_leave(conn, ctx.actor_id, definition, form, ctx.today or date.today(), sent_again=request["id"])
    if not changes and not note:  # with a note it goes as it was ("发票补交了，原样再提交")
        back = _returned_with(request)
        raise PolicyError("no_changes", "these are the values the request already has; ask the user what to change"
                          + (f" as the comment asks: {back.comment}" if back is not None else ""))
    return Verdict(found={"form": form, "changes": changes})


def resubmit_card(
    conn: Connection, args: dict[str, Any], lang: str = "zh", sources: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """The request, the comment it came back with, each change old → new, the values as filed, who decides first."""
    request = require_request(conn, args["requestId"])
    definition: Definition = request["definition"]
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    given = form_data(args, definition)
    form = {**{k: v for k, v in request["form"].items() if v is not None}, **given}
    changes = {k: (request["form"].get(k), v) for k, v in given.items() if request["form"].get(k) != v}
    back = _returned_with(request)
    noun = process_noun(definition, lang)
    as_it_was = not changes  # with a note only: the approver is told why it comes again unchanged
    card: dict[str, Any] = {
        "summary": (f"Send your {noun} {request['id']} again" + (" as it was" if as_it_was else ", changed")
                    if lang == "en" else ("原样" if as_it_was else "修改后") + f"重新提交你的{noun} {request['id']}"),
        "request": request["id"],
        "process": (definition.name_en or definition.name) if lang == "en" else definition.name,
        "comment": (f"{name_of(people, back.user, lang)}: {back.comment}" if lang == "en"
                    else f"{name_of(people, back.user, lang)}：{back.comment}") if back is not None else "",
        "changes": changes_words(changes, definition, lang) or (UNCHANGED["en" if lang == "en" else "zh"] if as_it_was else ""),
        "note": (args.get("note") or "").strip(),
        "values": form_words(form, definition, lang),
    }
    try:
        approver = request["view"].data.get("nextUserId")
        stages = engine_of(conn).preview_start(conn, definition.key, requester=request["requester"],
                                               data={**form, "nextUserId": approver})
        card["next"] = after_start(conn, stages, people, lang)
    except (EngineError, FormError):
        card["next"] = ""  # the form is refused: the refusal says why when it is sent
    return card | {"labels": labels(card, lang)}


def resubmit_request(conn: Connection, ctx: CallContext, args: ResubmitRequestArgs, verdict: Verdict) -> dict[str, Any]:
    request = verdict.found["requestId"]
    definition: Definition = request["definition"]
    try:
        again = engine_of(conn).resubmit(conn, request["id"], user_id=ctx.actor_id, changes=_changes(request, args),
                                         today=ctx.today, comment=args.note or "")
    except EngineError as exc:
        code = {"instance_not_returned": "request_not_returned"}.get(exc.code, exc.code)
        raise PolicyError(code, exc.message) from None
    form = {f.id: again.data.get(f.id) for f in definition.fields}
    # a leave's balance: what it held is given back and its new days held, or the whole resubmit is refused
    hold_again(conn, again.instance_id, ctx.actor_id, definition, form, ctx.today or date.today())
    notified = notify(conn, ctx, again.events)
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    first = again.tasks[0] if again.tasks else None
    return {
        "requestId": again.instance_id,
        "process": (definition.name_en or definition.name) if ctx.lang == "en" else definition.name,
        "status": "pending" if again.status == "running" else again.status,
        "changes": changes_words(again.changes, definition, ctx.lang) or UNCHANGED[ctx.lang],
        **({"note": args.note} if args.note else {}),
        "summary": form_summary(form, definition, ctx.lang),
        "step": ((first.step_en or first.step) if ctx.lang == "en" else first.step) if first else None,
        "assigneeName": name_of(people, first.assignee, ctx.lang) if first and first.assignee else None,
        "taskId": first.id if first else None,
        "notified": notified,
        **held_for(conn, first.id if first else None, ctx.lang),  # its approver is away: who holds it instead
    }


UNCHANGED = {"zh": "未修改，原样提交", "en": "nothing changed, sent as it was"}
"""A resend with a note and no change, as its card and result say it."""


_REASON_SAID = re.compile(rf"{REASON_WORD.pattern}|因为|由于|\bbecause\b|\bsince\b|[“”\"「」]", re.IGNORECASE)
"""Words that speak of a request's reason, or quote a new text: a resend changes the reason only after one."""


class UnchangedLeftOut:
    """A resend changes what the person says: a value the model gave that the returned request already has (its
    category "Meals" for "it should've been 1350 yuan, fix it and resend") is no change, and is left out rather than
    asked about as not stated; so is a reason where the person's messages never speak of the reason ("金额改成七百五十
    元，重新提交": the model's "金额改为七百五十元" is no new reason)."""

    name = "unchanged_left_out"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        request = call.found.get("requestId")
        if call.spec.name != "resubmitRequest" or request is None:
            return
        assert call.request is not None
        own = of_its_own_messages(call.request)["recent"]
        if call.values.get("reason") and not any(_REASON_SAID.search(text) for text in own):
            call.notes.append(f"[unchanged] reason: the user did not speak of the reason; {call.values['reason']!r} "
                              "left out")
            call.values = _without(call.values, "reason")
        values = person_values(request["definition"])
        pairs = _pairs(values)
        unchanged = as_it_was(of_its_own_messages(call.request))
        for value in values:
            given = get_param(call.values, value.param)
            if given is None:
                continue
            if unchanged:  # "send it again as it is": the model's own changes (0.5 days of "this morning") are none
                call.values = _without(call.values, value.param)
                call.notes.append(f"[unchanged] {value.param}: the user sends it as it was; {given!r} left out")
                continue
            if value.param in pairs and _the_other_end(pairs[value.param], of_its_own_messages(call.request)):
                call.values = _without(call.values, value.param)
                call.notes.append(f"[unchanged] {value.param}: the date the user gave is the other end's; left out")
                continue
            now = request["form"].get(value.param.removeprefix("fields."))
            if now is not None and (given == now or str(given).strip() == str(now) or
                                    (value.choices and value.option_of(given) == now)):
                call.values = _without(call.values, value.param)
                call.notes.append(f"[unchanged] {value.param}: {given!r} is what the request already has; left out")
        named = fields_named(request["definition"], own)
        if named and not any(call.values.get(k) for k in ("note", "fields", "days", "reason")) and not says_to_what(
                of_its_own_messages(call.request)):  # "帮我把金额改了重新提交": to what, asked of that field alone
            labels = tuple(re.sub(r"\s*\(.*?\)", "", f.label_en or f.label).lower() if call.ctx.lang == "en" else f.label
                           for f in named)  # "the amount", not "the Amount (yuan)"
            raise NeedsPersonError("no_changes", f"the user names what changes ({', '.join(labels)}) but not to what; "
                                   "ask the user", ask=changes_asked(named), param="fields", choices=labels)


def _without(values: dict[str, Any], path: str) -> dict[str, Any]:
    """A copy of the arguments without the value at a parameter path (`reason`, or `fields.category`)."""
    head, _, rest = path.partition(".")
    copied = dict(values)
    if not rest:
        copied.pop(head, None)
    elif isinstance(copied.get(head), Mapping):
        copied[head] = {k: v for k, v in copied[head].items() if k != rest}
    return copied
