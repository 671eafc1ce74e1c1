"""Guard: the people the call names (the approver, a recipient) are resolved in code, by name or id; a name several
people share is asked about, never chosen."""

from __future__ import annotations

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
        call.values, found = resolve(call, call.args.model_dump(), lambda ref: ref.param in people)
        call.found |= found
        if found:
            call.args = call.spec.args_model.model_validate(call.values)
