"""The values of a call only the person can give (`PersonValue`): what each is, how it is found in their words and
asked for; and parameter paths into a call's arguments (`fields.amount`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, Literal

from tools.hooks import CallContext, Found

if TYPE_CHECKING:
    from tools.request import Request

ValueKind = Literal["person", "number", "date", "text", "choice"]
Refuse = Callable[[Any, Mapping[str, Any], date], None]
"""(a value of the person's, every argument, the run's date) → None, or raises `CannotError` when no answer of theirs
could make the value possible (a date in the past, an end before its start): said before anything is asked."""
Account = Callable[["Request", date], "str | None"]
"""(the person's request, the run's date) → their own account of why, as they wrote it, or None."""


@dataclass(frozen=True)
class PersonValue:
    """An argument only the person can give: the model may pass it on, never make it up.

    Missing, or not found in what the person said (`tools.request.Request`), it makes the graph ask the person. How a
    value is found depends on its kind: a person must be the one the request names; a number must be stated with its
    `unit` ("day": a day count, a duration or a date range's days; "yuan": an amount; "none": any number); a date must
    be stated; a text must be the person's own words, in their language (a translation is not theirs); a choice must
    be stated (`stated`, or one of `choices` named in the person's words) or is left to the person at the review card
    (`optional` and `on_card`).

    `param` names an argument, or a value inside one by a dotted path (`fields.amount`: the `amount` of the `fields`
    argument), so the values of a tool whose form depends on its arguments can be declared too
    (`ToolSpec.person_values_for`).
    """

    param: str
    kind: ValueKind
    ask: str
    """The question's key in the toolset's questions (`Language.questions`), e.g. "approver" or "days"; a key the
    toolset does not word is asked about by `label`."""
    unit: Literal["day", "yuan", "none"] = "none"
    optional: bool = False
    """Not asked for when missing (the person may leave it out)."""
    stated: Callable[[Request], Any] | None = None
    """Reads the value the person spelled out in their request; when found, it is the value (the person's own words
    outrank the model's)."""
    label: Mapping[str, str] = field(default_factory=dict)
    """What the value is called, by language ("zh", "en"): the general question asks for it by this name."""
    meaningful: bool = False
    """For a text: it must say something of its own, beyond words any request has ("take 2 days off" is no reason)."""
    filler: re.Pattern[str] | None = None
    """For a meaningful text: words that say nothing of this value's own (a comment that only says the decision, "批了",
    "fine with me", is the decision, not a comment)."""
    found_key: str = ""
    """For a person: the record the check finds for the call (`Verdict.found`) that must be the person named, when
    it is not the parameter's own (an e-mail's recipient is the task's assignee when the model gave a task)."""
    choices: tuple[tuple[str, ...], ...] = ()
    """For a choice: its options, each its value first, then its name in Chinese, in English (either may be ""), and
    any other words that name it: ("差旅", "差旅", "Travel"). The person states one by naming it in either language;
    the question offers them by name in the person's language."""
    on_card: bool = False
    """For an optional value: when the model fills it in, the person confirms it on the review card instead of having
    said it (a decision's comment). Otherwise an optional value that is given must be stated like any other."""
    hints: tuple[tuple[str, ...], ...] = ()
    """For a choice: words that imply an option without naming it, each its option's value first, then the words, in
    either language: ("差旅", "打车", "taxi", "机票"). A value the model left out, or named in its own words ("交通"),
    is inferred from them when they point to one option; the card shows it as inferred."""
    cues: tuple[str, ...] = ()
    """For a text: words a person writes right before the value (去, 到, "to"): a value the model left out is read from
    what follows one, when the request holds it verbatim (去深圳见客户 → 深圳)."""
    account: Account | None = None
    """For a meaningful text: reads the person's own account from their words (`tools.readers.read_account`), which
    replaces a text of the model's that is not theirs as written or says nothing of its own ("餐饮类报销")."""
    default: str | None = None
    """For a choice: the option filed when the person's words name and imply none (a form field's `defaultValue`): put
    in by code in place of any the model chose, and shown on the card as inferred, for the person to see before it is
    filed. Words that point to two options decide nothing: the person is asked."""
    refuse: Refuse | None = None
    """What no answer could make possible, for a value of the person's (a trip in the past): refused before the person
    is asked for anything else."""
    left_out_unsaid: Callable[[Request], bool] | None = None
    """For an optional value: whether the person's words say nothing of it at all; then one the model gave that they
    did not state is left out, not asked (a bound on a batch they never spoke of, "both of Zhao Liu's leaves" given at
    most one day: the card lists every task that matches what they did say, each theirs to change). Words that speak
    of it without stating it ("under 3 days") still ask. For a required value: whether the person's words rule out any
    value the model could have taken from them (a trip's end where they said one date and a longer stay); the model's
    is left out, and the person is asked."""
    after: str = ""
    """For a date that ends a range: the parameter of the date it follows (`fields.startDate`), against which a phrase
    is read as a range's end ("the following Monday", 周五 in the start's week or the next)."""

    def option_names(self, lang: str) -> tuple[str, ...]:
        """The options by name in a language ("zh", "en"), for a question."""
        index = 2 if lang == "en" else 1
        return tuple(next((w for w in (*o[index:index + 1], *o[1:2], o[0]) if w), o[0]) for o in self.choices)

    def option_of(self, given: Any) -> str | None:
        """The option a given value means (its value, or any word naming it, in any case); None when none."""
        text = str(given).strip().casefold()
        for option in self.choices:
            if any(text == word.casefold() for word in option if word):
                return option[0]
        return None


def get_param(values: Mapping[str, Any], path: str) -> Any:
    """The value at a parameter path (`days`, or `fields.amount` inside the `fields` argument); None when absent."""
    current: Any = values
    for part in path.split("."):
        if not isinstance(current, Mapping):
            return None
        current = current.get(part)
    return current


def set_param(values: Mapping[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of the arguments with the value at a parameter path set (nested objects copied, created when absent)."""
    head, _, rest = path.partition(".")
    copied = dict(values)
    if not rest:
        copied[head] = value
        return copied
    inner = copied.get(head)
    copied[head] = set_param(inner if isinstance(inner, Mapping) else {}, rest, value)
    return copied


PersonValuesFor = Callable[[Any, CallContext, dict[str, Any], Found], tuple[PersonValue, ...]]
"""(backend handle, call context, the arguments with their references resolved, the records they name) → the values
only the person can give that these arguments call for."""
