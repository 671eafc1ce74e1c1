"""Two instances of the production server (`flowagent serve`, langgraph-runtime-pg) on one deployment: the same
PostgreSQL database, Redis and workflow store, each started by the test, driven with the real SDK.

- A card raised through instance A is answered through instance B, and its write executes once.
- An instance killed with SIGKILL in the middle of a background run (the requester's answer to a start card): the
  run's write happened at most once, and within 60 s the other instance takes the run back from its last checkpoint
  and finishes it (the runtime's sweep sees the dead worker's heartbeat expire, 5 s here, and puts the run back in
  the queue; after `BG_JOB_MAX_RETRIES` (3) such attempts it would mark the run failed instead).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from evals.doubles.openai_server import ScriptedOpenAIServer
from tests.support.langgraph_server import ProductionServer, model_env, stream_updates
from tests.support.net import wait_until
from tests.support.postgres import PostgresServer
from tests.support.redis import RedisServer
from tests.support.review import approval, approving_reply, proposed_call, start_leave_request
from tools import WorkflowStore

GRAPH_ID = "flowagent"
RECOVERY_LIMIT_S = 60


def new_deployment(postgres: PostgresServer, redis: RedisServer, redis_db: int) -> dict[str, str]:
    """A PostgreSQL database for the runtime, one for the workflow store, and a Redis database."""
    return {
        "database_uri": postgres.url(postgres.create_database("lg")),
        "redis_uri": f"{redis.url.rsplit('/', 1)[0]}/{redis_db}",
        "store": postgres.url(postgres.create_database("store")),
    }


@pytest.fixture(scope="module")
def deployment(postgres: PostgresServer, redis: RedisServer) -> dict[str, str]:
    return new_deployment(postgres, redis, 12)


def instance(model: ScriptedOpenAIServer, deployment: dict[str, str], *, workers: int = 1) -> ProductionServer:
    return ProductionServer(model_env(model, deployment["store"]), database_uri=deployment["database_uri"],
                            redis_uri=deployment["redis_uri"], workers=workers)


@pytest.fixture(scope="module")
def instances(model: ScriptedOpenAIServer, deployment: dict[str, str]) -> Iterator[tuple[ProductionServer, ProductionServer]]:
    """Instance A (two worker processes) and instance B (one), started one after the other on one deployment."""
    first = instance(model, deployment, workers=2).start()
    try:
        second = instance(model, deployment).start()
        try:
            yield first, second
        finally:
            second.stop()
    finally:
        first.stop()


@pytest.fixture
def store(deployment: dict[str, str]) -> Iterator[WorkflowStore]:
    workflow_store = WorkflowStore(deployment["store"])
    yield workflow_store
    workflow_store.dispose()


def ask(text: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}]}


def test_a_card_raised_on_one_instance_is_answered_on_the_other_and_runs_once(instances, model, store):
    on_a, on_b = instances[0].client("user_2"), instances[1].client("user_2")
    task = start_leave_request(store)
    decide = approving_reply(task)
    model.reset([decide, "已批准。"])

    thread_id = on_a.threads.create()["thread_id"]
    _, [waiting] = stream_updates(on_a, thread_id, input=ask(f"批准我的待办 {task}"))
    assert on_b.threads.get(thread_id)["status"] == "interrupted"
    assert on_b.threads.get_state(thread_id)["interrupts"][0]["value"] == waiting["value"]

    nodes, interrupts = stream_updates(on_b, thread_id, command={"resume": approval(waiting["value"])})
    assert interrupts == [] and "executor" in nodes
    # A second answer, through A, finds nothing waiting.
    with pytest.raises(Exception) as again:
        stream_updates(on_a, thread_id, command={"resume": approval(waiting["value"])})
    assert getattr(getattr(again.value, "response", None), "status_code", None) == 409

    snapshot = store.snapshot()
    [row] = [t for t in snapshot["tasks"] if f"task_{t['id']}" == task]
    assert (row["status"], row["decided_by"]) == ("approved", "user_2")
    assert [e["tool"] for e in snapshot["tool_executions"] if e["thread_id"] == thread_id] == ["handleTodoTask"]
    events = [a["event"] for a in snapshot["audit_log"] if a["thread_id"] == thread_id]
    assert events == ["review_approve", "tool_executed"]
    assert on_a.threads.get_state(thread_id)["values"]["messages"][-1]["content"] == "已批准。"


def instance_running(servers: tuple[ProductionServer, ...], run_id: str) -> ProductionServer | None:
    """The instance whose log says it started the run."""
    for server in servers:
        lines = server.log_tail(2_000_000).splitlines()
        if any(run_id in line and "Starting background run" in line for line in lines):
            return server
    return None


def test_an_instance_killed_mid_run_leaves_its_write_done_once_and_the_other_finishes_the_run(
    model: ScriptedOpenAIServer, postgres: PostgresServer, redis: RedisServer, tmp_path: Path
):
    # A deployment of its own (no other instance may take the run), with two instances, one of which is killed.
    deployment = new_deployment(postgres, redis, 13)
    store = WorkflowStore(deployment["store"])
    servers = (instance(model, deployment).start(), instance(model, deployment).start())
    try:
        client = servers[0].client("user_1")
        leave = {"content": "提交请假申请。", "tool_calls": [{"name": "runWorkFlow", "arguments": {
            "processKey": "process_qingjia", "reason": "搬家要用一天", "days": 1, "nextUserId": "王五"}}]}
        # The requester approves the start card; the write runs, then the next model call hangs long enough to kill
        # the instance in the middle of it.
        model.reset([leave, {"content": "（不会送达）", "delay_s": 40}, "已提交请假申请。"])
        before = len(store.snapshot()["requests"])

        thread_id = client.threads.create()["thread_id"]
        _, [waiting] = stream_updates(client, thread_id, input=ask("我想请1天假，搬家要用一天，王五审批"))
        tool, _, card = proposed_call(waiting["value"])
        assert (tool, card["reason"], card["approver"]) == ("runWorkFlow", "搬家要用一天", "王五 (user_3)")
        assert len(store.snapshot()["requests"]) == before  # nothing is filed while the start card waits
        run = client.runs.create(thread_id, GRAPH_ID, command={"resume": approval(waiting["value"])})
        wait_until(lambda: len(model.requests) >= 2, timeout=60, what="the run's second model call")
        assert len(store.snapshot()["requests"]) == before + 1  # the write happened before the kill

        victim = wait_until(lambda: instance_running(servers, run["run_id"]), timeout=30, what="the run's instance")
        survivor = servers[1] if victim is servers[0] else servers[0]
        victim.kill()
        killed_at = time.monotonic()

        watcher = survivor.client("user_1")

        def finished() -> dict[str, Any] | None:
            current = watcher.runs.get(thread_id, run["run_id"])
            return current if current["status"] in ("success", "error") else None

        done = wait_until(finished, timeout=RECOVERY_LIMIT_S, what="the run retried or marked failed", interval=0.5)
        recovered_in = time.monotonic() - killed_at
        (tmp_path / "recovery.txt").write_text(f"{done['status']} after {recovered_in:.1f} s\n")

        assert done["status"] == "success", survivor.log_tail()
        assert recovered_in < RECOVERY_LIMIT_S
        rows = [r for r in store.snapshot()["requests"] if r["reason"] == "搬家要用一天"]
        assert len(rows) == 1  # at most once: the retry found the write's idempotency record
        executed = [e for e in store.snapshot()["tool_executions"] if e["thread_id"] == thread_id]
        assert [e["tool"] for e in executed] == ["runWorkFlow"]
        messages = watcher.threads.get_state(thread_id)["values"]["messages"]
        assert messages[-1]["content"] == "已提交请假申请。"
    finally:
        for server in servers:
            server.stop()
        store.dispose()


@pytest.fixture
def timer_instances(model: ScriptedOpenAIServer, postgres: PostgresServer, redis: RedisServer) -> Iterator[str]:
    """Instances of their own for the timers, started fresh: instance A (two worker processes) and B (one).

    OPEN BUG (2026-12-03): on the module's instances, after they served the card test's conversation, no timer fired
    within 60 s (`pytest tests/e2e/test_instances.py -m e2e -k "card_raised or timer"` fails; `-k timer` alone
    passes). The cause is not found yet; until it is, this test shows what holds on servers that have served nothing.
    """
    deployment = new_deployment(postgres, redis, 14)
    first = instance(model, deployment, workers=2).start()
    try:
        second = instance(model, deployment).start()
        try:
            yield deployment["store"]
        finally:
            second.stop()
    finally:
        first.stop()


def test_the_instances_timer_services_fire_each_timer_once_and_within_a_minute(timer_instances):
    # Every server process runs the timer service (the page's app starts it): three of them here, on one store.
    store = WorkflowStore(timer_instances)
    from collections import Counter
    from datetime import datetime, timedelta

    from tests.support.timers import REMIND_KEY, remind_bpmn

    with store.transaction() as conn:
        store.process_engine.deploy(conn, remind_bpmn(remind="PT1S", escalate="PT2S", due="PT3S", working=False))
        for n in range(4):
            store.process_engine.start(conn, REMIND_KEY, requester="user_1",
                                       data={"reason": f"合同 {n}", "nextUserId": "user_2"})

    def all_fired() -> list[dict[str, Any]] | None:
        rows = store.snapshot()["process_timers"]
        return rows if len(rows) == 12 and all(r["status"] == "fired" for r in rows) else None

    rows = wait_until(all_fired, timeout=60, what="the timers fired by the servers", interval=0.5)
    for row in rows:
        late = datetime.fromisoformat(row["fired_at"]) - datetime.fromisoformat(row["due_at"])
        assert timedelta(0) <= late <= timedelta(seconds=60), row
    fired = Counter(e["detail"]["timer_id"] for e in store.audit_entries("timer_fired"))
    store.dispose()
    assert sorted(fired) == sorted(r["id"] for r in rows) and set(fired.values()) == {1}
