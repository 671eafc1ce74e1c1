"""Shared fixtures: a real workflow store on a SQLite file, call contexts, and a started leave request."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from evals.stores import fresh_store
from graph.calls import new_call_id
from tests.support.clock import ManualClock
from tools import CallContext, ToolRegistry, WorkflowStore, execute_call
from tools.request import Request, read_request
from tools.workflow import TOOLSET

HERE = Path(__file__).parent
LAYERS = ("unit", "graph", "e2e")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each test is marked with its layer, the folder it lives in: `pytest -m "not e2e"` runs the fast two."""
    for item in items:
        layer = item.path.parent.name
        if layer in LAYERS:
            item.add_marker(layer)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """A layer's folder is not even imported when the `-m` expression deselects every test of that layer whatever
    their other marks: importing the e2e modules (servers, clients, the model's bindings) took a fifth of
    `pytest -m "not e2e"`. Otherwise pytest decides."""
    if collection_path.parent == HERE and collection_path.name in LAYERS and collection_path.is_dir():
        if deselects_every(config.getoption("markexpr") or "", collection_path.name):
            return True
    return None


def deselects_every(markexpr: str, mark: str) -> bool:
    """Whether `markexpr` (pytest's `-m`) is false for every test carrying `mark`, whichever other marks it has."""
    if not markexpr.strip():
        return False
    try:  # pytest's own parser of `-m` (a private module: without it, everything is collected as before)
        from _pytest.mark.expression import Expression
    except ImportError:
        return False

    others = sorted(set(re.findall(r"[A-Za-z_][\w.]*", markexpr)) - {"and", "or", "not", "True", "False", mark})
    if len(others) > 8:
        return False
    expression = Expression.compile(markexpr)
    for values in itertools.product((False, True), repeat=len(others)):
        marks = {mark, *(name for name, on in zip(others, values, strict=True) if on)}
        if expression.evaluate(functools.partial(_carries, marks)):
            return False
    return True


def _carries(marks: set[str], name: str, /, **_: object) -> bool:
    return name in marks


@pytest.fixture
def store(tmp_path) -> Iterator[WorkflowStore]:
    """A fresh, seeded workflow store on a SQLite file under the test's tmp_path: a copy of one this process seeded
    once (`evals.stores.fresh_store`), since creating and seeding the tables took three times as long as opening a
    copy. Tests of the seeding itself open their own `WorkflowStore`."""
    workflow_store = fresh_store(str(tmp_path))
    yield workflow_store
    workflow_store.dispose()


@pytest.fixture
def make_ctx(store: WorkflowStore) -> Callable[..., CallContext]:
    """Build a CallContext on `store`: `make_ctx("user_2", thread_id="t1", call_id="c1", deps=mailer)`.

    Without `call_id` each context gets a fresh one.
    """

    def _make(actor_id: str = "user_1", *, thread_id: str = "thread-test", call_id: str | None = None,
              **kwargs: Any) -> CallContext:
        return CallContext(
            backend=store, actor_id=actor_id, thread_id=thread_id, call_id=call_id or new_call_id(), **kwargs
        )

    return _make


@pytest.fixture
def start_request(make_ctx: Callable[..., CallContext]) -> Callable[..., dict[str, Any]]:
    """Start a leave request through the real runWorkFlow tool; returns the tool's result.

    `start_request(requester="user_1", approver="user_2", days=1, reason="...")`.
    """

    def _start(requester: str = "user_1", approver: str = "user_2", days: float | str = 1,
               reason: str = "家里有事 / family matters") -> dict[str, Any]:
        args = {
            "processKey": "process_qingjia",
            "userId": requester,
            "reason": reason,
            "days": days,
            "nextUserId": approver,
        }
        return execute_call(TOOLSET, "runWorkFlow", args, make_ctx(requester))

    return _start


# ---------------------------------------------------------------- graph tests: scripted models, SQLite checkpoints


@pytest.fixture
def checkpointer(tmp_path):
    """A real `SqliteSaver` on a file under tmp_path (WAL, synchronous=NORMAL), closed after the test."""
    from graph.checkpoint import open_sqlite_checkpointer

    saver = open_sqlite_checkpointer(tmp_path / "checkpoints.db")
    yield saver
    saver.conn.close()


class GraphDriver:
    """One conversation thread of the real graph, driven by a scripted model.

    `script(...)` queues the model's next replies; `say(text)` sends a person's message; `resume(value)`
    answers the pending approval, `approve()` approves it (a request starts only once its requester approves
    the start card) and `card` is its card. The run's `Context` is fixed per driver, overridable per call.
    """

    def __init__(self, graph: Any, model: Any, thread_id: str, context: Any, clock: ManualClock) -> None:
        self.graph = graph
        self.model = model
        self.clock = clock
        """The graph's clock: `clock.advance(s)` is time passing for the budgets."""
        self.config = {"configurable": {"thread_id": thread_id}}
        self.context = context

    def script(self, *replies: Any) -> GraphDriver:
        self.model.replies.extend(replies)
        return self

    def _ctx(self, overrides: dict[str, Any]) -> Any:
        from dataclasses import replace

        return replace(self.context, **overrides) if overrides else self.context

    def say(self, text: str, **context: Any) -> dict[str, Any]:
        from langchain_core.messages import HumanMessage

        return self.graph.invoke({"messages": [HumanMessage(content=text)]}, self.config, context=self._ctx(context))

    def resume(self, value: Any, **context: Any) -> dict[str, Any]:
        from langgraph.types import Command

        return self.graph.invoke(Command(resume=value), self.config, context=self._ctx(context))

    def approve(self, **context: Any) -> dict[str, Any]:
        """The person approves the pending card (a requester confirms their start card, an approver their
        decision) and the run goes on; returns the run's result."""
        assert self.interrupts, "approve(): no card is waiting for a person"
        return self.resume({"decisions": [{"type": "approve"}]}, **context)

    @property
    def card(self) -> dict[str, Any]:
        """The card of the one pending action (fails when none or several are waiting)."""
        [action] = self.actions
        return action["card"]

    @property
    def values(self) -> dict[str, Any]:
        return self.graph.get_state(self.config).values

    @property
    def interrupts(self) -> list[Any]:
        """Values of the pending interrupts (empty when the run is not waiting for a person)."""
        return [i.value for i in self.graph.get_state(self.config).interrupts]

    @property
    def actions(self) -> list[dict[str, Any]]:
        """The action requests of the pending approval (LangChain's HITL shape): name, args, description,
        and flowagent's card, args_hash and tool_call_id."""
        return [action for value in self.interrupts for action in value["action_requests"]]

    @property
    def messages(self) -> list[Any]:
        return list(self.values["messages"])

    @property
    def script_used_up(self) -> bool:
        """Every queued reply was consumed, and the model was never asked for more."""
        return self.model.position == len(self.model.replies)


@pytest.fixture
def graph_driver(store: WorkflowStore, checkpointer: Any) -> Callable[..., GraphDriver]:
    """`graph_driver(*replies, thread_id="t1", toolset="workflow", user_id="user_1", **context)`: a GraphDriver on
    the test's store and SQLite checkpointer, with a fresh `ScriptedChatModel` (one model per driver) and a
    `ManualClock`; `toolset` is the graph's (a name or a `Toolset`), `registry=` runs it with other tools, and
    `strategy=` as plan or chain."""
    from evals.doubles.scripted import ScriptedChatModel
    from graph import build_graph
    from state import Context

    def _make(
        *replies: Any, thread_id: str = "t1", toolset: Any = "workflow", registry: ToolRegistry | None = None,
        strategy: Any = "react", **context: Any,
    ) -> GraphDriver:
        model = ScriptedChatModel(replies=list(replies))
        clock = ManualClock()
        graph = build_graph(
            model=model, store=store, checkpointer=checkpointer, clock=clock, toolset=toolset, registry=registry,
            strategy=strategy,
        )
        return GraphDriver(graph, model, thread_id, Context(**context), clock)

    return _make


@pytest.fixture
def person_request(store: WorkflowStore) -> Callable[..., Request]:
    """The request record (`tools.request.Request`) of what a person wrote, read against the store's users, as the
    graph's `read_request` builds it: `person_request("请1天假看牙医", actor="user_1")`."""

    def _read(*texts: str, actor: str = "user_1", today: date = date(2026, 12, 1)) -> Request:
        with store.read() as conn:
            people = TOOLSET.directory(conn)
        return read_request(list(texts), index=0, today=today, people=people, actor_id=actor)

    return _read


@pytest.fixture
def trial_clock(store: WorkflowStore) -> Any:
    """The store's process engine on a clock the test moves (`evals.timeflow.TrialClock`)."""
    from evals.timeflow import TrialClock

    trial = TrialClock()
    store.process_engine.clock = trial  # type: ignore[attr-defined]
    return trial
