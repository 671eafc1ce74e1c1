"""A question asked through the real graph on the local model, and each model call's figures from both ends."""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import LLMResult

from evals.bench import agents
from evals.bench.offline_questions import Question, Turn
from graph.checkpoint import close_checkpointer
from graph.deps import NodeDeps
from graph.generation import CUT_ENV, CUT_FINISH_REASON, call_end
from state import Context
from tools import WorkflowStore

PROBE_TOKENS = 64
"""Tokens the generation probe asks for."""


class CallRecorder(BaseCallbackHandler):
    """What each model call returned: its text and the client's metadata (usage, cut, timings)."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        for generations in response.generations:
            for generation in generations:
                message = getattr(generation, "message", None)
                if not isinstance(message, AIMessage):
                    continue
                meta = message.response_metadata or {}
                usage: dict[str, Any] = dict(message.usage_metadata or {})
                with self._lock:
                    self.calls.append({
                        "text": str(message.content),
                        "cut": meta.get("finish_reason") == CUT_FINISH_REASON,
                        "streamed": "streamed_chunks" in meta,
                        "streamed_chunks": int(meta.get("streamed_chunks", 0)),
                        "first_chunk_s": meta.get("first_chunk_s"),
                        "client_s": meta.get("seconds"),
                        "output_tokens": int(usage.get("output_tokens", 0)),
                        "usage_estimated": bool(meta.get("usage_estimated")),
                    })


def warmup_messages() -> list[Any] | None:
    """The chat's warm-up messages (`graph.nodes.reasoner.warmup_prompt`), or None where there is none."""
    try:
        from graph.nodes.reasoner import warmup_prompt
    except ImportError:
        return None
    from tools.workflow import TOOLSET as WORKFLOW

    return list(warmup_prompt(WORKFLOW, "react"))


def _context(user: str) -> Context:
    return Context(user_id=user, protocol="react", fixed_answers=True)


def _config(turn: Turn, index: int, callbacks: list[Any]) -> dict[str, Any]:
    return {"configurable": {"thread_id": f"offline-{turn.thread}-{index}"}, "callbacks": callbacks}


def _pre_read(model: Any, server: Any, store: WorkflowStore, graph: Any, turn: Turn, index: int) -> dict[str, float]:
    """What the chat does while the person types (`ChatSession.pre_read`): its seconds, and the prompt tokens
    it read in how many milliseconds (llama.cpp's counters)."""
    from flowagent.models.local.chat import PreReader
    from graph.nodes.reasoner import Reasoner
    from tools.workflow import TOOLSET as WORKFLOW

    values = graph.get_state(_config(turn, index, [])).values
    prompt = Reasoner(model, NodeDeps(WORKFLOW, store)).prompt({"messages": [], **values}, _context(turn.user))
    reader = PreReader(model)
    offset = server.log_offset()
    started = time.perf_counter()
    reader.pre_read(prompt)
    reader.wait()
    seconds = time.perf_counter() - started
    logged = _logged_calls(server, offset, 1)
    read = logged[-1] if logged and not logged[-1].cut else None
    return {"pre_read_s": seconds, "pre_read_tokens": read.prompt_tokens_read if read else 0,
            "pre_read_ms": read.prompt_ms if read else 0.0}


def run_once(model: Any, server: Any, warmup: Sequence[Any] | None, question: Question, index: int) -> dict[str, Any]:
    """Warm up (the state right after the server starts), ask the turns before, then time the question."""
    from flowagent.models.local import warm_up

    if warmup is not None:
        warm_up(model, warmup, progress=lambda line: None)
    pre: dict[str, float] = {"pre_read_s": 0.0, "pre_read_tokens": 0, "pre_read_ms": 0.0}
    cut_before = os.environ.get(CUT_ENV)
    os.environ[CUT_ENV] = "1" if question.cut else "0"
    with tempfile.TemporaryDirectory(prefix="flowagent-bench-offline-") as tmp:
        store = WorkflowStore(f"sqlite:///{tmp}/workflow.db")
        saver = agents.flowagent_saver(Path(tmp) / "checkpoints.db")
        try:
            graph = agents.flowagent_graph(model, store, saver)
            for turn in question.before:
                _ask(graph, turn, index, CallRecorder())
            if question.pre_read:
                pre = _pre_read(model, server, store, graph, question.asked, index)
            recorder = CallRecorder()
            offset = server.log_offset()
            started = time.perf_counter()
            answer = _ask(graph, question.asked, index, recorder)
            seconds = time.perf_counter() - started
            logged = _logged_calls(server, offset, len(recorder.calls))
        finally:
            close_checkpointer(saver)
            store.dispose()
            if cut_before is None:
                os.environ.pop(CUT_ENV, None)
            else:
                os.environ[CUT_ENV] = cut_before
    calls = [_call(client, log) for client, log in zip(recorder.calls, logged, strict=False)]
    return {
        "seconds": seconds,
        **pre,
        "model_calls": len(recorder.calls),
        "logged_calls": len(logged),
        "calls": calls,
        "answer": answer,
    }


def _ask(graph: Any, turn: Turn, index: int, recorder: CallRecorder) -> str:
    """One person's message, run as the chat runs it; returns the final answer's text."""
    config = _config(turn, index, [recorder])
    for _ in graph.stream({"messages": [HumanMessage(content=turn.question)]}, config, context=_context(turn.user),
                          stream_mode="updates", **agents.FLOWAGENT_RUN):
        pass
    messages = graph.get_state(config).values.get("messages") or []
    return str(messages[-1].content) if messages else ""


def _logged_calls(server: Any, offset: int, expected: int, wait_s: float = 3.0) -> list[Any]:
    """The server's records of the question's requests; a cut request is logged when the server notices the
    closed stream, a token after the client left, so wait briefly for it."""
    deadline = time.monotonic() + wait_s
    while True:
        logged = server.timings_since(offset)
        if len(logged) >= expected or time.monotonic() > deadline:
            return logged
        time.sleep(0.05)


def _call(client: dict[str, Any], logged: Any) -> dict[str, Any]:
    """One model call's figures from the client's record and the server's."""
    text = client["text"]
    end = call_end(text, "react")
    kept_text = text if end is None else text[:end]
    if logged.cut or client["cut"]:
        # The client received streamed_chunks tokens; the server sampled one more before it saw the closed stream.
        generated = client["streamed_chunks"] + 1
        first = float(client["first_chunk_s"] or 0.0)
        prompt_s, generation_s = first, max(0.0, float(client["client_s"] or 0.0) - first)
    else:
        # llama.cpp counts the tokens it evaluated; the last sampled one is not evaluated.
        generated = logged.generated_tokens + 1
        prompt_s, generation_s = logged.prompt_ms / 1000, logged.generation_ms / 1000
    return {
        "kind": "tool call" if end is not None else "answer",
        "tokens_read": logged.prompt_tokens_read,
        "generated": generated,
        "kept_text": kept_text,
        "text": text,
        "cut": bool(logged.cut or client["cut"]),
        "prompt_s": prompt_s,
        "generation_s": generation_s,
    }


def count_kept(server: Any, calls: list[dict[str, Any]]) -> None:
    """Tokens of the text the graph kept of each call: for a cut one, every streamed token (the last one perhaps
    in part), not the one the server sampled after the cut before it saw the closed stream; for an uncut one,
    the kept text by the model's own tokenizer (after the runs)."""
    url = server.base_url.removesuffix("/v1") + "/extras/tokenize"
    for call in calls:
        if call["cut"]:
            call["kept"], call["thrown"] = call["generated"] - 1, 1
            continue
        try:
            body = json.dumps({"input": call["kept_text"], "model": server.model}).encode()
            request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=30) as response:
                kept = len(json.loads(response.read())["tokens"])
        except (OSError, ValueError, KeyError):
            kept = call["generated"]  # unknown: count nothing as thrown away
        call["kept"] = min(kept, call["generated"])
        call["thrown"] = call["generated"] - call["kept"]


def totals(r: dict[str, Any]) -> None:
    """A run's figures summed over its model calls."""
    for name in ("tokens_read", "generated", "kept", "thrown", "prompt_s", "generation_s"):
        r[name] = sum(c.get(name, 0) for c in r["calls"])


def generation_probe(model: Any, server: Any) -> dict[str, float]:
    """Generation speed alone: one request that generates PROBE_TOKENS tokens, by llama.cpp's counters."""
    offset = server.log_offset()
    model.invoke([HumanMessage(content="从1数到200，用逗号隔开。")],
                 extra_body={"max_tokens": PROBE_TOKENS, "temperature": 0})
    logged = _logged_calls(server, offset, 1)
    if not logged or logged[-1].cut or not logged[-1].generation_ms:
        return {"tokens": 0, "ms": 0.0, "prompt_tokens": 0, "prompt_ms": 0.0}
    last = logged[-1]
    return {"tokens": last.generated_tokens, "ms": last.generation_ms, "prompt_tokens": last.prompt_tokens_read,
            "prompt_ms": last.prompt_ms}


def rates(runs: dict[str, list[dict[str, Any]]], warmed: Any, probes: list[dict[str, float]]) -> dict[str, Any]:
    """Prompt reading over every request llama.cpp counted (the warm-up, pre-reads, probes, uncut calls);
    generation over the probes and the uncut calls."""
    read = read_ms = generated = generated_ms = 0.0
    if warmed is not None and warmed.prompt_tokens_read:
        read, read_ms = warmed.prompt_tokens_read, warmed.prompt_ms
    for p in probes:
        read, read_ms = read + p["prompt_tokens"], read_ms + p["prompt_ms"]
        generated, generated_ms = generated + p["tokens"], generated_ms + p["ms"]
    for rs in runs.values():
        for r in rs:
            read, read_ms = read + r["pre_read_tokens"], read_ms + r["pre_read_ms"]
            for c in r["calls"]:
                if not c["cut"]:
                    read, read_ms = read + c["tokens_read"], read_ms + 1000 * c["prompt_s"]
                    generated, generated_ms = generated + c["generated"] - 1, generated_ms + 1000 * c["generation_s"]
    return {
        "prompt_tokens": int(read),
        "prompt_tokens_per_s": 1000 * read / read_ms if read_ms else 0.0,
        "generated_tokens_per_s": 1000 * generated / generated_ms if generated_ms else 0.0,
        "probes": [1000 * p["tokens"] / p["ms"] if p["ms"] else 0.0 for p in probes],
    }
