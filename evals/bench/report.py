"""The benchmark report: one markdown file with the goals table, each workload's section, and its plots."""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import datetime
from pathlib import Path
from typing import Any

from evals.bench.common import Section, table

REPORT_NAME = "report.md"
RESULTS_NAME = "results.json"


def goals_table(sections: list[Section]) -> str:
    rows = [[g.name, g.target, g.measured, f"**{g.status}**"] for s in sections for g in s.goals]
    return table(["goal", "target", "measured", "status"], rows)


def render(
    sections: list[Section], *, machine: dict[str, str], quick: bool, seconds: float, started: datetime,
    steal: float | None = None,
) -> str:
    """The whole report as markdown (`steal`: the share of CPU time the host took during the run, when known)."""
    mode = "quick (CI: tiny sizes, no goal judged)" if quick else "full"
    libs = ", ".join(f"{k} {v}" for k, v in machine.items() if k not in ("cpu", "cores", "python"))
    lines = [
        "# flowagent benchmarks",
        "",
        f"- date: {started:%Y-%m-%d %H:%M} (local time)",
        f"- machine: {machine['cores']} cores, {machine['cpu']}; Python {machine['python']}; {libs}",
        f"- mode: {mode}; the whole run took {seconds:.0f} s",
        "- host CPU steal during the run: "
        + (f"{steal:.1%} of the machine's CPU time (other guests of the host; above a few per cent, ratios spread)"
           if steal is not None else "not known (no /proc/stat)"),
        "- every figure is measured side by side in this run; ratios compare arms run on the same machine at the same time",
        "",
        "## Goals",
        "",
        goals_table(sections),
        "",
    ]
    missed = [g for s in sections for g in s.goals if g.status == "MISS"]
    if missed:
        lines += ["**Missed:** " + "; ".join(f"{g.name} ({g.measured}, target {g.target})" for g in missed), ""]
    bounded = [g for s in sections for g in s.goals if g.status == "MISS: bound"]
    if bounded:
        lines += ["**Missed, and out of reach of the bound measured beside them:** "
                  + "; ".join(f"{g.name} ({g.measured}, target {g.target})" for g in bounded), ""]
    for section in sections:
        lines += [f"## {section.title}", ""]
        for part in section.body:
            lines += [part, ""]
        for plot in section.plots:
            lines += [f"![{section.title}]({plot})", ""]
        if section.profile:
            summary = "Profile (cProfile, top functions) of the arm that missed its goal"
            lines += ["<details><summary>" + summary + "</summary>", "", "```", section.profile, "```", "", "</details>", ""]
        lines += [f"_{section.title.split('.')[0]}: {section.seconds:.1f} s_", ""]
    return "\n".join(lines)


def write(
    out_dir: Path, sections: list[Section], *, machine: dict[str, str], quick: bool, seconds: float, started: datetime,
    steal: float | None = None,
) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / REPORT_NAME
    text = render(sections, machine=machine, quick=quick, seconds=seconds, started=started, steal=steal)
    path.write_text(text, encoding="utf-8")
    results: dict[str, Any] = {
        "date": started.isoformat(timespec="seconds"),
        "machine": machine,
        "steal": steal,
        "quick": quick,
        "seconds": seconds,
        "sections": [
            {"key": s.key, "title": s.title, "goals": [asdict(g) for g in s.goals], "data": s.data, "seconds": s.seconds}
            for s in sections
        ],
    }
    (out_dir / RESULTS_NAME).write_text(json.dumps(results, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    return path
