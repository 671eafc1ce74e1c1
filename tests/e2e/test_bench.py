"""`flowagent-bench --quick` (or `python -m evals.bench`): every benchmark still runs and writes its report section and plots."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from evals.bench import cli

FLOWAGENT_BENCH = str(Path(sys.executable).with_name("flowagent-bench"))

SECTIONS = (
    "## 1. Cost per ReAct iteration",
    "## 2. Prompt tokens per task",
    "## 3. Checkpoint size on disk",
    "## 4. Concurrency",
    "## 5. Memory across supersteps",
    "## 6. Offline model",
)
PLOTS = ("steps.png", "tokens.png", "checkpoints.png", "concurrency.png", "memory.png")


@pytest.fixture(scope="module")
def quick_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench")
    code = cli.main(["--quick", "--out", str(out)])
    return code, out


def test_bench_quick_runs_every_workload(quick_report):
    code, out = quick_report
    report = (out / "report.md").read_text(encoding="utf-8")
    assert code == 0, report
    for heading in SECTIONS:
        assert heading in report
    assert "crashed" not in report


def test_bench_quick_writes_plots_and_results(quick_report):
    _, out = quick_report
    for name in PLOTS:
        data = (out / name).read_bytes()
        assert data.startswith(b"\x89PNG"), name
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert results["quick"] is True
    assert [s["key"] for s in results["sections"]] == list(cli.WORKLOADS)


def test_bench_quick_judges_flowagent_against_the_floor_on_its_extra_pairs(quick_report):
    from evals.bench.common import Sizes

    _, out = quick_report
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    [steps] = [s for s in results["sections"] if s["key"] == "steps"]
    sizes = Sizes.for_mode(quick=True)
    pairs = steps["data"]["flowagent_vs_floor_pairs"]
    assert sizes.judged_pairs > 1
    assert {n: len(v) for n, v in pairs.items()} == {str(n): sizes.repeats * sizes.judged_pairs for n in sizes.steps}
    assert all(r > 0 for v in pairs.values() for r in v)


def test_bench_quick_judges_no_goal(quick_report):
    _, out = quick_report
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    statuses = {g["status"] for s in results["sections"] for g in s["goals"]}
    assert statuses <= {"not judged", "not run"}


def test_bench_offline_model_not_run_without_the_flag(quick_report):
    _, out = quick_report
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "pass `--offline-model`" in report


def test_bench_rejects_unknown_workload(tmp_path, capsys):
    assert cli.main(["--quick", "--only", "nonsense", "--out", str(tmp_path)]) == 2
    assert "unknown workload nonsense" in capsys.readouterr().err


def test_flowagent_bench_and_python_m_evals_bench_run_the_bench_command(tmp_path) -> None:
    for command in ([FLOWAGENT_BENCH], [sys.executable, "-m", "evals.bench"]):
        done = subprocess.run([*command, "--only", "nonsense", "--out", str(tmp_path)], capture_output=True, text=True,
                              timeout=120, check=False)
        assert done.returncode == 2
        assert done.stderr.startswith("flowagent-bench: unknown workload nonsense; choose from steps, "), done.stderr
