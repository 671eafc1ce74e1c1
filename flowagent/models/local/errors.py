"""What the operator is told while the offline model is prepared: progress lines, and one error that says what to do."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

Progress = Callable[[str], None]
"""Receives one human-readable progress line at a time."""


class LocalModelError(Exception):
    """The local model cannot be obtained or served; the message says why and what to do."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message



def stderr_progress(line: str) -> None:
    """The default `Progress`: one ``flowagent: ...`` line on stderr."""
    print(f"flowagent: {line}", file=sys.stderr, flush=True)



def pip_error_line(lines: Sequence[str]) -> str:
    """The reason a failed pip gave: its last ``ERROR:`` line, else its last line."""
    for line in reversed(lines):
        if line.startswith("ERROR:"):
            return line.removeprefix("ERROR:").strip().rstrip(".")
    tail = [line for line in lines if line.strip()]
    return tail[-1].strip().rstrip(".") if tail else "no output"

