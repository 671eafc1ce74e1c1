"""Workload 1: wall time per ReAct iteration with a zero-latency scripted model and a SQLite file checkpointer."""

from __future__ import annotations

import gc
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage, ToolMessage

from evals.bench import agents, plots
from evals.bench.common import Goal, Section, Sizes, fmt_ratio, fsync_ms, judge, median, profile_top, table
from evals.bench.data import add_users, bench_user_id
from graph.checkpoint import close_checkpointer
from tools import WorkflowStore

FLOWAGENT = "flowagent"
CREATE_AGENT = "create_agent"
GUARDED = "create_agent + guards"
CREATE_AGENT_FS = "create_agent, flowagent's saver"
GUARDED_FS = "create_agent + guards, flowagent's saver"
LOOP = "plain while loop"
FLOOR = "five-step floor, flowagent's saver"
ARMS = (FLOWAGENT, CREATE_AGENT, GUARDED, CREATE_AGENT_FS, GUARDED_FS, LOOP, FLOOR)
COMPARED = (CREATE_AGENT, GUARDED, CREATE_AGENT_FS, GUARDED_FS, LOOP, FLOOR)
GOAL_VS_GUARDED = 0.4
"""flowagent's time per iteration against create_agent with the same guards (middleware), at every N."""
GOAL_VS_FLOOR = 1.2
"""flowagent against the five-step floor: what the guards add to a graph with one step per ReAct node."""
RETIRED_VS_CREATE_AGENT = 0.5
RETIRED_VS_GUARDED = 0.2
"""The earlier goals, retired: the five-step floor alone costs more than they allow (shown as bounds)."""
QUESTION = "Show me the to-do lists of these colleagues."


def make_call(i: int) -> tuple[str, dict[str, Any]]:
    """The i-th read-only step: a different colleague's to-do list each time, so no action repeats."""
    return "queryTodoTask", {"userId": bench_user_id(i)}


class Bench:
    """One store shared by every arm; each run gets a fresh model, saver file and thread."""

    def __init__(self, directory: Path, max_steps: int) -> None:
        self.dir = directory
        self.store = WorkflowStore(f"sqlite:///{directory}/workflow.db")
        add_users(self.store, max_steps + 5)
        self.actor = agents.Actor(user_id="user_1", thread_id="bench-steps")
        self.tools = agents.langchain_tools(self.store, self.actor)
        self.counter = 0
        self.last_cpu_s = 0.0
        """The process CPU time of the last run (every thread's: the saver's background writes too)."""

    def _path(self) -> Path:
        self.counter += 1
        return self.dir / f"checkpoints-{self.counter}.db"

    def run(self, arm: str, n: int) -> float:
        """Seconds for one run of `n` tool steps and the final answer, checked to have done exactly that."""
        model = agents.scripted_steps(n, make_call)
        calls_before = len(self.actor.calls)
        config = {"configurable": {"thread_id": f"t{self.counter}"}, "recursion_limit": 10 * n + 50}
        kwargs: dict[str, Any]
        question = {"messages": [HumanMessage(content=QUESTION)]}
        if arm == LOOP:
            messages: list[Any] = [HumanMessage(content=QUESTION)]
            gc.collect()
            cpu_started = time.process_time()
            started = time.perf_counter()
            agents.plain_loop(model, self.store, self.actor, messages)
            elapsed = time.perf_counter() - started
            self.last_cpu_s = time.process_time() - cpu_started
        else:
            saver_kind = "flowagent" if arm in (FLOWAGENT, CREATE_AGENT_FS, GUARDED_FS, FLOOR) else "default"
            saver = agents.SAVERS[saver_kind](self._path())
            try:
                if arm == FLOOR:
                    graph = agents.floor_graph(model, self.store, self.actor, saver)
                    kwargs = dict(agents.FLOWAGENT_RUN)
                elif arm == FLOWAGENT:
                    graph = agents.flowagent_graph(model, self.store, saver)
                    kwargs = {"context": agents.wide_context(n + 10), **agents.FLOWAGENT_RUN}
                else:
                    guarded = arm in (GUARDED, GUARDED_FS)
                    graph = agents.create_agent_graph(model, self.tools, saver, guarded=guarded, limit=n + 10)
                    kwargs = dict(agents.FLOWAGENT_RUN) if saver_kind == "flowagent" else {}
                gc.collect()  # each run starts with no garbage left by the one before (see `run` below)
                cpu_started = time.process_time()  # building the graph is not timed
                started = time.perf_counter()
                result = graph.invoke(question, config, **kwargs)
                elapsed = time.perf_counter() - started
                self.last_cpu_s = time.process_time() - cpu_started
                messages = result["messages"]
            finally:
                close_checkpointer(saver)
        if arm == FLOWAGENT:  # flowagent runs tools itself; it keeps every observation in its state
            done = sum(1 for m in messages if isinstance(m, ToolMessage) and m.status != "error")
        else:  # create_agent's summariser may replace old messages: count the tool executions instead
            done = len(self.actor.calls) - calls_before
        final = str(messages[-1].content)
        if done != n or model.position != n + 1 or final != "Done.":
            raise RuntimeError(f"{arm} ran {done} of {n} tool steps in {model.position} model calls, ending {final[:80]!r}")
        return elapsed

    def close(self) -> None:
        self.store.dispose()


def adjacent(first: str, second: str, rng: random.Random) -> list[str]:
    """The arms in random order, except that `first` and `second` run one right after the other (either first): the
    ratio of a pair taken seconds apart moves with the host's speed (this host's drifts by a quarter within the
    hour), and the goal flowagent ÷ floor is judged on such pairs."""
    order = [arm for arm in ARMS if arm != second]
    rng.shuffle(order)
    at = order.index(first) + rng.randint(0, 1)
    return [*order[:at], second, *order[at:]]


@dataclass
class Measured:
    """The seconds per iteration of every arm at every N, and the ratios paired within a repetition."""

    per_iter: dict[tuple[str, int], list[float]]
    paired: dict[tuple[str, int], list[float]] = field(default_factory=dict)
    """flowagent ÷ the arm, each pair run within one repetition (for the floor, the judged pairs too)."""
    floor_vs_ca: dict[int, list[float]] = field(default_factory=dict)
    floor_vs_guarded: dict[int, list[float]] = field(default_factory=dict)
    cpu_vs_floor: dict[int, list[float]] = field(default_factory=dict)
    fsync_before: float = 0.0
    fsync_after: float = 0.0
    profile: str = ""


def run(sizes: Sizes, out_dir: Path) -> Section:
    section = Section(key="steps", title="1. Cost per ReAct iteration")
    m = _measure(sizes)
    ratios = _ratios(m.paired, sizes)
    _describe(section, sizes, m, ratios)
    _goals(section, sizes, m, ratios)
    section.profile = m.profile
    section.data = {
        "ms_per_iteration": {f"{arm}@{n}": [v * 1000 for v in m.per_iter[(arm, n)]] for arm in ARMS for n in sizes.steps},
        "ratios": {f"{arm}@{n}": ratios[(arm, n)] for arm in ARMS for n in sizes.steps},
        "fsync_ms": [m.fsync_before, m.fsync_after],
        "floor_vs_create_agent": {n: median(m.floor_vs_ca[n]) for n in sizes.steps},
        "floor_vs_guarded_create_agent": {n: median(m.floor_vs_guarded[n]) for n in sizes.steps},
        "cpu_flowagent_vs_floor": {n: median(m.cpu_vs_floor[n]) for n in sizes.steps},
        "flowagent_vs_floor_pairs": {n: m.paired[(FLOOR, n)] for n in sizes.steps},
    }
    name = "steps.png"
    plots.lines(
        out_dir / name,
        title="Wall time per ReAct iteration (zero-latency model)",
        xlabel="tool steps per run (N)",
        ylabel="ms per iteration (median)",
        series={arm: (list(sizes.steps), [median(m.per_iter[(arm, n)]) * 1000 for n in sizes.steps]) for arm in ARMS},
        logy=True,
    )
    section.plots.append(name)
    return section


def _measure(sizes: Sizes) -> Measured:
    """Every arm at every N, `sizes.repeats` times interleaved; a profile of flowagent where a goal is missed."""
    with tempfile.TemporaryDirectory(prefix="flowagent-bench-steps-") as tmp:
        bench = Bench(Path(tmp), max(sizes.steps))
        try:
            for arm in ARMS:  # warm-up: imports, first compilations, SQLite caches
                bench.run(arm, 2)
            m = Measured(per_iter={(a, n): [] for a in ARMS for n in sizes.steps}, fsync_before=fsync_ms(tmp))
            rng = random.Random(3)
            for _ in range(sizes.repeats):
                for n in sizes.steps:
                    _repetition(bench, n, sizes, rng, m)
            m.fsync_after = fsync_ms(tmp)
            if not all(_goals_met(_ratios(m.paired, sizes), sizes)) and not sizes.quick:
                biggest = max(sizes.steps)
                m.profile = profile_top(lambda: bench.run(FLOWAGENT, biggest))
        finally:
            bench.close()
    return m


def _repetition(bench: Bench, n: int, sizes: Sizes, rng: random.Random, m: Measured) -> None:
    """One repetition at N: every arm once (flowagent and the floor adjacent), then the judged pair again."""
    order = adjacent(FLOWAGENT, FLOOR, rng)
    this_rep: dict[str, float] = {}
    cpu_rep: dict[str, float] = {}
    for arm in order:
        this_rep[arm] = bench.run(arm, n) / n
        cpu_rep[arm] = bench.last_cpu_s / n
    m.cpu_vs_floor.setdefault(n, []).append(cpu_rep[FLOWAGENT] / cpu_rep[FLOOR])
    for arm, value in this_rep.items():
        m.per_iter[(arm, n)].append(value)
        m.paired.setdefault((arm, n), []).append(this_rep[FLOWAGENT] / value)
    m.floor_vs_ca.setdefault(n, []).append(this_rep[FLOOR] / this_rep[CREATE_AGENT])
    m.floor_vs_guarded.setdefault(n, []).append(this_rep[FLOOR] / this_rep[GUARDED])
    for k in range(1, sizes.judged_pairs):  # the judged pair again, each arm first in turn
        wall, cpu = {}, {}
        for arm in (FLOOR, FLOWAGENT) if k % 2 else (FLOWAGENT, FLOOR):
            wall[arm] = bench.run(arm, n) / n
            cpu[arm] = bench.last_cpu_s / n
        m.paired[(FLOOR, n)].append(wall[FLOWAGENT] / wall[FLOOR])
        m.cpu_vs_floor[n].append(cpu[FLOWAGENT] / cpu[FLOOR])


def _describe(section: Section, sizes: Sizes, m: Measured, ratios: dict[tuple[str, int], float]) -> None:
    """How the arms ran, the table of milliseconds and ratios, and the disk's fsync."""
    rows = []
    for n in sizes.steps:
        rows.append(
            [n]
            + [f"{median(m.per_iter[(arm, n)]) * 1000:.2f}" for arm in ARMS]
            + [fmt_ratio(ratios[(arm, n)]) for arm in COMPARED]
        )
    headers = (
        ["N steps"]
        + [f"{arm} ms/iter" for arm in ARMS]
        + [f"flowagent ÷ {arm}" for arm in COMPARED]
    )
    section.body.append(
        "A zero-latency scripted model (the evals' `ScriptedChatModel`) proposes N read-only steps "
        "(`queryTodoTask` for N different colleagues) and then answers; every arm runs the same six tools on "
        "the same SQLite store, with a SQLite file checkpointer (a fresh file per run). Milliseconds per "
        f"iteration are medians of {sizes.repeats} interleaved repetitions (the arms in random order each time, "
        "flowagent and the five-step floor one right after the other); "
        "each ratio is the median of the ratios paired within a repetition. The goal flowagent ÷ floor is judged on "
        f"{sizes.judged_pairs} such pairs per repetition ({sizes.repeats * sizes.judged_pairs} in all; after the one "
        "among the other arms, the pair runs again, each arm first in turn): this host's speed moves by half within a "
        "run, and a median of 9 pairs still moved by ±0.07 from one run of the same code to the next."
    )
    section.body.append(
        "flowagent runs with every guard on (validation, policy, approvals for `handleTodoTask`/`sendEmail`, "
        "per-run model-call and per-tool budgets, token and time budgets, the circuit breaker, repeated-action "
        "detection, observation compaction and history folding); its `Context` only raises the model-call and "
        "per-tool limits to N + 10 so the budget does not stop an N-step run, and the arguments vary so no "
        "action repeats. The guarded create_agent has `HumanInTheLoopMiddleware` (handleTodoTask, sendEmail), "
        "`ModelCallLimitMiddleware` and `ToolCallLimitMiddleware` (run limits N + 10) and "
        "`SummarizationMiddleware` (trigger 3,000 tokens, keep 20 messages, the scripted model summarises). "
        "`default` saver = `SqliteSaver` on a plain `sqlite3.connect` (as `from_conn_string`: WAL, "
        "synchronous=FULL) with LangGraph's default `durability=\"async\"` (a step's checkpoint is written while "
        "the next step runs); flowagent's saver settings = `open_sqlite_checkpointer` (WAL, synchronous=NORMAL) "
        "with `durability=\"sync\"`, as the chat runs (each checkpoint is written before the next step starts). "
        "The plain loop keeps its messages in a list and checkpoints nothing."
    )
    section.body.append(table(headers, rows))
    section.body.append(
        f"fsync of a 4 KB write on this disk took {m.fsync_before:.2f} ms (median) before the repetitions and "
        f"{m.fsync_after:.2f} ms after: a `synchronous=FULL` commit waits for it, a `synchronous=NORMAL` one in WAL "
        "mode does not, which is most of the gap between the two savers."
    )


def _goals(section: Section, sizes: Sizes, m: Measured, ratios: dict[tuple[str, int], float]) -> None:
    """The judged goals, the ones shown, the retired one, and what the five-step floor bounds."""
    ok_guarded, ok_floor = _goals_met(ratios, sizes)
    biggest = max(sizes.steps)
    floor_guarded = {n: median(m.floor_vs_guarded[n]) for n in sizes.steps}
    section.goals.append(
        Goal(
            name="1. flowagent ÷ guarded create_agent per iteration",
            target=f"≤ {GOAL_VS_GUARDED}× at every N",
            measured=", ".join(f"N={n}: {fmt_ratio(ratios[(GUARDED, n)])}" for n in sizes.steps)
            + "; the five-step floor alone: " + ", ".join(fmt_ratio(floor_guarded[n]) for n in sizes.steps),
            status=judge(ok_guarded, sizes.quick,
                         bound_ok=all(floor_guarded[n] <= GOAL_VS_GUARDED for n in sizes.steps)),
        )
    )
    section.goals.append(
        Goal(
            name="1. flowagent ÷ five-step floor per iteration (what the guards add)",
            target=f"≤ {GOAL_VS_FLOOR}× at every N",
            measured=", ".join(
                f"N={n}: {fmt_ratio(ratios[(FLOOR, n)])} (middle half of the pairs {_middle_half(m.paired[(FLOOR, n)])})"
                for n in sizes.steps
            ),
            status=judge(ok_floor, sizes.quick),
        )
    )
    section.goals.append(
        Goal(
            name="1. (shown) flowagent ÷ five-step floor in process CPU time",
            target="reported: the same ratio without the time other threads and guests took from the run",
            measured=", ".join(f"N={n}: {fmt_ratio(median(m.cpu_vs_floor[n]))}" for n in sizes.steps),
            status="not judged",
        )
    )
    section.goals.append(
        Goal(
            name="1. (retired) flowagent ÷ create_agent ≤ 0.5×, ÷ guarded create_agent ≤ 0.2×",
            target="bound: the five-step floor alone costs more (see below)",
            measured=", ".join(f"N={n}: {fmt_ratio(ratios[(CREATE_AGENT, n)])} / {fmt_ratio(ratios[(GUARDED, n)])}"
                               for n in sizes.steps),
            status="not judged" if sizes.quick else "retired: bound",
        )
    )
    section.goals.append(
        Goal(
            name="1. (shown) flowagent ÷ create_agent on flowagent's saver",
            target="reported",
            measured=f"N={biggest}: {fmt_ratio(ratios[(CREATE_AGENT_FS, biggest)])}, "
            f"guarded: {fmt_ratio(ratios[(GUARDED_FS, biggest)])}",
            status="not judged",
        )
    )
    floor = {n: median(m.floor_vs_ca[n]) for n in sizes.steps}
    floor_text = ", ".join(f"N={n}: {fmt_ratio(floor[n])}" for n in sizes.steps)
    section.body.append(
        f"The **{FLOOR}** arm is the least a graph with one LangGraph step per ReAct node can cost here: five "
        "nodes in flowagent's cycle on flowagent's messages channel, saver and durability, where one node calls the "
        "model, one runs the tool as the plain loop does and the other three do nothing: no validation, policy, "
        f"approval check, budget or compaction. It runs at {floor_text} create_agent's time per iteration. "
        f"Wherever that is above {RETIRED_VS_CREATE_AGENT}×, the retired goal cannot "
        "be met by any design that gives each of the five read-path nodes its own step (as DESIGN.md and the "
        "issue ask), whatever the guards cost; flowagent ÷ floor is what the guards themselves add."
    )
    section.goals.append(
        Goal(
            name="1. (shown) five-step floor ÷ create_agent per iteration",
            target="reported: the bound on the retired goal (÷ create_agent) for a node-per-step design",
            measured=floor_text,
            status="not judged",
        )
    )

def _middle_half(values: list[float]) -> str:
    """The first to the third quartile: how far one repetition's ratio strays (on a quiet 2-core KVM guest a pair
    ranged from 1.04x to 1.27x in process CPU time, so a goal near 1.2x needs the median of many)."""
    if len(values) < 2:
        return fmt_ratio(values[0]) if values else "-"
    first, _, third = statistics.quantiles(values, n=4, method="inclusive")
    return f"{fmt_ratio(first)}–{fmt_ratio(third)}"


def _ratios(paired: dict[tuple[str, int], list[float]], sizes: Sizes) -> dict[tuple[str, int], float]:
    return {(arm, n): median(paired[(arm, n)]) for arm in ARMS for n in sizes.steps}


def _goals_met(ratios: dict[tuple[str, int], float], sizes: Sizes) -> tuple[bool, bool]:
    """Whether flowagent ÷ guarded create_agent, and flowagent ÷ the floor, are within their goals at every N."""
    return (all(ratios[(GUARDED, n)] <= GOAL_VS_GUARDED for n in sizes.steps),
            all(ratios[(FLOOR, n)] <= GOAL_VS_FLOOR for n in sizes.steps))
