"""The start form: values checked and normalised against the form fields a process's BPMN declares.

Values are stored JSON-ready: long → int, double/decimal → float, boolean → bool, date → "YYYY-MM-DD" (so
conditions compare dates as strings), enum → the choice's id (its name is accepted too), string → stripped text.
A field not given is None in the instance data (so a condition can test it), unless it has a default.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from tools.workflow.engine.errors import FormError
from tools.workflow.engine.records import FormField

EXTRA_KEYS = frozenset({"nextUserId"})
"""Keys `start` accepts besides the form's fields (the data contract: the first approver)."""

_TRUE = frozenset({"true", "yes", "1", "是"})
_FALSE = frozenset({"false", "no", "0", "否"})


def _name(form_field: FormField) -> str:
    labels = " / ".join(dict.fromkeys(label for label in (form_field.label, form_field.label_en) if label))
    return f"`{form_field.id}` ({labels})"


def _refuse(code: str, form_field: FormField, message: str) -> FormError:
    return FormError(code, message, field=form_field.id, label=form_field.label, label_en=form_field.label_en)


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float | Decimal):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(Decimal(value.strip().replace(",", "")))
        except (InvalidOperation, ValueError):
            return None
    else:
        return None
    return number if math.isfinite(number) else None


def to_date(value: Any) -> date | None:
    """A date from a date, a datetime or an ISO text (YYYY-MM-DD); None if it is none of these."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            return None
    return None


def _fmt(number: float) -> str:
    return f"{number:g}"


def normalize(form_field: FormField, value: Any) -> Any:
    """One given (non-empty) value, checked against the field's type and bounds; raises `FormError`."""
    kind = form_field.type
    if kind in ("long", "double", "decimal"):
        number = _number(value)
        if number is None or (kind == "long" and not number.is_integer()):
            what = "a whole number" if kind == "long" else "a number"
            raise _refuse("invalid_field", form_field, f"{_name(form_field)} must be {what}, not {value!r}.")
        low, high = form_field.min, form_field.max
        if low is not None and (number <= low if form_field.min_exclusive else number < low):
            bound = f"greater than {_fmt(low)}" if form_field.min_exclusive else f"at least {_fmt(low)}"
            raise _refuse("out_of_range", form_field, f"{_name(form_field)} must be {bound}, not {_fmt(number)}.")
        if high is not None and (number >= high if form_field.max_exclusive else number > high):
            bound = f"less than {_fmt(high)}" if form_field.max_exclusive else f"at most {_fmt(high)}"
            raise _refuse("out_of_range", form_field, f"{_name(form_field)} must be {bound}, not {_fmt(number)}.")
        if form_field.step is not None:
            ratio = number / form_field.step
            if abs(ratio - round(ratio)) > 1e-9:
                raise _refuse(
                    "out_of_range", form_field,
                    f"{_name(form_field)} must be a multiple of {_fmt(form_field.step)}, not {_fmt(number)}.",
                )
        return int(number) if kind == "long" else number
    if kind == "boolean":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE or text in _FALSE:
            return text in _TRUE
        raise _refuse("invalid_field", form_field, f"{_name(form_field)} must be true or false, not {value!r}.")
    if kind == "date":
        day = to_date(value)
        if day is None:
            raise _refuse("invalid_field", form_field, f"{_name(form_field)} must be a date YYYY-MM-DD, not {value!r}.")
        return day.isoformat()
    if not isinstance(value, str):
        raise _refuse("invalid_field", form_field, f"{_name(form_field)} must be text, not {value!r}.")
    text = value.strip()
    if kind == "enum":
        for choice in form_field.choices:
            if text in (choice.id, choice.name) or (choice.name_en and text.lower() == choice.name_en.lower()):
                return choice.id
        allowed = ", ".join(choice.id for choice in form_field.choices)
        raise _refuse("not_a_choice", form_field, f"{_name(form_field)} must be one of {allowed}, not {value!r}.")
    if form_field.min is not None and len(text) < form_field.min:
        raise _refuse("out_of_range", form_field, f"{_name(form_field)} must have at least {_fmt(form_field.min)} characters.")
    if form_field.max is not None and len(text) > form_field.max:
        raise _refuse("out_of_range", form_field, f"{_name(form_field)} must have at most {_fmt(form_field.max)} characters.")
    return text


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def validate(fields: Sequence[FormField], data: dict[str, Any], *, today: date) -> dict[str, Any]:
    """The form's values, normalised, in field order; raises `FormError` for the first problem found.

    Checks: no unknown keys; required fields given; types, bounds, steps and choices; then the rules between
    fields (`notBefore`) and against `today` (`notPast`).
    """
    known = {f.id: f for f in fields}
    for key in data:
        if key not in known and key not in EXTRA_KEYS:
            expected = ", ".join(known) or "no fields"
            raise FormError(
                "unknown_field", f"`{key}` is not a field of this process's form (it has {expected}).", field=str(key)
            )
    values: dict[str, Any] = {}
    for form_field in fields:
        raw = data.get(form_field.id)
        if _missing(raw) and form_field.default is not None:
            raw = form_field.default
        if _missing(raw):
            if form_field.required:
                raise _refuse("missing_field", form_field, f"{_name(form_field)} is required: ask the person for it.")
            values[form_field.id] = None
            continue
        values[form_field.id] = normalize(form_field, raw)
    for form_field in fields:
        _check_date(form_field, values, known, today)
    next_user = data.get("nextUserId")
    if next_user is not None:
        if not isinstance(next_user, str) or not next_user.strip():
            raise FormError("invalid_field", f"`nextUserId` must be a user id, not {next_user!r}.", field="nextUserId")
        values["nextUserId"] = next_user.strip()
    return values


def _check_date(form_field: FormField, values: dict[str, Any], known: dict[str, FormField], today: date) -> None:
    """A date field's rules against `today` (`notPast`) and the date it may not precede (`notBefore`), on normalised
    values; a value or other date not given is not judged."""
    value = values.get(form_field.id)
    if form_field.type != "date" or value is None:
        return
    if form_field.not_past and value < today.isoformat():
        raise _refuse(
            "out_of_range", form_field, f"{_name(form_field)} {value} is in the past (today is {today.isoformat()})."
        )
    other = values.get(form_field.not_before) if form_field.not_before else None
    if other is not None and value < other:
        raise _refuse(
            "out_of_range", form_field,
            f"{_name(form_field)} {value} is before {_name(known[form_field.not_before])} {other}.",
        )


def out_of_range(fields: Sequence[FormField], field_id: str, data: dict[str, Any], *, today: date) -> FormError | None:
    """The rule of its field one given value breaks whatever else is given: its bounds or steps, the past (`notPast`),
    or the date it may not precede (`notBefore`, when that one is given and readable). None when it keeps them, and
    when it is not given or cannot be read as its type (such a value is unclear, not out of range)."""
    known = {f.id: f for f in fields}
    form_field = known.get(field_id)
    if form_field is None or _missing(data.get(field_id)):
        return None
    values: dict[str, Any] = {}
    for one in (form_field, known.get(form_field.not_before)):
        if one is None or _missing(data.get(one.id)):
            continue
        try:
            values[one.id] = normalize(one, data[one.id])
        except FormError as exc:
            if one is form_field and exc.code == "out_of_range":
                return exc
            if one is form_field:
                return None
    try:
        _check_date(form_field, values, known, today)
    except FormError as exc:
        return exc
    return None
