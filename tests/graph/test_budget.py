"""The step's and the run's budget operations, and the order in which limits end a run (graph/budget.py)."""

from __future__ import annotations

from graph import budget
from state.context import Context
from state.records import Outcome, Step
from tests.support.clock import ManualClock


def outcome(name: str) -> Outcome:
    return Outcome(id="c", name=name, action="x", ok=True, result={}, elapsed_ms=1.0)


def test_limits_are_checked_in_order_and_name_their_cause():
    clock = ManualClock()
    run = budget.new_budget(0, clock)
    context = Context(max_model_calls=2, max_seconds=10)
    assert budget.limit_reached(run, context, str, clock) is None
    step = budget.charge_model_call(budget.charge_model_call(budget.open_step(None), 10), 10)
    assert budget.limit_reached(run, context, str, clock) is None  # a step counts once it is closed
    run = budget.close_step(run, step)
    assert (run["model_calls"], run["tokens"]) == (2, 20)
    assert budget.limit_reached(run, context, str, clock) == {
        "code": "model_calls", "text": "the model-call budget of this run (2) is used up", "values": {"limit": 2}
    }
    assert budget.describe(budget.limit_reached(run, context, str, clock), "zh") == "本次的模型调用次数（2）已用完"
    run = budget.close_step(budget.close_step(budget.close_step(run, None, True), None, True), None, True)
    assert budget.limit_reached(run, context, str, clock)["code"] == "consecutive_failures"  # type: ignore[index]


def test_a_successful_step_ends_the_failure_streak_and_a_rejection_leaves_it():
    run = budget.close_step(budget.close_step(budget.new_budget(0), None, True), None, True)
    assert budget.close_step(run, budget.open_step(None), None)["consecutive_failures"] == 2
    assert budget.close_step(run, budget.open_step(None), False)["consecutive_failures"] == 0


def test_time_waiting_for_a_person_is_not_charged():
    clock = ManualClock()
    run = budget.new_budget(0, clock)
    clock.advance(4)
    step = budget.review_requested(budget.open_step(None), clock)
    clock.advance(100)
    step = budget.review_answered(step, clock)
    assert step["waited_s"] == 100 and step["review_requested_at"] == 0.0
    run = budget.close_step(run, step)
    assert budget.limit_reached(run, Context(max_seconds=5), str, clock) is None
    clock.advance(1)
    assert budget.limit_reached(run, Context(max_seconds=5), str, clock)["code"] == "seconds"  # type: ignore[index]


def test_a_repeated_action_names_its_tool():
    step = budget.count_proposals(budget.open_step(None), ["abc"])
    run = budget.close_step(budget.close_step(budget.new_budget(0), step), step)
    assert run["proposals"] == {"abc": 2}
    reason = budget.limit_reached(run, Context(max_repeated_actions=1), {"abc": "getAllUser"}.__getitem__)
    assert reason == {"code": "repeated_action", "text": "the same action (getAllUser) was proposed again and again",
                      "values": {"tool": "getAllUser"}}


def test_a_closed_step_counts_its_executed_calls_per_tool():
    step = budget.open_step(budget.open_step(None), [])
    step = Step(**{**step, "outcomes": [outcome("sendEmail"), outcome("getAllUser"), outcome("sendEmail")]})
    run = budget.close_step(budget.close_step(budget.new_budget(0), step), step)
    assert run["tool_calls"] == {"sendEmail": 4, "getAllUser": 2}


def test_operations_leave_the_records_they_read_unchanged():
    run, step = budget.new_budget(0), budget.open_step(None)
    budget.close_step(run, budget.count_proposals(budget.charge_model_call(step, 5), ["x"]), True)
    assert run == budget.new_budget(0, lambda: run["started_at"]) and step == budget.open_step(None)


def test_planned_ends_are_not_reported_as_stopped_early():
    assert not budget.stopped_early(budget.wrap_up("done"))
    assert budget.stopped_early(budget.wrap_up("tokens", limit=5))
    assert budget.describe(budget.wrap_up("tokens", limit=5)) == "tokens: the token budget of this run (5) is used up"
    assert budget.describe("tokens: an older thread's reason") == "tokens: an older thread's reason"
