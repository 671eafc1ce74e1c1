"""`python -m evals.bench.instances` (the production server on one and on two instances) still runs end to end with
tiny sizes and writes its report; the sizes and the goal of the real measurement are the README's, not a test's."""

from __future__ import annotations

import json

from evals.bench import instances


def test_the_two_instance_benchmark_runs_and_reports_both_levels(tmp_path):
    code = instances.main(["--clients", "2", "--runs", "1", "--jobs", "4", "--out", str(tmp_path)])
    assert code == 0
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert set(results["levels"]) == {"1", "2"}
    assert all(level["runs"] == 2 and level["runs_per_s"] > 0 for level in results["levels"].values())
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "| instances | runs | early wait answers | runs/s |" in report and "Goal (≥ 0.8× ideal on 2 instances)" in report
    assert sorted(p.name for p in (tmp_path / "logs").iterdir()) == ["instance-0.log", "instance-1.log"]
