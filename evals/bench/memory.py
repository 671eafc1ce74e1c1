"""Workload 5: resident memory across hundreds of supersteps on one conversation thread."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage

from evals.bench import agents, plots
from evals.bench.common import Goal, Section, Sizes, fmt_bytes, judge, settled_rss, table
from graph.checkpoint import close_checkpointer
from tools import WorkflowStore

FLOWAGENT = "flowagent"
CREATE_AGENT = "create_agent (reference)"
ARMS = (FLOWAGENT, CREATE_AGENT)
GOAL_GROWTH_BYTES = 50 * 1024 * 1024
STEPS_PER_TURN = 2
CALLS: tuple[tuple[str, dict[str, Any]], ...] = (("queryTodoTask", {"userId": "user_2"}), ("getAllUser", {}))


def measure(arm: str, sizes: Sizes, directory: Path, store: WorkflowStore) -> list[tuple[int, int]]:
    """(supersteps so far, RSS after a full collection), sampled after every turn."""
    model = agents.PolicyModel(policy=agents.tool_steps_then_answer(STEPS_PER_TURN, lambda i: CALLS[i % len(CALLS)]))
    path = directory / f"{arm.split()[0]}.db"
    if arm == FLOWAGENT:
        saver = agents.flowagent_saver(path)
        graph = agents.flowagent_graph(model, store, saver)
        kwargs: dict[str, Any] = {"context": agents.wide_context(20), **agents.FLOWAGENT_RUN}
    else:
        saver = agents.default_saver(path)
        graph = agents.create_agent_graph(model, agents.langchain_tools(store, agents.Actor()), saver)
        kwargs = {}
    config = {"configurable": {"thread_id": f"memory-{arm[:4]}"}, "recursion_limit": 100}
    samples: list[tuple[int, int]] = []
    steps = 0
    turn = 0
    try:
        while steps < sizes.supersteps:
            turn += 1
            question = {"messages": [HumanMessage(content=f"李四的待办和所有用户？({turn})")]}
            steps += 1  # the input's own superstep
            for _ in graph.stream(question, config, stream_mode="updates", **kwargs):
                steps += 1
            samples.append((steps, settled_rss()))
    finally:
        close_checkpointer(saver)
    return samples


def run(sizes: Sizes, out_dir: Path) -> Section:
    section = Section(key="memory", title="5. Memory across supersteps")
    with tempfile.TemporaryDirectory(prefix="flowagent-bench-mem-") as tmp:
        store = WorkflowStore(f"sqlite:///{tmp}/workflow.db")
        try:
            results = {arm: measure(arm, sizes, Path(tmp), store) for arm in ARMS}
        finally:
            store.dispose()

    def growth(samples: list[tuple[int, int]]) -> int:
        baseline = samples[0][1]  # after the first turn: imports and caches are warm
        return max(rss for _, rss in samples) - baseline

    rows = []
    for arm in ARMS:
        samples = results[arm]
        rows.append([arm, samples[-1][0], fmt_bytes(samples[0][1]), fmt_bytes(samples[-1][1]), fmt_bytes(growth(samples))])
    section.body.append(
        f"One conversation thread, turn after turn (each turn: a question, {STEPS_PER_TURN} look-ups, an answer, "
        "from a zero-latency scripted model), on a SQLite checkpointer, until the thread has run "
        f"{sizes.supersteps} supersteps. Resident memory (RSS) of this process after a full garbage collection is "
        "sampled after every turn; growth is the peak minus the first sample (taken after the first turn, so "
        "imports and caches are warm). The arms run one after the other in the same process, flowagent first."
    )
    section.body.append(table(["arm", "supersteps", "RSS after turn 1", "RSS at the end", "growth (peak − first)"], rows))
    flow_growth = growth(results[FLOWAGENT])
    section.goals.append(
        Goal(
            name=f"5. flowagent RSS growth over {results[FLOWAGENT][-1][0]} supersteps",
            target=f"< {fmt_bytes(GOAL_GROWTH_BYTES)}",
            measured=fmt_bytes(flow_growth),
            status=judge(flow_growth < GOAL_GROWTH_BYTES, sizes.quick),
        )
    )
    section.data = {arm: results[arm] for arm in ARMS}
    name = "memory.png"
    plots.lines(
        out_dir / name,
        title="Resident memory on one thread",
        xlabel="supersteps",
        ylabel="RSS (MB)",
        series={arm: ([s for s, _ in results[arm]], [r / 2**20 for _, r in results[arm]]) for arm in ARMS},
    )
    section.plots.append(name)
    return section
