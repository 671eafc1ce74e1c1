"""Workload 3: checkpoint bytes on disk after many conversation turns, flowagent vs create_agent."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage

from evals.bench import agents, plots
from evals.bench.common import Goal, Section, Sizes, fmt_bytes, fmt_ratio, judge, table
from graph.checkpoint import close_checkpointer
from tools import WorkflowStore

FLOWAGENT = "flowagent"
CREATE_AGENT = "create_agent"
ARMS = (FLOWAGENT, CREATE_AGENT)
GOAL_RATIO = 0.1
LINEAR_TOLERANCE = 1.25
"""Linear growth: bytes added per turn late in the thread are at most this many times those added early on."""
QUESTIONS = ("有哪些流程？", "What workflows are there?", "可以请假的流程是哪个？")


def turn_policy() -> agents.PolicyModel:
    """Each turn: one look-up (`getAllWorkFlow`), then an answer."""
    return agents.PolicyModel(policy=agents.tool_steps_then_answer(1, lambda i: ("getAllWorkFlow", {})))


def measure(arm: str, directory: Path, store: WorkflowStore, marks: tuple[int, ...]) -> dict[int, dict[str, int]]:
    """Run `max(marks)` turns on one thread; bytes on disk and stored payload bytes at each mark."""
    path = directory / f"{arm}.db"
    model = turn_policy()
    if arm == FLOWAGENT:
        saver = agents.flowagent_saver(path)
        graph = agents.flowagent_graph(model, store, saver)
        kwargs: dict[str, Any] = {"context": agents.wide_context(50), **agents.FLOWAGENT_RUN}
    else:
        saver = agents.default_saver(path)
        actor = agents.Actor(thread_id=f"bench-{arm}")
        graph = agents.create_agent_graph(model, agents.langchain_tools(store, actor), saver)
        kwargs = {}
    config = {"configurable": {"thread_id": f"bench-{arm}"}, "recursion_limit": 100}
    out: dict[int, dict[str, int]] = {}
    try:
        for turn in range(1, max(marks) + 1):
            question = QUESTIONS[turn % len(QUESTIONS)] + f" ({turn})"
            graph.invoke({"messages": [HumanMessage(content=question)]}, config, **kwargs)
            if turn in marks:
                out[turn] = {"disk": agents.disk_bytes(path), "stored": agents.stored_bytes(path)}
        final = graph.get_state(config).values["messages"]
        expected = 4 * max(marks)  # person, tool call, observation, answer
        if len(final) != expected:
            raise RuntimeError(f"{arm} kept {len(final)} messages after {max(marks)} turns, expected {expected}")
    finally:
        close_checkpointer(saver)
    return out


def run(sizes: Sizes, out_dir: Path) -> Section:
    section = Section(key="checkpoints", title="3. Checkpoint size on disk")
    marks = sizes.turns
    with tempfile.TemporaryDirectory(prefix="flowagent-bench-ckpt-") as tmp:
        store = WorkflowStore(f"sqlite:///{tmp}/workflow.db")
        try:
            results = {arm: measure(arm, Path(tmp), store, marks) for arm in ARMS}
        finally:
            store.dispose()

    rows = []
    for turn in marks:
        f, c = results[FLOWAGENT][turn], results[CREATE_AGENT][turn]
        rows.append(
            [turn, fmt_bytes(f["disk"]), fmt_bytes(c["disk"]), fmt_ratio(f["disk"] / c["disk"]),
             fmt_bytes(f["stored"]), fmt_bytes(c["stored"]), fmt_ratio(f["stored"] / c["stored"])]
        )
    first, mid, last = marks[0], marks[len(marks) // 2], marks[-1]

    def slope(arm: str, a: int, b: int) -> float:
        return (results[arm][b]["disk"] - results[arm][a]["disk"]) / (b - a)

    growth = {arm: slope(arm, mid, last) / slope(arm, first, mid) for arm in ARMS}
    at_mid = results[FLOWAGENT][mid]["disk"] / results[CREATE_AGENT][mid]["disk"]
    section.body.append(
        "One conversation thread per arm; each turn is a person's question, one look-up (`getAllWorkFlow`) and "
        "an answer, from a zero-latency scripted model. flowagent on its SQLite saver (WAL, synchronous=NORMAL; "
        "its history in a delta channel, so each checkpoint stores only the messages it adds); create_agent on "
        "`SqliteSaver`, which stores the whole message list in every checkpoint. Bytes on disk are the file's "
        "size after folding the WAL back in; stored bytes are the checkpoint and write payloads in its tables."
    )
    section.body.append(
        table(
            ["turns", "flowagent on disk", "create_agent on disk", "ratio", "flowagent stored", "create_agent stored",
             "ratio"],
            rows,
        )
    )
    section.body.append(
        f"Growth: bytes added per turn between turns {mid} and {last}, divided by those between {first} and {mid} "
        f"(1.0 = linear; quadratic growth gives about {(last + mid) / (mid + first):.1f}): "
        + ", ".join(f"{arm} {growth[arm]:.2f}" for arm in ARMS)
        + "."
    )
    section.goals.append(
        Goal(
            name="3. flowagent checkpoint bytes grow linearly",
            target=f"late ÷ early bytes per turn ≤ {LINEAR_TOLERANCE}",
            measured=f"{growth[FLOWAGENT]:.2f} (create_agent {growth[CREATE_AGENT]:.2f})",
            status=judge(growth[FLOWAGENT] <= LINEAR_TOLERANCE, sizes.quick),
        )
    )
    section.goals.append(
        Goal(
            name=f"3. flowagent ÷ create_agent bytes at {mid} turns",
            target=f"≤ {GOAL_RATIO}×",
            measured=f"{fmt_ratio(at_mid)} ({fmt_bytes(results[FLOWAGENT][mid]['disk'])} vs "
            f"{fmt_bytes(results[CREATE_AGENT][mid]['disk'])})",
            status=judge(at_mid <= GOAL_RATIO, sizes.quick),
        )
    )
    section.data = {"bytes": {arm: {str(k): v for k, v in results[arm].items()} for arm in ARMS}, "growth": growth}
    name = "checkpoints.png"
    plots.lines(
        out_dir / name,
        title="Checkpoint file size on disk",
        xlabel="conversation turns",
        ylabel="MB on disk",
        series={arm: (list(marks), [results[arm][t]["disk"] / 2**20 for t in marks]) for arm in ARMS},
    )
    section.plots.append(name)
    return section
