"""Guard: the arguments fit the tool's schema (pydantic, no extra fields): refused with what to send instead. A
look-up given a parameter it does not take (queryMyRequests with a requestId) reads without it: a read changes
nothing, so nothing is lost by reading more, and the person gets their answer rather than a refusal."""

from __future__ import annotations

from tools.guards.call import Call
from tools.spec import Effect


class Schema:
    """Validates the arguments into the tool's argument model."""

    name = "schema"
    needs_request = False
    asks_together = True

    def __call__(self, call: Call) -> None:
        if call.spec.effect == Effect.READ and isinstance(call.values, dict):
            own = set(call.spec.args_model.model_fields)
            extra = sorted(k for k in call.values if k not in own)
            if extra:
                call.values = {k: v for k, v in call.values.items() if k in own}
                call.notes.append(f"[schema] left out {', '.join(extra)}: {call.spec.name} takes no such parameter")
        call.args = call.spec.parse(call.values)
