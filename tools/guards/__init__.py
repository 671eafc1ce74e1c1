"""Admission of one tool call: an ordered pipeline of guards, one module each.

In the order a person would be told: what cannot be done at all first (someone else's identity, records that do not
exist, a value of theirs no answer could make possible), then what only the person can give (their words put in;
asked once for everything the call still lacks), then the rest (the schema, the people named, the tool's own rules,
and whether the person said each value):

    identity → references → filled → dates → refused → missing → usable → schema → people → policy → grounded

Each guard passes, refuses (`DomainError`, to the model) or asks (`NeedsPersonError`, to the person); see
`tools.guards.call`. A deployment adds its own (a rate limit, a PII check) without touching these: a `Toolset` with
`guards=added(MyGuard(), after="identity")`. The executor's path (no request) runs the guards that do not need one, in
the write's transaction.
"""

from __future__ import annotations

from collections.abc import Sequence

from tools.errors import NeedsPersonError
from tools.grounding import unstated
from tools.guards.call import Call, Guard
from tools.guards.dates import Dates
from tools.guards.filled import Filled
from tools.guards.grounded import Grounded
from tools.guards.identity import Identity
from tools.guards.missing import Missing
from tools.guards.people import People
from tools.guards.policy import ACTOR, Policy
from tools.guards.references import References
from tools.guards.refused import Refused
from tools.guards.schema import Schema
from tools.guards.usable import Usable
from tools.spec import Verdict

STANDARD: tuple[Guard, ...] = (
    Identity(), References(), Filled(), Dates(), Refused(), Missing(), Usable(), Schema(), People(), Policy(),
    Grounded(),
)
"""The guards every call goes through, in order."""


def added(guard: Guard, *, after: str | None = None, before: str | None = None,
          guards: Sequence[Guard] = STANDARD) -> tuple[Guard, ...]:
    """The pipeline with a deployment's own guard right after the one named `after` (a rate limit after "identity",
    a check of the texts after "grounded"), or right before the one named `before` (a check that the tool is the one
    the person's words ask for, before "identity" judges its arguments)."""
    if (after is None) == (before is None):
        raise ValueError(f"say where {guard.name!r} goes: after=<a guard> or before=<a guard>, one of them")
    names = [g.name for g in guards]
    where = after if after is not None else before
    if where not in names:
        side = "after" if after is not None else "before"
        raise ValueError(f"no guard {where!r} to add {guard.name!r} {side}; the guards are {', '.join(names)}")
    at = names.index(where) + (1 if after is not None else 0)
    return (*guards[:at], guard, *guards[at:])


def admit(call: Call, guards: Sequence[Guard] = STANDARD) -> Verdict:
    """Runs the guards over one call in order; the first that refuses or asks ends it. A question asked from
    `missing` on asks for everything else the call still lacks too (`NeedsPersonError.also`)."""
    for guard in guards:
        if guard.needs_request and call.request is None:
            continue
        try:
            guard(call)
        except NeedsPersonError as exc:
            if guard.asks_together and call.request is not None:
                others = unstated(call.toolset, call.spec, call.values, call.found, call.handle, call.ctx,
                                  call.request, call.to_check())
                exc.also = tuple((value, offered) for value, offered in others if value.param != exc.param)
            raise
    return call.verdict()


__all__ = ["ACTOR", "STANDARD", "Call", "Guard", "added", "admit"]
