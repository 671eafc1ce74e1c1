"""Count the machine instructions one ReAct iteration costs, flowagent against the five-step floor (valgrind).

Usage: .venv/bin/python scripts/step_instructions.py [--steps N] [--arms flowagent,floor]

The steps benchmark's ratio moves by several per cent from one run to the next on a 2-core virtual machine, even
with no CPU stolen by the host, so it cannot judge a goal it meets or misses by a few per cent. An instruction count
moves by less than one per cent: each arm's run of `--steps` steps (the steps workload's own,
`evals.bench.step_cost`) is counted by valgrind's callgrind twice, in one process that runs it once and one that runs
it three times, and the difference, divided by two runs of N steps, is what one iteration costs. Start-up, imports
and warm-up cancel out. Garbage collection before each run is left out (the workload collects outside its timer).

What the count leaves out: time spent waiting (valgrind runs one thread at a time, so a hop to another thread costs
only its instructions) and the CPU's caches. It measures the work; the benchmark measures the time.

Needs valgrind (Debian's `valgrind` package). Each count takes one to two minutes; two run at once.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ARMS = {"flowagent": "flowagent", "floor": "five-step floor, flowagent's saver"}
RUNS = 2
"""Extra runs in the second process: the difference between the two processes is this many runs."""


def _child(arm: str, steps: int, runs: int) -> None:
    """What runs under valgrind: the workload's store and warm-up, then `runs` + 1 runs of `arm`."""
    from evals.bench import step_cost

    step_cost.gc.collect = lambda *args: 0  # type: ignore[assignment]  # this process only: see the docstring
    with tempfile.TemporaryDirectory() as tmp:
        bench = step_cost.Bench(Path(tmp), steps)
        try:
            for name in ARMS.values():
                bench.run(name, 3)
            for _ in range(runs + 1):
                bench.run(ARMS[arm], steps)
        finally:
            bench.close()


def count(arm: str, steps: int, runs: int) -> int:
    """Instructions of one process that runs `arm` `runs` + 1 times (callgrind's total)."""
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--cache-sim=no", "--branch-sim=no",
        sys.executable, __file__, "--child", arm, "--steps", str(steps), "--runs", str(runs),
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed for {arm} (exit {done.returncode}):\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=30, help="tool steps per run (default 30)")
    parser.add_argument("--arms", default="flowagent,floor", help="comma-separated, of: " + ", ".join(ARMS))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--runs", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.steps, args.runs)
        return
    arms = [arm.strip() for arm in args.arms.split(",") if arm.strip()]
    unknown = [arm for arm in arms if arm not in ARMS]
    if unknown:
        parser.error(f"unknown arm {', '.join(unknown)}; choose from {', '.join(ARMS)}")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    jobs = [(arm, runs) for arm in arms for runs in (0, RUNS)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        counts = dict(zip(jobs, pool.map(lambda job: count(job[0], args.steps, job[1]), jobs), strict=True))
    per_iteration = {arm: (counts[(arm, RUNS)] - counts[(arm, 0)]) / (RUNS * args.steps) for arm in arms}
    for arm, value in per_iteration.items():
        print(f"{arm:10s} {value / 1e6:8.2f} million instructions per iteration (N = {args.steps})")
    if "flowagent" in per_iteration and "floor" in per_iteration:
        print(f"flowagent ÷ floor: {per_iteration['flowagent'] / per_iteration['floor']:.3f}×")


if __name__ == "__main__":
    main()
