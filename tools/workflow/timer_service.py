"""The timer service: fires the steps' due timers (reminders, escalations, due dates), each exactly once, at most one
poll interval late.

It runs in every server process (`flowagent serve`, `./run web`: the page's app starts it, `tools.surfaces.Surfaces.
services`) and as `flowagent timers` for deployments that run it apart. Each poll lists the timers due by the
engine's clock (an index on `(status, due_at)`) and fires each in its own transaction with its e-mails and audit
entry: the engine claims the timer with compare-and-set (`ProcessEngine.fire_timer`), so however many services share
the database (a SQLite file on one machine, PostgreSQL for several), one fires it and the others skip it. A firing that
fails (a decision changed the request meanwhile, the database was busy) is rolled back whole and tried again on the
next poll. E-mails are delivered after the commit when SMTP is configured, else they wait in the outbox.

Settings: `FLOWAGENT_TIMERS=off` keeps a server from running it; `FLOWAGENT_TIMER_INTERVAL` (seconds, default 15)
is the time between polls.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import OperationalError

from tools.surfaces import CliCommand
from tools.workflow.engine import EngineError
from tools.workflow.engine.timers import TimerFired
from tools.workflow.mailer import Mailer
from tools.workflow.store import WorkflowStore
from tools.workflow.timer_notices import TIMER_THREAD, notify_fired

log = logging.getLogger(__name__)

DEFAULT_INTERVAL_S = 15.0
"""Seconds between polls: a due timer fires at most this much (plus one firing's time) after its due time."""
MAX_LATE_S = 60.0
"""The promise: a timer fires at most this many seconds after it is due (the interval must stay well under it)."""


def interval_from_env() -> float:
    """`FLOWAGENT_TIMER_INTERVAL` in seconds (between 0.1 and 30), else the default."""
    raw = os.environ.get("FLOWAGENT_TIMER_INTERVAL", "").strip()
    if not raw:
        return DEFAULT_INTERVAL_S
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"FLOWAGENT_TIMER_INTERVAL={raw!r} is not a number of seconds (e.g. 15)") from None
    if not 0.1 <= value <= MAX_LATE_S / 2:
        raise ValueError(f"FLOWAGENT_TIMER_INTERVAL={raw} must be between 0.1 and {MAX_LATE_S / 2:g} seconds, so "
                         f"that a timer fires at most {MAX_LATE_S:g} s late")
    return value


def service_name() -> str:
    """This process, as a fired timer records it: host and pid."""
    return f"{socket.gethostname()}:{os.getpid()}"


@dataclass
class TimerService:
    """Polls the store's due timers and fires them; `run_once` is one poll, `run` polls until stopped."""

    store: WorkflowStore
    """The workflow store (its process engine's clock says what is due)."""
    name: str = field(default_factory=service_name)
    """Recorded on each timer it fires."""
    mailer: Mailer | None = None
    """Delivers the e-mails after each commit; None: they wait in the outbox."""
    batch: int = 100
    """At most this many timers a poll (the rest on the next)."""

    def run_once(self) -> list[TimerFired]:
        """One poll: every due timer fired (or left to the service that got it first); what this one fired."""
        engine = self.store.process_engine
        with self.store.read() as conn:
            due = engine.due_timers(conn, limit=self.batch)
        fired: list[TimerFired] = []
        for timer_id in due:
            try:
                with self.store.transaction() as conn:
                    event = engine.fire_timer(conn, timer_id, by=self.name)
                    if event is None:
                        continue
                    mails = notify_fired(conn, event)
                    self.store.audit(conn, "timer_fired", {**event.to_dict(), "notified": mails},
                                     thread_id=TIMER_THREAD, actor_id=None)
            except (EngineError, OperationalError) as exc:  # rolled back whole: tried again on the next poll
                log.warning("timer %s not fired this time (%s); trying again on the next poll", timer_id, exc)
                continue
            fired.append(event)
            self._deliver(mails)
        return fired

    def _deliver(self, mails: list[dict[str, Any]]) -> None:
        if self.mailer is not None:
            for mail in mails:
                self.mailer.deliver(self.store, int(mail["emailId"]))

    def run(self, stop: threading.Event, interval: float = DEFAULT_INTERVAL_S,
            on_fired: Callable[[TimerFired], None] | None = None) -> int:
        """Poll every `interval` seconds until `stop` is set; how many timers it fired. A poll that fails is logged and
        the next one runs."""
        count = 0
        while not stop.is_set():
            try:
                events = self.run_once()
            except Exception:  # the database away a moment: the service must outlive it, and says so in the log
                log.exception("the timer service's poll failed; polling again in %g s", interval)
                events = []
            count += len(events)
            if on_fired is not None:
                for event in events:
                    on_fired(event)
            stop.wait(interval)
        return count


def start_timer_service(store: Any) -> Callable[[], None]:
    """Start the timer service on a thread of this process (a server's), unless `FLOWAGENT_TIMERS=off`; returns what
    stops it."""
    if os.environ.get("FLOWAGENT_TIMERS", "").strip().lower() in ("off", "0", "false", "no"):
        log.info("the timer service is off in this process (FLOWAGENT_TIMERS)")
        return lambda: None
    stop = threading.Event()
    service = TimerService(store, mailer=Mailer.from_env())
    thread = threading.Thread(target=service.run, args=(stop, interval_from_env()), name="flowagent-timers", daemon=True)
    thread.start()
    log.info("the timer service runs in this process (%s)", service.name)

    def stop_it() -> None:
        stop.set()
        thread.join(timeout=10)

    return stop_it


# ---------------------------------------------------------------- flowagent timers


def timers_arguments(parser: Any) -> None:
    parser.add_argument("--db", help="workflow store URL or file (default FLOWAGENT_DB or .flowagent/workflow.db)")
    parser.add_argument("--interval", type=float, default=None,
                        help=f"seconds between polls (default FLOWAGENT_TIMER_INTERVAL or {DEFAULT_INTERVAL_S:g})")
    parser.add_argument("--once", action="store_true", help="fire what is due now, then stop")


def _line(event: TimerFired) -> str:
    to = ", ".join(event.moved_to if event.action == "escalate" else event.holders) or "-"
    return f"{event.fired_at} fired {event.action} of {event.task_id} ({event.instance_id}, due {event.due_at}): {to}"


def timers_run(args: Any) -> str:
    """`flowagent timers`: the timer service in the foreground until SIGTERM or Ctrl-C (`--once`: one poll); prints
    a line per timer it fires."""
    import signal

    interval = args.interval if args.interval is not None else interval_from_env()
    if not 0.1 <= interval <= MAX_LATE_S / 2:
        raise ValueError(f"--interval {interval:g}: give between 0.1 and {MAX_LATE_S / 2:g} seconds")
    db = args.db
    store = WorkflowStore(f"sqlite:///{db}" if db and "://" not in db else db)
    service = TimerService(store, mailer=Mailer.from_env())
    stop = threading.Event()
    try:
        if args.once:
            return "\n".join([_line(e) for e in service.run_once()] or ["no timer was due"])
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
        print(f"timer service {service.name} on {store!r}: polling every {interval:g} s (Ctrl-C stops it)", flush=True)
        fired = service.run(stop, interval, on_fired=lambda event: print(_line(event), flush=True))
        return f"timer service {service.name} stopped; it fired {fired} timer(s)"
    finally:
        store.dispose()


TIMERS_CLI = CliCommand(
    help="the timer service: fire the steps' due reminders and escalations (--once: what is due now, then stop)",
    arguments=timers_arguments,
    run=timers_run,
)
