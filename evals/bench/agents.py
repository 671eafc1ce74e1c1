"""The arms under test: flowagent, create_agent (plain, guarded), plain loops, and their savers and models."""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import BaseTool, StructuredTool
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command
from pydantic import ConfigDict, Field

from evals.doubles.scripted import ScriptedChatModel
from graph import build_graph, prompts
from graph.checkpoint import open_sqlite_checkpointer
from state import Context
from state.agent import InputState
from tools import REGISTRY, CallContext, WorkflowStore, execute_call
from tools.errors import DomainError
from tools.workflow import TOOLSET

SUMMARY_TEXT = "Summary: the user asked for to-do lists; the assistant listed them."
"""What the scripted summariser of SummarizationMiddleware answers (it costs no latency, like the agent's model)."""

Policy = Callable[[list[BaseMessage]], AIMessage]


# ---------------------------------------------------------------- models


class PolicyModel(BaseChatModel):
    """A stateless scripted model: its reply is a function of the prompt, after a simulated latency.

    Being stateless, one instance serves any number of concurrent threads. Latency is `latency_s`,
    jittered uniformly by ±`jitter` (a fraction), and the time slept is added to `slept_s`.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    policy: Any
    latency_s: float = 0.0
    jitter: float = 0.25
    seed: int = 7
    slept_s: float = 0.0
    calls: int = 0
    lock: Any = Field(default_factory=threading.Lock, exclude=True)
    rng: Any = None

    @property
    def _llm_type(self) -> str:
        return "bench-policy"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> PolicyModel:  # type: ignore[override]
        return self

    def _delay(self) -> float:
        if self.latency_s <= 0:
            return 0.0
        with self.lock:
            if self.rng is None:
                self.rng = random.Random(self.seed)
            delay = self.latency_s * (1 + self.rng.uniform(-self.jitter, self.jitter))
            self.slept_s += delay
            self.calls += 1
        return delay

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        delay = self._delay()
        if delay:
            time.sleep(delay)
        reply = self.policy(list(messages))
        return ChatResult(generations=[ChatGeneration(message=reply)])


def tool_steps_then_answer(steps: int, make_call: Callable[[int], tuple[str, dict[str, Any]]]) -> Policy:
    """A policy: after the person's last message, propose `steps` tool calls one at a time, then answer.

    `make_call(i)` gives the i-th call's tool and arguments; the step is the number of tool results
    since the last person's message, so the policy needs no memory of its own.
    """

    def policy(messages: list[BaseMessage]) -> AIMessage:
        done = 0
        for msg in reversed(messages):
            if isinstance(msg, HumanMessage) and not str(msg.content).startswith("Observation"):
                break
            if isinstance(msg, ToolMessage):
                done += 1
        if done >= steps:
            return AIMessage(content=f"Done: {done} look-ups.")
        name, args = make_call(done)
        call_id = f"call_{uuid.uuid4().hex[:12]}"
        return AIMessage(content="", tool_calls=[{"type": "tool_call", "name": name, "args": args, "id": call_id}])

    return policy


class BenchScriptedModel(ScriptedChatModel):
    """The evals' ScriptedChatModel, with its script and recorded prompts left out of its repr.

    LangChain serialises a model once per instance for its callbacks, through repr: a 100-reply script
    would cost every arm tens of milliseconds that no real model client costs.
    """

    replies: list[Any] = Field(default_factory=list, repr=False)
    prompts: list[list[BaseMessage]] = Field(default_factory=list, repr=False)


def scripted_steps(steps: int, make_call: Callable[[int], tuple[str, dict[str, Any]]]) -> BenchScriptedModel:
    """A scripted model with `steps` tool-call replies, then a final answer."""
    from evals.doubles.scripted import tool_call

    replies: list[Any] = [tool_call(*make_call(i), id=f"call_{i}") for i in range(steps)]
    return BenchScriptedModel(replies=[*replies, "Done."])


def summary_model() -> BenchScriptedModel:
    """The scripted model SummarizationMiddleware writes its summaries with (always the same summary)."""
    return BenchScriptedModel(replies=[], exhausted_reply=SUMMARY_TEXT)


# ---------------------------------------------------------------- savers


def default_saver(path: str | Path) -> SqliteSaver:
    """SqliteSaver as `SqliteSaver.from_conn_string` opens it (its own setup turns WAL on; synchronous stays FULL)."""
    saver = SqliteSaver(sqlite3.connect(str(path), check_same_thread=False))
    saver.setup()
    return saver


def flowagent_saver(path: str | Path) -> SqliteSaver:
    """The saver flowagent runs with: `graph.checkpoint.open_sqlite_checkpointer` (WAL, synchronous=NORMAL)."""
    return open_sqlite_checkpointer(path)


SAVERS: dict[str, Callable[[str | Path], SqliteSaver]] = {"default": default_saver, "flowagent": flowagent_saver}

FLOWAGENT_RUN: dict[str, Any] = {"durability": "sync"}
"""How flowagent's runs are invoked, as `flowagent chat` invokes them: each step's checkpoint is written
before the next step starts (what its crash safety rests on). Arms said to run on flowagent's saver
settings get it too; create_agent's own arms keep LangGraph's default ("async")."""


def disk_bytes(path: str | Path) -> int:
    """Bytes of a SQLite file on disk after folding its WAL back in (what stays once the program stops)."""
    path = Path(path)
    with sqlite3.connect(str(path)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    total = path.stat().st_size
    for suffix in ("-wal", "-shm"):
        extra = Path(str(path) + suffix)
        if extra.exists() and suffix == "-wal":
            total += extra.stat().st_size
    return total


def stored_bytes(path: str | Path) -> int:
    """Bytes of checkpoint and write payloads in a saver's tables (independent of SQLite's page layout)."""
    with sqlite3.connect(str(path)) as conn:
        checkpoints = conn.execute(
            "SELECT COALESCE(SUM(LENGTH(checkpoint) + LENGTH(metadata)), 0) FROM checkpoints"
        ).fetchone()[0]
        writes = conn.execute("SELECT COALESCE(SUM(LENGTH(value)), 0) FROM writes").fetchone()[0]
    return int(checkpoints) + int(writes)


# ---------------------------------------------------------------- tools for create_agent and the loops


@dataclass
class Actor:
    """Who the tools act for, and in which thread (create_agent's tools take no run context of ours)."""

    user_id: str = "user_1"
    thread_id: str = "bench"
    calls: list[str] = field(default_factory=list)
    """Names of the tool calls that succeeded (appended from any thread)."""


def run_tool(store: WorkflowStore, actor: Actor, name: str, args: dict[str, Any], call_id: str | None = None) -> str:
    """One tool call as a plain agent would make it: the full result as JSON, errors as JSON too."""
    ctx = CallContext(
        backend=store, actor_id=actor.user_id, thread_id=actor.thread_id, call_id=call_id or uuid.uuid4().hex,
    )
    try:
        result = execute_call(TOOLSET, name, args, ctx)
        actor.calls.append(name)
    except DomainError as exc:
        result = exc.to_dict()
    return json.dumps(result, ensure_ascii=False)


def langchain_tools(store: WorkflowStore, actor: Actor) -> list[BaseTool]:
    """flowagent's six tools (same handlers, schemas and descriptions) as LangChain tools for create_agent."""
    out: list[BaseTool] = []
    for spec in REGISTRY:

        def call(_name: str = spec.name, **kwargs: Any) -> str:
            return run_tool(store, actor, _name, kwargs)

        out.append(
            StructuredTool.from_function(
                func=call, name=spec.name, description=spec.description, args_schema=spec.args_model
            )
        )
    return out


def openai_tool_schemas(tools: Sequence[BaseTool]) -> list[dict[str, Any]]:
    from langchain_core.utils.function_calling import convert_to_openai_tool

    return [convert_to_openai_tool(t) for t in tools]


# ---------------------------------------------------------------- arms


def flowagent_graph(model: Any, store: WorkflowStore, saver: Any) -> Any:
    return build_graph(model=model, store=store, checkpointer=saver, deps=None)


FLOOR_NODES = ("think", "check", "act", "observe", "count")
"""The floor graph's five steps a cycle, one per flowagent node on the read path (reasoner, tool_validator,
executor, observation_summarizer, budget_check); a run starts with one more, `begin` (flowagent's read_request)."""


def floor_graph(model: Any, store: WorkflowStore, actor: Actor, saver: Any) -> Any:
    """The least any graph with one LangGraph step per ReAct node can cost: five nodes in flowagent's
    cycle, on flowagent's messages channel, where `think` calls the model, `act` runs the tool as the
    plain loop does, and the other three do nothing (no validation, policy, budget or compaction).
    `think` routes as flowagent's nodes do, returning its decision with its update (a conditional edge
    costs more: `graph/strategies.py`)."""
    def think(state: InputState) -> Command[Any]:
        reply = model.invoke(state["messages"])
        return Command(update={"messages": [reply]}, goto="check" if getattr(reply, "tool_calls", None) else END)

    def last_calls(state: InputState) -> list[Any]:
        return list(getattr(state["messages"][-1], "tool_calls", None) or [])

    def act(state: InputState) -> dict[str, Any]:
        call = last_calls(state)[0]
        content = run_tool(store, actor, call["name"], call["args"], call["id"])
        return {"messages": [ToolMessage(content=content, tool_call_id=call["id"] or "", name=call["name"])]}

    def nothing(state: InputState) -> dict[str, Any]:
        return {}

    builder = StateGraph(InputState)
    builder.add_node("begin", nothing)
    builder.add_node("think", think, destinations=("check", END))
    builder.add_node("check", nothing)
    builder.add_node("act", act)
    builder.add_node("observe", nothing)
    builder.add_node("count", nothing)
    builder.add_edge(START, "begin")
    builder.add_edge("begin", "think")
    for before, after in pairwise(FLOOR_NODES[1:]):
        builder.add_edge(before, after)
    builder.add_edge(FLOOR_NODES[-1], "think")
    return builder.compile(checkpointer=saver, name="five-step floor")


def wide_context(limit: int, **overrides: Any) -> Context:
    """flowagent's Context with every guard on, its limits raised above a benchmark's step count."""
    settings: dict[str, Any] = {"user_id": "user_1", **overrides}
    return Context(
        max_model_calls=limit,
        max_tool_calls_per_tool=limit,
        max_tokens=10**9,
        max_seconds=10**6,
        **settings,
    )


def guard_middleware(limit: int, *, approval_tools: Sequence[str] = ("handleTodoTask", "sendEmail")) -> list[Any]:
    """create_agent middleware matching flowagent's guards, each limit above the step count of a run."""
    from langchain.agents.middleware import (
        HumanInTheLoopMiddleware,
        ModelCallLimitMiddleware,
        SummarizationMiddleware,
        ToolCallLimitMiddleware,
    )

    return [
        HumanInTheLoopMiddleware(interrupt_on={name: True for name in approval_tools}),
        ModelCallLimitMiddleware(run_limit=limit, exit_behavior="end"),
        ToolCallLimitMiddleware(run_limit=limit, exit_behavior="end"),
        SummarizationMiddleware(model=summary_model(), trigger=("tokens", 3000), keep=("messages", 20)),
    ]


def create_agent_graph(
    model: Any, tools: Sequence[BaseTool], saver: Any, *, guarded: bool = False, limit: int = 1000,
    system_prompt: str = "",
) -> Any:
    from langchain.agents import create_agent

    middleware = guard_middleware(limit) if guarded else []
    return create_agent(model, list(tools), system_prompt=system_prompt or None, middleware=middleware, checkpointer=saver)


def plain_loop(model: BaseChatModel, store: WorkflowStore, actor: Actor, messages: list[BaseMessage]) -> list[BaseMessage]:
    """The smallest agent: call the model, run its tool calls, append the results, until it answers."""
    while True:
        reply = model.invoke(messages)
        messages.append(reply)
        if not getattr(reply, "tool_calls", None):
            return messages
        for call in reply.tool_calls:
            content = run_tool(store, actor, call["name"], call["args"], call["id"])
            messages.append(ToolMessage(content=content, tool_call_id=call["id"] or "", name=call["name"]))


SEED_FORMAT = prompts.REACT_FORMAT.format(tool_names=", ".join(REGISTRY.names))
"""The Thought/Action/Observation format a text loop must ask for: flowagent's own `react` instructions."""


def seed_prompt(system: str, tool_json: str, history: Sequence[BaseMessage]) -> list[BaseMessage]:
    """The seed's prompt: one message with the rules, the tools as JSON, the text format the loop parses
    and the whole history as text."""
    lines = [system, "", "Tools (JSON):", tool_json, SEED_FORMAT, "", "Conversation so far:"]
    for msg in history:
        if isinstance(msg, ToolMessage):
            lines.append(f"Observation: {msg.content}")
        elif isinstance(msg, AIMessage):
            if msg.tool_calls:
                for call in msg.tool_calls:
                    thought = f"Thought: {msg.content}\n" if msg.content else ""
                    lines.append(f"{thought}Action: {call['name']}\nAction Input: {json.dumps(call['args'], ensure_ascii=False)}")
            else:
                lines.append(f"Final Answer: {msg.content}")
        else:
            lines.append(f"User: {msg.content}")
    return [HumanMessage(content="\n".join(lines))]


def seed_loop(
    model: BaseChatModel, store: WorkflowStore, actor: Actor, history: list[BaseMessage], system: str, tool_json: str
) -> list[BaseMessage]:
    """The seed's loop: every step re-sends the tool JSON and the whole history as one text prompt."""
    while True:
        reply = model.invoke(seed_prompt(system, tool_json, history))
        history.append(reply)
        if not getattr(reply, "tool_calls", None):
            return history
        for call in reply.tool_calls:
            content = run_tool(store, actor, call["name"], call["args"], call["id"])
            history.append(ToolMessage(content=content, tool_call_id=call["id"] or "", name=call["name"]))
