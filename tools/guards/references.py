"""Guard: the records a call acts on exist (its process, its task), looked up by the toolset's resolvers, the one the
person's words name put in for the model's; then the values only the person can give that these records call for
(a process's start form)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tools import words
from tools.guards.call import Call
from tools.spec import Found, Reference


def resolve(call: Call, values: dict[str, Any], which: Callable[[Reference], bool]) -> tuple[dict[str, Any], Found]:
    """The references `which` selects looked up by the toolset's resolvers: the values with names made canonical ids,
    and the records found, by parameter (records of stable kinds the caller keeps are taken from it)."""
    toolset, spec, ctx = call.toolset, call.spec, call.ctx
    found: Found = {}
    resolved = dict(values)
    for ref in spec.references:
        value = values.get(ref.param)
        if value is None or not which(ref):
            continue
        resolver = toolset.resolvers.get(ref.kind)
        if resolver is None:
            raise AssertionError(f"toolset {toolset.name} has no resolver for {ref.kind!r} ({spec.name}.{ref.param})")
        known = ctx.known if ref.kind in toolset.stable_kinds else None
        record = known.get(ref.kind, value) if known is not None else None
        if record is not None:
            canonical = value
        else:
            record, canonical = resolver(call.handle, value, ctx, ref, asking=call.request is not None)
            if known is not None and record is not None and canonical == value:  # found by its id: kept
                known.put(ref.kind, value, record)
        if record is not None:
            found[ref.param] = record
        resolved[ref.param] = canonical
    return resolved, found


def named_records(call: Call) -> None:
    """Puts in the one record of each reference the person's request names (`Toolset.named_record`: a leave request
    is the leave process, whichever the model chose), with a note for each value it replaced."""
    toolset, request = call.toolset, call.request
    if toolset.named_record is None or request is None:
        return
    for ref in call.spec.references:
        if ref.param in call.spec.identity_params:
            continue
        named = toolset.named_record(call.handle, ref.kind, request["texts"])
        given = call.values.get(ref.param)
        if named is None or given == named:
            continue
        if isinstance(given, str) and given and any(words.names(given, text) for text in request["texts"]):
            continue  # the person wrote that record themselves ("process_nianjia"): its own checks answer them
        if given not in (None, ""):
            call.notes.append(f"[person_stated] {ref.param}: the user named {named}, not {str(given)[:64]!r}")
        call.values[ref.param] = named


class References:
    """Every reference but the people the person names (those are resolved once the schema passed)."""

    name = "references"
    needs_request = False
    asks_together = False

    def __call__(self, call: Call) -> None:
        named_records(call)
        people = {v.param for v in call.spec.person_values}
        call.values, call.found = resolve(call, call.values, lambda ref: ref.param not in people)
        call.person_values = call.spec.values_for(call.handle, call.ctx, call.values, call.found)
