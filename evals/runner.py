"""Run scenarios on the real graph: a fresh store and thread per trial, scripted reviewers, graded end states."""

from __future__ import annotations

import json
import multiprocessing
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.outputs import LLMResult
from langgraph.types import Command

from evals.grader import check_reply, grade_state
from evals.models import PathModel, SimulatedPerson
from evals.reviewer import Reviewer, golden_starts
from evals.scenario import Scenario, SetupStep
from evals.stores import fresh_store, open_saver
from evals.timeflow import TrialClock, advance
from graph import build_graph
from graph.run import locale_lang
from graph.strategies import Strategy
from state.context import Context, Protocol
from tools import CallContext, WorkflowStore, execute_call
from tools.toolset import Toolset
from tools.toolsets import get_toolset

MAX_REVIEWS_PER_MESSAGE = 20
"""More approval cards than this for one message means the run is stuck: the trial fails as a crash."""
MAX_FOLLOW_UPS = 4
"""Extra messages an LLM-simulated person may send within one turn."""
RECURSION_LIMIT = 200

ModelFactory = Callable[[Scenario, Protocol], BaseChatModel]


class UsageCounter(BaseCallbackHandler):
    """Counts model calls and their prompt and completion tokens (from the replies' usage metadata)."""

    def __init__(self) -> None:
        self.calls = self.prompt_tokens = self.completion_tokens = 0
        self._lock = threading.Lock()

    def on_llm_end(self, response: LLMResult, **kwargs: Any) -> None:
        with self._lock:
            self.calls += 1
            for generations in response.generations:
                for generation in generations:
                    usage = getattr(getattr(generation, "message", None), "usage_metadata", None) or {}
                    self.prompt_tokens += int(usage.get("input_tokens", 0))
                    self.completion_tokens += int(usage.get("output_tokens", 0))


@dataclass
class TurnRecord:
    """What happened in one person's turn."""

    actor: str
    said: list[str]
    answers: list[str] = field(default_factory=list)
    reviews: list[str] = field(default_factory=list)
    """Each approval card and the decision taken, e.g. `handleTodoTask → approve`."""
    refusals: list[str] = field(default_factory=list)
    """Error observations of the turn, each after the call it answers (`name({args}): text`): validator and policy
    refusals, rejections, failed calls."""
    outcomes: list[list[dict[str, Any]]] = field(default_factory=list)
    """What actually happened after each answer (the graph's outcome lines: executed, refused, rejected)."""
    calls: list[str] = field(default_factory=list)
    """Each tool call the model proposed in the turn, as it proposed it (`name({args})`), reads too: a failed trial is
    read from what the model did, not only from what was refused."""


@dataclass
class TrialResult:
    """One run of one scenario on one protocol, graded."""

    scenario: str
    category: str
    adversarial: bool
    defence: str
    protocol: str
    trial: int
    strategy: str = "react"
    """How the graph ran: react, plan or chain (`graph.strategies`)."""
    passed: bool = False
    problems: list[str] = field(default_factory=list)
    forbidden: list[str] = field(default_factory=list)
    attack_succeeded: bool = False
    guard_hit: bool | None = None
    """Whether a refusal named by the attack's `blocked_by` occurred (None: not adversarial or none named)."""
    crashed: bool = False
    error: str = ""
    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    turns: list[TurnRecord] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def apply_setup(store: WorkflowStore, steps: list[SetupStep], thread_id: str, toolset: Toolset | None = None,
                clock: TrialClock | None = None, lang: str = "zh") -> None:
    """Bring the store to the scenario's starting state through the real tools of `toolset` (default: the
    workflow's), SQL, or time passing on the trial's `clock` (`evals.timeflow`). The tools run in the scenario's
    language (`lang`), as its people would have used them: a request filed in an English conversation keeps its
    requester's language as English, and the system's e-mails to them follow it."""
    toolset = toolset if toolset is not None else get_toolset("workflow")
    for index, step in enumerate(steps):
        if step.advance is not None:
            advance(store, clock, step.advance, working_time=step.working_time)
            continue
        if step.sql is not None:
            with store.transaction() as conn:
                conn.exec_driver_sql(step.sql)
            continue
        assert step.tool is not None
        # the setup's relative dates as of the company's today, as the graph and the reviewer read them (from 16:00
        # UTC the machine's date is the day before: a setup trip "下周二" had been a week off the person's "next Tuesday")
        now = clock() if clock is not None else datetime.now(UTC)
        ctx = CallContext(
            backend=store,
            actor_id=step.actor,
            thread_id=thread_id if step.same_thread else f"{thread_id}-setup",
            call_id=f"setup-{index}",
            today=now.astimezone(ZoneInfo(Context().timezone)).date(),
            lang=lang,
        )
        execute_call(toolset, step.tool, dict(step.args), ctx)


def thread_messages(graph: Any, config: dict[str, Any]) -> list[Any]:
    return list(graph.get_state(config).values.get("messages", []))


def call_rows(messages: list[Any]) -> list[dict[str, Any]]:
    """The thread's tool calls with their observations, as rows of the `calls` table scenarios grade (answer facts
    of read-only toolsets): tool, args and result (JSON text, matched by dotted keys), status, content."""
    args = {c["id"]: c["args"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls}
    return [
        {
            "tool": m.name or "",
            "status": m.status,
            "args": json.dumps(args.get(m.tool_call_id, {}), ensure_ascii=False),
            "result": json.dumps(m.artifact, ensure_ascii=False) if isinstance(m.artifact, dict) else "{}",
            "content": str(m.content),
        }
        for m in messages
        if isinstance(m, ToolMessage)
    ]


def actor_config(config: dict[str, Any], scenario: Scenario, actor: str) -> dict[str, Any]:
    """The run config of one of the scenario's people: each has a conversation of their own, as in the product (a
    thread belongs to the user who started it; one person never reads another's messages). The first to speak keeps
    the trial's thread, where `same_thread` setup steps run."""
    first = scenario.turns[0].actor if scenario.turns else actor
    if actor == first:
        return config
    thread = f"{config['configurable']['thread_id']}-{actor}"
    return {**config, "configurable": {**config["configurable"], "thread_id": thread}}


def graded_state(store: WorkflowStore, graph: Any, config: dict[str, Any],
                 scenario: Scenario | None = None) -> dict[str, list[dict[str, Any]]]:
    """The store's tables and the `calls` of every person's thread (what the scenario's expectations and attack goal
    are read from)."""
    snapshot = store.snapshot()
    actors = list(dict.fromkeys(turn.actor for turn in scenario.turns)) if scenario is not None else []
    configs = [actor_config(config, scenario, actor) for actor in actors] if scenario is not None else [config]
    snapshot["calls"] = [row for c in configs for row in call_rows(thread_messages(graph, c))] if graph is not None else []
    return snapshot


def last_answer(graph: Any, config: dict[str, Any], record: TurnRecord | None = None) -> str:
    """The thread's final answer; its outcome lines (what actually happened) go to the turn's record."""
    messages = thread_messages(graph, config)
    last = messages[-1] if messages else None
    if not isinstance(last, AIMessage):
        return ""
    if record is not None:
        record.outcomes.append(list(last.response_metadata.get("outcome", [])))
    return str(last.content)


def send(graph: Any, config: dict[str, Any], context: Context, text: str, reviewer: Reviewer, record: TurnRecord) -> str:
    """One person's message to the graph, with every approval card decided; returns the final answer."""
    graph.invoke({"messages": [HumanMessage(content=text)]}, config, context=context)
    for _ in range(MAX_REVIEWS_PER_MESSAGE):
        interrupts = graph.get_state(config).interrupts
        if not interrupts:
            return last_answer(graph, config, record)
        resume, note = reviewer.decide(interrupts[0].value)
        record.reviews.append(note)
        graph.invoke(Command(resume=resume), config, context=context)
    raise RuntimeError(f"more than {MAX_REVIEWS_PER_MESSAGE} approval cards for one message")


def run_trial(
    scenario: Scenario,
    protocol: Protocol,
    trial: int,
    make_model: ModelFactory,
    *,
    person_model: BaseChatModel | None = None,
    checkpointer: str = "memory",
    context: dict[str, Any] | None = None,
    strategy: Strategy = "react",
) -> TrialResult:
    """Run one scenario once on a fresh store and thread, and grade it. Never raises for a failing run."""
    attack = scenario.attack
    result = TrialResult(
        scenario=scenario.id,
        category=scenario.category,
        adversarial=scenario.adversarial,
        defence=attack.defence if attack else "",
        protocol=protocol,
        trial=trial,
        strategy=strategy,
    )
    counter = UsageCounter()
    thread_id = f"eval-{scenario.id}-{protocol}-{trial}" + ("" if strategy == "react" else f"-{strategy}")
    config: dict[str, Any] = {
        "configurable": {"thread_id": thread_id},
        "callbacks": [counter],
        "recursion_limit": RECURSION_LIMIT,
    }
    toolset = get_toolset(scenario.toolset)
    graph: Any = None
    with tempfile.TemporaryDirectory(prefix="flowagent-eval-") as directory:
        store = fresh_store(directory, clock := TrialClock())
        started = time.perf_counter()
        try:
            apply_setup(store, scenario.setup, thread_id, toolset, clock, lang=locale_lang(scenario.locale))
            model = make_model(scenario, protocol)
            with open_saver(checkpointer, directory) as saver:
                # e-mails stay in the outbox
                graph = build_graph(
                    model=model, store=store, checkpointer=saver, deps=None, toolset=toolset, strategy=strategy
                )
                started = time.perf_counter()
                result.problems += play_turns(
                    scenario, protocol, graph, config, model, person_model, result.turns, context or {}
                )
                state = graded_state(store, graph, config, scenario)
            result.seconds = time.perf_counter() - started
            grade = grade_state(scenario, state)
            result.problems += grade.problems
            result.forbidden = grade.forbidden
            result.attack_succeeded = grade.attack_succeeded
            result.passed = not result.problems and grade.passed
            if attack is not None and attack.blocked_by:
                # A guard shows as a refusal, or as a policy note on a card (a value the person's words replaced).
                refusals = [text for turn in result.turns for text in [*turn.refusals, *turn.reviews]]
                result.guard_hit = any(marker in text for marker in attack.blocked_by for text in refusals)
        except Exception as exc:  # noqa: BLE001 - a crashing run is a result to report, not a reason to stop
            result.seconds = time.perf_counter() - started
            result.crashed = True
            frames = traceback.format_exception(exc)
            result.error = f"{type(exc).__name__}: {exc}"[:400] + "\n" + "".join(frames[-3:])[-1200:]
            try:
                result.attack_succeeded = grade_state(
                    scenario, graded_state(store, graph, config, scenario)).attack_succeeded
            except Exception:  # noqa: BLE001 - the store itself may be the broken part
                pass
        finally:
            store.dispose()
    result.model_calls = counter.calls
    result.prompt_tokens = counter.prompt_tokens
    result.completion_tokens = counter.completion_tokens
    return result


def play_turns(
    scenario: Scenario,
    protocol: Protocol,
    graph: Any,
    config: dict[str, Any],
    model: BaseChatModel,
    person_model: BaseChatModel | None,
    records: list[TurnRecord],
    overrides: dict[str, Any] | None = None,
) -> list[str]:
    """Play every turn (scripted or simulated person); returns problems of the legitimate task."""
    problems: list[str] = []
    rubber_stamp = scenario.attack is not None and scenario.attack.defence == "policy"
    starts = golden_starts(scenario.turns)
    for index, turn in enumerate(scenario.turns):
        context = Context(
            user_id=turn.actor, protocol=protocol, locale=scenario.locale, **{**(overrides or {}), **scenario.context}
        )
        if isinstance(model, PathModel):
            model.start_turn(index)
        reviewer = Reviewer(turn.reviews, rubber_stamp, starts)
        person = SimulatedPerson(person_model, turn, scenario.locale) if person_model is not None else None
        first = person.next_message() if person is not None else turn.say
        record = TurnRecord(actor=turn.actor, said=[first or turn.say])
        records.append(record)
        thread = actor_config(config, scenario, turn.actor)
        seen = len(thread_messages(graph, thread))
        answer = send(graph, thread, context, record.said[0], reviewer, record)
        record.answers.append(answer)
        for _ in range(MAX_FOLLOW_UPS if person is not None else 0):
            assert person is not None
            person.record(record.said[-1], answer)
            follow_up = person.next_message()
            if follow_up is None:
                break
            record.said.append(follow_up)
            answer = send(graph, thread, context, follow_up, reviewer, record)
            record.answers.append(answer)
        turn_messages = thread_messages(graph, thread)[seen:]
        record.refusals = _refusals(turn_messages)
        record.calls = [f"{call['name']}({json.dumps(call['args'], ensure_ascii=False)[:300]})"
                        for m in turn_messages if isinstance(m, AIMessage) for call in m.tool_calls]
        label = f"turn {index + 1} ({turn.actor})"
        if turn.expect is not None:
            problems += [f"{label}: {p}" for p in check_reply(record.answers[0], turn.expect)]
        if reviewer.remaining:
            problems.append(f"{label}: expected approval cards never shown: {[r.tool for r in reviewer.remaining]}")
        if reviewer.unexpected:
            problems.append(f"{label}: unexpected approval cards: {reviewer.unexpected}")
    return problems


def _refusals(messages: list[Any]) -> list[str]:
    """The turn's error observations, each after the call it answers as the model proposed it (a trial read later
    shows what was refused, not only why)."""
    proposed = {call["id"]: call["args"] for m in messages if isinstance(m, AIMessage) for call in m.tool_calls}
    return [
        f"{m.name}({json.dumps(proposed.get(m.tool_call_id, {}), ensure_ascii=False)[:200]}): {m.content}"[:500]
        for m in messages if isinstance(m, ToolMessage) and m.status == "error"
    ]


def _one_trial(item: tuple[Scenario, Protocol, int, Strategy, ModelFactory, str, dict[str, Any] | None]) -> TrialResult:
    """One trial of `run_suite` in a worker process (a module-level function: the pool pickles it by name)."""
    scenario, protocol, trial, strategy, make_model, checkpointer, context = item
    return run_trial(scenario, protocol, trial, make_model, checkpointer=checkpointer, context=context, strategy=strategy)


def run_suite(
    scenarios: list[Scenario],
    protocols: list[Protocol],
    k: int,
    make_model: ModelFactory,
    *,
    jobs: int = 1,
    processes: bool = False,
    person_model: BaseChatModel | None = None,
    checkpointer: str = "memory",
    progress: Callable[[TrialResult], None] | None = None,
    context: dict[str, Any] | None = None,
    strategies: Sequence[Strategy] = ("react",),
) -> list[TrialResult]:
    """Every scenario k times on every protocol and strategy, `jobs` trials at a time; results in a stable order.

    Trials run at once in threads, or with `processes` in worker processes: a scripted model's trials are Python
    work that one process runs on one core, while a model behind HTTP waits, and its client is shared by threads.
    `make_model` must then be picklable (a module-level function or a class's method) and `person_model` None.
    """
    work = [(s, p, t, g) for g in strategies for p in protocols for s in scenarios for t in range(1, k + 1)]

    def one(item: tuple[Scenario, Protocol, int, Strategy]) -> TrialResult:
        scenario, protocol, trial, strategy = item
        outcome = run_trial(
            scenario, protocol, trial, make_model, person_model=person_model, checkpointer=checkpointer,
            context=context, strategy=strategy,
        )
        if progress is not None:
            progress(outcome)
        return outcome

    if jobs <= 1:
        return [one(item) for item in work]
    if not processes:
        with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="flowagent-eval") as threads:
            return list(threads.map(one, work))
    if person_model is not None:
        raise ValueError("a simulated person's model is shared by threads: run its trials without processes")
    items = [(s, p, t, g, make_model, checkpointer, context) for s, p, t, g in work]
    results: list[TrialResult] = []
    # spawn, not fork: the parent may hold threads (a served graph, pytest's) whose locks a fork would copy held
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        for outcome in pool.map(_one_trial, items, chunksize=max(1, min(16, len(items) // (jobs * 8)))):
            if progress is not None:
                progress(outcome)
            results.append(outcome)
    return results
