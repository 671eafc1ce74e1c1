"""Second chances and readings added after the fourth held-out round (2026-12-03, 1631f35), each a rule a person
would state, tried on phrasings written for this test (none taken from a scenario):

- a refusal that says which tool to use instead, followed by an answer with nothing done, gets the model told once
  (the offline model answered "张三的假不能批" after its withdrawal of 张三's leave was refused); a refused look-up
  is told only of the look-ups named (added after the fifth run's trials: "You need to resubmit" with nothing looked
  up, after the copies list was refused with "to see it, call queryMyRequests; to send it again, resubmitRequest…");
- a deputy's days are the days the person said ("下周一到下周三"), whatever dates the model wrote;
- another person's request is not listed among the person's own: viewTask is named instead;
- the requester named with their task ("王五这个待办") is never the one it is passed to: the person is asked;
- a batch bound of 0 days is no bound;
- a start names the people it was copied to."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from langchain_core.messages import HumanMessage, ToolMessage

from evals.doubles.scripted import tool_call
from graph.history import redirected_to
from tools import execute_call
from tools.workflow import TOOLSET
from tools.workflow.readable import started


def _refusals(result) -> list[str]:
    return [str(m.content) for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "error"]


def test_an_answer_after_a_refusal_that_names_the_tool_to_use_is_given_one_more_try(graph_driver, store,
                                                                                    start_request):
    start_request(requester="user_1", approver="user_2", days=2, reason="回老家")
    agent = graph_driver(
        tool_call("withdrawRequest", {"requestId": "张三"}), "张三的假不能撤回。",
        tool_call("handleTodoTask", {"taskId": "张三", "isOK": False, "result": "月底要交付，换个时间"}),
        user_id="user_2",
    )
    result = agent.say("张三的假别批了，月底要交付，换个时间")
    assert _refusals(result)[0].startswith("Error [anothers_request]")
    assert agent.card is not None and agent.card["action"] == "handleTodoTask"


def test_a_refused_look_up_is_redirected_to_the_look_ups_its_refusal_names(graph_driver, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=2, reason="回老家")
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "写清楚去哪"}, make_ctx("user_2"))
    agent = graph_driver(tool_call("queryCcRequests", {}), "你需要重新提交。", "李四退回了，意见：写清楚去哪。")
    result = agent.say("How come my leave got bounced?")
    assert _refusals(result)[0].startswith("Error [own_request]")
    # the look-up the refusal named is made for the model (graph.answers.instead_call), then it answers from it
    assert [m.name for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "success"] == [
        "queryMyRequests"]
    assert result["messages"][-1].content == "李四退回了，意见：写清楚去哪。"
    refused = next(m for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "error")
    assert redirected_to([HumanMessage("How come my leave got bounced?"), refused], TOOLSET.registry) == [
        "queryMyRequests"]  # not the resend, the withdrawal or the reminder the refusal names too


def test_an_answer_after_a_refusal_that_names_no_other_tool_stands(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_3", days=2, reason="回老家")  # task_1 waits on 王五
    start_request(requester="user_4", approver="user_2", days=1, reason="搬家")  # 李四 holds task_2
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True}), "这条要王五来批。",
                         user_id="user_2")
    result = agent.say("把 task_1 批了")
    refused = [m for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "error"]
    assert "[not_assignee]" in str(refused[0].content)
    assert result["messages"][-1].content == "这条要王五来批。" and agent.interrupts == []


def test_a_deputys_days_are_the_range_the_person_said(graph_driver, store):
    agent = graph_driver(tool_call("setDeputy", {"deputyUserId": "王五", "startDate": "2026-12-04",
                                                 "endDate": "2026-12-04"}), user_id="user_2")
    agent.say("下周二到下周四我出差，审批让王五替我盯着")
    [action] = agent.actions
    assert action["name"] == "setDeputy"
    args = action["args"]
    assert (args["startDate"], args["endDate"]) != ("2026-12-04", "2026-12-04")
    assert args["startDate"] < args["endDate"]


def test_another_persons_request_is_not_listed_as_the_persons_own(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=2, reason="回老家")
    agent = graph_driver(tool_call("queryMyRequests", {}), tool_call("viewTask", {"taskId": "张三"}), "在你这里。",
                         user_id="user_2")
    result = agent.say("张三那个假现在到哪一步了？")
    refused = _refusals(result)
    assert refused and refused[0].startswith("Error [anothers_request]") and "viewTask" in refused[0]


def test_the_requester_named_with_their_task_is_not_who_it_is_passed_to(graph_driver, store, start_request):
    start_request(requester="user_3", approver="user_2", days=1, reason="搬家")
    agent = graph_driver(tool_call("transferTask", {"taskId": "王五"}), user_id="user_2")
    result = agent.say("王五这个待办我处理不了，帮我转出去")
    assert agent.interrupts == [] and result["messages"][-1].content.startswith("请问转交给谁")


def test_a_batch_bound_of_no_days_is_no_bound(store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看病")
    parsed = TOOLSET.registry.get("decideTasks").parse({"userId": "user_2", "isOK": True, "maxDays": 0})
    assert parsed.model_dump(exclude_none=True).get("maxDays") is None


def test_a_start_says_who_it_was_copied_to():
    result = {"process": "请假流程", "requestId": "req_1", "taskId": "task_1", "assigneeName": "赵六",
              "copiedTo": ["李四"], "days": 1}
    assert started(result, "zh").endswith("抄送李四。")
    assert started(dict(result, assigneeName="Zhao Liu", copiedTo=["Li Si"]), "en").endswith(" Copied to Li Si.")


@pytest.mark.parametrize("said", [  # written after the rule (the twentieth round's writer found one day filed)
    "我从明天起休假，一直到月底，这段时间的审批交给王五",
    "Off from tomorrow until the end of the month, Wang Wu covers my approvals",
])
def test_a_deputy_until_the_months_end_ends_on_its_last_day(graph_driver, store, said):
    agent = graph_driver(tool_call("setDeputy", {"deputyUserId": "王五", "startDate": "明天", "endDate": "明天"}),
                         user_id="user_2")
    today = datetime.fromtimestamp(agent.clock(), ZoneInfo(agent.context.timezone)).date()
    agent.say(said)
    [action] = agent.actions
    following = date(today.year + today.month // 12, today.month % 12 + 1, 1)
    assert action["args"]["endDate"] == (following - timedelta(days=1)).isoformat()


def test_a_deputys_days_are_those_of_the_latest_message_that_says_any(graph_driver, store):
    # the thirty-seventh round, read after its run ("I'm out all of next week…" answered, then "make Wang Wu my deputy
    # from next Monday to next Friday" was asked its dates: two ranges said); phrasing written for this test
    deputy = tool_call("setDeputy", {"deputyUserId": "Zhao Liu", "startDate": "2026-12-01", "endDate": "2026-12-01"})
    agent = graph_driver(tool_call("queryMyDeputies", {}), "Nobody covers for you.", deputy, user_id="user_2")
    agent.say("I'm away for the whole of next week. Does anyone cover my approvals?")
    agent.say("right, Zhao Liu covers from next Tuesday to next Thursday")
    [action] = agent.actions
    args = action["args"]
    assert action["name"] == "setDeputy" and args["startDate"] < args["endDate"]
    assert (date.fromisoformat(args["endDate"]) - date.fromisoformat(args["startDate"])).days == 2
