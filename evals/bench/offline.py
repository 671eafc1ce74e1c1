"""Workload 6: how fast the offline Qwen model answers a person, question by question, through the real graph.

The local server is started as the chat starts it (`flowagent.models.endpoint.start_local_model`: the llama.cpp build for
this CPU, every usable core, the fixed prompt read ahead), and each question runs through `build_graph` with
the chat's langchain-openai model, the `react` protocol, `graph.stream(..., durability="sync")`, on a fresh
WorkflowStore. Questions marked *as the chat runs it* are asked after the chat's pre-read
(`flowagent.chat.session.ChatSession.pre_read`: the conversation so far, read while the person types; the bench
waits for it as a person typing the question would). Per call: the prompt tokens llama.cpp really read (its
log), the tokens generated and how many of them the graph kept (the rest was thrown away: text after the
complete call, a stop sequence), and the time spent reading and generating (llama.cpp's counters; for a reply
the client cut at its complete call, the client's own clock).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from evals.bench.common import Goal, Section, Sizes
from evals.bench.offline_calls import count_kept, generation_probe, run_once, totals, warmup_messages
from evals.bench.offline_questions import QUESTIONS, goal_names
from evals.bench.offline_report import Measured, write

REPEATS = 5
NOT_ASKED = "not run: pass `--offline-model` (it starts the local Qwen model with llama.cpp; minutes on 2 cores)"


def run(sizes: Sizes, out_dir: Path, *, offline_model: bool = False) -> Section:
    """Workload 6's section: measured when `offline_model` is asked for and the local model starts, else not run."""
    section = Section(key="offline", title="6. Offline model")
    if not offline_model:
        section.body.append(f"**{NOT_ASKED}.**")
        for name, target in goal_names():
            section.goals.append(Goal(name=name, target=target, measured=NOT_ASKED, status="not run"))
        return section
    try:
        from flowagent.models import endpoint as chat_models
        from flowagent.models import local as local_model
    except ImportError as exc:
        return _not_run(section, f"flowagent.models.local is not importable ({exc})")
    load_before = os.getloadavg()
    began = time.perf_counter()
    # The report reads llama.cpp's counters of tokens read and generated, and projects them to the slower machine's
    # rates: guessed tokens are checked as prompt reads, which would blur the two. Unless told otherwise, the
    # benchmark measures the server as it runs without them (the chat's own times with them: evals.seed_chat).
    os.environ.setdefault(local_model.LOOKUP_DRAFT_ENV, "0")
    try:
        settings = chat_models.start_local_model(protocol="react")
    except local_model.LocalModelError as exc:
        return _not_run(section, str(exc))
    startup_s = time.perf_counter() - began
    server = chat_models.running_local_server()
    repeats = 1 if sizes.quick else REPEATS
    try:
        runs, probes, loads, warm_up_prompt = _measure(chat_models.make_chat_model(settings), server, repeats)
    finally:
        chat_models.stop_local_model()
    measured = Measured(
        server=server, build=local_model.cpu_build(), usable_cpus=local_model.usable_cpus(), startup_s=startup_s,
        warmed=server.warm_up, warm_up_prompt=warm_up_prompt, repeats=repeats, runs=runs, probes=probes,
        loads=loads, load_before=load_before, load_after=os.getloadavg(),
    )
    return write(section, measured, sizes)


Runs = dict[str, list[dict[str, Any]]]


def _measure(model: Any, server: Any, repeats: int) -> tuple[Runs, list[dict[str, float]], list[float], bool]:
    """Each question `repeats` times, the questions taking turns, between two generation probes: the runs by
    question, the probes, the load as each question started, and whether the graph had a warm-up to read."""
    messages = warmup_messages()
    runs: Runs = {q.key: [] for q in QUESTIONS}
    loads: list[float] = []
    probes = [generation_probe(model, server)]
    for index in range(repeats):
        for question in QUESTIONS:
            loads.append(os.getloadavg()[0])
            runs[question.key].append(run_once(model, server, messages, question, index))
            runs[question.key][-1]["load"] = loads[-1]
    probes.append(generation_probe(model, server))
    count_kept(server, [c for rs in runs.values() for r in rs for c in r["calls"]])
    for rs in runs.values():
        for r in rs:
            totals(r)
    return runs, probes, loads, messages is not None


def _not_run(section: Section, reason: str) -> Section:
    section.body.append(f"**Not run:** {reason}")
    for name, target in goal_names():
        section.goals.append(Goal(name=name, target=target, measured=f"not run: {reason[:200]}", status="not run"))
    return section
