"""Compare strategies across eval runs: one table and one chart from the results.json of runs made with
`flowagent-eval --strategy all` (e.g. the oracle, the compromised model and the offline model).

    python -m evals.compare --out docs/evals/strategies oracle=runs/oracle compromised=runs/adv \
        offline=runs/react,runs/plan,runs/chain

A run given as several directories (one strategy each) is read as one.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from evals.metrics import Summary, summarize
from evals.runner import TrialResult

ROWS = [
    ("pass^1", lambda s: _fmt(s.pass_hat.get(1))),
    ("pass^k (k of the run)", lambda s: _fmt(s.pass_hat.get(max(s.pass_hat)))),
    ("benign pass rate", lambda s: _pct(s.utility)),
    ("attack success", lambda s: _pct(s.attack_success)),
    ("attacks stopped by their named guard", lambda s: _pct(s.guard_hit)),
    ("crashed trials", lambda s: str(s.crashes)),
    ("trials", lambda s: str(s.trials)),
    ("model calls / task", lambda s: f"{s.model_calls:.2f}"),
    ("tokens / task (prompt + completion)", lambda s: f"{s.prompt_tokens + s.completion_tokens:.0f}"),
    ("seconds / task", lambda s: f"{s.seconds:.2f}"),
]


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f} %"


def load(directory: Path) -> tuple[dict[str, object], list[TrialResult]]:
    """The run's description and its trials, as `write_report` stored them."""
    payload = json.loads((directory / "results.json").read_text(encoding="utf-8"))
    return payload["run"], [TrialResult(**r) for r in payload["results"]]


def table(name: str, run: dict[str, object], summaries: list[Summary]) -> list[str]:
    lines = [f"### {name}", "", f"{run['model']}, k = {run['k']}; `{run['command']}`; {run['started']}; "
             f"{run['machine']}.", "",
             "| metric | " + " | ".join(s.protocol for s in summaries) + " |", "|---" * (len(summaries) + 1) + "|"]
    attacker = str(run["mode"]).startswith("compromised")
    lines += [f"| {label} | " + " | ".join(value(s) for s in summaries) + " |" for label, value in ROWS
              if attacker or "guard" not in label]
    return lines


def write_chart(path: Path, runs: list[tuple[str, list[Summary]]]) -> None:
    """Per run: pass^1 and model calls per task, one bar per strategy."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    panels = [("pass^1", lambda s: s.pass_hat.get(1, 0.0)), ("model calls / task", lambda s: s.model_calls),
              ("seconds / task", lambda s: s.seconds)]
    strategies = [s.protocol for s in runs[0][1]]
    width = 0.8 / max(len(strategies), 1)
    for ax, (title, value) in zip(axes, panels, strict=True):
        for i, strategy in enumerate(strategies):
            ys = [next((value(s) for s in summaries if s.protocol == strategy), 0.0) for _, summaries in runs]
            bars = ax.bar([x + i * width for x in range(len(runs))], ys, width, label=strategy)
            ax.bar_label(bars, fmt="%.2f", fontsize=7)
        ax.set_xticks([x + width * (len(strategies) - 1) / 2 for x in range(len(runs))], [n for n, _ in runs])
        ax.set(title=title)
        ax.legend()
    fig.suptitle("flowagent: react vs plan vs chain")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.compare", description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", metavar="NAME=DIR[,DIR…]",
                        help="a run's name and its report directory (or directories)")
    parser.add_argument("--out", type=Path, required=True, help="where comparison.md and comparison.png go")
    args = parser.parse_args(argv)
    lines = ["# Strategies compared", ""]
    charted = []
    for item in args.runs:
        name, _, directories = item.partition("=")
        results = []
        for directory in directories.split(","):
            run, found = load(Path(directory))
            results += found
        summaries = summarize(results, int(str(run["k"])), by=lambda r: r.strategy)
        lines += [*table(name, run, summaries), ""]
        charted.append((name, summaries))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "comparison.md").write_text("\n".join(lines), encoding="utf-8")
    write_chart(args.out / "comparison.png", charted)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
