"""The ids the engine shows: `task_12` for a task, `req_3` for an instance (a request), and their numbers."""

from __future__ import annotations

from tools.workflow.engine.errors import EngineError

TASK_PREFIX = "task_"
INSTANCE_PREFIX = "req_"


def format_task_id(number: int) -> str:
    return f"{TASK_PREFIX}{number}"


def format_instance_id(number: int) -> str:
    return f"{INSTANCE_PREFIX}{number}"


def _parse_id(value: str | int, prefix: str, code: str, what: str) -> int:
    text = str(value).strip()
    if text.startswith(prefix):
        text = text[len(prefix) :]
    if not text.removeprefix("-").isdigit():  # what `format_*_id` writes reads back: a backlog's rows have ids ≤ 0
        raise EngineError(code, f"{value!r} is not a {what} id; {what} ids look like {prefix}12.")
    return int(text)


def parse_task_id(value: str | int) -> int:
    """`task_12` (or `12`) → 12; raises `task_not_found` for anything else."""
    return _parse_id(value, TASK_PREFIX, "task_not_found", "task")


def parse_instance_id(value: str | int) -> int:
    """`req_3` (or `3`) → 3; raises `unknown_instance` for anything else."""
    return _parse_id(value, INSTANCE_PREFIX, "unknown_instance", "instance")
