"""An approver who says to send a request back (退回, "send it back") wants it returned to its requester to change,
not rejected; one who says to reject it (驳回, 拒了, 打回, "turn it down") wants it rejected, not returned. A call
that does the other is refused to the model, with the one to call instead, before any card. The decision is read
before the person's grounds ("驳回，理由：……重新开了再提" rejects), from their latest message that states one.

The phrasings were written for this test, after the rule; none is taken from a scenario."""

from __future__ import annotations

import pytest
from langchain_core.messages import ToolMessage

from evals.doubles.scripted import tool_call
from tools.workflow.todo_guards import said_return_or_reject


def _refusals(result) -> list[str]:
    return [str(m.content) for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "error"]


def test_a_rejection_proposed_for_a_return_is_refused_to_the_model(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=4, reason="回老家")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": False, "result": "最多两天"}),
                         tool_call("returnTask", {"taskId": "task_1", "comment": "最多两天"}), "已退回。", user_id="user_2")
    result = agent.say("张三的假退给他改一下，最多两天")
    [refused] = _refusals(result)
    assert refused.startswith("Error [return_not_reject]") and "returnTask" in refused
    assert agent.card is not None and agent.card["action"] == "returnTask"
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending"]


def test_a_return_proposed_for_a_rejection_is_refused_to_the_model(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="搬家")
    agent = graph_driver(tool_call("returnTask", {"taskId": "task_1", "comment": "这周走不开"}),
                         tool_call("handleTodoTask", {"taskId": "task_1", "isOK": False, "result": "这周走不开"}),
                         "已驳回。", user_id="user_2")
    result = agent.say("Turn down Zhang San's leave, we can't spare him this week")
    [refused] = _refusals(result)
    assert refused.startswith("Error [reject_not_return]") and "handleTodoTask" in refused
    assert agent.card is not None and agent.card["action"] == "handleTodoTask"


def test_a_rejection_the_person_asked_for_is_untouched(graph_driver, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="搬家")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": False, "result": "材料不全，补齐了再提"}),
                         "已驳回。", user_id="user_2")
    result = agent.say("驳回张三的申请，理由：材料不全，补齐了再提")
    assert _refusals(result) == []
    assert agent.card is not None and agent.card["action"] == "handleTodoTask"


@pytest.mark.parametrize(("texts", "meant"), [
    (["王五的报销先退回去，发票少了一张"], "return"),
    (["退给赵六，让他把日期写清楚"], "return"),
    (["Send Wang Wu's claim back, the receipt is missing"], "return"),
    (["Please return it to her with a note to fix the dates"], "return"),
    (["Bounce it back to him"], "return"),
    (["这个出差打回去，预算太高"], "reject"),
    (["拒了吧"], "reject"),
    (["不批，最近太忙"], "reject"),
    (["Decline it, we're short-staffed"], "reject"),
    (["Turn it down"], "reject"),
    (["Reject it because he should send it back with receipts"], "reject"),
    (["驳回，意见：退回重填也不行"], "reject"),
    (["把这个拒了", "理由就写人手不够"], "reject"),
    (["Send it back", "the comment is: two days at most"], "return"),
    (["驳回还是退回呢，你看着办"], None),
    (["看看王五的报销"], None),
    (["Approve it"], None),
    # written after the rule (the seventeenth round's re-run, read); none from it
    (["I'm turning that one down, the receipt is missing. She can file it again with it."], "reject"),
    (["shoot that one down, no budget left"], "reject"),
    # sent back to be redone (the twenty-eighth round's writer's report; written after the rule)
    (["赵六那笔打回去让他改一下发票抬头再提"], "return"), (["发回给他重做一份预算"], "return"),
])
def test_return_or_reject_is_read_from_the_words_before_the_grounds(texts, meant):
    said = said_return_or_reject(texts)
    assert (said[0] if said else None) == meant


@pytest.mark.parametrize("said", [
    "Kick Zhang San's leave back to him, note: one day is plenty",
    "张三的请假退给他本人改一下，意见：最多一天",
])
def test_a_transfer_where_the_person_said_to_send_it_back_is_the_return(graph_driver, store, start_request, said):
    # the model passed the to-do to its requester; the person said to send it back and named nobody to take it
    start_request(requester="user_1", approver="user_2", days=3, reason="回老家")
    agent = graph_driver(tool_call("transferTask", {"taskId": "task_1", "nextUserId": "张三"}), "好的。", user_id="user_2")
    agent.say(said)
    assert agent.card is not None and agent.card["action"] == "returnTask"
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending"]


def test_handing_a_to_do_back_to_a_colleague_is_still_a_transfer(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=3, reason="回老家")
    agent = graph_driver(tool_call("transferTask", {"taskId": "task_1", "nextUserId": "王五"}), "好的。", user_id="user_2")
    agent.say("hand Zhang San's leave back to Wang Wu, he knows the project")
    assert agent.card is not None and agent.card["action"] == "transferTask"


@pytest.mark.parametrize("said", [  # written after the rule (the thirteenth round); none from a scenario
    "swamped today, could somebody else take Zhang San's leave off my hands?",
    "张三这个假我这周顾不上，换个人来批吧",
])
def test_a_decision_where_the_person_said_to_pass_it_on_is_the_transfer(graph_driver, store, start_request, said):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True}), "OK.", user_id="user_2")
    result = agent.say(said)
    assert agent.actions == []  # the taker is asked, nothing decided
    question = str(result["messages"][-1].content)
    assert "?" in question or "？" in question
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending"]
    assert any("passed_not_decided" in r for r in _refusals(result))


@pytest.mark.parametrize(("said", "proposed"), [  # written after the rule (the twenty-fourth round, read); none from it
    ("张三那个假我拿不准，能不能交给王五来把关？", {"name": "returnTask", "args": {"taskId": "task_1", "comment": "拿不准"}}),
    ("Could you hand Zhang San's leave to Wang Wu? I don't know his team", {"name": "handleTodoTask",
                                                                          "args": {"taskId": "task_1", "isOK": False}}),
])
def test_a_to_do_given_to_a_colleague_named_is_their_transfer(graph_driver, store, start_request, said, proposed):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙")
    agent = graph_driver(tool_call(proposed["name"], proposed["args"]), "OK.", user_id="user_2", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "transferTask" and action["args"]["nextUserId"] == "user_3"
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending"]


@pytest.mark.parametrize("said", [  # written after the rule (the thirteenth round); none from a scenario
    "Send Zhang San's leave back to him - he has to say who covers his shifts",
    "张三的请假退回去，让他写清楚谁来顶班",
])
def test_an_email_where_the_person_said_to_send_the_request_back_is_the_return(graph_driver, store, start_request,
                                                                               said):
    start_request(requester="user_1", approver="user_2", days=2, reason="回老家")
    agent = graph_driver(tool_call("sendEmail", {"userId": "张三", "taskId": "task_1", "emailContent": "Who covers?"}),
                         "OK.", user_id="user_2")
    agent.say(said)
    assert agent.card is not None and agent.card["action"] == "returnTask"


@pytest.mark.parametrize("said", [  # written after the rule (the fourteenth round); none from a scenario
    "下周二到周四我去上海开会，这几天的审批让王五帮我顶上",
    "I'm at a conference next Tuesday to Thursday, Wang Wu covers my approvals while I'm out",
    # being away said as the reason, a leave word among it (the sixteenth round, read); none from it
    "I'll be off the whole of next week; have Wang Wu sign off on my stuff while I'm gone",
    "我下周一到周三休假，这几天的审批让王五代我",
    # 帮我代 (the twenty-sixth round, read; written after the rule)
    "好消息，我下个月结婚！下周一到周三回老家准备，这几天的审批请王五帮我代一下，谢谢",
])
def test_a_start_where_the_person_names_a_deputy_for_their_approvals_is_the_deputy(graph_driver, store, said):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "开会", "nextUserId": "王五"})
    agent = graph_driver(trip, "OK.", user_id="user_2")
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "setDeputy" and action["args"]["deputyUserId"] == "user_3"


def test_a_leave_asked_for_beside_a_deputy_is_still_the_leave(graph_driver, store):
    leave = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "回老家", "days": 3, "nextUserId": "李四"})
    agent = graph_driver(leave, "OK.", user_id="user_3")
    agent.say("请三天年假回老家，李四审批，这几天我的审批让赵六代我")
    [action] = agent.actions
    assert action["name"] == "runWorkFlow"


def test_naming_the_approver_of_a_request_is_no_deputy(graph_driver, store):
    leave = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "搬家", "days": 1, "nextUserId": "李四"})
    agent = graph_driver(leave, "OK.")
    agent.say("帮我请一天假，周五搬家，让李四审批。")
    [action] = agent.actions
    assert action["name"] == "runWorkFlow"


def test_a_comment_that_hands_something_over_after_an_approval_is_no_transfer(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=3, reason="回老家")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True}),
                         tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "x"}), user_id="user_2")
    agent.say("Zhang San's leave is fine with me, approve it")
    agent.say("Comment: have a good trip, hand over the release notes first")
    [action] = agent.actions
    assert action["name"] == "handleTodoTask" and action["args"]["isOK"] is True


@pytest.mark.parametrize(("said", "decided"), [  # written after the rule (the sixteenth round, read); none from it
    ("Zhang San's leave is fine by me. Approve it, and add a note that he should hand over his tickets first", True),
    ("张三这个假我同意，备注一下让他走之前把工作交接好", True),
    ("Turn down Zhang San's leave, with a note that the release week is all hands", False),
])
def test_an_email_where_the_person_decided_the_one_to_do_of_whom_they_named_is_that_decision(graph_driver, store,
                                                                                              start_request, said,
                                                                                              decided):
    start_request(requester="user_1", approver="user_2", days=2, reason="回老家")
    agent = graph_driver(tool_call("sendEmail", {"userId": "user_2", "emailContent": said}), "OK.", user_id="user_2")
    agent.say(said)
    assert agent.card is not None and agent.card["action"] == "handleTodoTask"
    [action] = agent.actions
    assert action["args"]["taskId"] == "task_1" and action["args"]["isOK"] is decided


def test_a_return_proposed_for_an_approval_said_after_a_question_is_the_approval(graph_driver, store, start_request):
    # written after the rule (the eighteenth round, read: "是不是有王五的一笔报销？…给他过了吧" carded a return)
    start_request(requester="user_3", approver="user_2", days=1, reason="搬家")
    agent = graph_driver(tool_call("returnTask", {"taskId": "王五", "comment": "交接好了"}), "OK.", user_id="user_2")
    agent.say("我这儿是不是有王五的一个请假？交接他都弄好了，给他过了吧")
    [action] = agent.actions
    assert (action["name"], action["args"]["isOK"]) == ("handleTodoTask", True)
