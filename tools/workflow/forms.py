"""A process's start form, as the workflow's tools use it: the values only the person can give, and the form's data.

`runWorkFlow` takes the seed's parameters (`days` and `reason`, where the seed had them) and the process's other form
fields in `fields` (`{"amount": 6000, "category": "差旅"}`). Which values the person must have stated depends on the
process the call names: `person_values` turns its start form (from the BPMN) into `PersonValue`s, so the engine's
grounding asks for a missing required field by its label, in the person's language ("请问报销金额是多少？"), and
refuses a value the person did not state. `check_form` runs the engine's own form check, so a value out of range is
refused with the form's words before anything is stored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from typing import Any

from tools.errors import CannotError, NeedsPersonError, PolicyError
from tools.readers import ASKING, read_account, read_after
from tools.request import Request
from tools.spec import CallContext, Found, PersonValue, Refuse
from tools.workflow.engine import Definition, FormError, FormField
from tools.workflow.engine import forms as engine_forms
from tools.workflow.form_dates import back_date_only, longer_than_its_date, range_end, range_half
from tools.workflow.leave import rules as leave_rules
from tools.workflow.leave.rules import is_leave
from tools.workflow.prompts import FIELD_QUESTIONS
from tools.workflow.shown import readable_date
from tools.workflow.words import stated_days

TOP_LEVEL = ("days", "reason")
"""Form fields that are parameters of their own (where the seed had them); the others go in `fields`."""
UNITS = {"day": "day", "yuan": "yuan"}
"""A number field's `unit` property as a person value's unit (others: any number the person stated)."""


def param_of(field_id: str) -> str:
    """The parameter path of a form field: `days`, `reason`, or `fields.<id>`."""
    return field_id if field_id in TOP_LEVEL else f"fields.{field_id}"


def _label(form_field: FormField) -> dict[str, str]:
    english = form_field.label_en or form_field.label
    return {"zh": form_field.label, "en": english[:1].lower() + english[1:] if english[:2] != english[:2].upper() else english}


def _kind(form_field: FormField) -> str:
    if form_field.type in ("long", "double", "decimal"):
        return "number"
    if form_field.type == "date":
        return "date"
    if form_field.type in ("enum", "boolean"):
        return "choice"
    return "text"


BOOLEAN_CHOICES = (("true", "是", "yes", "true"), ("false", "否", "no", "false"))


def _one_amount(request: Request) -> float | None:
    """The one amount of money the person stated, or the one of their latest message that states one where earlier
    messages stated another (a correction): with a currency (6800元, ¥1.2k, 三块五, "430 bucks"); when they
    stated none with a currency, the one number with no unit of the request's own messages ("报销两千三", "spent 6800
    on flights"), which a form that asks for money reads as yuan. None when there is none or more than one."""
    total = _total_said(request)
    if total is not None:
        return total
    if request["amounts"]:
        corrected = _corrected_amount(request)
        if corrected is not None:
            return corrected
        if len(set(request["amounts"])) == 1:
            return request["amounts"][0]
        # said in several messages: the latest that states one, as a correction is ("刚才说错了，是一千零八十块")
        said = [s for s in request.get("said", []) if s["kind"] == "amount"]
        last = max((s["message"] for s in said), default=None)
        latest = {float(s["value"]) for s in said if s["message"] == last}
        return latest.pop() if len(latest) == 1 and len({s["message"] for s in said}) > 1 else None
    first = len(request["recent"]) - len(request["texts"])
    if request.get("declined"):  # after a card they declined, the latest message's one number corrects it
        first = len(request["recent"]) - 1 if any(
            s["kind"] == "number" and s["message"] == len(request["recent"]) - 1 for s in request.get("said", [])) else first
    # `said` is missing from a request read before it was added (a run resumed across an upgrade): nothing is bare
    bare = {s["value"] for s in request.get("said", []) if s["kind"] == "number" and s["message"] >= first}
    value = bare.pop() if len(bare) == 1 else None
    return float(value) if isinstance(value, float | int) else None


_OF_AMOUNT = re.compile(
    r"金额|钱|费用|总额|总共|一共|合计|(?:应该|其实|实际|改|写)(?:是|成|为)|不对|错了|"
    r"\b(?:amount|total|cost|sum|price|actually|should\s+be|make\s+it|change\s+it\s+to|typo|oops|sorry|wrong|"
    r"i\s+mean|i\s+meant|meant|wait)\b|^\s*no\b|^\s*(?:是|就是|其实|改)",
    re.IGNORECASE,
)
"""Words of an amount, or of correcting one ("金额是…", "应该是…", "不对", "是…", "actually", "make it …", "oops",
"I meant …", "no, …")."""


_TOTAL_BEFORE = re.compile(
    r"(?:一共|总共|合计|共计|总计|加起来|加一起|总额|总数|\b(?:altogether|in\s+total|all\s+in|all\s+together|"
    r"adds?\s+up\s+to|added\s+up\s+to|total(?:led|ed)?(?:\s+(?:of|is|was|comes\s+to|came\s+to))?)\b)"
    r"\s*(?:是|为|就是|到)?\s*[:：]?\s*$",
    re.IGNORECASE,
)
_TOTAL_AFTER = re.compile(r"\s*(?:in\s+total|altogether|all\s+in|all\s+together|total)\b", re.IGNORECASE)
"""A total said as one: 一共356, 合计：356元, "altogether 356", "356 in total", "a total of 356"."""


def _total_said(request: Request) -> float | None:
    """The amount the latest of the request's own messages that states any marks as the total, where it states
    several ("打车120，吃饭236，一共356"; "120 for the cab and 236 for dinner, 356 altogether"): the one value so marked,
    an amount or a number with no unit; None when it states fewer than two or marks no one total."""
    first = len(request["recent"]) - len(request["texts"])
    said = [s for s in request.get("said", []) if s["kind"] in ("amount", "number") and s["message"] >= first]
    latest = max((s["message"] for s in said), default=None)
    said = [s for s in said if s["message"] == latest]  # a later message that states any corrects what came before
    if len({s["value"] for s in said}) < 2:
        return None
    totals = set()
    for entry in said:
        text = request["recent"][entry["message"]]
        for found in re.finditer(re.escape(entry["text"]), text):
            if _TOTAL_BEFORE.search(text, max(0, found.start() - 24), found.start()) or \
                    _TOTAL_AFTER.match(text, found.end()):
                totals.add(float(entry["value"]))
    return totals.pop() if len(totals) == 1 else None


def _corrected_amount(request: Request) -> float | None:
    """The amount a later message corrects with a number alone ("金额是1080，不是1280", "不对，应该是1080", "actually
    1080" after "报销…1280元"): its one number that is no amount stated before, where it speaks of the amount or of a
    correction, or restates the earlier one it replaces; None otherwise (a number alone may count anything else)."""
    said = request.get("said", [])
    latest = len(request["recent"]) - 1
    if any(s["kind"] == "amount" and s["message"] == latest for s in said):
        return None  # with its unit: read as every amount is
    earlier = set(request["amounts"])
    bare = {float(s["value"]) for s in said if s["kind"] == "number" and s["message"] == latest}
    new = bare - earlier
    # after a card they declined, the message corrects that request (`Request.declined`): its one new number is it
    if len(new) != 1 or not (bare & earlier or request.get("declined") or _OF_AMOUNT.search(request["recent"][-1])):
        return None
    return new.pop()


def _leave_days(request: Request) -> float | None:
    """The days of a leave the person stated: the one day count they said, or, when they said none of their own and
    gave their dates as one range ("next Friday to the following Monday", 下周三到周五), that range's working days
    (what the leave is counted in: the weekend and holidays left out, half days at its ends). A model's count is
    never the length of a range the person gave; two counts, or two ranges, decide nothing."""
    said = request.get("said", [])  # missing from a request read before it was added (a run resumed across an upgrade)
    of_ranges = {s["text"] for s in said if s["kind"] == "range"}
    counted = [s for s in said if s["kind"] == "days" and s["text"] not in of_ranges]
    last = max((s["message"] for s in counted), default=None)  # "on the road 3 weeks… how many left?" then "2 days"
    counts = {s["value"] for s in counted if s["message"] == last}
    if len(counts) == 1 and len({s["value"] for s in counted}) > 1:
        return float(counts.pop())  # the latest message that counts days says the leave's
    ranges = {(r["start"], r["end"], r["working_days"]) for r in request["ranges"]}
    if counts or len(ranges) != 1 or next(iter(ranges))[2] <= 0:  # an end before its start counts nothing
        return stated_days(request)
    return float(ranges.pop()[2])


CHOICE_SUFFIXES = ("", "类", "费", "费用", "开支", "用品", " expenses", " expense", " costs", " supplies", " category")
"""What makes a choice's name a category when written after it (餐饮类, 办公用品, "office supplies")."""


def _reason_readers(definition: Definition) -> tuple[re.Pattern[str], Any]:
    """A reason's filler (the process's name, its form's choices, asking words: "餐饮类报销" says nothing of why) and
    the reader of the person's own account of why (`tools.readers.read_account`)."""
    form = [w for w in (definition.name, re.sub(r"(流程|申请)$", "", definition.name), definition.name_en) if w]
    choices = [
        f"{name}{suffix}" for f in definition.fields if f.type == "enum" for c in f.choices
        for name in (c.name, c.name_en) if name for suffix in CHOICE_SUFFIXES
    ]
    said = sorted({*form, *choices}, key=len, reverse=True)
    filler = re.compile("|".join([*(re.escape(w) for w in said), ASKING.pattern]), re.IGNORECASE)  # 报销 before 报
    # what names the request in the person's words: the process's words and name ("Trip to Chengdu"), and a choice
    # made a category (差旅费); a bare choice's name only where it stands alone in its clause (办公室 is no choice)
    enums = [c for f in definition.fields if f.type == "enum" for c in f.choices]
    request_words = [*form, *definition.words, *(w for w in definition.name_en.split() if len(w) > 3),
                     *(w for w in choices if not any(w == c.name or w == c.name_en for c in enums)),
                     *(c.name_en for c in enums if " " in c.name_en.strip())]  # "annual leave" names, wherever
    telling = [w for c in enums for w in c.words]  # 发烧, "taxi": what implies a choice is why by nature

    cued = [f.cues for f in definition.fields if f.type == "string" and f.cues]

    def account(request: Request, today: date) -> str | None:
        names = [n for p in request["names"].values() for n in (p.get("name"), p.get("alias")) if n]
        texts = request["texts"][: request.get("declined") or None]  # a correction after a declined card says no why
        # the place of a trip is its own field: "去深圳一趟" says where, not why (and 成都 keeps its 都)
        places = [p for cues in cued if (p := read_after(cues, texts, names=names, today=today))]
        return read_account(texts, names=[*names, *places], form_words=request_words, choice_words=choices, today=today,
                            telling_words=telling)

    return filler, account


def person_values(definition: Definition) -> tuple[PersonValue, ...]:
    """The values only the person can give for a process's start form: one per field, asked for by its label. The
    seed's reason must say something of its own; another text field (a place, a date written as text) is what it is.
    A choice's `words:<id>` imply it, a text's `cues` introduce it, a number's or date's bounds refuse it (the BPMN's
    data: `tools.readers`)."""
    follows = {f.id: f.not_before for f in definition.fields if f.type == "date" and f.not_before}
    leave = is_leave(definition)
    if leave:
        follows[leave_rules.END] = leave_rules.START  # a leave's last day is read after its first
    ends, starts = set(follows), set(follows.values())
    values = []
    filler, account = _reason_readers(definition)
    for form_field in definition.fields:
        kind = _kind(form_field)
        meaningful = kind == "text" and form_field.id in TOP_LEVEL
        unit = UNITS.get(form_field.unit, "none") if kind == "number" else "none"
        stated = None
        if kind == "number" and unit == "day":
            stated = _leave_days if leave else stated_days
        elif kind == "number" and unit == "yuan":
            stated = _one_amount
        elif form_field.id in starts:
            stated = range_end("start", ranges_only=leave, trip=not leave)  # the one range they stated: its first day
        elif form_field.id in ends:
            stated = range_end("end", ranges_only=leave, trip=not leave)
        elif leave and form_field.id in leave_rules.HALF_OF:
            stated = range_half(leave_rules.HALF_OF[form_field.id], form_field)
        choices: tuple[tuple[str, ...], ...] = ()
        if form_field.type == "enum":
            choices = tuple((c.id, c.name, c.name_en) for c in form_field.choices)
        elif form_field.type == "boolean":
            choices = BOOLEAN_CHOICES
        values.append(PersonValue(
            param=param_of(form_field.id), kind=kind,  # type: ignore[arg-type]
            ask=FIELD_QUESTIONS.get((definition.key, form_field.id), f"form_{kind}"), unit=unit,  # type: ignore[arg-type]
            optional=not form_field.required, stated=stated, label=_label(form_field),
            meaningful=meaningful, filler=filler if meaningful else None, account=account if meaningful else None,
            choices=choices,
            hints=tuple((c.id, *c.words) for c in form_field.choices if c.words),
            cues=form_field.cues if kind == "text" else (),
            refuse=_refusal(definition, form_field) if kind in ("number", "date") else None,
            default=form_field.default if form_field.type == "enum" else None,
            after=param_of(follows[form_field.id]) if form_field.id in follows else "",
            left_out_unsaid=_no_date_said if kind == "date" and not form_field.required else
            longer_than_its_date if form_field.id in ends and not leave else
            back_date_only if form_field.id in starts and not leave else
            _unsaid(stated) if leave and form_field.id in leave_rules.HALF_OF and stated is not None else None,
        ))
    return tuple(values)


def _unsaid(stated: Any) -> Any:
    """For a leave's half: the person's words name no half at that end, so one the model gave is left out ("早上起来烧到
    38度5，今天请一天" is a whole day; "半天" with no half is asked which)."""
    return lambda request: stated(request) is None


def _no_date_said(request: Request) -> bool:
    """Whether the person's words state no date at all: an optional date the model put in is then not theirs, and is
    left out rather than held against what they did say ("想请4天年假" with dates of the model's own: the days are
    filed, not refused as not matching dates nobody gave)."""
    return not request["dates"]


CANNOT = {
    "past": {"zh": "{label}{value}已经过去了（今天是{today}），这个申请无法发起。",
             "en": "The {label} {value} is in the past (today is {today}), so this request cannot be filed."},
    "before": {"zh": "{label}{value}早于{other}，这个申请无法发起。",
               "en": "The {label} {value} is before the {other}, so this request cannot be filed."},
    "range": {"zh": "{label}不能是{value}{bound}，这个申请无法发起。",
              "en": "The {label} cannot be {value}{bound}, so this request cannot be filed."},
}
BOUNDS = {
    "max": {"zh": "（最多{n}）", "en": " (at most {n})"},
    "min": {"zh": "（必须大于{n}）", "en": " (it must be more than {n})"},
    "step": {"zh": "（须是{n}的整数倍）", "en": " (in steps of {n})"},
}
"""The rule of a number's form a value breaks, as the person is told it."""


def _bound(form_field: FormField, value: Any, lang: str) -> str:
    """The bound or step of a number field that `value` breaks, in the person's words; "" when none is known."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return ""
    if form_field.max is not None and (number > form_field.max or (form_field.max_exclusive and number == form_field.max)):
        return BOUNDS["max"][lang].format(n=f"{form_field.max:g}")
    if form_field.min is not None and (number < form_field.min or (form_field.min_exclusive and number == form_field.min)):
        return BOUNDS["min"][lang].format(n=f"{form_field.min:g}")
    if form_field.step and abs(number / form_field.step - round(number / form_field.step)) > 1e-9:
        return BOUNDS["step"][lang].format(n=f"{form_field.step:g}")
    return ""
"""What the person is told when a value of theirs cannot be, by the form's rule it breaks and language."""


def _refusal(definition: Definition, form_field: FormField) -> Refuse:
    """`PersonValue.refuse` of a number or date field: the form's own rules on the value the person gave (bounds and
    steps, `notPast`, `notBefore`), refused in their language; a value the form cannot read is left to be asked."""
    fields = {f.id: f for f in definition.fields}

    def refuse(value: Any, values: Mapping[str, Any], today: date) -> None:
        data = form_data(dict(values), definition)
        data[form_field.id] = value
        error = engine_forms.out_of_range(definition.fields, form_field.id, data, today=today)
        if error is None:
            return
        other = fields.get(form_field.not_before)
        rule = "range" if form_field.type != "date" else "past" if form_field.not_past and str(
            engine_forms.normalize(form_field, value)) < today.isoformat() else "before"
        say = {
            lang: CANNOT[rule][lang].format(  # dates as a person writes them: 2026年11月23日, 23 Nov 2026
                label=_label(form_field)[lang], value=_shown(form_field, value, lang),
                today=readable_date(today.isoformat(), lang),
                other=_label(other)[lang] if other is not None else "",
                bound=_bound(form_field, value, lang) if rule == "range" else "",
            )
            for lang in ("zh", "en")
        }
        raise CannotError(error.code, error.message, say=say)

    return refuse


def _shown(form_field: FormField, value: Any, lang: str) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if form_field.type == "date":
        return readable_date(str(engine_forms.normalize(form_field, value)), lang)
    return str(value)


def form_person_values(handle: Any, ctx: CallContext, values: dict[str, Any], found: Found) -> tuple[PersonValue, ...]:
    """`ToolSpec.person_values_for` of runWorkFlow: the form of the process the call names."""
    process = found.get("processKey")
    if process is None:
        return ()
    return person_values(process["definition"])


def form_data(args: dict[str, Any], definition: Definition | None = None) -> dict[str, Any]:
    """The start form's values from runWorkFlow's arguments: `days`, `reason` and `fields`, left-out ones dropped.

    `days` and `reason` are the seed's parameters: a process whose form has no such field does not take them (a
    model that says how many days a trip lasts changes nothing), so with `definition` they are left out for it.
    """
    data = {k: v for k, v in (args.get("fields") or {}).items() if v is not None}
    own = {f.id for f in definition.fields} if definition is not None else set(TOP_LEVEL)
    for key in TOP_LEVEL:
        if args.get(key) is not None and key in own:
            data[key] = args[key]
    return data


def unused_params(args: dict[str, Any], definition: Definition) -> list[str]:
    """The seed's parameters given for a process whose form has no such field (left out, said on the card)."""
    own = {f.id for f in definition.fields}
    return [key for key in TOP_LEVEL if args.get(key) is not None and key not in own]


def check_form(definition: Definition, args: dict[str, Any], today: date | None) -> dict[str, Any]:
    """The form's values checked by the engine's own rules (types, bounds, steps, choices, dates in order and not
    past): the normalised values, or a readable refusal naming the field."""
    try:
        return engine_forms.validate(definition.fields, form_data(args, definition), today=today or date.today())
    except FormError as exc:
        if exc.code == "missing_field":  # the graph asked for it already; a caller without a person is told
            value = next((v for v in person_values(definition) if v.param == param_of(exc.field)), None)
            ask = value.ask if value is not None else "form_text"
            raise NeedsPersonError(f"missing_{ask}", exc.message, ask=ask, param=param_of(exc.field), value=value) from None
        fields = ", ".join(f"{f.id} ({f.label})" for f in definition.fields)
        raise PolicyError(
            exc.code, f"{exc.message} The form of {definition.key} has: {fields}; put its fields other than days and "
            "reason in `fields`.",
        ) from None
