"""The llama.cpp build's progress: a bar with the time left, estimated from the last build on this kind of CPU.

The build's compile steps come from the ninja lines pip passes through (``[12/74] Building CXX object ...``).
A step's share of the time is far from even (``llama-model.cpp`` alone takes minutes), so the time left comes from
the last build's own clock: when it reached each step and when it ended, kept in ``build-times.json`` beside the
wheel cache under the CPU's model name and CPU count, scaled by how much faster or slower this build has run so
far. With no record yet, the time left is the steps left at the pace so far (shown once a tenth is done).
Standard library only: it runs before anything else is installed.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import IO, Any

logger = logging.getLogger(__name__)

RECORD_FILE = "build-times.json"
_STEP = re.compile(r"^\s*\[(\d+)/(\d+)\]\s")
_BAR_WIDTH = 24


def cpu_kind(model: str, cpus: int) -> str:
    """Which earlier builds tell how long this one takes: the same CPU model with as many CPUs to build on."""
    return f"{model} / {cpus} CPUs"


def load_record(directory: Path, kind: str) -> dict[str, Any] | None:
    """The last build's clock on this kind of CPU, or None."""
    try:
        records = json.loads((directory / RECORD_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        logger.warning("the build record %s cannot be read (%s); the time left is estimated without it",
                       directory / RECORD_FILE, exc)
        return None
    record = records.get(kind) if isinstance(records, dict) else None
    return record if isinstance(record, dict) and record.get("seconds") else None


def save_record(directory: Path, kind: str, record: dict[str, Any]) -> None:
    """Keep this build's clock as the record for its kind of CPU (other kinds' records stay)."""
    path = directory / RECORD_FILE
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(records, dict):
            records = {}
    except (OSError, ValueError):
        records = {}
    records[kind] = record
    try:
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(records, separators=(",", ":")) + "\n", encoding="utf-8")
        temporary.replace(path)
    except OSError as exc:
        logger.warning("could not keep the build's time in %s (%s)", path, exc)


def _minutes(seconds: float) -> str:
    seconds = max(0, round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


class BuildProgress:
    """Follows the build's output lines; `line` shows the bar (in place on a terminal, else now and then)."""

    def __init__(
        self,
        *,
        kind: str,
        record: dict[str, Any] | None,
        report: Callable[[str], None],
        stream: IO[str] | None = None,
        every: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.kind = kind
        self.record = record
        self._report = report
        self._stream = stream
        self._every = every
        self._clock = clock
        self.started = clock()
        self.step = 0
        self.steps = 0
        self.curve: list[tuple[int, float]] = []
        """(step, seconds since the start) each time ninja started a step."""
        self._shown = self.started
        self._drawn = False

    @classmethod
    def for_this_terminal(
        cls, *, kind: str, record: dict[str, Any] | None, report: Callable[[str], None], default: bool,
        every: float = 30.0,
    ) -> BuildProgress:
        """Drawn in place on stderr when it is a terminal and the caller kept the default progress lines."""
        tty = default and sys.stderr.isatty() and os.environ.get("TERM") != "dumb"
        return cls(kind=kind, record=record, report=report, stream=sys.stderr if tty else None, every=every)

    # ------------------------------------------------------------ input

    def feed(self, line: str) -> None:
        """One line of the build's output."""
        match = _STEP.match(line)
        if not match:
            return
        step, steps = int(match.group(1)), int(match.group(2))
        if steps < self.steps:
            return  # another ninja (a second configure) would count again; keep the first
        self.step, self.steps = step, steps
        self.curve.append((step, self._clock() - self.started))
        self.tick(force=self._stream is not None)

    def tick(self, force: bool = False) -> None:
        """Show the bar now if it is due (every `every` seconds without a terminal; at each step on one)."""
        now = self._clock()
        if not force and now - self._shown < (1.0 if self._stream is not None else self._every):
            return
        self._shown = now
        text = self.text()
        if self._stream is not None:
            self._stream.write("\r\x1b[2K" + text)
            self._stream.flush()
            self._drawn = True
        else:
            self._report(text)

    def done(self) -> None:
        """End the bar's line on a terminal."""
        if self._drawn and self._stream is not None:
            self._stream.write("\n")
            self._stream.flush()
            self._drawn = False

    # ------------------------------------------------------------ estimate

    def elapsed(self) -> float:
        return self._clock() - self.started

    def left(self) -> float | None:
        """Seconds the build probably still takes, or None when there is nothing to go by yet."""
        elapsed = self.elapsed()
        record = self.record
        if record and record.get("steps") == self.steps and record.get("curve") and self.step:
            then = _at(record["curve"], self.step)
            total = float(record["seconds"])
            pace = min(3.0, max(0.33, elapsed / then)) if then > 30 else 1.0
            return max(0.0, (total - then) * pace)
        if record and not self.step:
            return max(0.0, float(record["seconds"]) - elapsed)
        if self.steps and self.curve and self.step >= max(2, self.steps // 10):
            first = self.curve[0][1]
            per_step = (elapsed - first) / max(1, self.step - 1)
            return per_step * (self.steps - self.step)
        if record:
            return max(0.0, float(record["seconds"]) - elapsed)
        return None

    def text(self) -> str:
        elapsed = self.elapsed()
        if self.steps:
            filled = round(_BAR_WIDTH * self.step / self.steps)
            bar = f"[{'#' * filled}{'-' * (_BAR_WIDTH - filled)}] {self.step}/{self.steps}"
        else:
            bar = f"[{'-' * _BAR_WIDTH}] preparing"
        left = self.left()
        if left is None:
            estimate = "estimating the time left"
        elif left < 5:
            estimate = "almost done"
        else:
            estimate = f"about {_minutes(left)} left"
        return f"building llama.cpp {bar}, {_minutes(elapsed)} so far, {estimate}"

    def as_record(self, seconds: float, *, load: tuple[float, ...] | None = None) -> dict[str, Any]:
        """This build's clock, to estimate the next one on this kind of CPU."""
        return {
            "seconds": round(seconds, 1),
            "steps": self.steps,
            "curve": [[step, round(at, 1)] for step, at in self.curve],
            "date": datetime.now().strftime("%Y-%m-%d %H:%M"),
            "load": [round(v, 2) for v in (load or ())],
        }


def _at(curve: list[list[float]], step: int) -> float:
    """Seconds at which the recorded build started `step` (the nearest recorded step at or before it)."""
    before = [at for s, at in curve if s <= step]
    return float(before[-1]) if before else 0.0
