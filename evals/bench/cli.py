"""`flowagent-bench` (or `python -m evals.bench`): run every benchmark and write the report and plots."""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from evals.bench import report
from evals.bench.common import Goal, Section, Sizes, cpu_times, machine, quiet_environment, steal_share
from evals.extras import require

DEFAULT_OUT = Path(__file__).parent / "reports"
PROG = "flowagent-bench"
NEEDS = ("matplotlib", "langchain")
"""Modules of the `evals` extra the benchmarks import (plots; create_agent, the arm compared with)."""
WORKLOADS = ("steps", "tokens", "checkpoints", "concurrency", "memory", "offline")
TITLES = {
    "steps": "1. Cost per ReAct iteration",
    "tokens": "2. Prompt tokens per task",
    "checkpoints": "3. Checkpoint size on disk",
    "concurrency": "4. Concurrency",
    "memory": "5. Memory across supersteps",
    "offline": "6. Offline model",
}


def _runner(key: str) -> Callable[..., Section]:
    if key == "steps":
        from evals.bench.step_cost import run
    elif key == "tokens":
        from evals.bench.tokens import run
    elif key == "checkpoints":
        from evals.bench.checkpoints import run
    elif key == "concurrency":
        from evals.bench.concurrency import run
    elif key == "memory":
        from evals.bench.memory import run
    else:
        from evals.bench.offline import run
    return run


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Benchmarks side by side: step overhead, tokens per task, checkpoint size, concurrency, "
        "memory, the offline model. Writes report.md, results.json and PNG plots.",
    )
    parser.add_argument("--quick", action="store_true", help="tiny sizes for CI: checks everything runs; judges no goal")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"report directory (default {DEFAULT_OUT})")
    parser.add_argument("--only", default="", help=f"comma-separated workloads to run, of: {', '.join(WORKLOADS)}")
    parser.add_argument("--offline-model", action="store_true", help="also measure the local Qwen model (slow)")
    parser.add_argument("--no-server", action="store_true", help="skip the LangGraph dev server part of workload 4")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the selected workloads; 0 when each ran (missed goals are reported, not failed), 1 if one crashed."""
    args = parse_args(argv)
    problem = require(PROG, *NEEDS)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    quiet_environment()
    selected = [w.strip() for w in args.only.split(",") if w.strip()] or list(WORKLOADS)
    unknown = [w for w in selected if w not in WORKLOADS]
    if unknown:
        print(f"{PROG}: unknown workload {', '.join(unknown)}; choose from {', '.join(WORKLOADS)}", file=sys.stderr)
        return 2
    sizes = Sizes.for_mode(args.quick)
    out_dir: Path = args.out
    out_dir.mkdir(parents=True, exist_ok=True)
    started_at = datetime.now()
    started = time.perf_counter()
    times_before = cpu_times()
    sections: list[Section] = []
    crashed = False
    for key in WORKLOADS:
        if key not in selected:
            continue
        print(f"[bench] {TITLES[key]} ...", file=sys.stderr, flush=True)
        began = time.perf_counter()
        try:
            options = {"offline_model": args.offline_model} if key == "offline" else {}
            if key == "concurrency":
                options = {"server": not args.no_server}
            section = _runner(key)(sizes, out_dir, **options)
        except Exception as exc:  # noqa: BLE001 - one broken workload must not hide the others' results
            crashed = True
            section = Section(key=key, title=TITLES[key])
            section.body.append(f"**The workload crashed:** `{type(exc).__name__}: {exc}`")
            section.body.append("```\n" + traceback.format_exc()[-3000:] + "\n```")
            section.goals.append(Goal(name=TITLES[key], target="runs", measured=f"{type(exc).__name__}", status="error"))
            traceback.print_exc()
        section.seconds = time.perf_counter() - began
        print(f"[bench]   done in {section.seconds:.1f} s", file=sys.stderr, flush=True)
        sections.append(section)
    seconds = time.perf_counter() - started
    steal = steal_share(times_before, cpu_times())
    path = report.write(
        out_dir, sections, machine=machine(), quick=args.quick, seconds=seconds, started=started_at, steal=steal
    )
    print(report.goals_table(sections))
    print(f"\nreport: {path} ({seconds:.0f} s)")
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
