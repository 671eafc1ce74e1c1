"""The executor node (Action → result): runs validated, approved calls with a timeout per call.

A call runs on a pool thread, given up at its timeout, unless it is a read that waits on nothing but a backend able
to stop its work at a deadline (`ToolSpec.backend_bound`, `tools.backend.StopsAtDeadline`): that one runs on the
node's own thread and is stopped at the timeout, which spares the hop to another thread (about a twentieth of a ReAct
step) and stops the work instead of leaving it running.

Every write carries the idempotency key thread id + tool call id, recorded by the store in the same
transaction as the effect, so a call re-run after a crash or a resume returns the recorded result.
Errors become readable outcomes (code, message, elapsed ms); they never crash the run.
"""

from __future__ import annotations

import contextvars
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from langgraph.errors import GraphBubbleUp
from langgraph.runtime import Runtime
from langsmith import traceable
from langsmith.utils import tracing_is_enabled

from graph.budget import open_step
from graph.calls import KeptRead, action_hash, call_context, thread_id_of_run
from graph.deps import NodeDeps
from graph.reviews import unreviewed
from graph.run import lang_of
from state.agent import AgentState
from state.context import Context
from state.records import Outcome, Step
from tools.backend import StopsAtDeadline
from tools.errors import DomainError
from tools.runtime import CheckedCall, execute_call
from tools.spec import CallContext, Effect

logger = logging.getLogger(__name__)

TIMEOUT_MESSAGE = (
    "{name} did not finish within {timeout:g} s. A write may still complete: check with a read tool "
    "before trying again."
)


def _traced_inputs(inputs: dict[str, Any]) -> dict[str, Any]:
    """A tool run's traced inputs: its arguments only (the call context holds the backend and the dependencies, the
    check the records it found)."""
    return {"args": inputs.get("args")}


class Executor:
    """Runs the step's calls that are approved (or need no approval); their outcomes go on in the step."""

    def __init__(self, deps: NodeDeps) -> None:
        backend = deps.backend
        self._actors = deps.actors
        self._reads = deps.reads
        self._toolset = deps.toolset
        self._backend = backend
        self._needs = deps.needs
        self._clock = deps.clock
        self._registry = deps.registry
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="flowagent-tool")
        stops = isinstance(backend, StopsAtDeadline)
        self._here = frozenset(
            spec.name for spec in self._registry if stops and spec.effect is Effect.READ and spec.backend_bound
        )
        """The tools run on the node's own thread, stopped at their deadline (the rest run on the pool)."""
        # One traced wrapper per tool, made once: a tool run's inputs are its arguments only (the call context
        # holds the backend and the dependencies, a mailer whose URL may carry a password).
        self._traced = {
            spec.name: traceable(run_type="tool", name=spec.name, process_inputs=_traced_inputs)(self._call)
            for spec in self._registry
        }

    def __call__(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        context = runtime.context
        thread_id = thread_id_of_run()
        outcomes: list[Outcome] = []
        lang = lang_of(state, context)
        step = open_step(state.get("step"))
        for call in step["calls"]:
            if call["status"] not in ("approved", "ready"):
                raise RuntimeError(f"executor reached with an unapproved call {call['name']} ({call['status']})")
            # A read the validator checked just now runs on its check, in its call context, under its action hash.
            kept = self._reads.take(thread_id, call["id"], call["args"])
            ctx = kept.ctx if kept is not None else call_context(
                self._toolset, self._backend, self._needs, context, self._clock, thread_id, call_id=call["id"], lang=lang,
                actors=self._actors,
            )
            refused = unreviewed(self._toolset, context, call, ctx)  # the person's review is on record
            if refused is not None:
                outcomes.append(refused)
                continue
            outcomes.append(self._run_one(call["name"], call["id"], call["args"], ctx, context.tool_timeout_s, kept))
        return {"step": Step(**{**step, "calls": [], "outcomes": outcomes})}

    def _call(
        self, name: str, args: dict[str, Any], ctx: CallContext, checked: CheckedCall | None = None,
        deadline: float | None = None,
    ) -> dict[str, Any]:
        return execute_call(self._toolset, name, args, ctx, checked=checked, deadline=deadline)

    def _run_one(
        self, name: str, call_id: str, args: dict[str, Any], ctx: CallContext, timeout: float,
        kept: KeptRead | None = None,
    ) -> Outcome:
        """One call, run on the validator's kept check when there is one (`kept`), else checked here."""
        checked = kept.checked if kept is not None else None
        started = time.perf_counter()
        # Untraced, the call skips the tracing wrapper (a tenth of a millisecond).
        traced = self._traced.get(name) if tracing_is_enabled() else None
        deadline = time.monotonic() + timeout if name in self._here else None

        def run() -> dict[str, Any]:
            if traced is None:  # not traced, or not a registered tool (validated calls always name one)
                return self._call(name, args, ctx, checked, deadline)
            return traced(name, args, ctx, checked, deadline, langsmith_extra={"metadata": {"tool_call_id": call_id}})

        try:
            if deadline is not None:  # stopped at the deadline by the backend: TimeoutError
                result = run()
            else:  # carry this node's tracing context to the pool thread: the tool run is the executor run's child
                result = self._pool.submit(contextvars.copy_context().run, run).result(timeout=timeout)
            ok = True
        except TimeoutError:  # the pool's wait, or the backend's deadline
            result = {"error": "timeout", "message": TIMEOUT_MESSAGE.format(name=name, timeout=timeout)}
            ok = False
        except GraphBubbleUp:
            raise
        except DomainError as exc:
            result = exc.to_dict()
            ok = False
        except Exception as exc:  # noqa: BLE001 - the design turns every tool failure into an observation
            # A bug of ours, not the caller's: the operator gets the traceback, the model a readable observation.
            logger.exception("tool %s failed (call %s, thread %s)", name, call_id, ctx.thread_id)
            result = {"error": "tool_failed", "message": f"{name} failed: {type(exc).__name__}: {exc}"[:500]}
            ok = False
        elapsed = (time.perf_counter() - started) * 1000
        if not ok:
            result["elapsed_ms"] = round(elapsed, 1)
        wrote = ok and name in self._registry and self._registry.get(name).effect is Effect.WRITE
        action = kept.action if kept is not None else action_hash(name, args)
        return Outcome(
            id=call_id, name=name, action=action, ok=ok, result=result, elapsed_ms=round(elapsed, 1), wrote=wrote,
        )
