"""A clock the test moves by hand, injected into `build_graph(clock=...)` so budgets are tested without sleeps."""

from __future__ import annotations


class ManualClock:
    """Seconds since the epoch that change only when the test says so."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
