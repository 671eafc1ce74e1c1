"""The planner node (Plan-and-Execute): the model writes the run's steps once, and again after a surprise.

The plan is never trusted: each step is proposed to the validator like a model's call, so every guard applies.
A plan that cannot be read becomes a format-correction observation (the next visit plans again, within the
budget). What needs no model (the answer to the graph's own question, what the assistant can do) `read_request`
has answered before the planner is reached.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from graph import prompts
from graph.budget import charge_model_call, open_step
from graph.calls import ModelSource, model_of, new_call_id, tokens_used
from graph.deps import NodeDeps
from graph.generation import generate
from graph.history import note
from graph.plans import (
    MAX_PLAN_STEPS,
    parse_plan,
    strategy_prompt,
    taken_section,
    text_of,
)
from graph.protocols import FORMAT_ERROR_NAME
from state.agent import AgentState
from state.context import Context
from state.records import Plan


class Planner:
    """Writes the plan of the run: one model call per visit."""

    def __init__(self, model: ModelSource, deps: NodeDeps) -> None:
        self._model_source = model
        self._deps = deps
        self._registry = deps.registry

    def __call__(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        context = runtime.context
        messages = state["messages"]
        plan = state.get("plan")
        done = plan["done"] if plan else 0
        instruction = prompts.PLAN_INSTRUCTION.format(
            taken=taken_section(list(messages)), tool_names=", ".join(self._registry.names), max_steps=MAX_PLAN_STEPS,
            first_tool=self._registry.names[0],
        )
        prompt = strategy_prompt(self._deps, self._registry.text_list(), state, context, instruction)
        raw = generate(model_of(self._model_source, context), prompt, "json")
        step = charge_model_call(open_step(state.get("step"), []), tokens_used(raw, prompt))
        steps, problem, thought = parse_plan(text_of(raw), self._registry)
        update: dict[str, Any] = {
            "step": step,
            "plan": Plan(source="planner", name="plan", steps=steps, done=done, final=not steps and not problem),
        }
        if problem:
            error = prompts.PLAN_FORMAT_CORRECTION.format(problem=problem, tool_names=", ".join(self._registry.names))
            bad = AIMessage(
                content=text_of(raw),
                invalid_tool_calls=[{"type": "invalid_tool_call", "name": FORMAT_ERROR_NAME, "args": text_of(raw)[:2000],
                                     "id": new_call_id(), "error": error}],
                response_metadata={"thought": thought, **note(planner=True)},
            )
            update["messages"] = [bad]
        return update
