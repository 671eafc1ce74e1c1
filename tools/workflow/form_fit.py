"""Which process a start is, and which form it files.

- "上礼拜去杭州出差，高铁加酒店一共三千五，走差旅报销" names an expense claim (报销) and a trip (出差). A process named
  only by words that another named process's form uses for what it is about (出差 is one of the words of the claim's
  category 差旅) is that claim's subject, not a request of its own: the request names the claim
  (`processes_they_named`, read by the toolset's `named_record`).
- A model that put in a field of another process's form ("amount" on a leave) had the whole start refused: the field
  is left out with a note (`FieldsOfTheForm`), and the card shows the form as it will be filed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from typing import Any

from tools import words
from tools.errors import PolicyError
from tools.grounding import read_text_value
from tools.guards.call import Call
from tools.workflow import lookup
from tools.workflow.engine import Definition
from tools.workflow.forms import person_values
from tools.workflow.request_lookup import naming_words


def _about(definition: Definition) -> set[str]:
    """The words the process's form uses for what it is about: every choice's value, names and words, lower-cased."""
    return {w.lower() for f in definition.fields for c in f.choices for w in (c.id, c.name, c.name_en, *c.words) if w}


def _named_by(definition: Definition, text: str) -> set[str]:
    return {w.lower() for w in naming_words(definition) if w and words.names_term(w, text)}


_COMPARED = re.compile(
    r"(?<!would )(?<!'d )(?<!\bI )\b(?:like|unlike|the\s+same\s+as|similar\s+to)\s+(?!to\b)[^,.?!;，。？！；]*|"
    r"(?:像|跟|和|同)[^，。？！,.?!；;]{0,12}?(?:一样|那样|似的)",
    re.IGNORECASE,
)
"""A process named only to compare with ("Does a trip also go to finance, like big expense claims do?", 跟报销一样): no
request of its own (a trip had been filed as a claim, the amount asked for: the forty-third round's writer)."""


_OF_ANOTHER = re.compile(
    r"\b(?:he|she|they|who|(?-i:[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?))(?:['’]s|['’]re|['’]ll\s+be|\s+(?:is|are|was|were|will\s+be|"
    r"has\s+been|goes|went))\s+(?:\w+\s+)?(?:on|off|out\s+on|away\s+on|off\s+on)\s+(?:sick\s+)?(?:leave|vacation|holiday|pto|"
    r"(?:a\s+)?(?:business\s+)?trip)\b|(?:他|她)(?:们)?(?:下周|这周|本周|明天|后天|最近|正在|在|要|也|去)*(?:休假|请假|出差)",
    re.IGNORECASE,
)
"""A process said of someone else's time ("he's on leave next week", "Li Si is away on a business trip", 他下周休假):
no request of the person's own (a trip had been taken for a leave: the forty-ninth round's writer)."""


_BEEN_AWAY = re.compile(
    r"出差(?:了|过|回来|刚回来|结束|完)|出(?:完|了[^，。,.!?！？]{0,4})差|(?:连着|一直|刚|才)出差|"
    r"出差(?:又|也)?(?:取消|黄|不去|泡汤)|(?:取消|黄)了?(?:的|那(?:个|趟))?出差|"
    r"\b(?:back\s+from|after|since|returned\s+from|(?:was|been|were)\s+on)\s+(?:a|my|the|our|that|this)\s+"
    r"(?:\w+\s+)?(?:business\s+)?trip\b|\bcancell?ed\s+(?:\w+\s+)?trip\b|"
    r"\btrip\s+(?:was|got|has\s+been|is)\s+(?:cancell?ed|called\s+off|scrapped)\b",
    re.IGNORECASE,
)
"""A trip that already happened ("连着出差了两周", 出差回来, "back from the Shanghai trip") or was called off (出差取消退机票,
"the cancelled Xi'an trip"): no trip to request, beside the leave or claim the message asks for (a comp day after two
weeks away had been filed as a trip; a refund fee's claim had been asked a trip's dates)."""


def processes_they_named(definitions: Sequence[Definition], text: str) -> list[Definition]:
    """The processes a text names as a request of its own: named, not only to compare with (`_COMPARED`) or as someone
    else's time away (`_OF_ANOTHER`), and not only by words another named process's form uses for what it is about
    (出差 beside 差旅报销)."""
    text = _BEEN_AWAY.sub(" ", _OF_ANOTHER.sub(" ", _COMPARED.sub(" ", text)))
    named = [(d, by) for d in definitions if (by := _named_by(d, text))]
    return [d for d, by in named if not any(other is not d and by <= _about(other) for other, _ in named)]


class FieldsOfTheForm:
    """Leaves out the `fields` the process's form does not have: the model's, from another process's form, or its own
    name for one ("description" for 事由: a resend was refused, the change the person gave lost: the eighty-sixth
    round's run). What the person changes is then read from their words, as for any value the model left out."""

    name = "fields_of_the_form"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        record = call.found.get("processKey") or call.found.get("requestId")  # a start's process, a resend's request
        fields: Any = call.values.get("fields")
        if not isinstance(record, dict) or not isinstance(fields, dict) or "definition" not in record:
            return
        definition: Definition = record["definition"]
        own = {f.id for f in definition.fields}
        left = sorted(k for k in fields if k not in own)
        if left:
            call.values["fields"] = {k: v for k, v in fields.items() if k in own}
            call.notes.append(f"[form] left out {', '.join(left)}: not on the form of {definition.key}")


def _files_money(definition: Definition) -> bool:
    """Whether the process's form files a sum of money the person states (a claim's amount)."""
    return any(v.kind == "number" and v.unit == "yuan" and not v.optional for v in person_values(definition))


def _started(call: Call) -> Definition | None:
    """The process a start names (found by its references), or None for any other call."""
    process = call.found.get("processKey")
    if call.spec.name != "runWorkFlow" or not isinstance(process, dict) or "definition" not in process:
        return None
    found: Definition = process["definition"]
    return found


class NoMoneyNoClaim:
    """Refuses a start of a process that files an amount of money where the request's messages name no process, state
    no amount or number with no unit (a count of things, 一个大会, "two client meetings", is no money), and say
    nothing its choices are about (a taxi, a hotel): "Need to head to Chengdu to visit a
    client, Li Si approves" asks for no money back. The one other process whose form reads a value of theirs after
    its cue words (a trip's destination: "to Chengdu") is carried; else the model is told why."""

    name = "no_money_no_claim"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        chosen = _started(call)
        if chosen is None:
            return
        assert call.request is not None
        request = call.request
        if not _files_money(chosen):
            return
        text = "\n".join(request["texts"])
        definitions = list(lookup.engine_of(call.handle).definitions(call.handle))
        bare = any(s["kind"] == "number" for s in request["said"])  # "报销两千三": money without its unit
        if request["amounts"] or bare or processes_they_named(definitions, text) or any(
                words.names_term(w, text) for w in _about(chosen)):
            return
        today = call.ctx.today or date.today()
        others = [d for d in definitions if d.key != chosen.key and any(
            read_text_value(v, request, today) for v in person_values(d) if v.kind == "text" and v.cues)]
        raise PolicyError(
            "no_money_no_claim", f"The user states no money and names no {chosen.key}: it is not what they ask"
            + (f"; their words give {others[0].key} its values: call runWorkFlow with processKey {others[0].key}."
               if len(others) == 1 else "; ask them what they want to file."),
            instead={"name": "runWorkFlow", "args": {"processKey": others[0].key}} if len(others) == 1 else None,
        )


class AmountIsAClaim:
    """Refuses a start of a process whose form files no money where the request's messages state a sum of money and
    name no process of their own but the one process whose form files it: "把攒下来的打车票报一下，一共326块" asks for
    money back, not a trip (it had been filed as one, its destination "打车"). That process is carried, as
    `NoMoneyNoClaim` carries a trip."""

    name = "amount_is_a_claim"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        chosen = _started(call)
        if chosen is None:
            return
        assert call.request is not None
        if not call.request["amounts"] or any(v.kind == "number" and v.unit != "day" for v in person_values(chosen)):
            return  # its own form files a sum (a claim's amount, a purchase's unit price)
        definitions = list(lookup.engine_of(call.handle).definitions(call.handle))
        claims = [d for d in definitions if _files_money(d)]
        named = processes_they_named(definitions, "\n".join(call.request["texts"]))
        if len(claims) != 1 or any(d.key != claims[0].key for d in named):
            return
        raise PolicyError(
            "amount_is_a_claim", f"The user states an amount of money and names no {chosen.key}: they ask for "
            f"{claims[0].key}; call runWorkFlow with processKey {claims[0].key}.",
            instead={"name": "runWorkFlow", "args": {"processKey": claims[0].key}},
        )
