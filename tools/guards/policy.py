"""Guard: the tool's own rules (`ToolSpec.check`), given the records the call names and the actor's: on the
validator's path read-only, on the executor's inside the write's transaction, right before the effect."""

from __future__ import annotations

from tools.guards.call import Call
from tools.spec import Verdict

ACTOR = "actor"
"""The key of the session user's record in a verdict's `found`."""


class Policy:
    """Runs the tool's check."""

    name = "policy"
    needs_request = False
    asks_together = True

    def __call__(self, call: Call) -> None:
        assert call.args is not None, "the schema guard runs first"
        call.found[ACTOR] = call.actor
        check = call.spec.check
        call.checked = check(call.handle, call.ctx, call.args, call.found) if check is not None else Verdict()
