"""The offline model's section written from what was measured: how, the tables, the goals and the raw data."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evals.bench.common import Goal, Section, Sizes, judge, median, table
from evals.bench.offline_calls import PROBE_TOKENS, rates
from evals.bench.offline_questions import CALLS_GOAL, FIGURES, MAX_CALL_TOKENS, QUESTIONS, goal_text

SLOW_GENERATION = 11.0
"""Tokens/s the slower machine of issue 21 generates on two threads (Intel Xeon, AVX-512, no AMX)."""
SLOW_PROMPT = 56.0
"""Prompt tokens/s the slower machine reads (the low end of its 56-71)."""
CPU_FLAGS = ("avx", "avx2", "fma", "f16c", "avx_vnni", "avx512f", "avx512_vnni", "avx512_bf16", "avx512vbmi",
             "amx_tile", "amx_int8", "amx_bf16")


@dataclass
class Measured:
    """Everything one measurement of the local model gathered, as the section is written from it."""

    server: Any
    """The running local server: its model, threads, log."""
    build: Any
    """The llama.cpp build for this CPU."""
    usable_cpus: int
    startup_s: float
    warmed: Any
    """The server's warm-up timings, or None."""
    warm_up_prompt: bool
    """Whether the graph has a warm-up prompt to read ahead."""
    repeats: int
    runs: dict[str, list[dict[str, Any]]]
    """Each question's runs, by its key."""
    probes: list[dict[str, float]]
    loads: list[float]
    """The 1-minute load average as each question started."""
    load_before: Sequence[float]
    load_after: Sequence[float]


@dataclass
class Figures:
    """What the section reports, worked out from the runs."""

    medians: dict[str, dict[str, float]]
    rates: dict[str, Any]
    tool_calls: int
    most: int
    generated: int
    thrown: int
    most_before: int
    generated_before: int
    thrown_before: int


def figures(m: Measured) -> Figures:
    """Medians per question, the rates, and the tokens generated and thrown away, as the chat runs now and before."""
    medians = {key: {f: median([r[f] for r in rs]) for f in FIGURES} for key, rs in m.runs.items()}
    now = [c for q in QUESTIONS if q.cut for r in m.runs[q.key] for c in r["calls"]]
    before = [c for q in QUESTIONS if not q.cut for r in m.runs[q.key] for c in r["calls"]]
    tool_calls = [c for c in now if c["kind"] == "tool call"]
    return Figures(
        medians=medians,
        rates=rates(m.runs, m.warmed, m.probes),
        tool_calls=len(tool_calls),
        most=max((c["generated"] for c in tool_calls), default=0),
        generated=sum(c["generated"] for c in now),
        thrown=sum(c["thrown"] for c in now),
        most_before=max((c["generated"] for c in before if c["kind"] == "tool call"), default=0),
        generated_before=sum(c["generated"] for c in before),
        thrown_before=sum(c["thrown"] for c in before),
    )


def write(section: Section, m: Measured, sizes: Sizes) -> Section:
    """The section's text, tables, goals and data."""
    f = figures(m)
    _describe(section, m)
    _tables(section, m, f)
    _goals(section, m, f, sizes)
    section.data = _data(m, f)
    return section


def _describe(section: Section, m: Measured) -> None:
    """How the questions were run, and on what machine."""
    server, build = m.server, m.build
    cpu = f"{build.model}; flags {', '.join(cpu_flags()) or 'none of ' + ', '.join(CPU_FLAGS)}; llama.cpp built " \
          f"with {', '.join(build.features) or 'no vector extensions'} (never AMX)"
    threads = (f"{server.n_threads} generating, {server.n_threads_batch} reading the prompt "
               f"(of {m.usable_cpus} usable CPUs), waiting at barriers with "
               f"{server.openmp_wait or 'OpenMP defaults'}")
    section.body.append(
        f"The pinned Qwen2.5-Coder-1.5B Q4_K_M (`{server.model_path.name}`) on llama.cpp, started as the chat "
        f"starts it (ready and warmed up after {m.startup_s:.1f} s; {_warm_text(m.warmed)}). Each question runs "
        "through the real graph (react protocol and fixed answers, the chat's langchain-openai client, "
        "`durability=\"sync\"`) on a fresh store, after the warm-up and the turns listed; figures are medians of "
        f"{m.repeats} run(s), the questions taking turns. Replies stop at their complete call (`graph.generation`) "
        "except in the rows *as before*, which generate them whole as the chat did before issue 21 and have no "
        "pre-read. *As the chat runs it*: after the "
        "chat's pre-read of the conversation so far (the chat sends it while the person types; here the bench "
        "waits for it, and *pre-read* is how long it took). *Time to answer*: from sending the person's message "
        "to the final answer. *Tokens re-read*: prompt tokens llama.cpp actually evaluated, summed over the "
        "answer's model calls. *Generated*: tokens the model sampled; *kept*: those of the text the graph uses "
        "(the call up to its end, or the whole answer); the rest was thrown away. Prompt and generation time are "
        "llama.cpp's own counters, or for a cut reply the client's clock (time to its first token, then the "
        "rest); the remainder of the time to answer is the graph, HTTP and sampling. *Load*: the 1-minute load "
        "average as the question started (median of its runs)."
    )
    if not m.warm_up_prompt:
        section.body.append("**No warm-up:** `graph.nodes.reasoner.warmup_prompt` does not exist here, so question (a) "
                            "reads the whole system prompt.")
    section.body.append(
        f"CPU: {cpu}. Threads: {threads}. Load average (1/5/15 min) before: {_load(m.load_before)}; after: "
        f"{_load(m.load_after)}; 1-minute load at the start of each question: {min(m.loads):.2f}–{max(m.loads):.2f} "
        f"(median {median(m.loads):.2f})."
    )


def _tables(section: Section, m: Measured, f: Figures) -> None:
    """The medians per question, the tokens thrown away, every run's calls, and the rates."""
    rows = []
    for question in QUESTIONS:
        med = f.medians[question.key]
        turns = "; ".join(f"{t.user}: {t.question}" for t in question.before) or "(none)"
        rows.append([
            f"({question.key}) {question.title}", turns, f"{question.asked.user}: {question.asked.question}",
            f"{med['seconds']:.1f} s", f"{med['tokens_read']:.0f}", f"{med['generated']:.0f}", f"{med['thrown']:.0f}",
            f"{med['prompt_s']:.1f} s", f"{med['generation_s']:.1f} s", f"{med['model_calls']:.0f}",
            f"{med['pre_read_s']:.1f} s" if question.pre_read else "—", f"{med['load']:.1f}", goal_text(question, med),
        ])  # fmt: skip
    section.body.append(
        table(["question", "asked before", "measured", "time to answer", "tokens re-read", "tokens generated",
               "thrown away", "prompt time", "generation time", "model calls", "pre-read", "load", "goal"], rows)
    )
    section.body.append(
        f"Tokens generated in the measured calls as the chat runs them now: {f.generated}, of which {f.thrown} "
        f"({_share(f.thrown, f.generated)}) were thrown away (for a cut call, the one token the server samples before "
        f"it sees the closed stream); the most any tool call generated: {f.most} (goal ≤ {MAX_CALL_TOKENS}: "
        f"{'met' if f.most <= MAX_CALL_TOKENS else 'missed'}). As before (whole replies): {f.generated_before}, of "
        f"which {f.thrown_before} ({_share(f.thrown_before, f.generated_before)}) were thrown away (the model's text "
        f"after its call, and the stop sequence); the most a tool call generated: {f.most_before}."
    )
    section.body.append(
        table(["question", "run", "time to answer", "calls: read / generated / kept (cut?)", "answer"],
              [[f"({q.key})", i + 1, f"{r['seconds']:.1f} s", "; ".join(_call_cell(c) for c in r["calls"]),
                _cell(r["answer"])]
               for q in QUESTIONS for i, r in enumerate(m.runs[q.key])])
    )
    mismatched = [f"({q.key}) run {i + 1}" for q in QUESTIONS for i, r in enumerate(m.runs[q.key])
                  if r["logged_calls"] != r["model_calls"]]
    if mismatched:
        section.body.append(f"**Warning:** the server logged another number of requests than the graph made in "
                            f"{', '.join(mismatched)}; the token and time figures of those runs are not reliable.")
    section.body.append(
        f"Rates (llama.cpp's counters): prompt reading {f.rates['prompt_tokens_per_s']:.0f} tokens/s over "
        f"{f.rates['prompt_tokens']} tokens (the warm-up, the pre-reads and every request that ran to its end); "
        f"generation {f.rates['generated_tokens_per_s']:.1f} tokens/s on {m.server.n_threads} threads "
        f"({', '.join(f'{p:.1f}' for p in f.rates['probes'])} tokens/s in a {PROBE_TOKENS}-token probe before and "
        "after the questions)."
    )
    section.body.append(_slow_machine_text(f.rates, f.medians))


def _goals(section: Section, m: Measured, f: Figures, sizes: Sizes) -> None:
    """Each question's goal, then the tokens a tool call may generate."""
    for question in QUESTIONS:
        if not question.goal_name:
            continue
        med = f.medians[question.key]
        value = med[question.metric]
        measured = (f"{value:.1f} s" if question.metric == "seconds" else f"{value:.0f} tokens") + (
            f" (median of {m.repeats}; {med['tokens_read']:.0f} tokens re-read, {med['generated']:.0f} generated, "
            f"{med['model_calls']:.0f} model calls)"
            if question.metric == "seconds" else f" (median of {m.repeats}; answered in {med['seconds']:.1f} s)"
        )
        section.goals.append(Goal(name=question.goal_name, target=question.goal_target, measured=measured,
                                  status=judge(value <= question.limit, sizes.quick)))
    section.goals.append(Goal(
        name=CALLS_GOAL, target=f"≤ {MAX_CALL_TOKENS} tokens",
        measured=f"{f.most} tokens ({f.tool_calls} tool calls; {_share(f.thrown, f.generated)} of all generated "
                 "tokens thrown away)",
        status=judge(bool(f.tool_calls) and f.most <= MAX_CALL_TOKENS, sizes.quick),
    ))


def _data(m: Measured, f: Figures) -> dict[str, Any]:
    """The raw figures, for results.json."""
    server, build = m.server, m.build
    return {
        "model": server.model_path.name,
        "cpu": build.model,
        "cpu_flags": cpu_flags(),
        "cpu_build": {"key": build.key, "features": list(build.features), "cmake_args": build.cmake_args},
        "threads": {"generation": server.n_threads, "prompt": server.n_threads_batch,
                    "usable_cpus": m.usable_cpus, "openmp_wait": server.openmp_wait},
        "load_before": list(m.load_before),
        "load_after": list(m.load_after),
        "load_at_questions": m.loads,
        "startup_s": m.startup_s,
        "warm_up": m.warmed.as_dict() if m.warmed is not None else None,
        "repeats": m.repeats,
        "medians": f.medians,
        "rates": f.rates,
        "tokens": {"generated": f.generated, "thrown": f.thrown, "most_for_a_tool_call": f.most,
                   "as_before": {"generated": f.generated_before, "thrown": f.thrown_before,
                                 "most_for_a_tool_call": f.most_before}},
        "runs": m.runs,
    }


def _slow_machine_text(rates: dict[str, Any], medians: dict[str, dict[str, float]]) -> str:
    """How the timed goals hold at the slower machine's rates: tokens read and generated per answer times those
    rates, plus the rest of the time to answer as measured here."""
    rows = []
    for question in QUESTIONS:
        if question.metric != "seconds" or not question.goal_name:
            continue
        m = medians[question.key]
        rest = max(0.0, m["seconds"] - m["prompt_s"] - m["generation_s"])
        at_slow = m["tokens_read"] / SLOW_PROMPT + m["generated"] / SLOW_GENERATION + rest
        rows.append([f"({question.key})", f"{m['tokens_read']:.0f}", f"{m['generated']:.0f}", f"{rest:.1f} s",
                     f"{at_slow:.1f} s", question.goal_target,
                     "met" if at_slow <= question.limit else "missed"])
    faster = rates["generated_tokens_per_s"] > SLOW_GENERATION
    lead = (f"This machine generated {rates['generated_tokens_per_s']:.1f} tokens/s, faster than the slower machine's "
            f"{SLOW_GENERATION:g}: at that machine's rates ({SLOW_PROMPT:g} prompt tokens/s, {SLOW_GENERATION:g} "
            "generated tokens/s on two threads) the timed goals come to:"
            if faster else
            f"This machine generated {rates['generated_tokens_per_s']:.1f} tokens/s (the slower machine: "
            f"{SLOW_GENERATION:g}); at the slower machine's rates ({SLOW_PROMPT:g} prompt tokens/s, {SLOW_GENERATION:g} "
            "generated tokens/s) the same answers come to:")
    return lead + "\n\n" + table(
        ["question", "tokens read", "tokens generated", "graph, HTTP, sampling", f"at {SLOW_GENERATION:g} tokens/s",
         "goal", ""], rows)


def cpu_flags() -> list[str]:
    """The vector extensions of CPU_FLAGS this CPU has."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    flags = next((set(line.split(":", 1)[1].split()) for line in text.splitlines() if line.startswith("flags")), set())
    return [f for f in CPU_FLAGS if f in flags]


def _call_cell(c: dict[str, Any]) -> str:
    return f"{c['tokens_read']} / {c['generated']} / {c.get('kept', '?')}{' (cut)' if c['cut'] else ''}"


def _share(part: float, whole: float) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "—"


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
