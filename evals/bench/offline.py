"""Workload 6: how fast the offline Qwen model answers a person, question by question, through the real graph.

The local server is started as the chat starts it (`graph.models.endpoint.start_local_model`: the llama.cpp build for
this CPU, every usable core, the fixed prompt read ahead), and each question runs through `build_graph` with
the chat's langchain-openai model, the `react` protocol, `graph.stream(..., durability="sync")`, on a fresh
WorkflowStore. Per-request figures come from llama.cpp's own counters in the server's log
(`LocalServer.timings_since`): the prompt tokens it really read (after the prefix it still held) and the time
spent reading them, apart from the tokens generated and the time spent generating them.
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import HumanMessage
from langchain_core.outputs import LLMResult

from evals.bench import agents
from evals.bench.common import Goal, Section, Sizes, judge, median, table
from graph.checkpoint import close_checkpointer
from state import Context
from tools import WorkflowStore

REPEATS = 5
NOT_ASKED = "not run: pass `--offline-model` (it starts the local Qwen model with llama.cpp; minutes on 2 cores)"


@dataclass(frozen=True)
class Turn:
    user: str
    thread: str
    question: str


@dataclass(frozen=True)
class Question:
    """One measured question and the turns asked before it (on the same store, after the warm-up)."""

    key: str
    title: str
    before: tuple[Turn, ...]
    asked: Turn
    goal_name: str
    goal_target: str
    metric: str
    """The figure the goal judges: "seconds" or "tokens_read"."""
    limit: float


QUESTIONS = (
    Question(
        key="a", title="first question after the warm-up", before=(),
        asked=Turn("user_1", "a", "有哪些流程？"),
        goal_name="6a. offline: first question, time to answer", goal_target="≤ 8 s", metric="seconds", limit=8,
    ),
    Question(
        key="b", title="a one-lookup question in a running chat",
        before=(Turn("user_2", "b", "有哪些流程？"),),
        asked=Turn("user_2", "b", "有哪些用户？"),
        goal_name="6b. offline: one-lookup question in a chat, time to answer", goal_target="≤ 4 s",
        metric="seconds", limit=4,
    ),
    Question(
        key="c", title="a second user's first question",
        before=(Turn("user_1", "c-user_1", "有哪些流程？"),),
        asked=Turn("user_2", "c-user_2", "有哪些流程？"),
        goal_name="6c. offline: second user's first question, tokens re-read", goal_target="≤ 150 tokens",
        metric="tokens_read", limit=150,
    ),
)
FIGURES = ("seconds", "tokens_read", "generated", "prompt_s", "generation_s", "model_calls")


class UsageCounter(BaseCallbackHandler):
    """Completion tokens of each model call, as the server reports them in its usage."""

    def __init__(self) -> None:
        self.completion_tokens: list[int] = []
        self._lock = threading.Lock()

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        usage: dict[str, Any] = {}
        for generations in response.generations:
            for generation in generations:
                usage = getattr(getattr(generation, "message", None), "usage_metadata", None) or usage
        with self._lock:
            self.completion_tokens.append(int(usage.get("output_tokens", 0)))


def run(sizes: Sizes, out_dir: Path, *, offline_model: bool = False) -> Section:
    section = Section(key="offline", title="6. Offline model")
    if not offline_model:
        section.body.append(f"**{NOT_ASKED}.**")
        for question in QUESTIONS:
            section.goals.append(Goal(name=question.goal_name, target=question.goal_target, measured=NOT_ASKED,
                                      status="not run"))
        return section
    try:
        from graph.models import endpoint as chat_models
        from graph.models import local as local_model
    except ImportError as exc:
        return _not_run(section, f"graph.models.local is not importable ({exc})")
    load_before = os.getloadavg()
    began = time.perf_counter()
    try:
        settings = chat_models.start_local_model(protocol="react")
    except local_model.LocalModelError as exc:
        return _not_run(section, str(exc))
    startup_s = time.perf_counter() - began
    server = chat_models.running_local_server()
    warmed = server.warm_up
    build = local_model.cpu_build()
    try:
        model = chat_models.make_chat_model(settings)
        messages = _warmup_messages()
        repeats = 1 if sizes.quick else REPEATS
        runs: dict[str, list[dict[str, Any]]] = {q.key: [] for q in QUESTIONS}
        for index in range(repeats):
            for question in QUESTIONS:
                runs[question.key].append(_run_once(model, server, messages, question, index))
    finally:
        chat_models.stop_local_model()
    load_after = os.getloadavg()

    medians = {key: {f: median([r[f] for r in rs]) for f in FIGURES} for key, rs in runs.items()}
    cpu = f"{build.model}; llama.cpp built with {', '.join(build.features) or 'no vector extensions'} (never AMX)"
    threads = (f"{server.n_threads} generating, {server.n_threads_batch} reading the prompt "
               f"(of {local_model.usable_cpus()} usable CPUs), waiting at barriers with "
               f"{server.openmp_wait or 'OpenMP defaults'}")
    section.body.append(
        f"The pinned Qwen2.5-Coder-1.5B Q4_K_M (`{server.model_path.name}`) on llama.cpp, started as the chat "
        f"starts it (ready and warmed up after {startup_s:.1f} s; {_warm_text(warmed)}). Each question runs "
        "through the real graph (react protocol and fixed answers, the chat's langchain-openai client, "
        "`durability=\"sync\"`) on a "
        f"fresh store, after the warm-up and the turns listed; figures are medians of {repeats} run(s). "
        "*Time to answer*: from sending the person's message to the final answer. *Tokens re-read*: prompt "
        "tokens llama.cpp actually evaluated, summed over the answer's model calls (it keeps the last request's "
        "tokens and re-reads only what follows the shared prefix). Prompt and generation time are llama.cpp's "
        "own counters; the rest of the time to answer is the graph, HTTP and sampling."
    )
    if messages is None:
        section.body.append("**No warm-up:** `graph.nodes.reasoner.warmup_prompt` does not exist here, so question (a) "
                            "reads the whole system prompt.")
    section.body.append(
        f"CPU: {cpu}. Threads: {threads}. Load average (1/5/15 min) before: "
        f"{_load(load_before)}; after: {_load(load_after)}."
    )
    rows = []
    for question in QUESTIONS:
        m = medians[question.key]
        turns = "; ".join(f"{t.user}: {t.question}" for t in question.before) or "(none)"
        rows.append([
            f"({question.key}) {question.title}", turns, f"{question.asked.user}: {question.asked.question}",
            f"{m['seconds']:.1f} s", f"{m['tokens_read']:.0f}", f"{m['generated']:.0f}", f"{m['prompt_s']:.1f} s",
            f"{m['generation_s']:.1f} s", f"{m['model_calls']:.0f}", _goal_text(question, m),
        ])  # fmt: skip
    section.body.append(
        table(["question", "asked before", "measured", "time to answer", "tokens re-read", "tokens generated",
               "prompt time", "generation time", "model calls", "goal"], rows)
    )
    section.body.append(
        table(["question", "run", "time to answer", "tokens re-read per call", "generated per call", "answer"],
              [[f"({q.key})", i + 1, f"{r['seconds']:.1f} s", " + ".join(str(c["prompt_tokens_read"]) for c in r["calls"]),
                " + ".join(str(t) for t in r["completion_tokens"]), _cell(r["answer"])]
               for q in QUESTIONS for i, r in enumerate(runs[q.key])])
    )
    mismatched = [f"({q.key}) run {i + 1}" for q in QUESTIONS for i, r in enumerate(runs[q.key])
                  if r["logged_calls"] != r["model_calls"]]
    if mismatched:
        section.body.append(f"**Warning:** the server logged another number of requests than the graph made in "
                            f"{', '.join(mismatched)}; the token and time figures of those runs are not reliable.")
    rates = _rates([c for rs in runs.values() for r in rs for c in r["calls"]])
    section.body.append(
        f"Across all measured calls: prompt reading {rates['prompt_tokens_per_s']:.0f} tokens/s, generation "
        f"{rates['generated_tokens_per_s']:.1f} tokens/s (llama.cpp's counters)."
    )
    for question in QUESTIONS:
        m = medians[question.key]
        value = m[question.metric]
        measured = (f"{value:.1f} s" if question.metric == "seconds" else f"{value:.0f} tokens") + (
            f" (median of {repeats}; {m['tokens_read']:.0f} tokens re-read, {m['model_calls']:.0f} model calls)"
            if question.metric == "seconds" else f" (median of {repeats}; answered in {m['seconds']:.1f} s)"
        )
        section.goals.append(Goal(name=question.goal_name, target=question.goal_target, measured=measured,
                                  status=judge(value <= question.limit, sizes.quick)))
    section.data = {
        "model": server.model_path.name,
        "cpu": build.model,
        "cpu_build": {"key": build.key, "features": list(build.features), "cmake_args": build.cmake_args},
        "threads": {"generation": server.n_threads, "prompt": server.n_threads_batch,
                    "usable_cpus": local_model.usable_cpus(), "openmp_wait": server.openmp_wait},
        "load_before": list(load_before),
        "load_after": list(load_after),
        "startup_s": startup_s,
        "warm_up": warmed.as_dict() if warmed is not None else None,
        "repeats": repeats,
        "medians": medians,
        "rates": rates,
        "runs": runs,
    }
    return section


def _warmup_messages() -> list[Any] | None:
    """The chat's warm-up messages (`graph.nodes.reasoner.warmup_prompt`), or None where there is none."""
    try:
        from graph.nodes.reasoner import warmup_prompt
    except ImportError:
        return None
    from tools.workflow import TOOLSET as WORKFLOW

    return list(warmup_prompt(WORKFLOW, "react"))


def _run_once(model: Any, server: Any, warmup: Sequence[Any] | None, question: Question, index: int) -> dict[str, Any]:
    """Warm up (the state right after the server starts), ask the turns before, then time the question."""
    from graph.models.local import warm_up

    if warmup is not None:
        warm_up(model, warmup, progress=lambda line: None)
    with tempfile.TemporaryDirectory(prefix="flowagent-bench-offline-") as tmp:
        store = WorkflowStore(f"sqlite:///{tmp}/workflow.db")
        saver = agents.flowagent_saver(Path(tmp) / "checkpoints.db")
        try:
            graph = agents.flowagent_graph(model, store, saver)
            for turn in question.before:
                _ask(graph, turn, index, UsageCounter())
            usage = UsageCounter()
            offset = server.log_offset()
            started = time.perf_counter()
            answer = _ask(graph, question.asked, index, usage)
            seconds = time.perf_counter() - started
            calls = server.timings_since(offset)
        finally:
            close_checkpointer(saver)
            store.dispose()
    return {
        "seconds": seconds,
        "tokens_read": sum(c.prompt_tokens_read for c in calls),
        "generated": sum(usage.completion_tokens),
        "prompt_s": sum(c.prompt_ms for c in calls) / 1000,
        "generation_s": sum(c.generation_ms for c in calls) / 1000,
        "model_calls": len(usage.completion_tokens),
        "logged_calls": len(calls),
        "calls": [c.as_dict() for c in calls],
        "completion_tokens": usage.completion_tokens,
        "answer": answer,
    }


def _ask(graph: Any, turn: Turn, index: int, usage: UsageCounter) -> str:
    """One person's message, run as the chat runs it; returns the final answer's text."""
    config = {"configurable": {"thread_id": f"offline-{turn.thread}-{index}"}, "callbacks": [usage]}
    for _ in graph.stream({"messages": [HumanMessage(content=turn.question)]}, config,
                          context=Context(user_id=turn.user, protocol="react", fixed_answers=True), stream_mode="updates",
                          **agents.FLOWAGENT_RUN):
        pass
    messages = graph.get_state(config).values.get("messages") or []
    return str(messages[-1].content) if messages else ""


def _goal_text(question: Question, m: dict[str, float]) -> str:
    value = m[question.metric]
    ok = "met" if value <= question.limit else "missed"
    return f"{question.goal_target}: {ok}"


def _rates(calls: Sequence[dict[str, Any]]) -> dict[str, float]:
    read = sum(c["prompt_tokens_read"] for c in calls)
    read_ms = sum(c["prompt_ms"] for c in calls)
    generated = sum(c["generated_tokens"] for c in calls)
    generated_ms = sum(c["generation_ms"] for c in calls)
    return {
        "prompt_tokens_per_s": 1000 * read / read_ms if read_ms else 0.0,
        "generated_tokens_per_s": 1000 * generated / generated_ms if generated_ms else 0.0,
    }


def _warm_text(warmed: Any) -> str:
    if warmed is None:
        return "no warm-up"
    return (f"the warm-up read the fixed prompt, {warmed.prompt_tokens_read} tokens, in "
            f"{warmed.prompt_ms / 1000:.1f} s")


def _load(values: Sequence[float]) -> str:
    return " / ".join(f"{v:.2f}" for v in values)


def _cell(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split()).replace("|", "\\|")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _not_run(section: Section, reason: str) -> Section:
    section.body.append(f"**Not run:** {reason}")
    for question in QUESTIONS:
        section.goals.append(Goal(name=question.goal_name, target=question.goal_target,
                                  measured=f"not run: {reason[:200]}", status="not run"))
    return section
