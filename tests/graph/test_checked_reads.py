"""A read the validator checked runs on what that check found; a write is checked again inside its transaction."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

from langchain_core.messages import ToolMessage

from evals.doubles.scripted import tool_call
from graph.calls import CHECKED_READ_TTL_S, CheckedReads, KeptRead, action_hash
from tools.runtime import CheckedCall
from tools.spec import CallContext
from tools.workflow.toolset import TOOLSET


def _counting_toolset(*, directory_known: bool = False) -> tuple[Any, Counter[str]]:
    """The workflow toolset whose user look-ups are counted by the value looked up; unless `directory_known`, the people
    a run reads at its start are not kept as known records (so each look-up by id shows)."""
    looked_up: Counter[str] = Counter()
    resolve = TOOLSET.resolvers["user"]

    def counted(conn: Any, value: Any, ctx: Any, ref: Any, *, asking: bool) -> Any:
        looked_up[str(value)] += 1
        return resolve(conn, value, ctx, ref, asking=asking)

    toolset = dataclasses.replace(
        TOOLSET, resolvers={**TOOLSET.resolvers, "user": counted},
        people_kind=TOOLSET.people_kind if directory_known else None,
    )
    return toolset, looked_up


def test_a_checked_read_looks_its_records_up_once(graph_driver):
    toolset, looked_up = _counting_toolset()
    agent = graph_driver(tool_call("queryTodoTask", {"userId": "user_2"}, id="q1"), "李四没有待办。", toolset=toolset)
    agent.say("李四有哪些待办？")

    [observation] = [m for m in agent.messages if isinstance(m, ToolMessage)]
    assert observation.status == "success" and observation.artifact["userId"] == "user_2"
    assert looked_up["user_2"] == 1  # the validator's check; the executor ran the read on what it found


def test_a_write_is_checked_again_in_its_transaction(graph_driver, start_request):
    start_request(requester="user_1", approver="user_2")
    toolset, looked_up = _counting_toolset()
    agent = graph_driver(
        tool_call("sendEmail", {"userId": "user_2", "emailContent": "请尽快审批我的请假申请"}, id="m1"), "已发送。",
        toolset=toolset,
    )
    agent.say("给李四发邮件催一下，内容是：请尽快审批我的请假申请")
    checked_by_validator = looked_up["user_2"]
    agent.resume({"decisions": [{"type": "approve"}]})

    assert checked_by_validator >= 1
    assert looked_up["user_2"] > checked_by_validator  # the executor looked the recipient up again before sending


def _checked() -> CheckedCall:
    spec = TOOLSET.registry.get("queryTodoTask")
    return CheckedCall(spec=spec, args=spec.parse({"userId": "user_2"}), notes=[])


def _kept(call_id: str) -> KeptRead:
    args = {"userId": "user_2"}
    ctx = CallContext(backend=None, actor_id="user_1", thread_id="t1", call_id=call_id)  # type: ignore[arg-type]
    return KeptRead(checked=_checked(), args=args, ctx=ctx, action=action_hash("queryTodoTask", args))


def test_a_kept_check_is_taken_once_and_only_for_the_same_call_and_arguments(monkeypatch):
    reads = CheckedReads()
    kept = _kept("c1")
    reads.keep("t1", "c1", kept)
    assert reads.take("t1", "c1", {"userId": "user_3"}) is None  # other arguments: checked again
    reads.keep("t1", "c1", kept)
    assert reads.take("t2", "c1", {"userId": "user_2"}) is None  # another thread
    assert reads.take("t1", "c1", {"userId": "user_2"}) is kept
    assert reads.take("t1", "c1", {"userId": "user_2"}) is None  # taken once

    now = [1000.0]
    monkeypatch.setattr("tools.kept.time.monotonic", lambda: now[0])
    reads.keep("t1", "c2", _kept("c2"))
    now[0] += CHECKED_READ_TTL_S + 1
    assert reads.take("t1", "c2", {"userId": "user_2"}) is None  # too old: checked again


def test_a_person_found_by_id_is_known_for_later_checks_but_one_named_is_looked_up_each_time(graph_driver):
    toolset, looked_up = _counting_toolset()
    agent = graph_driver(
        tool_call("queryTodoTask", {"userId": "user_2"}, id="q1"),
        tool_call("queryTodoTask", {"userId": "李四"}, id="q2"),
        "好的。",
        tool_call("queryTodoTask", {"userId": "user_2"}, id="q3"),
        tool_call("queryTodoTask", {"userId": "李四"}, id="q4"),
        "好的。",
        toolset=toolset,
    )
    agent.say("李四有哪些待办？")
    agent.say("再查一次李四的待办")

    assert [m.status for m in agent.messages if isinstance(m, ToolMessage)] == ["success"] * 4
    assert looked_up["user_2"] == 1  # found by its id once, then known
    assert looked_up["李四"] == 2  # a name may come to fit several people: looked up every time


def test_the_people_a_run_read_at_its_start_are_known_by_id_for_its_checks(graph_driver):
    toolset, looked_up = _counting_toolset(directory_known=True)
    agent = graph_driver(
        tool_call("queryTodoTask", {"userId": "user_2"}, id="q1"),
        tool_call("queryTodoTask", {"userId": "王五"}, id="q2"),
        "好的。",
        toolset=toolset,
    )
    agent.say("李四和王五有哪些待办？")

    assert [m.status for m in agent.messages if isinstance(m, ToolMessage)] == ["success", "success"]
    assert looked_up["user_2"] == 0  # read with the directory when the run started
    assert looked_up["王五"] == 1  # a name is looked up, whatever is known


def test_a_check_that_needs_no_record_takes_no_connection(graph_driver, store):
    """The person a read names is in the run's directory: the validator's check reads nothing, so it takes no
    connection from the pool; the executor takes one to run the read."""
    from langgraph.config import get_config
    from sqlalchemy import event

    taken: Counter[str] = Counter()

    def on_checkout(*_: Any) -> None:
        taken[get_config().get("metadata", {}).get("langgraph_node", "?")] += 1

    agent = graph_driver(
        tool_call("queryTodoTask", {"userId": "user_2"}, id="q1"),
        tool_call("queryTodoTask", {"userId": "user_3"}, id="q2"),
        "李四和王五都没有待办。",
    )
    event.listen(store.engine, "checkout", on_checkout)
    try:
        agent.say("李四和王五有哪些待办？")
    finally:
        event.remove(store.engine, "checkout", on_checkout)

    assert [m.status for m in agent.messages if isinstance(m, ToolMessage)] == ["success", "success"]
    assert taken["executor"] == 2
    assert taken["tool_validator"] == 0


def test_a_read_handle_takes_a_connection_only_when_used(store):
    from sqlalchemy import event, text

    checkouts: list[int] = []
    event.listen(store.engine, "checkout", lambda *_: checkouts.append(1))
    with store.read():
        pass
    assert checkouts == []
    with store.read() as conn:
        assert conn.execute(text("SELECT count(*) FROM users")).scalar_one() > 0
    assert checkouts == [1]


def test_a_read_runs_under_the_action_hash_of_its_arguments_as_checked(graph_driver):
    """The validator keeps a checked read with the hash of its normalised arguments (a name resolved to the person's
    id), and the executor runs it under that hash: the same look-up spelled by id is then a repeat."""
    agent = graph_driver(
        tool_call("queryTodoTask", {"userId": "李四"}, id="q1"),
        tool_call("queryTodoTask", {"userId": "user_2"}, id="q2"),
        "李四没有待办。",
    )
    agent.say("李四有哪些待办？")

    first, repeat = [m for m in agent.messages if isinstance(m, ToolMessage)]
    assert first.artifact["userId"] == "user_2"
    assert repeat.content.startswith(first.content) and "Same result as before" in repeat.content
    assert agent.values["budget"]["tool_calls"] == {"queryTodoTask": 1}


def _counting_actor(**changes: Any) -> tuple[Any, Counter[str]]:
    """The workflow toolset whose actor look-ups are counted (with `changes` to its other fields)."""
    looked_up: Counter[str] = Counter()

    def counted(conn: Any, actor_id: str) -> Any:
        looked_up[actor_id] += 1
        return TOOLSET.actor(conn, actor_id)

    return dataclasses.replace(TOOLSET, actor=counted, **changes), looked_up


def test_the_actor_is_known_from_the_people_the_run_read_at_its_start(graph_driver):
    toolset, looked_up = _counting_actor()
    agent = graph_driver(tool_call("queryTodoTask", {}, id="q1"), "你没有待办。", toolset=toolset)
    agent.say("我有哪些待办？")

    [observation] = [m for m in agent.messages if isinstance(m, ToolMessage)]
    assert observation.status == "success" and observation.artifact["userId"] == "user_1"
    assert "Signed-in user: 张三 (userId user_1)" in str(agent.model.prompts[0][0].content)
    assert looked_up["user_1"] == 0  # the directory read when the run started has the actor's record

    toolset, looked_up = _counting_actor(actor_kind=None)  # a toolset whose actors are not among its people
    agent = graph_driver(tool_call("queryTodoTask", {}, id="q1"), "你没有待办。", toolset=toolset, thread_id="other")
    agent.say("我有哪些待办？")
    assert looked_up["user_1"] == 1  # read once, then kept for the run's later nodes


def test_a_list_of_to_dos_for_an_id_the_message_does_not_name_takes_no_connection_to_check(graph_driver, store):
    """The bench's workload: the guard that reads whose to-dos are meant (todos_of_whom) reads the message first, and
    the store only when the message says whose: it once read every userId, a step's cost up by a tenth."""
    from langgraph.config import get_config
    from sqlalchemy import event

    taken: Counter[str] = Counter()

    def on_checkout(*_: Any) -> None:
        taken[get_config().get("metadata", {}).get("langgraph_node", "?")] += 1

    agent = graph_driver(tool_call("queryTodoTask", {"userId": "user_3"}, id="q1"), "没有待办。")
    event.listen(store.engine, "checkout", on_checkout)
    try:
        agent.say("Show me the to-do lists of these colleagues.")
    finally:
        event.remove(store.engine, "checkout", on_checkout)
    assert taken["tool_validator"] == 0


def test_a_look_up_given_a_parameter_it_does_not_take_reads_without_it(graph_driver, start_request):
    # The model asked for one request by id of a list that takes none: the person gets the list, not a refusal.
    start_request(requester="user_1", approver="user_2", days=1, reason="体检")
    agent = graph_driver(tool_call("queryMyRequests", {"requestId": "req_1"}), "在李四那里。")
    result = agent.say("Why is my request taking so long?")
    [observation] = [m for m in result["messages"] if isinstance(m, ToolMessage)]
    assert observation.status != "error" and "req_1" in str(observation.content)


def test_a_write_given_a_parameter_it_does_not_take_is_still_refused(graph_driver, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="体检")
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "req_1", "why": "plans changed"}), "好的。")
    result = agent.say("Withdraw my leave request please")
    [observation] = [m for m in result["messages"] if isinstance(m, ToolMessage)]
    assert observation.status == "error" and "is not a parameter of" in str(observation.content)
