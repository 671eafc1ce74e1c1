"""Which to-do an approver acts on is theirs to say: when the model names it in words that name nobody ("报销", "出差",
"dentist"), the to-do whose requester the person's latest message naming anyone names is put in, and shown on the
card. When that names none or several of their to-dos, the model's words go to the look-up as before.

The phrasings were written for this test, after the rule; the fifth held-out round's (ho5_transfer_expense_zh: "张三
这笔差旅报销我不太清楚，转给赵六吧", taskId "出差" or "报销") is not among them."""

from __future__ import annotations

import pytest
from langchain_core.messages import ToolMessage

from evals.doubles.scripted import tool_call


def _refusals(result) -> list[str]:
    return [str(m.content) for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "error"]


def _two_requests(start_request) -> None:
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙医")  # 张三's task_1 for 李四
    start_request(requester="user_3", approver="user_2", days=3, reason="回老家")  # 王五's task_2 for 李四


def test_a_transfer_of_a_todo_named_by_its_kind_passes_on_the_one_whose_requester_they_named(graph_driver, store,
                                                                                             start_request):
    _two_requests(start_request)
    agent = graph_driver(tool_call("transferTask", {"taskId": "请假", "nextUserId": "赵六"}), "已转交。", user_id="user_2")
    result = agent.say("王五那个假我拿不准，交给赵六来定吧")
    assert _refusals(result) == []
    [action] = agent.actions
    assert action["name"] == "transferTask" and action["args"]["taskId"] == "task_2"
    assert [t["assignee_id"] for t in store.snapshot()["tasks"]] == ["user_2", "user_2"]  # nothing before the card


def test_a_decision_on_a_todo_named_by_what_it_is_for_decides_the_named_requesters(graph_driver, start_request):
    _two_requests(start_request)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "dentist", "isOK": True, "result": "fine"}), "Approved.",
                         user_id="user_2")
    result = agent.say("Zhang San's dentist appointment is fine, approve it")
    assert _refusals(result) == []
    [action] = agent.actions
    assert action["args"]["taskId"] == "task_1"


def test_a_message_naming_two_requesters_leaves_the_models_words_to_the_look_up(graph_driver, store, start_request):
    _two_requests(start_request)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "请假", "isOK": True, "result": "同意"}), "好的。",
                         user_id="user_2")
    result = agent.say("张三和王五的假都批了吧，意见同意")
    assert any("[unknown_task]" in text or "[ambiguous_task]" in text for text in _refusals(result)) or agent.interrupts
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending", "pending"]
    assert not any(a["args"].get("taskId") in ("task_1", "task_2") for a in agent.actions)


def test_a_name_the_model_wrote_is_read_by_the_look_up_as_before(graph_driver, start_request):
    _two_requests(start_request)
    agent = graph_driver(tool_call("returnTask", {"taskId": "Wang Wu", "comment": "日期写错了"}), "已退回。",
                         user_id="user_2")
    agent.say("王五的假退回去，日期写错了")
    [action] = agent.actions
    assert action["args"]["taskId"] == "task_2"


def test_a_todo_named_by_who_passed_it_on_is_the_one_whose_requester_they_named(graph_driver, store, start_request):
    start_request(requester="user_3", approver="user_1", days=2, reason="搬家")  # 王五's task_1, now 张三's
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "李四", "isOK": True, "result": "搬家注意安全"}), "好的。",
                         user_id="user_1")
    result = agent.say("李四交到我这儿的王五那个假批吧，意见写搬家注意安全")
    assert _refusals(result) == []
    [action] = agent.actions
    assert action["args"]["taskId"] == "task_1"
    assert store.snapshot()["tasks"][0]["status"] == "pending"  # nothing before the card


def test_in_english_the_colleague_who_handed_it_over_is_no_requester(graph_driver, start_request):
    start_request(requester="user_3", approver="user_1", days=2, reason="moving house")
    agent = graph_driver(tool_call("returnTask", {"taskId": "Zhao Liu", "comment": "add the dates"}), "Sent back.",
                         user_id="user_1")
    result = agent.say("the one Zhao Liu handed me, Wang Wu's time off: send it back, he should add the dates")
    assert _refusals(result) == []
    [action] = agent.actions
    assert action["args"]["taskId"] == "task_1"


def test_a_name_of_nobodys_todo_with_no_requester_named_is_left_to_the_look_up(graph_driver, store, start_request):
    start_request(requester="user_3", approver="user_1", days=2, reason="搬家")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "李四", "isOK": True, "result": "可以"}), "好的。",
                         user_id="user_1")
    result = agent.say("李四转过来那个，批了吧")
    assert any("[unknown_task]" in text for text in _refusals(result))
    assert store.snapshot()["tasks"][0]["status"] == "pending"


@pytest.mark.parametrize("said", ["看过了，单据齐全，同意", "checked it, all the receipts are there, approved"])
def test_the_one_to_do_waiting_is_the_one_meant_when_the_person_names_nobody(graph_driver, start_request, said):
    # written after the rule (the eleventh round: finance's taskId was his own name); none from a scenario
    start_request(requester="user_3", approver="user_2", days=1, reason="搬家")  # 王五's task_1 waits on 李四
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "李四", "isOK": True, "result": "ok"}), "OK.",
                         user_id="user_2")
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "handleTodoTask" and action["args"]["taskId"] == "task_1"


@pytest.mark.parametrize("said", [  # written after the rule (the thirteenth round); none from a scenario
    "李四转给我的那个报销，我看了，同意",
    "the claim Li Si passed over to me is fine, approve it",
])
def test_a_todo_named_by_who_passed_it_on_and_its_kind_is_the_one_they_passed_on(graph_driver, make_ctx, said):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "打车",
                                          "nextUserId": "user_2", "fields": {"amount": 300, "category": "差旅"}},
                 make_ctx("user_1"))
    execute_call(TOOLSET, "transferTask", {"taskId": "task_1", "nextUserId": "user_4", "comment": "出差中"},
                 make_ctx("user_2"))
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "报销", "isOK": True, "result": "同意"}), "OK.",
                         user_id="user_4")
    agent.say(said)
    [action] = agent.actions
    assert action["args"]["taskId"] == "task_1"


@pytest.mark.parametrize("said", ["The new hire sent me something, just approve it, comment: fine",
                                  "新来的那位给我提了个申请，直接批了吧，意见：同意"])
def test_a_todo_named_by_words_that_name_no_one_is_asked_for(graph_driver, store, start_request, said):
    # the thirty-fifth round, read after its run ("the new guy" refused as no task, and the answer made something up):
    # none of its words. Words that name no one and nothing of a to-do say not which: the person is asked
    _two_requests(start_request)
    who = "the new hire" if said.isascii() else "新来的那位"
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": who, "isOK": True, "result": "fine"}), "x",
                         user_id="user_2")
    result = agent.say(said)
    asked = str(result["messages"][-1].content)
    assert agent.interrupts == [] and ("张三" in asked or "Zhang San" in asked) and ("王五" in asked or "Wang Wu" in asked)


def test_a_todo_named_by_words_that_name_no_one_is_the_one_that_waits(graph_driver, store, start_request):
    start_request(requester="user_3", approver="user_2", days=1, reason="回老家")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "the new hire", "isOK": True, "result": "fine"}), "x",
                         user_id="user_2")
    agent.say("The new hire sent me something, just approve it, comment: fine")
    assert agent.card["task"] == "task_1"  # the card shows which, before anything is decided


@pytest.mark.parametrize(("tool", "said"), [  # the sixty-second round's run showed, then carded, Wang Wu's leave
    ("viewTask", "Pull up Wang Wu's one. Why does he need three days?"),
    ("viewTask", "王五那个打开看看，为什么要请三天？"),
    ("handleTodoTask", "Approve Wang Wu's leave, comment: fine"),
])
def test_an_id_the_person_never_said_of_another_requesters_todo_is_the_one_they_named(graph_driver, start_request,
                                                                                      tool, said):
    _two_requests(start_request)  # the model's req_1 is 张三's; the person names 王五's, task_2
    args = {"taskId": "req_1"} if tool == "viewTask" else {"taskId": "req_1", "isOK": True, "result": "fine"}
    agent = graph_driver(tool_call(tool, args), "OK", user_id="user_2", fixed_answers=True)
    result = agent.say(said)
    if tool == "viewTask":
        shown = [str(m.content) for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "success"]
        assert shown and "回老家" in shown[0] and "看牙医" not in shown[0]
    else:
        assert agent.card["task"] == "task_2"
