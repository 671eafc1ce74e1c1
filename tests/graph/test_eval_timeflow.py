"""Time passing in a scenario (`advance` setup steps, `evals.timeflow`): the trial's clock moves on and the timer
service fires what is due, so the reminder-then-escalation scenarios (to the approver's manager, or to hr when the
approver has none who may take it) pass with the oracle, and fail when time does not pass; a duration the clock
cannot count is refused when the file is read."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from evals.models import OracleModel
from evals.runner import run_trial
from evals.scenario import SCENARIO_DIR, SetupStep, load_scenario

SCENARIOS = ("remind_timer_escalates_zh", "remind_timer_escalates_en", "remind_timer_escalates_to_hr_zh",
             "remind_timer_escalates_to_hr_en")


@pytest.mark.parametrize("name", SCENARIOS)
def test_a_reminder_then_an_escalation_driven_by_the_trials_clock_passes_with_the_oracle(name: str):
    scenario = load_scenario(SCENARIO_DIR / "remind" / f"{name}.toml")
    assert [s.advance for s in scenario.setup] == [None, "P1D", "P1D"]
    result = run_trial(scenario, "native", 1, OracleModel.for_scenario)
    assert result.passed, (result.problems, result.error)


def test_without_time_passing_nothing_is_reminded_and_the_scenario_fails():
    scenario = load_scenario(SCENARIO_DIR / "remind" / "remind_timer_escalates_zh.toml")
    stopped = scenario.model_copy(update={"setup": scenario.setup[:2]})  # one working day: reminded, not escalated
    result = run_trial(stopped, "native", 1, OracleModel.for_scenario)
    assert not result.passed
    assert any("process_timers" in p or "notifications" in p or "tasks" in p for p in result.problems), result.problems


def test_a_setup_step_is_one_kind_and_its_duration_is_one_the_clock_counts():
    assert SetupStep(advance="PT2H").advance == "PT2H"
    with pytest.raises(ValidationError):
        SetupStep(advance="P1M")
    with pytest.raises(ValidationError):
        SetupStep(advance="P1D", sql="SELECT 1")
