"""A person who speaks of another person's request (李四的报销) is asking about one that exists: a start the model
proposes for it is refused to the model, before the person is asked for an amount they never meant to give, and the
model goes on to the task. A plain start, or one about the person's own request, is untouched."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, ToolMessage

from evals.doubles.scripted import tool_call
from tools.workflow.words import anothers_request

CLAIM = {"processKey": "process_baoxiao", "reason": "发票抬头不对", "nextUserId": "李四",
         "fields": {"amount": 500, "category": "差旅"}}


def test_a_start_for_someone_elses_request_is_refused_to_the_model_and_nothing_is_asked(graph_driver, store):
    agent = graph_driver(tool_call("runWorkFlow", CLAIM), tool_call("queryTodoTask", {"userId": "user_3"}), "没有待办。")
    result = agent.say("把李四的报销驳回，理由：发票抬头不对，重新开了再提", user_id="user_3")
    refused = [m for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "error"]
    assert len(refused) == 1 and str(refused[0].content).startswith("Error [anothers_request]")
    assert "handleTodoTask" in str(refused[0].content) and "returnTask" in str(refused[0].content)
    last = result["messages"][-1]
    assert isinstance(last, AIMessage) and last.content == "没有待办。"  # no question about an amount
    assert store.snapshot()["requests"] == []


def test_withdrawing_someone_elses_request_is_refused_to_the_model(graph_driver, store):
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "请假"}), "好的。")
    result = agent.say("王五那个假先打回去吧", user_id="user_4")
    refused = [m for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "error"]
    assert len(refused) == 1 and str(refused[0].content).startswith("Error [anothers_request]")


@pytest.mark.parametrize(("text", "name", "said"), [
    ("把李四的报销驳回，理由：发票抬头不对", "李四", "李四的报销"),
    ("Reject Li Si's expense claim, the hotel invoice is missing", "Li Si", "Li Si's expense claim"),
    ("王五的出差批了吧", "王五", "王五的出差"),
    ("张三的请假条到哪了", "张三", "张三的请假条"),
    ("王五那个假先打回去吧", "王五", "王五那个假"),  # written after the rule (held-out: the model withdrew it)
    # written after the rule: none of these speak of another's request
    ("报销两千三的打车费，李四审批", "李四", None),
    ("帮我提个出差申请，去李四的老家考察", "李四", None),
    ("Claim 300 yuan for lunch with Li Si's team, Wang Wu approves", "Li Si", None),
    ("我的报销找李四批", "李四", None),
    # written after the rule (the eighth round: "Zhao Liu's 4-day leave" was not read); none from a scenario
    ("decline Wang Wu's 3-day leave, we're swamped", "Wang Wu", "Wang Wu's 3-day leave"),
    ("Li Si's team dinner claim is missing a receipt", "Li Si", "Li Si's team dinner claim"),
    ("book me a trip to Li Si's home town", "Li Si", None),
    ("Zhao Liu's boss approved my trip", "Zhao Liu", None),
    # written after the rule (the ninth round: "王五请两天假搬家那个" started a claim); none from a scenario
    ("赵六请三天年假回老家那个，我批了", "赵六", "赵六请三天年假"),
    ("李四申请了去成都出差，先退回", "李四", "李四申请了去成都出差"),
    ("王五报销的打车费没问题", "王五", "王五报销"),
    ("请假找李四批", "李四", None),
    ("帮王五请1天假", "王五", None),
    ("我请两天假，李四审批", "李四", None),
])
def test_another_persons_request_is_read_from_their_name_and_a_request_word(text, name, said):
    assert anothers_request(text, name) == said


def _refused(result) -> list[str]:
    return [str(m.content) for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "error"]


def test_a_look_up_of_a_request_waiting_on_the_person_is_sent_to_that_one_to_do(graph_driver, start_request):
    start_request(requester="user_3", approver="user_2", days=2, reason="搬家")  # 王五's task_1 for 李四
    agent = graph_driver(tool_call("queryMyRequests", {}), "好的。", user_id="user_2")
    [refusal] = _refused(agent.say("王五那张假条现在啥进度，拿给我瞅瞅"))
    assert refusal.startswith("Error [anothers_request]")
    assert "viewTask with taskId task_1" in refusal and "handleTodoTask" not in refusal


def test_a_write_on_a_request_waiting_on_the_person_names_its_to_do(graph_driver, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="dentist")  # 张三's task_1 for 李四
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "req_1"}), "OK.", user_id="user_2")
    [refusal] = _refused(agent.say("pull Zhang San's leave, he can't go that day"))
    assert refusal.startswith("Error [anothers_request]") and "handleTodoTask with taskId task_1" in refusal


def test_a_request_not_waiting_on_the_person_gets_the_tools_on_others_requests(graph_driver, start_request):
    start_request(requester="user_3", approver="user_4", days=2, reason="搬家")  # waits on 赵六, not 李四
    agent = graph_driver(tool_call("queryMyRequests", {}), "好的。", user_id="user_2")
    [refusal] = _refused(agent.say("王五那张假条现在啥进度"))
    assert "task_1" not in refusal and "queryCcRequests" in refusal


@pytest.mark.parametrize(("text", "name", "said"), [  # written after the rule, none from a scenario
    ("王五回老家那个假批了", "王五", "王五回老家那个假"),
    ("赵六到杭州的差旅报销驳回", "赵六", "赵六到杭州的差旅报销"),
    ("李四去上海那趟出差怎么样了", "李四", "李四去上海那趟出差"),
    ("我去深圳那个出差，李四审批", "李四", None),
    ("张三批的那个假", "张三", None),
    ("请李四的客户吃饭，报销300", "李四", None),
    # said as filed by them, or as their wanting it (the sixtieth round's run; none of its words)
    ("Wang Wu just put in another expense claim, what's it for?", "Wang Wu", "Wang Wu just put in another expense claim"),
    ("Zhao Liu has sent us a leave request for March", "Zhao Liu", "Zhao Liu has sent us a leave request"),
    ("I sent Zhao Liu a trip request yesterday", "Zhao Liu", None),
    ("赵六为啥又要出差？", "赵六", "赵六为啥又要出差"), ("王五想去成都出差", "王五", "王五想去成都出差"),
    ("我和王五一起去出差", "王五", None),
    # a trip named by its requester and that one (the seventy-second round's run; written for this test)
    ("王五出差那个审了没", "王五", "王五出差"), ("李四去西安出差的申请给我看看", "李四", "李四去西安出差的申请"),
    ("王五出差了，找谁批", "王五", None), ("李四出差回来了吗", "李四", None),
    # its size between its requester and what it is (the seventy-third round's run; written for this test)
    ("王五5天婚假那个，人事这边通过", "王五", "王五5天婚假"), ("李四两千三的报销先别批", "李四", "李四两千三的报销"),
    ("给王五3天假", "王五", None),
])
def test_a_request_is_also_named_by_where_its_requester_goes(text, name, said):
    assert anothers_request(text, name) == said


def test_a_look_up_of_copies_for_a_request_waiting_on_the_person_is_sent_to_the_decision_they_stated(graph_driver,
                                                                                                    start_request):
    start_request(requester="user_3", approver="user_2", days=2, reason="回老家")  # 王五's task_1 for 李四
    agent = graph_driver(tool_call("queryCcRequests", {"userId": "王五"}), "好的。", user_id="user_2")
    result = agent.say("王五回老家那个假就批了吧")
    refusal = _refused(result)[0]
    assert refusal.startswith("Error [anothers_request]")
    assert "handleTodoTask with taskId task_1 and isOK true" in refusal and "viewTask" not in refusal
    # the model answered "好的。": the decision the refusal named is proposed as said, and asks for its comment
    proposed = [c for m in result["messages"] if isinstance(m, AIMessage) for c in m.tool_calls]
    assert [(c["name"], c["args"]) for c in proposed][1:] == [("handleTodoTask", {"taskId": "task_1", "isOK": True})]
    assert "意见" in str(result["messages"][-1].content)


def test_a_decision_put_as_a_question_is_shown_not_decided(graph_driver, start_request):
    start_request(requester="user_3", approver="user_2", days=2, reason="回老家")
    agent = graph_driver(tool_call("queryCcRequests", {}), "好的。", user_id="user_2")
    [refusal] = _refused(agent.say("王五回老家那个假批了没？"))
    assert "viewTask with taskId task_1" in refusal and "handleTodoTask" not in refusal


def test_copies_are_looked_up_when_the_request_named_waits_on_nobody_the_person_is(graph_driver, start_request):
    start_request(requester="user_3", approver="user_4", days=2, reason="回老家")  # waits on 赵六
    agent = graph_driver(tool_call("queryCcRequests", {}), "好的。", user_id="user_2")
    assert _refused(agent.say("王五回老家那个假批了没？")) == []


def test_a_refused_look_up_naming_one_write_and_no_look_up_redirects_to_that_write():
    from langchain_core.messages import HumanMessage

    from graph.history import redirected_to
    from tools.workflow import TOOLSET

    refused = ToolMessage(content="Error [anothers_request]: … to reject it as they said, call handleTodoTask with "
                          "taskId task_1 and isOK false.", tool_call_id="c1", name="queryCcRequests", status="error")
    assert redirected_to([HumanMessage("王五那个假驳了"), refused], TOOLSET.registry) == ["handleTodoTask"]


def test_with_no_decision_stated_the_look_up_meant_is_made_for_the_model(graph_driver, store, start_request):
    start_request(requester="user_3", approver="user_2", days=1, reason="回老家")
    agent = graph_driver(tool_call("queryCcRequests", {"userId": "王五"}), "王五的假还在审批中。", "在你这里等你审批。",
                         user_id="user_2")
    result = agent.say("王五回老家那个假你给我看一下")
    assert [m.name for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "success"] == ["viewTask"]
    assert result["messages"][-1].content == "在你这里等你审批。"
    assert store.snapshot()["tasks"][0]["status"] == "pending"


@pytest.mark.parametrize("said", [
    "could you take care of Zhang San's leave request for me",  # written after the rule
    "Could you handle Zhang San's leave request for me?",  # a polite request with its question mark (the sixteenth round)
])
def test_a_request_to_deal_with_it_asks_for_the_decision(graph_driver, store, start_request, said):
    start_request(requester="user_1", approver="user_2", days=1, reason="parents visiting")
    agent = graph_driver(tool_call("queryMyRequests", {}), "It is waiting for you.", user_id="user_2")
    result = agent.say(said)
    question = str(result["messages"][-1].content)
    assert "approve" in question.lower() and "reject" in question.lower()
    assert agent.interrupts == [] and store.snapshot()["tasks"][0]["status"] == "pending"


def test_a_request_named_with_this_or_that_one(graph_driver, start_request):  # written after the rule
    assert anothers_request("王五这笔差旅报销怎么回事", "王五") == "王五这笔差旅报销"
    assert anothers_request("赵六这张报销单先别批", "赵六") == "赵六这张报销单"


def test_asking_whether_it_was_dealt_with_is_shown_not_decided(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看病")
    agent = graph_driver(tool_call("queryMyRequests", {}), "在你这里。", "在你这里。", user_id="user_2")
    result = agent.say("张三那个假我处理了没？")  # written after the rule
    assert [m.name for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "success"] == ["viewTask"]
    assert agent.interrupts == [] and store.snapshot()["tasks"][0]["status"] == "pending"


def _proposed(result) -> list[tuple[str, dict]]:
    return [(c["name"], c["args"]) for m in result["messages"] if isinstance(m, AIMessage) for c in m.tool_calls]


def test_passing_someone_elses_request_on_proposes_the_transfer(graph_driver, store, start_request):
    # Written after the rule: the model filed a new trip where the approver passed one on.
    start_request(requester="user_3", approver="user_2", days=2, reason="回老家")
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "x",
                                                   "nextUserId": "Zhao Liu", "days": 2}), "OK.", user_id="user_2")
    result = agent.say("I'm in workshops all week, please pass Wang Wu's leave over to Zhao Liu to sign off.")
    assert _proposed(result)[1] == ("transferTask", {"taskId": "task_1", "nextUserId": "user_4"})
    assert agent.actions[0]["name"] == "transferTask"
    assert store.snapshot()["tasks"][0]["assignee_id"] == "user_2"  # nothing before the card


def test_asking_about_someones_one_leave_shows_it(graph_driver, start_request):
    start_request(requester="user_4", approver="user_2", days=1, reason="看病")
    agent = graph_driver(tool_call("queryMyRequests", {}), "好的。", user_id="user_2")
    result = agent.say("赵六也请假了？这回是为啥")
    assert ("viewTask", {"taskId": "task_1"}) in _proposed(result)


def test_a_withdrawal_of_anothers_request_of_some_days_becomes_the_decision_they_stated(graph_driver, start_request):
    start_request(requester="user_3", approver="user_2", days=3, reason="回老家")  # 王五's task_1 for 李四
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "Wang Wu's leave"}), "OK.", user_id="user_2")
    agent.say("decline Wang Wu's 3-day leave, we're swamped that week")
    [action] = agent.actions
    assert action["name"] == "handleTodoTask" and action["args"]["isOK"] is False
    assert "swamped" in action["args"]["result"]


def test_a_start_where_the_person_decides_anothers_leave_they_hold_is_that_decision(graph_driver, store, start_request):
    start_request(requester="user_4", approver="user_2", days=3, reason="回老家")  # 赵六's task_1 for 李四
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "回老家", "days": 3,
                                                   "nextUserId": "赵六"}), "好的。", user_id="user_2")
    agent.say("赵六请三天年假回老家那个，我这边同意，让他走前把周报交给王五")
    [action] = agent.actions
    assert action["name"] == "handleTodoTask" and action["args"]["isOK"] is True
    assert "周报" in action["args"]["result"]  # what they tell the requester is the comment, not a transfer
    assert len(store.snapshot()["requests"]) == 1


@pytest.mark.parametrize("said", [  # written after the rule (the seventeenth round, read); none from it
    "Before I approve Zhang San's leave request, let me see what it's for",
    "张三那个请假批之前先让我看看是为什么请的",
])
def test_a_decision_said_as_what_comes_after_a_look_shows_the_task(graph_driver, store, start_request, said):
    start_request(requester="user_1", approver="user_2", days=1, reason="parents visiting")
    agent = graph_driver(tool_call("queryMyRequests", {}), "It is for his parents' visit.", user_id="user_2")
    result = agent.say(said)
    assert [(m.name, m.status) for m in result["messages"] if isinstance(m, ToolMessage)][-1] == ("viewTask", "success")
    assert agent.interrupts == [] and store.snapshot()["tasks"][0]["status"] == "pending"


def test_a_look_up_of_anothers_copies_for_a_trip_waiting_on_the_person_shows_that_to_do(graph_driver, store, make_ctx):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_chuchai", "userId": "user_3", "reason": "见供应商",
                                          "nextUserId": "user_2", "fields": {"destination": "西安", "startDate": "2027-01-20",
                                                                              "endDate": "2027-01-21"}}, make_ctx("user_3"))
    agent = graph_driver(tool_call("queryCcRequests", {"userId": "王五"}), "好的。", user_id="user_2", fixed_answers=True)
    result = agent.say("王五出差那个怎么回事")
    assert [m.name for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "success"] == ["viewTask"]
    assert "西安" in str(result["messages"][-1].content)
