"""A form's values as a person reads them, in their language: 6800 元, 6,800 yuan, 3 天, 2026年12月8日, a choice by its
name."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date
from typing import Any

from tools.workflow.engine import Definition, FormField


def shown_value(value: Any, form_field: FormField, lang: str) -> str:
    """A form value as the person reads it: 6800 元, 3 天, 2026年12月8日, a choice by its name. A number is grouped in
    thousands as each language writes it: in English from four digits (6,800 yuan), in Chinese from five (12,000 元;
    6800 元 as people type it)."""
    if form_field.choices:
        choice = next((c for c in form_field.choices if c.id == value), None)
        if choice is not None:
            return (choice.name_en or choice.name) if lang == "en" else choice.name
    if isinstance(value, bool):
        return ("yes" if value else "no") if lang == "en" else ("是" if value else "否")
    if isinstance(value, int | float):
        grouped = abs(value) >= (1_000 if lang == "en" else 10_000)
        number = f"{value:{',' if grouped else ''}.2f}".rstrip("0").rstrip(".")
        if form_field.unit == "yuan":
            return f"{number} yuan" if lang == "en" else f"{number} 元"
        if form_field.unit == "day":
            return f"{number} day{'s' if value != 1 else ''}" if lang == "en" else f"{number} 天"
        return number
    if form_field.type == "date" and isinstance(value, str):
        return readable_date(value, lang)
    return str(value)


def readable_date(iso: str, lang: str) -> str:
    """2026-12-08 as a person writes it: 2026年12月8日, 8 Dec 2026 (as given when it is no ISO date)."""
    try:
        day = date.fromisoformat(iso)
    except ValueError:
        return iso
    return f"{day.day} {day:%b} {day.year}" if lang == "en" else f"{day.year}年{day.month}月{day.day}日"




def form_values(form: Mapping[str, Any], definition: Definition, lang: str) -> Iterator[tuple[FormField, str, str]]:
    """Each given value of a form in the form's order: its field, its label and the value as a person reads it, in
    `lang`."""
    for form_field in definition.fields:
        value = form.get(form_field.id)
        if value in (None, ""):
            continue
        label = (form_field.label_en or form_field.label) if lang == "en" else form_field.label
        yield form_field, label, shown_value(value, form_field, lang)


def form_words(form: Mapping[str, Any], definition: Definition, lang: str) -> str:
    """Every value of a form with its label, worded for a person: 报销金额：560 元；报销类别：餐饮 / Amount: 560 yuan;
    Category: Meals."""
    colon, sep = ("：", "；") if lang == "zh" else (": ", "; ")
    return sep.join(f"{label}{colon}{shown}" for _, label, shown in form_values(form, definition, lang))
