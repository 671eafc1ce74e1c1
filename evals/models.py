"""Models for the evals: the oracle, the compromised model, a configured real model, and a simulated person."""

from __future__ import annotations

import json
import re
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from pydantic import Field

from evals import prompts
from evals.doubles.scripted import ScriptedChatModel
from evals.scenario import Scenario, Step, Turn
from graph import prompts as graph_prompts
from graph.calls import new_call_id
from graph.plans import taken_count
from state.context import Protocol
from tools.workflow.seed import USERS

WRAP_UP_MARKER = graph_prompts.WRAP_UP_INSTRUCTION.split(":")[0]
"""The opening words of the reasoner's wrap-up request (the graph calls the model without tools then)."""
PLAN_MARKER = graph_prompts.PLAN_INSTRUCTION.split(".")[0]
"""The opening words of the planner's request (plan strategy)."""
FILL_RE = re.compile(re.escape(graph_prompts.FILL_INSTRUCTION.split("{")[0]) + r"(\w+)")
"""The opening words of a chain step's request, naming the tool whose arguments are asked for (chain strategy)."""
PLANNED_WRAP_UPS = ("finished: ", "off_plan: ")
"""How a wrap-up request names the end of a plan's or chain's steps: the path's own final answer is then due."""


def render_step(step: Step, protocol: Protocol) -> AIMessage:
    """One protocol-neutral step as the reply a model speaking `protocol` would give."""
    if step.raw is not None and (step.tool is None or protocol != "native"):
        return AIMessage(content=step.raw)
    if step.say is not None:
        if protocol == "native":
            return AIMessage(content=step.say)
        if protocol == "react":
            return AIMessage(content=(f"Thought: {step.thought}\n" if step.thought else "") + f"Final Answer: {step.say}")
        return AIMessage(content=json.dumps({"thought": step.thought, "final": step.say}, ensure_ascii=False))
    assert step.tool is not None
    thought = step.thought or f"I need {step.tool}."
    if protocol == "native":
        return AIMessage(
            content=step.raw if step.raw is not None else step.thought,
            tool_calls=[{"type": "tool_call", "name": step.tool, "args": dict(step.args), "id": new_call_id()}],
        )
    if protocol == "react":
        args = json.dumps(step.args, ensure_ascii=False)
        return AIMessage(content=f"Thought: {thought}\nAction: {step.tool}\nAction Input: {args}")
    return AIMessage(
        content=json.dumps({"thought": thought, "action": step.tool, "action_input": step.args}, ensure_ascii=False)
    )


def is_wrap_up(messages: list[BaseMessage]) -> bool:
    """Whether the graph is asking for a final answer without tools (a budget ran out)."""
    return bool(messages) and isinstance(messages[-1], HumanMessage) and WRAP_UP_MARKER in str(messages[-1].content)


class PathModel(ScriptedChatModel):
    """A scripted model that plays one path of steps per turn, rendered for the run's protocol.

    The same path drives every strategy: asked for a plan, it gives its tool steps not yet taken; asked to fill in
    a chain step's arguments, it gives those of its next step with that tool; asked to answer at the end of a plan
    or chain, it gives its final answer.
    """

    protocol: Protocol = "native"
    paths: list[list[Step]] = Field(default_factory=list)
    turn: int = 0
    cursor: int = 0
    filled: set[int] = Field(default_factory=set)
    """Steps of the turn's path whose arguments a chain step already took."""

    @property
    def _llm_type(self) -> str:
        return "path"

    def start_turn(self, index: int) -> None:
        """The runner says a new person's turn begins."""
        self.turn, self.cursor, self.filled = index, 0, set()

    def _path(self) -> list[Step]:
        return self.paths[self.turn] if self.turn < len(self.paths) else []

    def _next(self, messages: list[BaseMessage]) -> AIMessage:
        last = str(messages[-1].content) if messages else ""
        if is_wrap_up(messages):
            planned = any(code in last for code in PLANNED_WRAP_UPS)
            return render_step(self.final_step() if planned else self.wrap_up_step(), self.protocol)
        if PLAN_MARKER in last:
            return self._plan(taken_count(last))
        fill = FILL_RE.search(last)
        if fill:
            return self._fill(fill.group(1))
        path = self._path()
        step = path[self.cursor] if self.cursor < len(path) else self.after_path(path)
        self.cursor += 1
        return render_step(step, self.protocol)

    def _plan(self, taken: int) -> AIMessage:
        """The path's tool steps after the `taken` ones, as a plan; its final answer is next."""
        path = self._path()
        tools = [s for s in path if s.tool is not None]
        remaining = self.plan_steps(tools, taken)
        self.cursor = next((i for i, s in enumerate(path) if s.say is not None), len(path))
        plan = [{"tool": s.tool, "intent": s.thought or f"I need {s.tool}.", "args": s.args} for s in remaining]
        return AIMessage(content=json.dumps({"thought": "My plan.", "plan": plan}, ensure_ascii=False))

    def _fill(self, tool: str) -> AIMessage:
        """The arguments of the path's next step with `tool` (none left: `refill`)."""
        path = self._path()
        index = next((i for i, s in enumerate(path) if s.tool == tool and i not in self.filled), None)
        if index is not None:
            self.filled.add(index)
        args = path[index].args if index is not None else self.refill(tool, path)
        return AIMessage(content=json.dumps(args, ensure_ascii=False))

    def plan_steps(self, tools: list[Step], taken: int) -> list[Step]:
        """The plan after `taken` steps: the path's tool steps not yet taken."""
        return tools[taken:]

    def refill(self, tool: str, path: list[Step]) -> dict[str, Any]:
        """Arguments for a chain step the path never takes: none (the validator then says what is missing)."""
        return {}

    def final_step(self) -> Step:
        """The path's final answer (a plan's or chain's steps all ran)."""
        return next((s for s in self._path() if s.say is not None), Step(say=prompts.ORACLE_WRAP_UP))

    def after_path(self, path: list[Step]) -> Step:
        return Step(say=prompts.EXHAUSTED_SAY)

    def wrap_up_step(self) -> Step:
        return Step(say=prompts.ORACLE_WRAP_UP)


class OracleModel(PathModel):
    """Follows each turn's golden path exactly: the harness must score pass^k = 1.0 with it."""

    @classmethod
    def for_scenario(cls, scenario: Scenario, protocol: Protocol) -> OracleModel:
        return cls(protocol=protocol, paths=[list(t.golden) for t in scenario.turns])

    @property
    def _llm_type(self) -> str:
        return "oracle"


class CompromisedModel(PathModel):
    """Always obeys the injection: plays the attacker's steps, then repeats its last malicious call forever.

    Turns without attack steps follow the golden path. Asked to wrap up, it proposes the malicious call again.
    """

    @classmethod
    def for_scenario(cls, scenario: Scenario, protocol: Protocol) -> CompromisedModel:
        return cls(protocol=protocol, paths=[list(t.attack or t.golden) for t in scenario.turns])

    @property
    def _llm_type(self) -> str:
        return "compromised"

    def _last_tool_step(self) -> Step | None:
        path = self.paths[self.turn] if self.turn < len(self.paths) else []
        return next((s for s in reversed(path[: max(self.cursor, 1)]) if s.tool is not None), None)

    def after_path(self, path: list[Step]) -> Step:
        return self._last_tool_step() or super().after_path(path)

    def wrap_up_step(self) -> Step:
        return self._last_tool_step() or super().wrap_up_step()

    def final_step(self) -> Step:
        return self._last_tool_step() or super().final_step()

    def plan_steps(self, tools: list[Step], taken: int) -> list[Step]:
        """The attacker's plan always ends by proposing its last malicious call once more (a looping model)."""
        return tools[taken:] + tools[-1:]

    def refill(self, tool: str, path: list[Step]) -> dict[str, Any]:
        """The attacker fills a step it already filled with the same malicious arguments."""
        return next((dict(s.args) for s in reversed(path) if s.tool == tool), {})


def load_real_model(name: str | None = None) -> tuple[BaseChatModel, str, bool]:
    """The configured chat model (`--model`, else FLOWAGENT_MODEL at OPENAI_BASE_URL): (model, label, is_local)."""
    from flowagent.models.endpoint import load_chat_model

    model, settings = load_chat_model(name)
    return model, f"{settings.model} @ {settings.endpoint}", settings.local


class SimulatedPerson:
    """An LLM plays the person of a turn (τ-bench style), following the turn's hidden goal."""

    def __init__(self, model: BaseChatModel, turn: Turn, locale: str) -> None:
        self._model = model
        name = next((u["name"] for u in USERS if u["id"] == turn.actor), turn.actor)
        goal = turn.goal or prompts.DEFAULT_GOAL.format(say=turn.say)
        self._system = prompts.SIMULATED_PERSON_PROMPT.format(
            name=name,
            user_id=turn.actor,
            goal=goal,
            language=prompts.LANGUAGES.get(locale, "English"),
            stop=prompts.SIMULATED_PERSON_STOP,
        )
        self.history: list[tuple[str, str]] = []
        """(person, assistant) exchanges so far."""

    def next_message(self) -> str | None:
        """The person's next message given the exchanges so far, or None when they are done."""
        messages: list[Any] = [SystemMessage(content=self._system)]
        if not self.history:
            messages.append(HumanMessage(content="(The chat opens. Write your first message.)"))
        for said, answered in self.history:
            # Roles are swapped: to the simulating model the assistant's answers are the "user" side.
            messages += [AIMessage(content=said), HumanMessage(content=answered)]
        reply = str(self._model.invoke(messages).content).strip()
        if not reply or prompts.SIMULATED_PERSON_STOP in reply:
            return None
        return reply

    def record(self, said: str, answered: str) -> None:
        """Remember one exchange: what the person said and the assistant's final answer."""
        self.history.append((said, answered))
