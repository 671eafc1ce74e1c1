"""What a message still asks once its question was looked up: the request it asks to file as well ("Thinking of annual
leave from next Thursday through Tuesday - how many days would that take off my balance? if it's fine just put it
in"). Read after the thirty-seventh round's run: the balance was looked up and said, and the leave never started. Where
the model answers after look-ups only, and the person's latest message names one process and asks for it to be filed,
its start is proposed, its values read from their words or asked, to its card."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection

from tools.request import Request, latest_message
from tools.spec import Effect
from tools.workflow.request_lookup import processes_named
from tools.workflow.specs import REGISTRY

_FILE_IT = re.compile(
    r"\b(?:put|file|submit|send|book|lodge|raise|log)\b[^.?!]{0,12}\b(?:it|one|that|this)\b(?:\s+in)?|\bgo\s+ahead\b|"
    r"提交|帮我(?:请|报|提|申请|走)|(?:就|那就|直接)(?:请|报|提|申请)|(?:请|报|提)(?:了吧|上吧|一下吧)",
    re.IGNORECASE,
)
"""Words that ask for a request to be filed ("just put it in", "go ahead and file it", 够的话就帮我提交)."""
_WRITES = frozenset(spec.name for spec in REGISTRY if spec.effect is Effect.WRITE)
"""The workflow's writes: a run that made one looked up more than it asked to look up."""


def start_asked(conn: Connection, request: Request, done: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, Any] | None:
    """The start the person's latest message asks for beside its question, where the run looked up only and filed
    nothing; None otherwise."""
    if request["kind"] != "action" or not done or any(tool in _WRITES for tool, _ in done):
        return None  # after a write the message asked for ("Send it back to him so he can fix it"), no start
    latest = latest_message(request)
    keys = processes_named(conn, latest)
    if len(keys) != 1 or not _FILE_IT.search(latest):
        return None
    return {"name": "runWorkFlow", "args": {"processKey": next(iter(keys))}}
