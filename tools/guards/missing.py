"""Guard: a value only the person can give that the model left out, and their words did not give either, is asked
for (with everything else the call still lacks, in one question)."""

from __future__ import annotations

from tools.grounding import check_given
from tools.guards.call import Call


class Missing:
    """Asks for the first value still missing."""

    name = "missing"
    needs_request = True
    asks_together = True

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        check_given(call.toolset, call.spec, call.values, call.handle, call.ctx, call.request["lang"],
                    call.person_values)
