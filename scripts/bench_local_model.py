"""Measure the offline model's server settings: prompt reading and generation speed per configuration.

Usage: .venv/bin/python scripts/bench_local_model.py [qwen|smollm2] [CONFIG ...]

A CONFIG is GEN_THREADS/PROMPT_THREADS, optionally followed by llama_cpp.server options and NAME=VALUE
environment variables for the server, joined with commas, e.g. ``2/2``, ``1/2``, ``2/2,--flash_attn,true``,
``2/2,OMP_WAIT_POLICY=PASSIVE``; the default compares ``2/2`` (flowagent's default on two
cores) with ``1/2``. For each configuration the server starts, reads a long prompt from scratch, then answers
``--repeats`` requests that share that prompt and generate up to 64 tokens each; the figures are llama.cpp's
own counters (`LocalServer.timings_since`), medians over the repeats. Numbers depend on what else runs on the
machine (the load average is printed): llama.cpp's threads spin at barriers, so a busy CPU slows a
two-thread server far more than a one-thread one.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from langchain_openai import ChatOpenAI

from flowagent.models.local import (
    MODELS,
    default_local_model_settings,
    ensure_llama_server,
    ensure_model,
    start_local_server,
    usable_cpus,
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
QUESTIONS = ("有哪些流程？", "有哪些用户？", "我有哪些待办？", "请帮我请两天假。", "给李四发邮件提醒他审批。")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", nargs="?", default="qwen", choices=sorted(MODELS))
    parser.add_argument("configs", nargs="*", default=["2/2", "1/2"])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    build = ensure_llama_server()
    path = ensure_model(args.name)
    print(f"{build.model}: llama.cpp built with {', '.join(build.features)}; {usable_cpus()} usable CPUs", flush=True)
    settings = default_local_model_settings()
    for config in args.configs:
        threads, *rest = config.split(",")
        env = dict(item.split("=", 1) for item in rest if "=" in item and not item.startswith("-"))
        extra = [item for item in rest if item not in {f"{k}={v}" for k, v in env.items()}]
        saved = {name: os.environ.get(name) for name in env}
        os.environ.update(env)
        gen, _, batch = threads.partition("/")
        n, nb = int(gen), int(batch or gen)
        load = os.getloadavg()[0]
        t0 = time.monotonic()
        with start_local_server(
            path, model_alias=MODELS[args.name].alias, n_threads=n, n_threads_batch=nb, extra_args=extra,
            progress=lambda _: None,
        ) as server:  # fmt: skip
            started = time.monotonic() - t0
            chat = ChatOpenAI(**{**settings.chat_openai_kwargs(server), "extra_body": {"max_tokens": 64}})
            offset = server.log_offset()
            chat.invoke([("system", SYSTEM), ("user", f"{os.urandom(4).hex()}")])  # the whole prompt, read cold
            [cold] = server.timings_since(offset)
            answers = []
            offset = server.log_offset()
            for question in (QUESTIONS * args.repeats)[: args.repeats]:
                t1 = time.monotonic()
                reply = chat.invoke([("system", SYSTEM), ("user", question)])
                answers.append((time.monotonic() - t1, str(reply.content)))
            warm = server.timings_since(offset)
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        read_rate = 1000 * cold.prompt_tokens_read / cold.prompt_ms
        gen_rate = statistics.median(1000 * t.generated_tokens / t.generation_ms for t in warm if t.generation_ms)
        print(
            f"threads {n}/{nb} {' '.join(rest)}: ready in {started:.1f} s; cold prompt {cold.prompt_tokens_read} tokens "
            f"in {cold.prompt_ms / 1000:.1f} s = {read_rate:.0f} tokens/s; generation {gen_rate:.1f} tokens/s "
            f"(median of {len(warm)}); answer {statistics.median(s for s, _ in answers):.1f} s; "
            f"load before {load:.2f}, after {os.getloadavg()[0]:.2f}",
            flush=True,
        )
        print("   reply:", answers[0][1][:160].replace("\n", " | "), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
