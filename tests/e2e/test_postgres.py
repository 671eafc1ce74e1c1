"""Scale-out on a real PostgreSQL server: checkpoints and the workflow store shared by separate worker processes.

Each worker is its own interpreter (`python -m tests.support.worker`) that builds the graph from the
environment only: FLOWAGENT_CHECKPOINT_URL selects the Postgres checkpointer, FLOWAGENT_DB the Postgres store.
The model is the scripted OpenAI-compatible server of this test process, reached over HTTP by ChatOpenAI.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from evals.doubles.openai_server import ScriptedOpenAIServer
from graph.checkpoint import close_checkpointer, open_checkpointer
from tests.support.postgres import PostgresServer  # the session fixture `postgres` comes from tests/e2e/conftest.py
from tests.support.workers import WorkerProcess
from tools import CallContext, DomainError, WorkflowStore, execute_call
from tools.workflow import TOOLSET

APPROVER = "user_2"
REQUESTER = "user_1"
OWNED_TASKS = 16
CONTESTED_TASKS = 8


def approver_model(request: dict[str, Any]) -> Any:
    """The scripted approver: "approve task_N" → handleTodoTask(task_N); after the observation, a final answer."""
    last = request["messages"][-1]
    if last["role"] == "user":
        task = re.search(r"task_\d+", str(last["content"]))
        assert task, f"unexpected person message {last!r}"
        return {
            "content": f"李四审批 {task.group(0)}。",
            "tool_calls": [{"name": "handleTodoTask", "arguments": {"taskId": task.group(0), "result": "同意", "isOK": True}}],
        }
    return f"结果 / result: {str(last.get('content'))[:300]}"


@pytest.fixture(scope="module")
def model_server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer(exhausted_reply=approver_model) as server:
        yield server


@pytest.fixture
def database(postgres: PostgresServer) -> str:
    """A fresh database on the session's server, for this test only."""
    return postgres.create_database()


@pytest.fixture
def store(postgres: PostgresServer, database: str) -> Iterator[WorkflowStore]:
    workflow_store = WorkflowStore(postgres.url(database, driver="postgresql+psycopg"))
    yield workflow_store
    workflow_store.dispose()


def worker_env(postgres: PostgresServer, database: str, model_server: ScriptedOpenAIServer) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "FLOWAGENT_", "LANGSMITH_", "LANGCHAIN_"))}
    env.update(
        FLOWAGENT_CHECKPOINT_URL=postgres.url(database),
        FLOWAGENT_DB=postgres.url(database),
        OPENAI_BASE_URL=model_server.base_url,
        OPENAI_API_KEY="sk-test",
        FLOWAGENT_MODEL="scripted",
        FLOWAGENT_MAX_RETRIES="0",
        FLOWAGENT_RATE_LIMIT_RPS="0",
        LANGSMITH_TRACING="false",
    )
    return env


@pytest.fixture
def workers(
    postgres: PostgresServer, database: str, model_server: ScriptedOpenAIServer, tmp_path: Path
) -> Iterator[tuple[WorkerProcess, WorkerProcess]]:
    """Two worker processes started at the same moment on the same empty database (both create its tables)."""
    env = worker_env(postgres, database, model_server)
    started: list[WorkerProcess] = []
    try:
        for name in ("worker-1", "worker-2"):
            started.append(WorkerProcess(name, env, tmp_path))
        for worker in started:
            worker.wait_ready()
        yield started[0], started[1]
    finally:
        for worker in started:
            worker.stop()


def start_requests(store: WorkflowStore, count: int) -> list[str]:
    """`count` one-day leave requests of 张三, each waiting for 李四: returns their task ids."""
    task_ids = []
    for i in range(count):
        args = {"processKey": "process_qingjia", "userId": REQUESTER, "reason": f"家事 {i}", "days": 1, "nextUserId": APPROVER}
        ctx = CallContext(backend=store, actor_id=REQUESTER, thread_id="setup", call_id=f"setup-{i}")
        task_ids.append(execute_call(TOOLSET, "runWorkFlow", args, ctx)["taskId"])
    return task_ids


def say(thread_id: str, task_id: str) -> dict[str, Any]:
    return {"thread_id": thread_id, "user_id": APPROVER, "say": f"请批准 {task_id} / approve {task_id}"}


def approve(thread_id: str) -> dict[str, Any]:
    return {"thread_id": thread_id, "user_id": APPROVER, "resume": {"decisions": [{"type": "approve"}]}}


def read(thread_id: str) -> dict[str, Any]:
    return {"thread_id": thread_id, "user_id": APPROVER}


def both(w1: WorkerProcess, jobs1: list[dict], w2: WorkerProcess, jobs2: list[dict]) -> dict[str, dict[str, Any]]:
    """Run a command on both workers at the same time; results by thread id."""
    w1.send(jobs1)
    w2.send(jobs2)
    return {r["thread_id"]: r for r in [*w1.receive(), *w2.receive()]}


def observation(result: dict[str, Any]) -> dict[str, Any]:
    """The handleTodoTask observation of a finished thread."""
    tool_messages = [m for m in result["messages"] if m["type"] == "tool"]
    assert len(tool_messages) == 1, result
    assert result["messages"][-1]["type"] == "ai" and not result["messages"][-1]["tool_calls"], result
    return tool_messages[0]


def test_store_and_checkpointer_on_postgres_are_each_selected_by_one_url(postgres: PostgresServer, database: str) -> None:
    store = WorkflowStore(postgres.url(database))  # a plain postgresql:// URL picks the psycopg 3 driver
    saver = open_checkpointer(postgres.url(database))
    try:
        assert store.engine.dialect.name == "postgresql" and store.engine.driver == "psycopg"
        assert type(saver).__name__ == "PostgresSaver"
        snapshot = store.snapshot()
        assert [u["id"] for u in snapshot["users"]] == ["user_1", "user_2", "user_3", "user_4", "user_admin"]
        assert {p["key"]: p["version"] for p in snapshot["processes"]} == {
            "process_baoxiao": 1, "process_chuchai": 1, "process_qingjia": 1,
        }
        [task] = start_requests(store, 1)
        [request] = store.snapshot()["requests"]
        assert (task, request["days"], request["flagged"], request["status"]) == ("task_1", 1.0, False, "pending")
    finally:
        close_checkpointer(saver)
        store.dispose()


def test_thread_interrupted_on_one_worker_is_resumed_on_another(
    workers: tuple[WorkerProcess, WorkerProcess], store: WorkflowStore
) -> None:
    w1, w2 = workers
    assert w1.pid != w2.pid
    [task] = start_requests(store, 1)

    [started] = w1.run([say("handover", task)])
    assert started["pid"] == w1.pid
    [pending] = started["interrupts"]
    [action] = pending["action_requests"]
    assert (action["name"], action["args"]["taskId"], action["card"]["task_status"]) == ("handleTodoTask", task, "pending")
    assert store.snapshot()["tasks"][0]["status"] == "pending"

    [seen] = w2.run([read("handover")])
    assert seen["interrupts"] == started["interrupts"]  # the second process sees the same waiting card

    [resumed] = w2.run([approve("handover")])
    assert resumed["pid"] == w2.pid and resumed["interrupts"] == []
    result = json.loads(observation(resumed)["content"])
    assert (result["taskId"], result["status"]) == (task, "approved")

    [back_on_first] = w1.run([read("handover")])
    assert back_on_first["messages"] == resumed["messages"]

    snapshot = store.snapshot()
    assert [(t["status"], t["decided_by"], t["comment"]) for t in snapshot["tasks"]] == [("approved", APPROVER, "同意")]
    handled = [e for e in snapshot["tool_executions"] if e["tool"] == "handleTodoTask"]
    assert [(e["thread_id"], e["actor_id"]) for e in handled] == [("handover", APPROVER)]
    events = [(a["event"], a["thread_id"]) for a in snapshot["audit_log"] if a["thread_id"] == "handover"]
    assert events == [("review_approve", "handover"), ("tool_executed", "handover")]


def test_concurrent_threads_on_two_workers_lose_no_update_and_decide_each_task_once(
    workers: tuple[WorkerProcess, WorkerProcess], store: WorkflowStore
) -> None:
    w1, w2 = workers
    tasks = start_requests(store, OWNED_TASKS + CONTESTED_TASKS)
    owned, contested = tasks[:OWNED_TASKS], tasks[OWNED_TASKS:]
    half = OWNED_TASKS // 2
    # Owner threads: tasks 1-8 on worker 1, 9-16 on worker 2. Rival threads try the same task on the other worker.
    owner_of = {t: (w1 if i < half else w2) for i, t in enumerate(owned)}
    w1_threads = [f"own-{t}" for t in owned[:half]] + [f"rival-{t}" for t in owned[half:]] + [f"race1-{t}" for t in contested]
    w2_threads = [f"own-{t}" for t in owned[half:]] + [f"rival-{t}" for t in owned[:half]] + [f"race2-{t}" for t in contested]

    def task_of(thread_id: str) -> str:
        return thread_id.split("-", 1)[1]

    # 1. Every thread (48, from both processes at once) reaches the approval card of its task.
    waiting = both(w1, [say(t, task_of(t)) for t in w1_threads], w2, [say(t, task_of(t)) for t in w2_threads])
    assert len(waiting) == len(w1_threads) + len(w2_threads)
    for thread_id, result in waiting.items():
        [card] = [a for value in result["interrupts"] for a in value["action_requests"]]
        assert (card["name"], card["args"]["taskId"], card["card"]["task_status"]) == (
            "handleTodoTask", task_of(thread_id), "pending"
        ), thread_id

    # 2. The 16 owners approve at the same time on both workers, and so do both racers of each contested task.
    own1 = [approve(f"own-{t}") for t in owned if owner_of[t] is w1] + [approve(f"race1-{t}") for t in contested]
    own2 = [approve(f"own-{t}") for t in owned if owner_of[t] is w2] + [approve(f"race2-{t}") for t in contested]
    decided = both(w1, own1, w2, own2)
    for t in owned:
        result = json.loads(observation(decided[f"own-{t}"])["content"])
        assert (result["taskId"], result["status"]) == (t, "approved")
    for t in contested:
        outcomes = sorted(observation(decided[f"race{n}-{t}"])["status"] for n in (1, 2))
        assert outcomes == ["error", "success"], t  # exactly one racer decides; the other is refused

    # 3. A second attempt on every owned task, approved by the person on the other worker, is refused.
    refused = both(
        w1, [approve(f"rival-{t}") for t in owned if owner_of[t] is w2],
        w2, [approve(f"rival-{t}") for t in owned if owner_of[t] is w1],
    )
    for t in owned:
        message = observation(refused[f"rival-{t}"])
        assert message["status"] == "error" and "task_not_pending" in message["content"], message

    # 4. No update lost: every thread, read back on the worker that did NOT run it, has its whole history.
    final = {**decided, **refused}
    read_back = both(
        w1, [read(t) for t in w2_threads], w2, [read(t) for t in w1_threads],
    )
    for thread_id, result in read_back.items():
        assert result["messages"] == final[thread_id]["messages"], thread_id
        assert [m["type"] for m in result["messages"]] == ["human", "ai", "tool", "ai"], thread_id

    # 5. The store: each task decided exactly once, by 李四, and the execution log and audit trail agree.
    snapshot = store.snapshot()
    assert len(snapshot["tasks"]) == OWNED_TASKS + CONTESTED_TASKS
    assert all((t["status"], t["decided_by"]) == ("approved", APPROVER) for t in snapshot["tasks"])
    assert all(r["status"] == "approved" for r in snapshot["requests"])
    handled = [e for e in snapshot["tool_executions"] if e["tool"] == "handleTodoTask"]
    assert Counter(json.loads(e["args"])["taskId"] for e in handled) == Counter(tasks)
    winners = {e["thread_id"] for e in handled}
    assert {f"own-{t}" for t in owned} <= winners and not any(w.startswith("rival-") for w in winners)
    executed = Counter(
        (a["thread_id"], json.loads(a["detail"])["args"]["taskId"])
        for a in snapshot["audit_log"]
        if a["event"] == "tool_executed" and json.loads(a["detail"])["tool"] == "handleTodoTask"
    )
    assert executed == Counter((e["thread_id"], json.loads(e["args"])["taskId"]) for e in handled)
    approvals = Counter(a["thread_id"] for a in snapshot["audit_log"] if a["event"] == "review_approve")
    assert approvals == Counter({t: 1 for t in [*w1_threads, *w2_threads]})
    # One e-mail per decision: 张三 is told once that each request ended, by the thread that decided it.
    ended = [n for n in snapshot["notifications"] if n["recipient_id"] == REQUESTER]
    assert sorted(n["thread_id"] for n in ended) == sorted(e["thread_id"] for e in handled)


def test_two_workers_completing_one_task_at_once_make_one_decision_and_one_email(store: WorkflowStore) -> None:
    """Both have passed the policy check inside their transactions before either writes (they meet first): the
    engine's compare-and-set lets one through; the other gets task_not_pending and keeps nothing."""
    [task_id] = start_requests(store, 1)
    engine = store.process_engine
    original = engine.complete
    meeting = threading.Barrier(2, timeout=20)

    def complete_after_meeting(*args: Any, **kwargs: Any) -> Any:
        meeting.wait()
        return original(*args, **kwargs)

    engine.complete = complete_after_meeting  # type: ignore[method-assign]

    def decide(index: int) -> Any:
        ctx = CallContext(backend=store, actor_id=APPROVER, thread_id=f"worker-{index}", call_id=f"c-{index}")
        try:
            return execute_call(TOOLSET, "handleTodoTask", {"taskId": task_id, "isOK": True, "result": f"同意 {index}"}, ctx)
        except DomainError as exc:
            return exc

    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            outcomes = list(pool.map(decide, range(2)))
    finally:
        engine.complete = original  # type: ignore[method-assign]
    won = [o for o in outcomes if isinstance(o, dict)]
    lost = [o for o in outcomes if isinstance(o, DomainError)]
    assert len(won) == 1 and [e.code for e in lost] == ["task_not_pending"], outcomes
    snapshot = store.snapshot()
    assert [(t["status"], t["comment"]) for t in snapshot["tasks"]] == [("approved", won[0]["comment"])]
    assert len([e for e in snapshot["tool_executions"] if e["tool"] == "handleTodoTask"]) == 1
    assert [i["version"] for i in snapshot["process_instances"]] == [2]  # one compare-and-set
    ended = [n for n in snapshot["notifications"] if n["recipient_id"] == REQUESTER]
    assert [n["thread_id"] for n in ended] == [f"worker-{outcomes.index(won[0])}"]


def test_stores_and_checkpointers_opened_together_on_an_empty_database_set_it_up_once(
    postgres: PostgresServer, database: str
) -> None:
    url = postgres.url(database)

    def open_both(_: int) -> int:
        store, saver = WorkflowStore(url), open_checkpointer(url)
        try:
            return len(store.snapshot()["users"])
        finally:
            close_checkpointer(saver)
            store.dispose()

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert list(pool.map(open_both, range(8))) == [5] * 8


def test_a_withdraw_and_a_decision_meeting_on_postgres_make_one_change(store: WorkflowStore) -> None:
    """张三 withdraws his request while 李四 approves its only step; both have passed their policy checks inside their
    transactions before either writes (they meet first): the engine's compare-and-set on the request lets one through,
    and the other is refused and keeps nothing (issue 33)."""
    [task_id] = start_requests(store, 1)
    engine = store.process_engine
    original_complete, original_cancel = engine.complete, engine.cancel
    meeting = threading.Barrier(2, timeout=20)

    def after_meeting(method: Any) -> Any:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            meeting.wait()
            return method(*args, **kwargs)
        return wrapped

    engine.complete = after_meeting(original_complete)  # type: ignore[method-assign]
    engine.cancel = after_meeting(original_cancel)  # type: ignore[method-assign]

    def act(index: int) -> Any:
        actor, tool, args = ((REQUESTER, "withdrawRequest", {"requestId": "req_1"}) if index == 0 else
                             (APPROVER, "handleTodoTask", {"taskId": task_id, "isOK": True, "result": "同意"}))
        ctx = CallContext(backend=store, actor_id=actor, thread_id=f"worker-{index}", call_id=f"c-{index}")
        try:
            return execute_call(TOOLSET, tool, args, ctx)
        except DomainError as exc:
            return exc

    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            outcomes = list(pool.map(act, range(2)))
    finally:
        engine.complete, engine.cancel = original_complete, original_cancel  # type: ignore[method-assign]
    won = [o for o in outcomes if isinstance(o, dict)]
    lost = [o for o in outcomes if isinstance(o, DomainError)]
    assert len(won) == 1 and [e.code for e in lost] in (["request_not_pending"], ["task_not_pending"]), outcomes
    snapshot = store.snapshot()
    [request] = snapshot["requests"]
    assert request["status"] == ("withdrawn" if won[0].get("status") == "withdrawn" else "approved")
    assert [i["version"] for i in snapshot["process_instances"]] == [2]  # one compare-and-set
    assert len([e for e in snapshot["tool_executions"] if e["tool"] in ("withdrawRequest", "handleTodoTask")]) == 1
