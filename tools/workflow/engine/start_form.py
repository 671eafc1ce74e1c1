"""The start form (`camunda:formData` on the start event) read at deploy time, or refused naming the field and the fix.

Field ids usable as Python names and not the engine's own (`bad_field_id`, `duplicate_field`, `reserved_field`),
known types (`unknown_field_type`), enum values (`enum_without_values`), known constraints with valid configs
(`unknown_constraint`, `bad_constraint`), a `notBefore` naming another date field and a valid `defaultValue`.
"""

from __future__ import annotations

import keyword
import re
from typing import Any

from tools.workflow.engine.bpmn_xml import clean, listed, property_of
from tools.workflow.engine.errors import DeployError, FormError
from tools.workflow.engine.expressions import FUNCTIONS
from tools.workflow.engine.forms import normalize
from tools.workflow.engine.model import NS, RESERVED_NAMES
from tools.workflow.engine.records import Choice, FieldType, FormField

FIELD_TYPES: tuple[FieldType, ...] = ("string", "long", "double", "decimal", "boolean", "date", "enum")
NUMBER_TYPES = frozenset({"long", "double", "decimal"})
CONSTRAINTS = {
    "required": None, "readonly": None,  # Camunda's; readonly is accepted and ignored
    "min": NUMBER_TYPES, "max": NUMBER_TYPES, "minExclusive": NUMBER_TYPES, "maxExclusive": NUMBER_TYPES,
    "step": NUMBER_TYPES, "minlength": {"string"}, "maxlength": {"string"}, "notBefore": {"date"}, "notPast": {"date"},
}
"""Constraint name → the field types it applies to (None: any). Camunda's, plus minExclusive, maxExclusive,
step, notBefore and notPast, which the seed processes need (days > 0 in half days; dates in order, not past)."""
FIELD_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")


def form_fields(start: Any) -> tuple[FormField, ...]:
    """The start event's form fields, in the order the BPMN lists them."""
    seen: set[str] = set()
    fields = tuple(
        _form_field(element, seen)
        for element in start.findall("bpmn:extensionElements/camunda:formData/camunda:formField", NS)
    )
    by_id = {f.id: f for f in fields}
    for form_field in fields:
        other = by_id.get(form_field.not_before) if form_field.not_before else None
        if form_field.not_before and (other is None or other.type != "date" or other.id == form_field.id):
            raise DeployError(
                "bad_constraint",
                f"Form field `{form_field.id}`: notBefore must name another date field of the form, not "
                f"{form_field.not_before!r}.",
                element_id=form_field.id,
            )
        if form_field.default is not None:
            try:
                normalize(form_field, form_field.default)
            except FormError as exc:
                raise DeployError(
                    "bad_constraint", f"Form field `{form_field.id}`: defaultValue {exc.message}", element_id=form_field.id
                ) from None
    return fields


def _form_field(element: Any, seen: set[str]) -> FormField:
    field_id = _field_id(element, seen)
    kind = element.get("type") or ""
    if kind not in FIELD_TYPES:
        raise DeployError(
            "unknown_field_type",
            f"Form field `{field_id}` has type {kind!r}; use one of {', '.join(FIELD_TYPES)}.",
            element_id=field_id,
        )
    label = clean(element.get("label")) or field_id
    choices = _choices(element, field_id) if kind == "enum" else ()
    values = _constraints(element, field_id, kind)
    default = element.get("defaultValue")
    return FormField(
        id=field_id, label=label, label_en=property_of(element, "label_en"), type=kind, choices=choices,
        default=default if default not in (None, "") else None, unit=property_of(element, "unit"),
        cues=listed(property_of(element, "cues")), **values,
    )


def _field_id(element: Any, seen: set[str]) -> str:
    """The field's id, usable in conditions, not the engine's own and not taken by an earlier field."""
    field_id = element.get("id") or ""
    if not FIELD_ID.match(field_id) or keyword.iskeyword(field_id) or field_id in FUNCTIONS:
        raise DeployError(
            "bad_field_id",
            f"Form field id {field_id!r} cannot be used in conditions: start with a letter, then letters, digits or _ "
            f"(and not a Python keyword or one of {', '.join(FUNCTIONS)}).",
            element_id=field_id,
        )
    if field_id in RESERVED_NAMES:
        raise DeployError(
            "reserved_field",
            f"Form field `{field_id}`: the engine sets {', '.join(sorted(RESERVED_NAMES))} itself; rename the field.",
            element_id=field_id,
        )
    if field_id in seen:
        raise DeployError("duplicate_field", f"Form field `{field_id}` is defined twice; remove one.", element_id=field_id)
    seen.add(field_id)
    return field_id


def _choices(element: Any, field_id: str) -> tuple[Choice, ...]:
    """An enum field's values (`camunda:value`), with their English names and the words that imply them."""
    choices: list[Choice] = []
    for value in element.findall("camunda:value", NS):
        choice_id = clean(value.get("id"))
        if not choice_id:
            raise DeployError(
                "enum_without_values", f"Enum field `{field_id}` has a <camunda:value> without id.", element_id=field_id
            )
        name_en = property_of(element, f"label_en:{choice_id}")
        choices.append(Choice(id=choice_id, name=clean(value.get("name")) or choice_id, name_en=name_en,
                              words=listed(property_of(element, f"words:{choice_id}"))))
    if not choices:
        raise DeployError(
            "enum_without_values",
            f"Enum field `{field_id}` has no values: add <camunda:value id=\"...\" name=\"...\"/> for each choice.",
            element_id=field_id,
        )
    return tuple(choices)


def _constraints(element: Any, field_id: str, kind: str) -> dict[str, Any]:
    """The field's constraints (`camunda:validation`) as `FormField` values: required, bounds, step, date rules."""
    values: dict[str, Any] = {"required": False}
    for constraint in element.findall("camunda:validation/camunda:constraint", NS):
        name, config = constraint.get("name") or "", constraint.get("config")
        if name not in CONSTRAINTS:
            raise DeployError(
                "unknown_constraint",
                f"Form field `{field_id}` has constraint {name!r}; known: {', '.join(CONSTRAINTS)}.",
                element_id=field_id,
            )
        applies = CONSTRAINTS[name]
        if applies is not None and kind not in applies:
            raise DeployError(
                "bad_constraint",
                f"Form field `{field_id}` ({kind}) cannot have constraint {name}; it applies to {', '.join(sorted(applies))}.",
                element_id=field_id,
            )
        if name == "required":
            values["required"] = (config or "true").strip().lower() != "false"
        elif name in ("min", "minlength", "minExclusive"):
            values["min"] = _number(config, field_id, name)
            values["min_exclusive"] = name == "minExclusive"
        elif name in ("max", "maxlength", "maxExclusive"):
            values["max"] = _number(config, field_id, name)
            values["max_exclusive"] = name == "maxExclusive"
        elif name == "step":
            values["step"] = _number(config, field_id, name)
            if values["step"] <= 0:
                raise DeployError("bad_constraint", f"Form field `{field_id}`: step must be > 0.", element_id=field_id)
        elif name == "notBefore":
            values["not_before"] = (config or "").strip()
        elif name == "notPast":
            values["not_past"] = True
    return values


def _number(config: str | None, field_id: str, constraint: str) -> float:
    try:
        value = float(config or "")
    except ValueError:
        value = float("nan")
    if value != value or value in (float("inf"), float("-inf")):
        raise DeployError(
            "bad_constraint",
            f"Form field `{field_id}`: constraint {constraint} needs a number as config, not {config!r}.",
            element_id=field_id,
        )
    return value
