"""Which process a start is, and which form it files.

- "上礼拜去杭州出差，高铁加酒店一共三千五，走差旅报销" names an expense claim (报销) and a trip (出差). A process named
  only by words that another named process's form uses for what it is about (出差 is one of the words of the claim's
  category 差旅) is that claim's subject, not a request of its own: the request names the claim
  (`processes_they_named`, read by the toolset's `named_record`).
- A model that put in a field of another process's form ("amount" on a leave) had the whole start refused: the field
  is left out with a note (`FieldsOfTheForm`), and the card shows the form as it will be filed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tools import words
from tools.guards.call import Call
from tools.workflow.engine import Definition
from tools.workflow.request_lookup import naming_words


def _about(definition: Definition) -> set[str]:
    """The words the process's form uses for what it is about: every choice's value, names and words, lower-cased."""
    return {w.lower() for f in definition.fields for c in f.choices for w in (c.id, c.name, c.name_en, *c.words) if w}


def _named_by(definition: Definition, text: str) -> set[str]:
    return {w.lower() for w in naming_words(definition) if w and words.names_term(w, text)}


def processes_they_named(definitions: Sequence[Definition], text: str) -> list[Definition]:
    """The processes a text names as a request of its own: named, and not only by words another named process's form
    uses for what it is about (出差 beside 差旅报销)."""
    named = [(d, by) for d in definitions if (by := _named_by(d, text))]
    return [d for d, by in named if not any(other is not d and by <= _about(other) for other, _ in named)]


class FieldsOfTheForm:
    """Leaves out the `fields` the process's form does not have: the model's, from another process's form."""

    name = "fields_of_the_form"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        process = call.found.get("processKey")
        fields: Any = call.values.get("fields")
        if not isinstance(process, dict) or not isinstance(fields, dict) or "definition" not in process:
            return
        definition: Definition = process["definition"]
        own = {f.id for f in definition.fields}
        left = sorted(k for k in fields if k not in own)
        if left:
            call.values["fields"] = {k: v for k, v in fields.items() if k in own}
            call.notes.append(f"[form] left out {', '.join(left)}: not on the form of {definition.key}")
