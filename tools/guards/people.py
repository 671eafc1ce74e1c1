"""Guard: the people the call names (the approver, a recipient) are resolved in code, by name or id; a name several
people share is asked about, never chosen; a person nobody named, whom the model made up, is asked for."""

from __future__ import annotations

import re

from tools.errors import NeedsPersonError, NotFoundError
from tools.grounding import choices, people_named_for
from tools.guards.call import Call
from tools.guards.references import resolve


class People:
    """Resolves the references to people only the person can name."""

    name = "people"
    needs_request = False
    asks_together = True

    def __call__(self, call: Call) -> None:
        assert call.args is not None, "the schema guard runs first"
        people = {v.param for v in call.spec.person_values}
        try:
            call.values, found = resolve(call, call.args.model_dump(), lambda ref: ref.param in people)
        except NotFoundError as error:
            _ask_for_made_up(call, error)
            raise
        call.found |= found
        if found:
            call.args = call.spec.args_model.model_validate(call.values)


def _ask_for_made_up(call: Call, error: NotFoundError) -> None:
    """Asks who is meant where the model put a person nobody has (a deputy "Deputy", an approver "Manager") into a
    value the person named nobody for: the person chooses, as for a colleague the model chose. A name the person wrote
    themselves that nobody has stays told as unknown."""
    request = call.request
    if request is None or error.code != "unknown_user":
        return
    for value in call.spec.person_values:
        given = call.values.get(value.param)
        if value.optional or not isinstance(given, str) or not given or given not in error.message:
            continue
        if people_named_for(call.toolset, value, request) or any(_written(given, t) for t in request["texts"]):
            continue
        raise NeedsPersonError(
            f"{value.ask}_not_named",
            f"{value.param} {given[:40]!r} is nobody, and the user named nobody for it; the user is asked. Never "
            "choose it yourself",
            ask=value.ask, param=value.param, choices=choices(call.toolset, call.handle, call.ctx.actor_id,
                                                              request["lang"]), value=value,
        ) from error


def _written(name: str, text: str) -> bool:
    """Whether the person wrote this name as a name: as the model spelled it, a Latin one as a whole word ("make Bob
    my deputy"; "set up a deputy" writes no one called "Deputy")."""
    if not name.isascii():
        return name in text
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None
