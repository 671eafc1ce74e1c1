"""Messages typed in a hurry, read as a person would: a decision's grounds after it where spaces stand for commas ("王五
北京那趟 驳回 客户那边取消了"), and up to a question that follows it; a look-up of the person's own to-dos where the one
the model named is only whose request they spoke of; the decision asked beside that look-up, proposed to its card; and a
requester's "just approve it for me" told they cannot, where the model proposed a reminder nobody asked for. Written
after the sixty-fifth and sixty-sixth rounds' run; none of these phrasings is a round's."""

from __future__ import annotations

import pytest
from langchain_core.messages import ToolMessage

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.workflow import TOOLSET


def _claim(make_ctx, requester: str, approver: str, amount: int, reason: str) -> None:  # type: ignore[no-untyped-def]
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "reason": reason, "nextUserId": approver,
                                          "fields": {"amount": amount, "category": "差旅"}}, make_ctx(requester))


def _trip(make_ctx) -> None:  # type: ignore[no-untyped-def]
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "user_2",
                                          "fields": {"destination": "北京", "startDate": "2027-01-20",
                                                     "endDate": "2027-01-22"}}, make_ctx("user_3"))


@pytest.mark.parametrize(("said", "grounds"), [
    ("王五北京那趟 驳回 客户那边取消了 以后再说", "客户那边取消了"),
    ("王五那个出差 先驳回吧 预算批不下来", "预算批不下来"),
    ("王五北京那趟 驳回 啥材料也没交", "啥材料也没交"),  # 啥 for "any": it tells, it does not ask
])
def test_grounds_typed_without_commas_go_on_the_rejection(graph_driver, make_ctx, store, said, grounds):
    _trip(make_ctx)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": False}), "已驳回。", user_id="user_2",
                         fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["args"]["isOK"] is False and grounds in action["args"]["result"], action
    assert store.snapshot()["tasks"][0]["status"] == "pending"  # nothing before the card


@pytest.mark.parametrize(("said", "model_named"), [
    ("张三1200那个报销帮我过了 顺便看看还有什么要我批的", "张三"),
    ("Approve Zhang San's 1,200 yuan claim, and what else is waiting for me?", "Zhang San"),
])
def test_the_decision_asked_beside_a_look_up_of_ones_todos_comes_to_its_card(graph_driver, make_ctx, start_request,
                                                                             store, said, model_named):
    _claim(make_ctx, "user_1", "user_2", 1200, "去上海的高铁票")
    start_request(requester="user_3", approver="user_2", days=1, reason="看病")
    agent = graph_driver(tool_call("queryTodoTask", {"userId": model_named}), "ok", "ok", user_id="user_2",
                         fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    looked = [str(m.content) for m in agent.values["messages"] if isinstance(m, ToolMessage) and m.name == "queryTodoTask"]
    if model_named == "张三":  # (in English "Zhang San's 1,200 yuan claim" sends the model to the to-do first)
        assert looked and "task_1" in looked[0] and "task_2" in looked[0], looked  # their own list, not 张三's (none)
    assert (action["name"], action["args"]["taskId"], action["args"]["isOK"]) == ("handleTodoTask", "task_1", True)
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending", "pending"]


def test_a_question_about_a_todo_is_no_decision_beside_the_look_up(graph_driver, make_ctx, store):
    _claim(make_ctx, "user_1", "user_2", 1200, "去上海的高铁票")
    agent = graph_driver(tool_call("queryTodoTask", {"userId": "user_2"}), "ok", user_id="user_2", fixed_answers=True)
    agent.say("张三那个报销我批了没 还有啥待办")
    assert agent.actions == [] and agent.interrupts == []


@pytest.mark.parametrize(("said", "told"), [
    ("我那个报销挺急的 王五出差了 你直接帮我通过吧", "不能审批自己的申请"),
    ("my claim is urgent and Wang Wu is away, just approve it for me", "You cannot approve your own request"),
])
def test_a_requester_asking_their_own_approved_is_told_why_not_not_shown_a_reminder(graph_driver, make_ctx, store, said,
                                                                                   told):
    _claim(make_ctx, "user_1", "user_3", 300, "打车")
    agent = graph_driver(tool_call("urgeTask", {"requestId": "报销"}), "ok", user_id="user_1", fixed_answers=True)
    result = agent.say(said)
    assert told in str(result["messages"][-1].content) and agent.interrupts == []
    assert store.snapshot()["tasks"][0]["status"] == "pending"


@pytest.mark.parametrize("said", [
    "赵六还没批我的打车报销，你帮我跟他说一声", "Wang Wu still hasn't approved my taxi claim, can you give him a shout?",
    "王五还没 approve 我的报销，帮我 push 他一下",
])
def test_an_approval_said_not_done_yet_is_reminded(graph_driver, make_ctx, store, said):
    _claim(make_ctx, "user_1", "user_3", 300, "打车")
    agent = graph_driver(tool_call("urgeTask", {"requestId": "req_1"}), "ok", user_id="user_1", fixed_answers=True)
    agent.say(said)
    assert [a["name"] for a in agent.actions] == ["urgeTask"]


@pytest.mark.parametrize(("said", "told"), [  # the seventieth round's run proposed a withdrawal; written for this test
    ("王五最近都在外地，能不能我自己先把这笔报销批掉？等他回来我再说", "不能审批自己的申请"),
    ("Wang Wu is off-site all week. Could I just sign off my own taxi claim for now?",
     "You cannot approve your own request"),
])
def test_a_requester_asking_their_own_approved_is_not_shown_a_withdrawal(graph_driver, make_ctx, store, said, told):
    _claim(make_ctx, "user_1", "user_3", 300, "打车")
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "报销"}), "ok", user_id="user_1",
                         fixed_answers=True)
    result = agent.say(said)
    assert told in str(result["messages"][-1].content) and agent.interrupts == []
    assert store.snapshot()["requests"][0]["status"] == "pending"


def test_a_withdrawal_asked_beside_ones_own_approval_is_carded(graph_driver, make_ctx):
    _claim(make_ctx, "user_1", "user_3", 300, "打车")
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "req_1"}), "ok", user_id="user_1",
                         fixed_answers=True)
    agent.say("算了，那笔打车报销撤回吧，我自己批不了")
    assert [a["name"] for a in agent.actions] == ["withdrawRequest"]


@pytest.mark.parametrize(("said", "approves", "comment"), [
    ("王五的出差申请我看过了，路线没问题，帮他过了吧", True, "路线没问题"),
    ("Went through Wang Wu's trip request, the plan looks sensible. Please approve it.", True, "the plan looks sensible"),
    ("王五那个出差我看了，预算太高，给他驳回去", False, "预算太高"),
])
def test_a_decision_on_the_one_person_the_message_names_comes_to_its_card(graph_driver, make_ctx, start_request,
                                                                          said, approves, comment):
    # A decision said of "him" or "it" in a clause that names nobody ("…，给他批了吧") is on the one person the message
    # names: the model had listed the to-dos and answered "我已经批了" with nothing decided.
    start_request(requester="user_3", approver="user_2", days=1, reason="看病")  # a leave of Wang Wu's too
    _trip(make_ctx)
    agent = graph_driver(tool_call("queryTodoTask", {"userId": "user_2"}), "ok", "ok", user_id="user_2",
                         fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert (action["name"], action["args"]["taskId"], action["args"]["isOK"]) == ("handleTodoTask", "task_2", approves)
    assert comment in action["args"]["result"]


@pytest.mark.parametrize("said", ["王五的出差申请我看过了，先别批，等我问问他", "Looked at Wang Wu's trip, don't approve it yet"])
def test_a_decision_held_back_is_none(graph_driver, make_ctx, said):
    _trip(make_ctx)
    agent = graph_driver(tool_call("queryTodoTask", {"userId": "user_2"}), "ok", user_id="user_2", fixed_answers=True)
    agent.say(said)
    assert agent.actions == [] and agent.interrupts == []


@pytest.mark.parametrize(("said", "first", "second"), [  # the seventy-seventh round's writer; phrasings written later
    ("张三那两笔报销，金额少的那个直接批，多的那个退回去让他补个发票", ("handleTodoTask", "task_1"), ("returnTask", "task_2")),
    ("Of Zhang San's two claims, approve the cheaper one and send the pricier one back, it needs receipts",
     ("handleTodoTask", "task_1"), ("returnTask", "task_2")),
])
def test_two_to_dos_of_one_requester_named_by_size_are_each_decided_their_own_way(graph_driver, make_ctx, store, said,
                                                                                   first, second):
    _claim(make_ctx, "user_1", "user_2", 180, "打车")  # task_1, the smaller
    _claim(make_ctx, "user_1", "user_2", 2600, "办公椅")  # task_2, the larger
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True}), "OK", "OK", user_id="user_2",
                         fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert (action["name"], action["args"]["taskId"]) == first and action["args"]["isOK"] is True
    agent.approve()
    [action] = agent.actions  # the other part of the message, proposed as said
    assert (action["name"], action["args"]["taskId"]) == second
    assert "发票" in action["args"]["comment"] or "receipts" in action["args"]["comment"]


@pytest.mark.parametrize("said", ["张三金额大的那笔报销批了吧，没问题", "approve the bigger of Zhang San's claims, it's fine"])
def test_a_to_do_named_by_its_size_is_the_one_decided(graph_driver, make_ctx, store, said):
    _claim(make_ctx, "user_1", "user_2", 180, "打车")
    _claim(make_ctx, "user_1", "user_2", 2600, "办公椅")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "张三", "isOK": True}), "OK", user_id="user_2",
                         fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["args"]["taskId"] == "task_2"


def test_a_to_do_named_by_its_size_is_the_only_one_decided(graph_driver, make_ctx, store):
    # the seventy-seventh round's run: after "张三金额大的那笔…过了", his other claim was proposed too
    _claim(make_ctx, "user_1", "user_2", 800, "打车")
    _claim(make_ctx, "user_1", "user_2", 6200, "机票")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "张三", "isOK": True, "result": "同意"}), "OK",
                         user_id="user_2", fixed_answers=True)
    agent.say("张三金额多的那笔先批了，意见写同意")
    [action] = agent.actions
    assert action["args"]["taskId"] == "task_2"
    agent.approve()
    assert agent.actions == [] and [t["status"] for t in store.snapshot()["tasks"]][:2] == ["pending", "approved"]


@pytest.mark.parametrize("given", ["报销小", "the bigger claim"])
def test_a_to_do_the_model_names_in_its_own_words_is_the_one_of_the_size_decided_that_way(graph_driver, make_ctx,
                                                                                          store, given):
    # the seventy-seventh round's run: returnTask("报销小") for "小的那笔直接批，大的那笔退回去" asked which of the two
    _claim(make_ctx, "user_1", "user_2", 180, "打车")
    _claim(make_ctx, "user_1", "user_2", 2600, "办公椅")
    agent = graph_driver(tool_call("returnTask", {"taskId": given, "comment": "补发票"}), "OK", user_id="user_2",
                         fixed_answers=True)
    agent.say("张三那两笔，金额少的那个直接批，多的那个退回去让他补个发票")
    [action] = agent.actions
    assert (action["name"], action["args"]["taskId"]) == ("returnTask", "task_2")


@pytest.mark.parametrize("said", [  # the seventy-seventh round's run: "Zhang San's Thursday trip" asked which of two
    "Send Wang Wu's Wednesday trip back to him, he should add the client's name",
    "王五下周三出发的那个出差退回去，让他写清楚见哪个客户",
])
def test_one_of_a_requesters_to_dos_named_by_its_date_is_that_one(graph_driver, make_ctx, said):
    for start, end, city in (("2027-01-18", "2027-01-19", "北京"), ("2027-01-20", "2027-01-21", "西安")):
        execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "user_2",
                                              "fields": {"destination": city, "startDate": start, "endDate": end}},
                     make_ctx("user_3"))
    agent = graph_driver(tool_call("returnTask", {"taskId": "Wang Wu" if said.isascii() else "王五"}), "OK",
                         user_id="user_2", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert (action["name"], action["args"]["taskId"]) == ("returnTask", "task_2")


@pytest.mark.parametrize("said", [  # the seventy-seventh round's note: the Thursday trip of a later week
    "Approve Wang Wu's Thursday trip, the route looks fine",
    "王五星期四出发那个出差批了吧，路线没问题",
])
def test_one_of_a_requesters_to_dos_named_by_a_bare_weekday_is_the_one_starting_that_weekday(graph_driver, make_ctx,
                                                                                            said):
    for start, end, city in (("2027-01-25", "2027-01-26", "北京"), ("2027-01-28", "2027-01-29", "西安")):
        execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "user_2",
                                              "fields": {"destination": city, "startDate": start, "endDate": end}},
                     make_ctx("user_3"))
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "Wang Wu" if said.isascii() else "王五", "isOK": True}),
                         "OK", user_id="user_2", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert (action["name"], action["args"]["taskId"]) == ("handleTodoTask", "task_2")


def test_two_to_dos_starting_on_the_weekday_named_are_not_picked_between(graph_driver, make_ctx):
    for start, end, city in (("2027-01-28", "2027-01-29", "北京"), ("2027-02-04", "2027-02-05", "西安")):
        execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "user_2",
                                              "fields": {"destination": city, "startDate": start, "endDate": end}},
                     make_ctx("user_3"))
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "Wang Wu", "isOK": True}), "OK", user_id="user_2",
                         fixed_answers=True)
    agent.say("Approve Wang Wu's Thursday trip")
    assert not any(a["args"].get("taskId") in ("task_1", "task_2") for a in agent.actions)


@pytest.mark.parametrize(("said", "given"), [  # the seventy-seventh round's note: sizes were read only where deciding
    ("张三金额大的那笔转给赵六处理吧，他懂这个", "张三"),
    ("Hand Zhang San's pricier claim over to Zhao Liu", "Zhang San"),
])
def test_a_to_do_passed_on_by_its_size_is_the_one_at_that_end(graph_driver, make_ctx, said, given):
    _claim(make_ctx, "user_1", "user_2", 800, "打车")
    _claim(make_ctx, "user_1", "user_2", 6200, "机票")
    agent = graph_driver(tool_call("transferTask", {"taskId": given, "nextUserId": "user_4"}), "OK", user_id="user_2",
                         fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert (action["name"], action["args"]["taskId"]) == ("transferTask", "task_2")
