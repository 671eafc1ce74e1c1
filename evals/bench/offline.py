"""Workload 6: seconds per step and generated tokens per second of the offline Qwen model (reported)."""

from __future__ import annotations

import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import HumanMessage
from langchain_core.outputs import LLMResult

from evals.bench import agents
from evals.bench.common import Goal, Section, Sizes, median, table
from state import Context
from tools import REGISTRY, WorkflowStore

QUESTIONS = (("user_1", "有哪些流程？"), ("user_2", "我有哪些待办？"))
PROBE_QUESTION = "有哪些流程？"
NOT_ASKED = "not run: pass `--offline-model` (it starts the local Qwen model with llama.cpp; minutes on 2 cores)"


class CallTimer(BaseCallbackHandler):
    """Wall time and token usage of each model call."""

    def __init__(self) -> None:
        self.started: dict[UUID, float] = {}
        self.calls: list[dict[str, float]] = []
        self._lock = threading.Lock()

    def on_chat_model_start(self, serialized: dict[str, Any], messages: Any, *, run_id: UUID, **kwargs: Any) -> None:
        with self._lock:
            self.started[run_id] = time.perf_counter()

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        with self._lock:
            began = self.started.pop(run_id, None)
        if began is None:
            return
        usage: dict[str, Any] = {}
        for generations in response.generations:
            for generation in generations:
                usage = getattr(getattr(generation, "message", None), "usage_metadata", None) or usage
        with self._lock:
            self.calls.append(
                {
                    "seconds": time.perf_counter() - began,
                    "prompt_tokens": float(usage.get("input_tokens", 0)),
                    "completion_tokens": float(usage.get("output_tokens", 0)),
                }
            )


def run(sizes: Sizes, out_dir: Path, *, offline_model: bool = False) -> Section:
    section = Section(key="offline", title="6. Offline model")
    if not offline_model:
        section.body.append(f"**{NOT_ASKED}.**")
        section.goals.append(Goal(name="6. offline Qwen: s/step, tokens/s", target="reported", measured=NOT_ASKED,
                                  status="not run"))
        return section
    try:
        from graph import local_model
    except ImportError as exc:
        return _not_run(section, f"graph.local_model is not importable ({exc})")
    try:
        path = local_model.ensure_model("qwen")
        local_model.ensure_llama_server()
        server = local_model.start_local_server(path)
    except local_model.LocalModelError as exc:
        return _not_run(section, str(exc))
    try:
        from langchain_openai import ChatOpenAI

        settings = local_model.default_local_model_settings()
        model = ChatOpenAI(**settings.chat_openai_kwargs(server))
        timer = CallTimer()
        questions = QUESTIONS[:1] if sizes.quick else QUESTIONS
        with tempfile.TemporaryDirectory(prefix="flowagent-bench-offline-") as tmp:
            store = WorkflowStore(f"sqlite:///{tmp}/workflow.db")
            saver = agents.flowagent_saver(Path(tmp) / "checkpoints.db")
            try:
                graph = agents.flowagent_graph(model, store, saver)
                for index, (user, question) in enumerate(questions):
                    config = {"configurable": {"thread_id": f"offline-{index}"}, "callbacks": [timer]}
                    graph.invoke({"messages": [HumanMessage(content=question)]}, config,
                                 context=Context(user_id=user, protocol=settings.protocol))
                probe = stream_probe(model, graph, store)
            finally:
                agents.close_saver(saver)
                store.dispose()
    finally:
        server.stop()
    calls = timer.calls
    if not calls:
        return _not_run(section, "the model was never called")
    seconds = [c["seconds"] for c in calls]
    generated = sum(c["completion_tokens"] for c in calls)
    rate = generated / sum(seconds) if sum(seconds) else 0.0
    section.body.append(
        f"The pinned Qwen model (`{Path(path).name}`) served by llama.cpp on this machine (`graph.local_model`), "
        f"driving flowagent with its settings (protocol `{settings.protocol}`, temperature {settings.temperature}) on "
        f"{len(questions)} question(s); each model call is one ReAct step. Tokens as the server reports them; "
        "tokens/s = generated tokens ÷ the calls' wall time (prompt processing included)."
    )
    section.body.append(
        table(
            ["model calls", "s/step (median)", "s/step (mean)", "prompt tokens/step", "generated tokens", "generated tokens/s"],
            [[len(calls), f"{median(seconds):.1f}", f"{sum(seconds) / len(seconds):.1f}",
              f"{sum(c['prompt_tokens'] for c in calls) / len(calls):.0f}", f"{generated:.0f}", f"{rate:.1f}"]],
        )
    )
    section.body.append(
        f"One reasoner prompt streamed on its own: the first token after {probe['first_token_s']:.1f} s (llama.cpp "
        "reuses the prompt prefix it has cached, so this is the uncached tail), then "
        f"{probe['generated']:.0f} tokens at {probe['generation_rate']:.1f} tokens/s. On 2 cores most of a step is "
        "prompt processing (system prompt, tool list and history), which the median s/step above includes."
    )
    section.goals.append(
        Goal(name="6. offline Qwen: s/step, tokens/s", target="reported",
             measured=f"{median(seconds):.1f} s/step (median); generation {probe['generation_rate']:.1f} tokens/s",
             status="not judged")
    )
    section.data = {"calls": calls, "probe": probe}
    return section


def stream_probe(model: Any, graph: Any, store: WorkflowStore) -> dict[str, float]:
    """Stream one reasoner prompt: time to the first token (prompt processing), then the generation rate."""
    from graph.reasoner import Reasoner

    context = Context(user_id="user_1", protocol="react")
    reasoner = Reasoner(model, store, REGISTRY)
    prompt = reasoner.prompt({"messages": [HumanMessage(content=PROBE_QUESTION)]}, context)  # type: ignore[typeddict-item]
    started = time.perf_counter()
    first = 0.0
    chunks = 0
    usage: dict[str, Any] = {}
    for chunk in model.stream(prompt, stream_usage=True):
        if chunk.content and not first:
            first = time.perf_counter() - started
        if chunk.content:
            chunks += 1
        usage = chunk.usage_metadata or usage
    total = time.perf_counter() - started
    generated = float(usage.get("output_tokens") or chunks)
    return {
        "first_token_s": first,
        "generated": generated,
        "generation_rate": max(generated - 1, 0) / (total - first) if total > first else 0.0,
    }


def _not_run(section: Section, reason: str) -> Section:
    section.body.append(f"**Not run:** {reason}")
    section.goals.append(Goal(name="6. offline Qwen: s/step, tokens/s", target="reported",
                              measured=f"not run: {reason[:200]}", status="not run"))
    return section
