"""The planner node (Plan-and-Execute): the model writes the run's steps once, and again after a surprise.

The plan is never trusted: each step is proposed to the validator like a model's call, so every guard applies.
A plan that cannot be read becomes a format-correction observation (the next visit plans again, within the
budget). A run that answers the graph's own question, or asks what the assistant can do, is left to the
reasoner (no plan, no model call here).
"""

from __future__ import annotations

import re
from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from graph import prompts
from graph.budget import SYSTEM_CLOCK, Clock, charge_model_call, for_run
from graph.calls import ModelSource, model_of, new_call_id, tokens_used
from graph.history import latest_human_index
from graph.models.generation import generate
from graph.plans import (
    MAX_PLAN_STEPS,
    parse_plan,
    session_line,
    strategy_prompt,
    taken_section,
    text_of,
)
from graph.protocols import FORMAT_ERROR_NAME
from state.agent import AgentState
from state.context import Context
from state.records import Plan
from tools import WorkflowStore
from tools.spec import ToolRegistry


class Planner:
    """Writes the plan of the run: one model call per visit."""

    def __init__(
        self, model: ModelSource, store: WorkflowStore, registry: ToolRegistry, *, system_prompt: str,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self._model_source = model
        self._store = store
        self._registry = registry
        self._system = system_prompt
        self._clock = clock

    def __call__(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        context = runtime.context
        messages = state["messages"]
        human_index = latest_human_index(messages)
        budget, new_run = for_run(state.get("budget"), human_index, self._clock)
        intro = self._registry.intro
        asks_intro = intro is not None and re.search(intro[0], str(messages[human_index].content), re.I)
        if new_run and (state.get("asked_call") is not None or asks_intro):
            # The reasoner fills the person's answer in, or answers "what can you do?", without a model call.
            return {"budget": budget, "plan": None, "wrap_up": None, "proposed": [], "pending": []}
        done = 0 if new_run or not state.get("plan") else state["plan"]["done"]  # type: ignore[index]
        instruction = prompts.PLAN_INSTRUCTION.format(
            taken=taken_section(list(messages)), tool_names=", ".join(self._registry.names), max_steps=MAX_PLAN_STEPS,
            first_tool=self._registry.names[0],
        )
        prompt = strategy_prompt(
            self._system, self._registry.text_list(), state, session_line(self._store, context, self._clock),
            instruction,
        )
        raw = generate(model_of(self._model_source, context), prompt, "json")
        budget = charge_model_call(budget, tokens_used(raw, prompt))
        steps, problem, thought = parse_plan(text_of(raw), self._registry)
        update: dict[str, Any] = {
            "budget": budget, "wrap_up": None, "proposed": [], "pending": [], "ask": "", "asked_call": None,
            "plan": Plan(source="planner", name="plan", steps=steps, done=done, final=not steps and not problem),
        }
        if problem:
            error = prompts.PLAN_FORMAT_CORRECTION.format(problem=problem, tool_names=", ".join(self._registry.names))
            bad = AIMessage(
                content=text_of(raw),
                invalid_tool_calls=[{"type": "invalid_tool_call", "name": FORMAT_ERROR_NAME, "args": text_of(raw)[:2000],
                                     "id": new_call_id(), "error": error}],
                response_metadata={"planner": True, "thought": thought},
            )
            update["messages"] = [bad]
        return update
