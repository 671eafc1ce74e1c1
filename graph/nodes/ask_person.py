"""The ask_person node: the graph itself tells the person what only they can resolve, and the turn ends.

Reached from the validator when a write lacks a value only the person can give (the question, in their language,
with the choices where they help), or when the action cannot be done at all (said before anything is asked). The
person's next message may answer the question: `read_request` then fills it in and proposes the write again.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from graph.answers import thought
from graph.budget import end_step
from graph.history import describe_result, run_outcome, run_results
from graph.protocols import NO_MODEL_CALL
from graph.run import lang_of
from state.agent import AgentState
from state.context import Context
from tools.spec import Effect, ToolRegistry


class AskPerson:
    """Ends the turn with the graph's own question or statement (no model call)."""

    def __init__(self, registry: ToolRegistry) -> None:
        self._registry = registry

    def __call__(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        ask = state.get("ask")
        if not ask:
            raise RuntimeError("ask_person reached with nothing to ask")
        lang = lang_of(state, runtime.context)
        tool = ask["call"]["name"] if ask["call"] else ""
        outcome = run_outcome(list(state["messages"]), self._registry, lang)
        # what the run already did stays said ("已批准张三的请假" before "你自己的报销不能自己批"): a write's result first;
        # before what cannot be done, what its look-ups found too ("财务这边有几条待审的？…我自己那笔也顺手批了": the
        # to-dos, then why their own is not decided; the forty-third round's writer saw the list dropped)
        kinds = (Effect.WRITE,) if ask["call"] is not None else (Effect.WRITE, Effect.READ)
        done = [describe_result(self._registry, tool, result, lang) for tool, result in run_results(
            list(state["messages"])) if tool in self._registry and self._registry.get(tool).effect in kinds]
        answer = AIMessage(
            content="\n".join([*done, ask["text"]]),
            response_metadata={
                "asked": ask["call"] is not None,
                "thought": thought("asked" if ask["call"] is not None else "cannot", lang, tool=tool),
                NO_MODEL_CALL: True,
                "outcome": outcome,
            },
        )
        return {"messages": [answer], "outcome": outcome, **end_step(state, state.get("step"))}
