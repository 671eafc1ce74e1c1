"""Guard: each value only the person can give is found in what they said (a person they named, a number or date they
stated, their own words for a text, a choice they named or implied); else they are asked for it. A value found is
the person's: its source says so, with the words it was found in."""

from __future__ import annotations

from tools.grounding import check_grounded
from tools.guards.call import Call
from tools.spec import Source


class Grounded:
    """Asks for the first value the person did not give; records the others as stated."""

    name = "grounded"
    needs_request = True
    asks_together = True

    def __call__(self, call: Call) -> None:
        assert call.request is not None and call.args is not None
        found = {**call.found, **call.checked.found}
        said = check_grounded(call.toolset, call.spec, call.args, found, call.handle, call.ctx, call.request,
                              call.to_check())
        for param, words in said.items():
            source = call.sources.get(param)
            if source is None:
                call.sources[param] = Source(how="stated", said=words)
            elif not source["said"] and words:
                source["said"] = words
