"""Guard: the arguments fit the tool's schema (pydantic, no extra fields): refused with what to send instead."""

from __future__ import annotations

from tools.guards.call import Call


class Schema:
    """Validates the arguments into the tool's argument model."""

    name = "schema"
    needs_request = False
    asks_together = True

    def __call__(self, call: Call) -> None:
        call.args = call.spec.parse(call.values)
