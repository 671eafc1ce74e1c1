"""A bare follow-up ("然后呢", "and then?") right after a write is answered from what that write did and what comes
after it, with no look-up: an approver's "and then?" after passing a leave on to HR had the person's own requests
looked up, "you have not started any request" (the seventy-second round's run, both languages). Phrasings written
for these tests, none from the evaluation sets."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from graph.answers import _FOLLOW_UP


@pytest.mark.parametrize(("text", "follows"), [
    ("然后呢？", True), ("那接下来呢", True), ("下一步呢？", True), ("what's next?", True), ("and now?", True),
    ("ok, then what", True), ("Now what?", True),
    ("然后呢，帮我把王五的也批了", False), ("what's next on my list of to-dos?", False), ("接下来三天我请假", False),
    ("next", False), ("next one", False), ("下一个", False),
    # whether it was done (the eighty-eighth round's run; written after the rule, none of its words)
    ("设置好了没？", True), ("是不是弄好了 帮我查下", True), ("都办完了吗", True), ("did that go through", True),
    ("is it all set now?", True), ("好了，批吧", False), ("改好了，重新提交", False),
])
def test_a_bare_follow_up_is_read_as_such(text, follows):
    assert bool(_FOLLOW_UP.match(text)) is follows


@pytest.mark.parametrize(("decide", "then", "told"), [
    ("张三那5天的年假，同意，交接都安排好了", "那接下来呢？", "人事审批"),
    ("Zhang San's 5 days of annual leave: approved, handover is sorted", "what's next?", "HR"),
])
def test_what_comes_after_a_decision_is_said_again_without_a_look_up(graph_driver, start_request, decide, then,
                                                                     told):
    start_request(requester="user_1", approver="user_2", days=5, reason="回老家")
    approve = tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True,
                                           "result": "交接都安排好了" if "交接" in decide else "handover is sorted"})
    agent = graph_driver(approve, "ok", tool_call("queryMyRequests", {}), "never asked", user_id="user_2",
                         fixed_answers=True)
    agent.say(decide)
    agent.approve()
    result = agent.say(then)
    answer = str(result["messages"][-1].content)
    assert told in answer and "task_2" in answer and "hr" not in answer.replace("HR", "")
    assert not [m for m in result["messages"][-2:] if getattr(m, "tool_calls", None)]  # no look-up made


@pytest.mark.parametrize(("said", "then"), [("下周一到周三我出差，这几天的审批让王五代我处理", "设置好了没？"),
                                           ("Wang Wu covers my approvals next Monday to Wednesday", "is it all set?")])
def test_whether_a_deputy_was_set_is_answered_from_what_was_done(graph_driver, said, then):
    deputy = tool_call("setDeputy", {"deputyUserId": "王五", "startDate": "下周一", "endDate": "下周三"})
    agent = graph_driver(deputy, "ok", tool_call("handleTodoTask", {"taskId": "王五", "isOK": True}), "never asked",
                         user_id="user_2")
    agent.say(said)
    agent.approve()
    result = agent.say(then)
    answer = str(result["messages"][-1].content)
    assert ("王五" in answer or "Wang Wu" in answer) and agent.actions == [], answer
