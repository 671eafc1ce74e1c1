"""The run's budget operations and the order in which limits end a run (graph/budget.py)."""

from __future__ import annotations

from graph import budget
from state.context import Context
from tests.support.clock import ManualClock


def test_limits_are_checked_in_order_and_name_their_cause():
    clock = ManualClock()
    run = budget.new_budget(0, clock)
    context = Context(max_model_calls=2, max_seconds=10)
    assert budget.limit_reached(run, context, str, clock) is None
    run = budget.charge_model_call(budget.charge_model_call(run, 10), 10)
    assert budget.limit_reached(run, context, str, clock) == {
        "code": "model_calls", "text": "the model-call budget of this run (2) is used up", "values": {"limit": 2}
    }
    assert budget.describe(budget.limit_reached(run, context, str, clock), "zh") == "本次的模型调用次数（2）已用完"
    run = budget.record_step(budget.record_step(budget.record_step(run, True), True), True)
    assert budget.limit_reached(run, context, str, clock)["code"] == "consecutive_failures"  # type: ignore[index]


def test_a_successful_step_ends_the_failure_streak_and_a_rejection_leaves_it():
    run = budget.record_step(budget.record_step(budget.new_budget(0), True), True)
    assert budget.record_step(run, None)["consecutive_failures"] == 2
    assert budget.record_step(run, False)["consecutive_failures"] == 0


def test_time_waiting_for_a_person_is_not_charged():
    clock = ManualClock()
    run = budget.new_budget(0, clock)
    clock.advance(4)
    run = budget.review_requested(run, clock)
    clock.advance(100)
    run = budget.review_answered(run, clock)
    assert run["waited_s"] == 100 and run["review_requested_at"] == 0.0
    assert budget.limit_reached(run, Context(max_seconds=5), str, clock) is None
    clock.advance(1)
    assert budget.limit_reached(run, Context(max_seconds=5), str, clock)["code"] == "seconds"  # type: ignore[index]


def test_a_repeated_action_names_its_tool():
    run = budget.count_proposal(budget.count_proposal(budget.new_budget(0), "abc"), "abc")
    reason = budget.limit_reached(run, Context(max_repeated_actions=1), {"abc": "getAllUser"}.__getitem__)
    assert reason == {"code": "repeated_action", "text": "the same action (getAllUser) was proposed again and again",
                      "values": {"tool": "getAllUser"}}


def test_operations_leave_the_state_they_read_unchanged():
    run = budget.new_budget(0)
    budget.count_executions(budget.count_proposal(run, "x"), ["sendEmail"])
    assert run["proposals"] == {} and run["tool_calls"] == {}


def test_planned_ends_are_not_reported_as_stopped_early():
    assert not budget.stopped_early(budget.wrap_up("done"))
    assert budget.stopped_early(budget.wrap_up("tokens", limit=5))
    assert budget.describe(budget.wrap_up("tokens", limit=5)) == "tokens: the token budget of this run (5) is used up"
    assert budget.describe("tokens: an older thread's reason") == "tokens: an older thread's reason"
