"""A new tool is one module: its spec carries the approval, the reviewer's card, the observation's shape and
what follows its commit, and the graph runs it without knowing its name (nothing under graph/ changes).

The tool here, `escalateTask`, hands the task of the person's own pending request to the administrator.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import ToolMessage
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection, delete, insert, update

from evals.doubles.scripted import tool_call
from tools import REGISTRY, CallContext, Effect, ObservationShape, PolicyError, Reference, ToolRegistry, ToolSpec, Verdict
from tools.spec import Found, Sources
from tools.workflow.engine import parse_task_id
from tools.workflow.engine.tables import task_offers, tasks
from tools.workflow.lookup import require_task, require_user

ADMIN = "user_admin"


class EscalateArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    taskId: str = Field(description="The task of the user's own pending request (task_1).")


def check_escalate(conn: Connection, ctx: CallContext, args: EscalateArgs, found: Found) -> Verdict:
    task = found["taskId"]
    if task["requester"] != ctx.actor_id:
        raise PolicyError("not_requester", f"{args.taskId} is not your request; only its requester escalates it")
    if task["status"] != "ready":
        raise PolicyError("task_not_pending", f"{args.taskId} was already {task['status']}")
    return Verdict(notes=[f"from {task['assignee']} to {ADMIN}"])


def escalate(conn: Connection, ctx: CallContext, args: EscalateArgs, verdict: Verdict) -> dict[str, Any]:
    task = verdict.found["taskId"]
    number = parse_task_id(task["id"])
    conn.execute(update(tasks).where(tasks.c.id == number).values(assignee=ADMIN))
    conn.execute(delete(task_offers).where(task_offers.c.task_id == number, task_offers.c.kind == "user"))
    conn.execute(insert(task_offers).values(task_id=number, kind="user", name=ADMIN))
    return {"taskId": task["id"], "from": task["assignee"], "to": ADMIN}


def escalation_card(conn: Connection, args: dict[str, Any], lang: str, sources: Sources) -> dict[str, Any]:
    task = require_task(conn, args["taskId"])
    requester = require_user(conn, task["requester"])
    assignee = require_user(conn, task["assignee"])
    return {
        "summary": f"Hand {requester['name']}'s {task['form']['days']:g}-day request from {assignee['name']} to 管理员",
        "reason": task["form"]["reason"],
        "labels": {"reason": "reason" if lang == "en" else "事由"},  # the fields a person reads, in their language
    }


def read_back(ctx: CallContext, result: dict[str, Any]) -> dict[str, Any]:
    """After the commit: a fresh connection sees the effect (it would not before the transaction commits)."""
    with ctx.backend.read() as conn:
        return dict(result, committedAssignee=require_task(conn, result["taskId"])["assignee"])


ESCALATE = ToolSpec(
    name="escalateTask",
    description="Hand the task of the user's own pending request to the administrator.",
    args_model=EscalateArgs,
    effect=Effect.WRITE,
    handler=escalate,
    requires_approval=True,
    title={"zh": "转给管理员审批", "en": "hand a request to the administrator"},
    references=(Reference("taskId", "task"),),
    check=check_escalate,
    card=escalation_card,
    observation=ObservationShape(drop=frozenset({"from"})),
    after_commit=read_back,
)
WITH_ESCALATE = ToolRegistry([*REGISTRY, ESCALATE])


def assignees(store: Any) -> list[str]:
    return [t["assignee_id"] for t in store.snapshot()["tasks"]]


def test_a_new_write_tool_asks_with_its_own_card_and_runs_once_approved(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=2, reason="搬家")
    agent = graph_driver(
        tool_call("escalateTask", {"taskId": "task_1"}, id="c-esc"), "已转给管理员", registry=WITH_ESCALATE
    )
    agent.say("李四不在，把我的请假转给管理员审批")

    [value] = agent.interrupts  # the spec's requires_approval, with no approval setting in the run's Context
    [action] = value["action_requests"]
    assert action["name"] == "escalateTask"
    assert action["card"] == {
        "action": "escalateTask",
        "title": "转给管理员审批",  # the spec's title in the person's language
        "policy_notes": ["from user_2 to user_admin"],  # the tool's own check, run by the validator
        "summary": "Hand 张三's 2-day request from 李四 to 管理员",  # read from the store by the tool's card builder
        "reason": "搬家",
        "labels": {"reason": "事由"},
    }
    assert action["description"] == "Hand 张三's 2-day request from 李四 to 管理员\n事由: 搬家"  # no policy notes
    assert assignees(store) == ["user_2"]  # nothing runs before the person decides

    result = agent.resume({"decisions": [{"type": "approve"}]})
    assert assignees(store) == [ADMIN]
    [observation] = [m for m in agent.messages if isinstance(m, ToolMessage)]
    assert observation.status == "success"
    assert observation.artifact == {"taskId": "task_1", "from": "user_2", "to": ADMIN, "committedAssignee": ADMIN}
    assert json.loads(str(observation.content)) == {"taskId": "task_1", "to": ADMIN, "committedAssignee": ADMIN}
    assert result["messages"][-1].content == "已转给管理员"
    assert [a["event"] for a in store.audit_entries(thread_id="t1")] == ["review_approve", "tool_executed"]


def test_an_approval_setting_in_the_context_still_overrides_the_specs(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2")
    agent = graph_driver(
        tool_call("escalateTask", {"taskId": "task_1"}, id="c-esc"), "已转给管理员",
        registry=WITH_ESCALATE, approval_tools=(),
    )
    agent.say("把我的请假转给管理员")
    assert agent.interrupts == []
    assert assignees(store) == [ADMIN]


def test_the_new_tools_own_check_refuses_before_any_approval(graph_driver, store, start_request):
    start_request(requester="user_2", approver="user_3")  # not user_1's request
    agent = graph_driver(
        tool_call("escalateTask", {"taskId": "task_1"}, id="c-esc"), "不能转", registry=WITH_ESCALATE
    )
    agent.say("把 task_1 转给管理员")
    assert agent.interrupts == []
    [observation] = [m for m in agent.messages if isinstance(m, ToolMessage)]
    assert observation.status == "error"
    assert str(observation.content).startswith("Error [not_requester]")
    assert assignees(store) == ["user_3"]
