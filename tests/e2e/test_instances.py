"""Two instances of the production server (`flowagent serve`, langgraph-runtime-pg) on one deployment: the same
PostgreSQL database, Redis and workflow store, each started by the test, driven with the real SDK.

- A card raised through instance A is answered through instance B, and its write executes once.
- An instance killed with SIGKILL in the middle of a background run (the requester's answer to a start card): the
  run's write happened at most once, and within 60 s the other instance takes the run back from its last checkpoint
  and finishes it (the runtime's sweep sees the dead worker's heartbeat expire, 5 s here, and puts the run back in
  the queue; after `BG_JOB_MAX_RETRIES` (3) such attempts it would mark the run failed instead).
- The timer services of the instances that served the card test's conversation (every server process runs one)
  fire each timer exactly once and at most 60 s late, and go on when the instance that was firing is killed.
"""

from __future__ import annotations

import os
import time
from collections import Counter
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
from tests.support.timers import REMIND_KEY, remind_bpmn
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


def group_pids(server: ProductionServer) -> set[int]:
    """The processes of a server's process group (its leader and its worker processes)."""
    assert server.proc is not None
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getpgid(int(entry.name)) == server.proc.pid:
                    found.add(int(entry.name))
            except ProcessLookupError:
                continue
    return found


def start_timed_requests(store: WorkflowStore, count: int, tag: str) -> set[int]:
    """`count` requests of the follow-up process (its latest version); their instance numbers."""
    started = set()
    with store.transaction() as conn:
        for n in range(count):
            done = store.process_engine.start(conn, REMIND_KEY, requester="user_1",
                                              data={"reason": f"合同 {tag}{n}", "nextUserId": "user_2"})
            started.add(int(done.instance_id.removeprefix("req_")))
    return started


def timers_of(store: WorkflowStore, instances: set[int]) -> list[dict[str, Any]]:
    return [r for r in store.snapshot()["process_timers"] if r["instance_id"] in instances]


def all_fired(store: WorkflowStore, instances: set[int], last_due_s: float) -> list[dict[str, Any]]:
    """The requests' timers once every one of them has fired (3 each), waited for at most a minute past the last
    one's due time (`last_due_s` after now)."""
    def fired() -> list[dict[str, Any]] | None:
        rows = timers_of(store, instances)
        return rows if len(rows) == 3 * len(instances) and all(r["status"] == "fired" for r in rows) else None

    return wait_until(fired, timeout=last_due_s + 60, what="every timer fired by the servers", interval=0.5)


def test_the_instances_that_served_a_conversation_fire_each_timer_once_within_a_minute_even_when_one_is_killed(
    instances, store
):
    # Ordered last in the module: it kills one of the module's instances (the card test's conversation ran on them).
    # Every server process runs the timer service (the page's app starts it): three of them, on one store, each
    # polling every 15 s (the default). The store also holds the card test's request, decided: its timers were
    # cancelled with its step, none waits.
    from datetime import datetime, timedelta

    with store.transaction() as conn:
        store.process_engine.deploy(conn, remind_bpmn(remind="PT2S", escalate="PT4S", due="PT6S", working=False))
    first_round = start_timed_requests(store, 4, "a")
    all_fired(store, first_round, 6)

    # A second round, on a second version whose escalations and due dates come well after its reminders: as soon as
    # a reminder has fired, the instance whose process fired it is killed (SIGKILL, its whole process group: a crash
    # in the middle of the round); the other fires the rest.
    with store.transaction() as conn:
        store.process_engine.deploy(conn, remind_bpmn(remind="PT2S", escalate="PT25S", due="PT30S", working=False))
    pids = {server: group_pids(server) for server in instances}
    second_round = start_timed_requests(store, 4, "b")

    def one_fired() -> dict[str, Any] | None:
        return next((r for r in timers_of(store, second_round) if r["status"] == "fired"), None)

    first = wait_until(one_fired, timeout=2 + 60, what="a timer of the second round fired", interval=0.2)
    [victim] = [s for s in instances if int(str(first["fired_by"]).rsplit(":", 1)[1]) in pids[s]]
    [survivor] = [s for s in instances if s is not victim]
    victim.kill()
    killed_at = datetime.now().astimezone()
    rows = all_fired(store, first_round | second_round, 30)

    for row in rows:  # at most a minute late, by the due time the engine stored
        late = datetime.fromisoformat(row["fired_at"]) - datetime.fromisoformat(row["due_at"])
        assert timedelta(0) <= late <= timedelta(seconds=60), row
    after = [r for r in rows if datetime.fromisoformat(r["fired_at"]) > killed_at]
    assert len(after) >= 8, rows  # at least the second round's escalations and due dates: all the survivor's
    assert {int(str(r["fired_by"]).rsplit(":", 1)[1]) for r in after} <= pids[survivor]
    fired = Counter(e["detail"]["timer_id"] for e in store.audit_entries("timer_fired"))
    assert sorted(fired) == sorted(r["id"] for r in rows) and set(fired.values()) == {1}  # each exactly once
    waiting = [r for r in store.snapshot()["process_timers"] if r["status"] == "waiting"]
    assert waiting == []  # nothing of the conversation's request either
