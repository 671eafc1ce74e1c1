"""CC and urge through the real graph, driven by scripted models: the people copied come from the person's words
(shown on the start card, the model's additions left out, a person named to copy never taken for the approver); an
urge waits for its own card, and a second one the same day is refused with its reason; a copied person reads the
request and cannot decide it."""

from __future__ import annotations

import re
from datetime import date

import pytest
from langchain_core.messages import ToolMessage

from evals.doubles.scripted import tool_call
from tools.workflow import TOOLSET


def _refusals(agent) -> list[str]:
    return [str(m.content) for m in agent.messages if isinstance(m, ToolMessage) and m.status == "error"]


def _leave(**args):
    return tool_call("runWorkFlow", {"processKey": "process_qingjia", "days": 1, "reason": "看牙医", **args}, id="c1")


def test_the_people_copied_are_read_from_the_persons_words_and_shown_on_the_card(graph_driver, store):
    agent = graph_driver(_leave(nextUserId="李四", cc=["王五", "赵六"]), "已提交。")
    agent.say("明天请一天假看牙医，李四审批，抄送王五")
    card = agent.card
    assert card["cc"] == "王五" and card["labels"]["cc"] == "抄送" and card["approver"] == "李四 (user_2)"
    assert agent.actions[0]["args"]["cc"] == ["user_3"]  # 赵六, whom the person never named, is left out
    agent.approve()
    assert [(r["user_id"], r["source"]) for r in store.snapshot()["request_cc"]] == [("user_3", "requester")]


def test_people_the_model_left_out_are_copied_from_the_persons_words(graph_driver, store):
    agent = graph_driver(_leave(nextUserId="Li Si"), "Filed.", locale="en")
    agent.say("One day off tomorrow for the dentist, Li Si approves, cc Wang Wu and Zhao Liu")
    assert agent.actions[0]["args"]["cc"] == ["user_3", "user_4"]  # filled in from the person's words
    assert agent.card["cc"] == "Wang Wu, Zhao Liu" and agent.card["labels"]["cc"] == "copied to"


def test_a_person_named_to_copy_is_not_taken_for_the_approver(graph_driver, store):
    agent = graph_driver(_leave(), "请问谁来审批？", user_id="user_1")
    result = agent.say("请一天假看牙医，抄送王五")
    assert agent.interrupts == []  # 王五 is copied, not the approver: the graph asks who approves
    assert "谁来审批" in str(result["messages"][-1].content)
    assert store.snapshot()["requests"] == []


def test_an_urge_waits_for_its_card_and_a_second_the_same_day_is_refused(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙医")
    agent = graph_driver(tool_call("urgeTask", {"requestId": "请假"}, id="u1"), "已催办李四。")
    agent.say("我的请假还没批，帮我催一下李四")
    assert agent.card["summary"] == "催办你的请假申请 req_1（1 天）" and agent.card["recipient"] == "李四"
    assert store.snapshot()["urges"] == []  # nothing before the person approves
    agent.approve()
    assert len(store.snapshot()["urges"]) == 1
    again = graph_driver(tool_call("urgeTask", {"requestId": "req_1"}, id="u2"), "今天已经催过了，明天可以再催。",
                         thread_id="t2")
    again.say("再催一次李四")
    assert again.interrupts == []  # refused before any card
    assert any("[urge_too_soon]" in text and "next is possible on" in text for text in _refusals(again))
    assert len(store.snapshot()["urges"]) == 1
    # told by the code, when the next one can go (the fifty-seventh round's run: a model had answered "I found
    # nothing and changed nothing", the refusal's reason never said)
    assert "明天" in str(again.messages[-1].content) and "今天已经催办过 req_1" in str(again.messages[-1].content)


def test_a_copied_person_reads_the_request_and_cannot_decide_it(graph_driver, store, make_ctx):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_qingjia", "userId": "user_1", "days": 1,
                                          "reason": "看牙医", "nextUserId": "user_2", "cc": ["user_3"]},
                 make_ctx("user_1"))
    agent = graph_driver(
        tool_call("queryCcRequests", {}, id="r1"),
        tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "同意"}, id="r2"),
        "这个申请不归你审批。", user_id="user_3",
    )
    agent.say("抄送给我的张三的请假，我看没问题，帮我批了，意见同意")
    assert agent.interrupts == []
    assert any("[not_assignee]" in text for text in _refusals(agent))
    read = next(m for m in agent.messages if isinstance(m, ToolMessage) and m.name == "queryCcRequests")
    assert "req_1" in str(read.content) and "张三" in str(read.content)
    assert store.snapshot()["tasks"][0]["status"] == "pending"


@pytest.mark.parametrize(("text", "asks"), [  # written for the rule (the thirteenth round's re-run, read)
    ("我被抄送了王五的报销，我能直接批了吗？", True),
    ("他抄送了我一份，我可以同意吗", True),
    ("I was cc'd on Wang Wu's claim - may I approve it myself?", True),
    ("what got copied to me this week?", True),
    ("can I just reject it?", False),
    ("请假三天，李四审批，抄送王五", False),
    ("copy Wang Wu on my claim", False),
    ("我能请几天年假？", False),
])
def test_being_copied_said_of_oneself_asks_for_the_copies(text, asks):
    spec = TOOLSET.registry.get("queryCcRequests")
    assert any(re.search(p, text, re.IGNORECASE) for p in spec.answers) is asks


def test_a_copied_persons_question_whether_to_decide_is_told_who_holds_it(graph_driver, make_ctx):
    from tools import execute_call

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "团建午餐",
                                          "fields": {"amount": 900, "category": "餐饮"}, "nextUserId": "user_2",
                                          "cc": ["user_3"]}, make_ctx("user_1"))
    agent = graph_driver(
        tool_call("decideTasks", {"isOK": True, "processKey": "process_baoxiao"}, id="r1"),
        "你不能审批。",  # answered after the refusal with no look-up: sent back once, naming the copies
        tool_call("queryCcRequests", {}, id="r3"),
        "你只是被抄送，这笔报销由李四审批。", user_id="user_3",
    )
    result = agent.say("我被抄送了张三的午餐报销，我可以直接批了吗？")
    assert agent.interrupts == []
    # who holds it is said from the store, with or without the copies looked up (the twenty-second round, read)
    assert "李四" in str(result["messages"][-1].content)


@pytest.mark.parametrize(("text", "asks"), [
    ("我被抄送了张三的报销，我可以直接批了吗？", False),  # whether to decide another's request: no own request asked of
    ("我的报销批了吗", True),
    ("出差申请到哪一步了？", True),
])
def test_the_own_requests_are_asked_of_within_one_clause(text, asks):
    spec = TOOLSET.registry.get("queryMyRequests")
    assert any(re.search(p, text, re.IGNORECASE) for p in spec.answers) is asks


@pytest.mark.parametrize(("said", "call"), [  # written after the rule (the sixteenth round, read); none from it
    ("Could I sign off on req_1 myself from here?", ("handleTodoTask", {"taskId": "req_1", "isOK": True})),
    ("我看王五这个出差没问题，我这边直接批了吧", ("decideTasks", {"isOK": True, "processKey": "process_chuchai"})),
])
def test_a_decision_from_someone_nothing_waits_on_about_anothers_request_is_not_theirs(graph_driver, store, make_ctx,
                                                                                        said, call):
    from tools import execute_call

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_chuchai", "userId": "user_3", "reason": "参展",
                                          "fields": {"destination": "武汉", "startDate": "2027-01-25",
                                                     "endDate": "2027-01-26"},
                                          "nextUserId": "user_2", "cc": ["user_4"]}, make_ctx("user_3"))
    agent = graph_driver(tool_call(call[0], call[1], id="r1"), "x", "这个申请由李四审批。", user_id="user_4")
    answer = str(agent.say(said)["messages"][-1].content)
    assert agent.interrupts == []
    assert any("[not_theirs_to_decide]" in text for text in _refusals(agent)), _refusals(agent)
    assert "李四" in answer or "Li Si" in answer  # who holds it, told with no look-up (the twenty-second round, read)
    assert store.snapshot()["tasks"][0]["status"] == "pending"


@pytest.mark.parametrize("said", [  # written after the rule (the seventeenth round's writer found it; none from it)
    "张三那笔报销抄送给我了，现在在谁手上？",
    "Zhang San's claim was cc'd to me - who's holding it now?",
])
def test_where_a_copied_request_stands_is_answered_from_the_copies(graph_driver, make_ctx, said):
    from tools import execute_call

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "午餐",
                                          "fields": {"amount": 300, "category": "餐饮"}, "nextUserId": "user_2",
                                          "cc": ["user_3"]}, make_ctx("user_1"))
    agent = graph_driver(tool_call("queryCcRequests", {}, id="r1"), "在李四手上。 / Li Si has it.", user_id="user_3")
    result = agent.say(said)
    assert [m.name for m in result["messages"] if isinstance(m, ToolMessage)] == ["queryCcRequests"]
    assert "李四" in str(result["messages"][-1].content)


def test_the_copies_asked_for_with_the_requesters_name_are_the_persons_own(graph_driver, make_ctx):
    # written after the rule (the seventeenth round, read: the model gave the requester as userId, was refused, and
    # asked for "more details"); none from it
    from tools import execute_call

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "团建",
                                          "fields": {"amount": 800, "category": "餐饮"}, "nextUserId": "user_2",
                                          "cc": ["user_3"]}, make_ctx("user_1"))
    agent = graph_driver(tool_call("queryCcRequests", {"userId": "张三"}, id="r1"), "请提供更多详细信息。",
                         "李四在审，还没审完。", user_id="user_3")
    result = agent.say("张三的团建报销抄送了我，现在卡在谁那儿？")
    assert [(m.name, m.status) for m in result["messages"] if isinstance(m, ToolMessage)] == [
        ("queryCcRequests", "error"), ("queryCcRequests", "success")]


def test_the_copies_of_someone_else_are_still_refused(graph_driver):
    agent = graph_driver(tool_call("queryCcRequests", {"userId": "张三"}, id="r1"), "不能查看。", user_id="user_3")
    result = agent.say("张三都被抄送了哪些单子？")
    assert [(m.name, m.status) for m in result["messages"] if isinstance(m, ToolMessage)] == [
        ("queryCcRequests", "error")]


@pytest.mark.parametrize(("found", "still_open"), [({"total": 0, "requests": []}, True),
                                                  ({"total": 1, "requests": [{"requestId": "req_1"}]}, False)])
def test_copies_that_found_nothing_do_not_answer_where_a_request_stands(found, still_open):
    # the twenty-second round, read: "where is my trip?" answered by an empty list of copies; written after the rule
    from langchain_core.messages import AIMessage, HumanMessage

    from graph.history import open_lookups
    from tools.request import read_request

    said = "我前两天提的去西安出差的单子一直没动静，现在在谁手上压着？"
    messages = [HumanMessage(said), AIMessage("", tool_calls=[{"name": "queryCcRequests", "args": {}, "id": "c1"}]),
                ToolMessage("…", tool_call_id="c1", name="queryCcRequests", status="success", artifact=found)]
    request = read_request([said], index=0, today=date(2026, 12, 7))
    assert ("queryMyRequests" in open_lookups(messages, TOOLSET.registry, request)) is still_open


@pytest.mark.parametrize("said", [  # what came in for them to decide (the twenty-second round, read; after the rule)
    "我这边是不是又进来一单报销？", "有没有新的单子要我审？", "Has anything come in for me to approve today?",
    # what waits for a group they are in (the sixty-third round's run; none of its words)
    "Is there anything from Wang Wu waiting for finance?", "anything of Zhao Liu's waiting for HR right now?",
])
def test_what_came_in_for_them_asks_for_their_to_dos(said):
    from langchain_core.messages import HumanMessage

    from graph.history import open_lookups
    from tools.request import read_request

    request = read_request([said], index=0, today=date(2026, 12, 7))
    assert "queryTodoTask" in open_lookups([HumanMessage(said)], TOOLSET.registry, request)


@pytest.mark.parametrize("said", [  # the sixtieth round's run had req_1 refused as no task id; none of its words
    "Drop Li Si a mail: Zhang San's leave clashes with the audit, please call me before you approve it.",
    "给李四发个邮件：张三这个假和审计撞了，批之前先给我打个电话。",
])
def test_a_copied_person_mails_the_approver_of_the_request_by_its_id(graph_driver, make_ctx, said):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_qingjia", "userId": "user_1", "days": 2,
                                          "reason": "朋友婚礼", "nextUserId": "user_2", "cc": ["user_3"]},
                 make_ctx("user_1"))
    mail = {"userId": "李四", "taskId": "req_1", "emailContent": said.partition("：" if "：" in said else ": ")[2]}
    agent = graph_driver(tool_call("sendEmail", mail), "OK", user_id="user_3")
    agent.say(said)
    [card] = agent.actions
    assert card["name"] == "sendEmail" and card["args"]["taskId"] == "task_1" and card["args"]["userId"] == "user_2"


@pytest.mark.parametrize(("said", "told"), [  # the seventy-fifth round's run: "you may not see it" was the answer
    ("那现在呢，张三那个请假批下来了吗", "已批准"), ("so is Zhang San's leave approved now?", "approved"),
])
def test_a_copied_persons_question_of_that_request_is_answered_from_the_copies(graph_driver, make_ctx, said, told):
    from tools import execute_call

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_qingjia", "userId": "user_1", "days": 1,
                                          "reason": "看牙医", "nextUserId": "user_2", "cc": ["user_3"]},
                 make_ctx("user_1"))
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "同意"}, make_ctx("user_2"))
    agent = graph_driver(tool_call("queryMyRequests", {}), "OK", "OK", user_id="user_3", fixed_answers=True)
    answer = str(agent.say(said)["messages"][-1].content)
    read = [m for m in agent.messages if isinstance(m, ToolMessage) and m.name == "queryCcRequests"]
    assert read and told in answer.lower(), answer
