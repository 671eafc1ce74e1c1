"""Guard: one message that asks for two requests of two processes ("Fever since last night, so one day of sick leave,
Li Si approves. Also claim the 58 yuan taxi to the clinic, Li Si can approve that too.") is read, for each start, as
the part about that start's process.

Read after the thirty-third round's run: the leave was filed with the claim's words in its reason ("Fever since last
night, Also claim the 58 yuan taxi…") and the claim was dropped. The rule, as a person would state it: each sentence
belongs to the process it names, and a sentence naming none to the one named before it (or, at the start, after it);
a message with a sentence that names two processes is read whole, as before. Once one start is made, the other is
proposed (`next_start`), as the person said, to its own card; its values are read from its own part.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection

from tools.guards.call import Call
from tools.message_kind import sentences
from tools.request import Request, latest_message
from tools.workflow.lookup import engine_of
from tools.workflow.request_lookup import processes_named, processes_named_in


def parts(conn: Connection, text: str) -> dict[str, str]:
    """The part of the text about each process it names, by process key, where it names two or more and no sentence
    names two; {} otherwise."""
    said = sentences(text)
    definitions = engine_of(conn).definitions(conn)  # read once, for every sentence
    named = [processes_named_in(definitions, s) for s in said]
    keys = {k for n in named for k in n}
    if len(keys) < 2 or any(len(n) > 1 for n in named):
        return {}
    owners: list[str] = []
    current = next(next(iter(n)) for n in named if n)  # what comes before the first named is the first one's
    for n in named:
        current = next(iter(n)) if n else current
        owners.append(current)
    return {key: "".join(s for s, owner in zip(said, owners, strict=True) if owner == key).strip() for key in keys}


def next_start(conn: Connection, request: Request, done: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, Any] | None:
    """The start the latest message still asks for once the run started one of the processes it names (`parts`):
    the other process, its values to be read from its own part; None when it names no other, or several."""
    found = parts(conn, latest_message(request))
    started = {str(result.get("processKey") or "") for tool, result in done if tool == "runWorkFlow"}
    left = [key for key in found if key not in started]
    if not found or not started & set(found) or len(left) != 1:
        return None
    return {"name": "runWorkFlow", "args": {"processKey": left[0]}}


class EachOwnRequest:
    """Narrows the person's latest message to the part about the start's process, where it asks for two (`parts`)."""

    name = "each_own_request"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != "runWorkFlow":
            return
        found = parts(call.handle, latest_message(call.request))
        key = str(call.values.get("processKey") or "")
        if key not in found:  # named as the person would ("expense claim"): the one process it names
            keys = processes_named(call.handle, key) if key else set()
            key = next(iter(keys)) if len(keys) == 1 else ""
        if key in found:
            call.request = {**call.request, "texts": [*call.request["texts"][:-1], found[key]]}  # type: ignore[typeddict-item]
