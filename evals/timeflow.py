"""Time passing in a scenario: each trial's store runs on its own clock, the wall clock until a setup step moves it on
(`advance = "P1D"`, `working_time = true` to count working days only); the timer service then fires what is due, as
a server's would (reminders, escalations: their e-mails in the outbox, their lines in the request's timeline)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tools import WorkflowStore
from tools.workflow.engine import SpiffEngine
from tools.workflow.engine.timers import TimerFired
from tools.workflow.engine.working_time import due_after, parse_duration
from tools.workflow.leave.calendar import is_working_day
from tools.workflow.store import workflow_engine
from tools.workflow.timer_service import TimerService


class TrialClock:
    """A trial's time: now, moved on by the scenario's `advance` steps (timezone-aware UTC)."""

    def __init__(self) -> None:
        self.offset = timedelta(0)

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.offset

    def advance(self, duration: str, *, working_time: bool) -> None:
        """Move on by an ISO 8601 duration, counted as the store's timers count it."""
        now = self()
        later = due_after(now, parse_duration(duration), working_time=working_time, working_day=is_working_day)
        self.offset += later - now


def trial_engine(clock: TrialClock) -> SpiffEngine:
    """The process engine of a trial's store: the store's own, on the trial's clock."""
    return workflow_engine(clock)


def advance(store: WorkflowStore, clock: TrialClock | None, duration: str, *, working_time: bool) -> list[TimerFired]:
    """Time passes: the clock moves on, and the timer service fires what is due by then."""
    if clock is None:
        raise ValueError("a scenario that lets time pass needs the trial's clock (evals.stores.fresh_store's)")
    clock.advance(duration, working_time=working_time)
    return TimerService(store, name="eval").run_once()
