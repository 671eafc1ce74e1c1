"""The chain_step node (chain strategy): picks the fixed sequence a request asks for, then at each visit has the
model fill in the arguments of the sequence's next tool and proposes the call to the validator.

The model chooses no tool and no order. A request no chain matches is answered, without a model call, with
what the chain strategy can do.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from graph import prompts
from graph.budget import charge_model_call, end_step, open_step
from graph.calls import ModelSource, model_of, new_call_id, tokens_used
from graph.deps import NodeDeps
from graph.generation import generate
from graph.plans import (
    choose_chain,
    parse_args,
    step_message,
    strategy_prompt,
    text_of,
)
from graph.protocols import FORMAT_ERROR_NAME, NO_MODEL_CALL
from graph.run import lang_of
from state.agent import AgentState
from state.context import Context
from state.records import Plan, PlanStep, Step, ToolCallRecord

ARGS_EXAMPLE = '{"userId": "李四"}'


class ChainStep:
    """Chooses the chain of a new run, then proposes its steps one per visit, arguments filled by the model."""

    def __init__(self, model: ModelSource, deps: NodeDeps) -> None:
        self._model_source = model
        self._deps = deps
        self._registry = deps.registry

    def __call__(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        work = open_step(state.get("step"), [])
        plan = state.get("plan")
        if plan is None:
            request = state.get("request")
            chain = choose_chain(self._registry, " ".join(request["texts"]) if request else "")
            if chain is None:
                return self._no_chain(state, runtime.context, work)
            steps = [PlanStep(tool=tool, intent="", args={}) for tool in chain.tools]
            plan = Plan(source="chain", name=chain.name, steps=steps, done=0, final=False)
        if not plan["steps"]:
            raise RuntimeError("chain_step reached after the chain's last step")
        step, number = plan["steps"][0], plan["done"] + 1
        args, work, problem = self._fill(state, runtime.context, work, plan, step["tool"], number)
        call_id = new_call_id()
        rest = Plan(source="chain", name=plan["name"], steps=plan["steps"][1:], done=number, final=False)
        update: dict[str, Any] = {"step": work, "plan": rest}
        if problem is not None:
            error = prompts.FILL_FORMAT_CORRECTION.format(tool=step["tool"], problem=problem)
            bad = AIMessage(
                content=problem,
                invalid_tool_calls=[{"type": "invalid_tool_call", "name": FORMAT_ERROR_NAME, "args": "", "id": call_id,
                                     "error": error}],
            )
            return {**update, "messages": [bad]}
        filled = PlanStep(tool=step["tool"], intent=f"{plan['name']} {number}/{number + len(rest['steps'])}: "
                          f"{step['tool']}", args=args or {})
        call = ToolCallRecord(id=call_id, name=step["tool"], args=dict(args or {}), status="proposed")
        return {**update, "messages": [step_message(filled, number, call_id, "chain")], "step": open_step(work, [call])}

    def _fill(
        self, state: AgentState, context: Context, work: Step, plan: Plan, tool: str, number: int
    ) -> tuple[dict[str, Any] | None, Step, str | None]:
        """The step's arguments from the model (none asked for a tool that takes none)."""
        spec = self._registry.get(tool)
        if not spec.model_params():
            return {}, work, None
        instruction = prompts.FILL_INSTRUCTION.format(
            tool=tool, number=number, count=plan["done"] + len(plan["steps"]), chain=plan["name"],
            signature=spec.text_signature(), example=ARGS_EXAMPLE,
        )
        prompt = strategy_prompt(self._deps, spec.text_signature(), state, context, instruction)
        raw = generate(model_of(self._model_source, context), prompt, "json")
        work = charge_model_call(work, tokens_used(raw, prompt))
        args, problem = parse_args(text_of(raw))
        return args, work, problem

    def _no_chain(self, state: AgentState, context: Context, work: Step) -> dict[str, Any]:
        """The answer to a request no chain matches: what the chain strategy can do (no model call)."""
        lang = lang_of(state, context)
        sep = "；" if lang == "zh" else "; "
        text = prompts.NO_CHAIN_ANSWER[lang].format(chains=sep.join(c.description for c in self._registry.chains))
        answer = AIMessage(content=text, response_metadata={NO_MODEL_CALL: True, "no_chain": True, "outcome": []})
        return {"messages": [answer], "outcome": [], "plan": None, **end_step(state, work)}

