"""The bench report's verdicts: a miss the bound measured beside it also misses is shown as out of reach."""

from __future__ import annotations

from datetime import datetime

from evals.bench.common import Goal, Section, judge
from evals.bench.report import render

MACHINE = {"cores": "2", "cpu": "test CPU", "python": "3.11"}


def test_a_goal_is_passed_missed_or_missed_with_its_bound():
    assert judge(True, False) == "PASS"
    assert judge(False, False) == "MISS"
    assert judge(False, False, bound_ok=False) == "MISS: bound"
    assert judge(True, False, bound_ok=False) == "PASS"
    assert judge(False, True, bound_ok=False) == "not judged"


def test_the_report_lists_plain_misses_apart_from_those_out_of_reach():
    section = Section(key="steps", title="1. Cost", goals=[
        Goal(name="guards", target="≤ 1.2×", measured="1.3×", status="MISS"),
        Goal(name="vs create_agent", target="≤ 0.4×", measured="0.6×; floor 0.5×", status="MISS: bound"),
    ])
    report = render([section], machine=MACHINE, quick=False, seconds=1.0, started=datetime(2026, 12, 2))
    missed = next(line for line in report.splitlines() if line.startswith("**Missed:**"))
    bounded = next(line for line in report.splitlines() if line.startswith("**Missed, and out of reach"))
    assert "guards" in missed and "vs create_agent" not in missed
    assert "vs create_agent (0.6×; floor 0.5×, target ≤ 0.4×)" in bounded


def test_the_hosts_steal_is_read_from_two_readings_of_the_cpu_counters(tmp_path):
    from evals.bench.common import cpu_times, steal_share

    stat = tmp_path / "stat"
    stat.write_text("cpu  100 0 50 800 10 0 5 35 0 0\ncpu0 50 0 25 400 5 0 2 18 0 0\n", encoding="ascii")
    before = cpu_times(stat)
    stat.write_text("cpu  200 0 100 1600 20 0 10 70 0 0\n", encoding="ascii")
    after = cpu_times(stat)
    assert before == (100, 0, 50, 800, 10, 0, 5, 35, 0, 0)
    assert steal_share(before, after) == 35 / 1000
    assert steal_share(before, None) is None
    assert cpu_times(tmp_path / "missing") is None


def test_the_report_header_names_the_steal_or_says_it_is_not_known():
    section = Section(key="steps", title="1. Cost")
    started = datetime(2026, 12, 2)
    report = render([section], machine=MACHINE, quick=False, seconds=1.0, started=started, steal=0.031)
    assert "- host CPU steal during the run: 3.1% of the machine's CPU time" in report
    unknown = render([section], machine=MACHINE, quick=False, seconds=1.0, started=started)
    assert "- host CPU steal during the run: not known (no /proc/stat)" in unknown


def test_the_spread_of_the_paired_ratios_is_their_middle_half():
    from evals.bench.step_cost import _middle_half

    assert _middle_half([1.0, 1.1, 1.2, 1.3, 1.4]) == "1.10×–1.30×"
    assert _middle_half([1.25]) == "1.25×"


def test_flowagent_and_the_floor_always_run_one_right_after_the_other():
    import random

    from evals.bench.step_cost import ARMS, FLOOR, FLOWAGENT, adjacent

    rng = random.Random(7)
    orders = [adjacent(FLOWAGENT, FLOOR, rng) for _ in range(200)]
    for order in orders:
        assert sorted(order) == sorted(ARMS)
        assert abs(order.index(FLOWAGENT) - order.index(FLOOR)) == 1
    assert {order.index(FLOOR) < order.index(FLOWAGENT) for order in orders} == {True, False}  # either may go first
    assert len({tuple(order) for order in orders}) > 50  # the rest stays shuffled
