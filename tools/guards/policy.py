"""Guard: the tool's own rules (`ToolSpec.check`), given the records the call names and the actor's: on the
validator's path read-only, on the executor's inside the write's transaction, right before the effect."""

from __future__ import annotations

from tools.errors import CannotError
from tools.grounding import check_grounded
from tools.guards.call import Call
from tools.spec import Verdict, get_param

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
        try:
            call.checked = check(call.handle, call.ctx, call.args, call.found) if check is not None else Verdict()
        except CannotError as refused:
            _numbers_said(call, refused)  # "this request needs 10 days" of days nobody said: asked, not refused
            raise


def _numbers_said(call: Call, refused: CannotError) -> None:
    """Before a refusal of the tool's rules reaches the person, the numbers it tells them of are theirs: one the model
    gave that they never said (10 days of leave for "use up the rest of my vacation") is asked for
    (`NeedsPersonError`), since the refusal would tell them of a number they never gave (the seventy-first round's
    run); days where they said dates are counted from them, judged as they are. Nothing on a script's call."""
    if call.request is None or call.args is None:
        return
    told = " ".join(refused.say.values())
    numbers = [v for v in call.to_check() if v.kind == "number" and not (v.unit == "day" and call.request["dates"])
               and _shown(get_param(call.args.model_dump(), v.param)) in told]
    if numbers:
        check_grounded(call.toolset, call.spec, call.args, {**call.found}, call.handle, call.ctx, call.request, numbers)


def _shown(value: object) -> str:
    """A number as a refusal writes it (10, 1.5), or "" for none (which every text holds, so it is checked)."""
    return f"{value:g}" if isinstance(value, int | float) else str(value or "")

