"""Measure the offline model: server start, prompt processing and generation speed for some thread counts.

Usage: .venv/bin/python scripts/bench_local_model.py [qwen|smollm2] [GEN_THREADS/BATCH_THREADS ...]
Numbers depend on what else runs on the machine: llama.cpp's threads spin at barriers, so a busy CPU
slows a two-thread server far more than a one-thread one.
"""

from __future__ import annotations

import re
import sys
import time

from langchain_openai import ChatOpenAI

from graph.local_model import (
    MODELS,
    default_local_model_settings,
    ensure_llama_server,
    ensure_model,
    start_local_server,
)

SYSTEM = (
    "You are a workflow assistant. Answer the user's question using these tools when needed.\n"
    + "\n".join(
        f"- tool_{i}: does workflow operation number {i} with arguments user_id and comment"
        for i in range(60)
    )
    + "\nUse the format:\nThought: ...\nAction: tool name\nAction Input: JSON\nObservation: ...\n"
    "...\nFinal Answer: ..."
)


def perf(log: str) -> str:
    lines = [line for line in log.splitlines() if "llama_perf_context_print" in line and "eval time" in line]
    out = []
    for line in lines[-2:]:
        m = re.search(
            r"(prompt eval|eval) time =\s*([\d.]+) ms /\s*(\d+) (?:tokens|runs).*?([\d.]+) tokens per second",
            line,
        )
        if m:
            out.append(
                f"{m.group(1)}: {m.group(3)} tokens in {float(m.group(2)) / 1000:.1f} s = {m.group(4)} tok/s"
            )
    return "; ".join(out)


def main() -> int:
    name = sys.argv[1] if len(sys.argv) > 1 else "qwen"
    configs = sys.argv[2:] or ["1/2", "2/2"]
    ensure_llama_server()
    t0 = time.monotonic()
    path = ensure_model(name)
    print(f"ensure_model({name!r}): {time.monotonic() - t0:.2f} s", flush=True)
    settings = default_local_model_settings()
    for config in configs:
        gen, _, batch = config.partition("/")
        n, nb = int(gen), int(batch or gen)
        t0 = time.monotonic()
        with start_local_server(
            path, model_alias=MODELS[name].alias, n_threads=n, n_threads_batch=nb, progress=lambda _: None
        ) as server:
            started = time.monotonic() - t0
            chat = ChatOpenAI(**settings.chat_openai_kwargs(server), extra_body={"max_tokens": 96})
            t1 = time.monotonic()
            reply = chat.invoke([("system", SYSTEM), ("user", "有哪些流程？")])
            took = time.monotonic() - t1
            usage = reply.response_metadata.get("token_usage") or {}
            log = server.log_path.read_text(errors="replace")
        print(
            f"threads={n}/{nb}: server ready {started:.1f} s; answer {took:.1f} s "
            f"(prompt {usage.get('prompt_tokens')} tokens, completion {usage.get('completion_tokens')}); "
            f"{perf(log)}",
            flush=True,
        )
        print("   reply:", str(reply.content)[:160].replace("\n", " | "), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
