"""The plan_step node: proposes the plan's next step to the validator, exactly as a model's call would be."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.budget import open_step
from graph.calls import new_call_id
from graph.plans import step_message
from state.agent import AgentState
from state.context import Context
from state.records import Plan, ToolCallRecord


def propose_next_step(state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
    """The next step of the plan as a proposed call (no model call); the plan keeps the steps after it."""
    plan = state.get("plan")
    if not plan or not plan["steps"]:
        raise RuntimeError("plan_step reached without a step to propose")
    step, rest = plan["steps"][0], plan["steps"][1:]
    call_id = new_call_id()
    number = plan["done"] + 1
    call = ToolCallRecord(id=call_id, name=step["tool"], args=dict(step["args"]), status="proposed")
    return {
        "messages": [step_message(step, number, call_id, plan["source"])],
        "step": open_step(state.get("step"), [call]),
        "plan": Plan(source=plan["source"], name=plan["name"], steps=rest, done=number, final=False),
    }
