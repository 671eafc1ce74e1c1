"""Plans and chains: a plan read from the model, the chain a request asks for, the prompt both strategies send,
and whether a step surprised.

Shared by the planner, plan_step and chain_step nodes and by budget_check (a node never imports another node).
"""

from __future__ import annotations

import json
import re
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage, ToolMessage

from graph import prompts
from graph.calls import run_today
from graph.deps import NodeDeps
from graph.history import latest_human_index, note_of
from graph.protocols import NO_MODEL_CALL, first_json_object
from state.agent import AgentState
from state.context import Context
from state.records import PlanStep
from tools.errors import DomainError
from tools.spec import Chain, Effect, ToolRegistry

MAX_PLAN_STEPS = 5
"""Steps a plan may hold; the rest of a longer one is cut (a re-plan can add them)."""
OBSERVATION_CHARS = 400
"""Characters of an observation a planning or filling prompt shows."""
PLAN_STEP_KEY = "plan_step"
"""Key of a step message's `response_metadata`: the step's number in its run and where it came from."""
_TAKEN_RE = re.compile(re.escape(prompts.STEPS_TAKEN.split("(")[0]) + r"\((\d+)\)")


def text_of(raw: Any) -> str:
    content = getattr(raw, "content", raw)
    if isinstance(content, list):
        return "".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
    return str(content)


def _step_of(item: Any, registry: ToolRegistry) -> tuple[PlanStep | None, str | None]:
    if not isinstance(item, dict):
        return None, "each step must be a JSON object"
    tool = item.get("tool", item.get("action"))
    if not isinstance(tool, str):
        return None, "each step names its tool"
    try:
        registry.get(tool.strip())
    except DomainError as exc:  # the registry's own refusal: "[unknown_tool] X is not a valid tool; use one of …"
        return None, f"[{exc.code}] {exc.message}"
    args = item.get("args", item.get("action_input", {}))
    if args is None:
        args = {}
    if not isinstance(args, dict):
        return None, f"the args of {tool} must be a JSON object"
    return PlanStep(tool=tool.strip(), intent=str(item.get("intent") or item.get("thought") or ""), args=args), None


def parse_plan(text: str, registry: ToolRegistry) -> tuple[list[PlanStep], str | None, str]:
    """The steps of a planner's reply (at most MAX_PLAN_STEPS), a problem that makes it unusable, and its thought.

    Every step must name a registered tool with a JSON object of arguments; the arguments themselves are checked
    by the validator when the step is proposed (a plan is never trusted)."""
    stripped = text.strip()
    value: Any
    if stripped.startswith("["):
        try:
            value, problem = {"plan": json.loads(stripped)}, None
        except json.JSONDecodeError as exc:
            value, problem = None, f"invalid JSON: {exc.msg}"
    else:
        value, problem = first_json_object(stripped)
    if problem:
        return [], problem, ""
    if not isinstance(value, dict):
        return [], "the reply must be one JSON object", ""
    thought = str(value.get("thought") or "")
    items = value.get("plan", value.get("steps"))
    if items is None and ("tool" in value or "action" in value):
        items = [value]  # a one-step plan written as the step itself
    if not isinstance(items, list):
        return [], 'the object has no "plan" list', thought
    steps: list[PlanStep] = []
    for item in items[:MAX_PLAN_STEPS]:
        step, problem = _step_of(item, registry)
        if problem:
            return [], problem, thought
        assert step is not None
        steps.append(step)
    return steps, None, thought


def parse_args(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """The JSON object of arguments a model filled in for a chain step, or the problem."""
    value, problem = first_json_object(text)
    if problem:
        return None, problem
    if not isinstance(value, dict):
        return None, "the arguments must be one JSON object"
    if isinstance(value.get("args"), dict) and len(value) <= 2:
        value = value["args"]  # {"tool": ..., "args": {...}} is a common way to write it
    return value, None


def is_empty_result(result: Any) -> bool:
    """A result whose lists are all empty (no task, no user, no flight)."""
    if not isinstance(result, dict):
        return False
    lists = [v for v in result.values() if isinstance(v, list)]
    return bool(lists) and not any(lists)


def last_step_wrote(state: AgentState) -> bool:
    """Whether a write executed in the last step (its observation is a success that is no repeat)."""
    for msg in reversed(state["messages"]):
        if isinstance(msg, AIMessage):
            return False
        if isinstance(msg, ToolMessage) and msg.status == "success" and note_of(msg).get("wrote"):
            return True
    return False


def last_step_surprised(state: AgentState, *, empty: bool = True) -> bool:
    """Whether the last step's observations hold a surprise a plan did not expect: an error, a refusal, a
    person's rejection, or (unless `empty` is False) an empty result."""
    for msg in reversed(state["messages"]):
        if isinstance(msg, AIMessage):
            break
        if isinstance(msg, ToolMessage) and (msg.status == "error" or (empty and is_empty_result(msg.artifact))):
            return True
    return False


def steps_taken(messages: list[AnyMessage]) -> list[str]:
    """One line per step proposed in the current run: the call, and what became of it."""
    results = {m.tool_call_id: m for m in messages if isinstance(m, ToolMessage)}
    lines = []
    for msg in messages[latest_human_index(messages) + 1 :]:
        if not isinstance(msg, AIMessage):
            continue
        for call in msg.tool_calls:
            obs = results.get(call["id"] or "")
            outcome = "not run" if obs is None else f"{obs.status}: {str(obs.content)[:OBSERVATION_CHARS]}"
            lines.append(f"- {call['name']} {json.dumps(call['args'], ensure_ascii=False)} → {outcome}")
        for bad in msg.invalid_tool_calls:
            lines.append(f"- (unusable reply) → error: {str(bad.get('error'))[:OBSERVATION_CHARS]}")
    return lines


def taken_count(text: str) -> int:
    """How many steps a planning request says were taken (for scripted models that follow a path)."""
    found = _TAKEN_RE.search(text)
    return int(found.group(1)) if found else 0


def taken_section(messages: list[AnyMessage]) -> str:
    lines = steps_taken(messages)
    if not lines:
        return prompts.NO_STEPS_TAKEN
    return prompts.STEPS_TAKEN.format(count=len(lines), lines="\n".join(lines))


def choose_chain(registry: ToolRegistry, request: str) -> Chain | None:
    """The chain the request asks for, None if no chain's patterns match it. A request that asks for a change runs
    the chain of a write (a look-up chain only answers a question); of several, the one matched earliest in the
    request, then the first declared."""
    best: tuple[bool, int, int] | None = None
    chosen = None
    for order, chain in enumerate(registry.chains):
        reads_only = all(registry.get(t).effect is Effect.READ for t in chain.tools)
        for pattern in chain.intent:
            found = re.search(pattern, request, re.IGNORECASE)
            if found and (best is None or (reads_only, found.start(), order) < best):
                best, chosen = (reads_only, found.start(), order), chain
    return chosen


def step_message(step: PlanStep, number: int, call_id: str, source: str) -> AIMessage:
    """A plan's or chain's step as the proposal the validator checks, written without a model call."""
    thought = step["intent"] or f"Step {number}: {step['tool']}."
    return AIMessage(
        content=thought,
        tool_calls=[{"type": "tool_call", "name": step["tool"], "args": dict(step["args"]), "id": call_id}],
        response_metadata={"thought": thought, NO_MODEL_CALL: True, PLAN_STEP_KEY: {"number": number, "source": source}},
    )


def session_line(deps: NodeDeps, context: Context) -> str:
    """Who the user is and today's date, as the reasoner's prompt says it."""
    actor = deps.actors.get(context.user_id)
    name = str(actor.get("name") or context.user_id) if actor is not None else "unknown user"
    today = run_today(deps.clock, context.timezone).strftime("%Y-%m-%d %A")
    return prompts.SESSION_SECTION.format(user_name=name, user_id=context.user_id, today=today, timezone=context.timezone)


def render_history(messages: list[AnyMessage]) -> list[AnyMessage]:
    """The conversation as plain turns for a planning or filling call: calls as `→ tool {args}` lines, tool
    results as `Observation:` lines, consecutive lines of one side merged."""
    out: list[AnyMessage] = []

    def add(kind: type[HumanMessage] | type[AIMessage], text: str) -> None:
        if out and isinstance(out[-1], kind):
            out[-1] = kind(content=f"{out[-1].content}\n{text}")
        else:
            out.append(kind(content=text))

    for msg in messages:
        if isinstance(msg, HumanMessage):
            add(HumanMessage, str(msg.content))
        elif isinstance(msg, ToolMessage):
            add(HumanMessage, f"{prompts.OBSERVATION_PREFIX}({msg.name}) {str(msg.content)[:OBSERVATION_CHARS]}")
        elif isinstance(msg, AIMessage):
            calls = [f"→ {c['name']} {json.dumps(c['args'], ensure_ascii=False)}" for c in msg.tool_calls]
            add(AIMessage, "\n".join(calls) if calls else str(msg.content))
    return out


def strategy_prompt(
    deps: NodeDeps, tools: str, state: AgentState, context: Context, instruction: str
) -> list[AnyMessage]:
    """A planning or filling prompt: the toolset's role and rules, the tools, who and when, the summary, the
    conversation, then the instruction."""
    text = deps.toolset.prompt + prompts.PLAN_SYSTEM_SECTION.format(tools=tools) + session_line(deps, context)
    summary = "\n".join(state.get("summary") or [])
    if summary:
        text += prompts.SUMMARY_SECTION.format(summary=summary)
    history = render_history(list(state["messages"][state.get("summarized_upto", 0) :]))
    if history and isinstance(history[-1], HumanMessage):
        history[-1] = HumanMessage(content=f"{history[-1].content}\n\n{instruction}")
    else:
        history.append(HumanMessage(content=instruction))
    return [SystemMessage(content=text), *history]
