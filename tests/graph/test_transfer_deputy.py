"""Transfer and deputies through the chat (the real graph, a scripted model): a transfer waits for its card, which
says who from, who to, the request and the comment, and runs once the approver confirms it; a deputy is set after its
card from the person's own dates and name; the deputy's card says on whose behalf they decide; a message that names
the requester too takes the person it passes the task to."""

from __future__ import annotations

from datetime import date

import pytest
from langchain_core.messages import ToolMessage

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.workflow import TOOLSET


def test_a_transfer_runs_only_after_its_card_is_approved(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=2, reason="回老家")
    agent = graph_driver(
        tool_call("queryTodoTask", {"userId": "user_2"}, id="c1"),
        tool_call("transferTask", {"taskId": "张三", "nextUserId": "王五", "comment": "我这周出差"}, id="c2"),
        "已转交给王五。", user_id="user_2",
    )
    agent.say("张三的请假转给王五审批吧，附言：我这周出差")
    card = agent.card
    assert card["summary"] == "把张三的请假申请 req_1（2 天）转交给王五审批"
    assert (card["from"], card["to"], card["comment"]) == ("李四", "王五", "我这周出差")
    assert store.snapshot()["tasks"][0]["assignee_id"] == "user_2"  # nothing moves before the card is approved
    agent.approve()
    assert store.snapshot()["tasks"][0]["assignee_id"] == "user_3"
    events = [e["event"] for e in store.snapshot()["audit_log"] if '"transferTask"' in e["detail"]]
    assert "review" in " ".join(events) and events, events  # the audit shows the card's decision and the call


def test_a_transfer_to_the_requester_says_why_not_and_asks_who_before_any_card(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙医")
    agent = graph_driver(tool_call("transferTask", {"taskId": "task_1", "nextUserId": "张三"}, id="c1"), user_id="user_2")
    result = agent.say("把 task_1 转给张三")
    assert str(result["messages"][-1].content) == ("张三是这个申请的申请人，不能审批自己的申请。"
                                                   "请问转交给谁？可选：王五、赵六、管理员。")
    assert agent.interrupts == [] and store.snapshot()["process_task_moves"] == []
    agent.say("王五")
    assert (agent.card["from"], agent.card["to"]) == ("李四", "王五")


def test_the_requester_the_model_picked_for_someone_else_is_not_offered(graph_driver, store, make_ctx):
    # Written after the sixty-sixth round's run (the model put the requester its message named as the taker, and the
    # refusal went back to it, which answered that the claim was the approver's own); these words are not the round's.
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "reason": "team lunch", "nextUserId": "user_3",
                                          "fields": {"amount": 380, "category": "餐饮"}}, make_ctx("user_4"))
    agent = graph_driver(tool_call("transferTask", {"taskId": "claim", "nextUserId": "Zhao Liu"}, id="c1"),
                         user_id="user_3")
    result = agent.say("I'm swamped this week, can someone else look at Zhao Liu's lunch claim?")
    answer = str(result["messages"][-1].content)
    assert answer.endswith("Who should take it over? You can choose: Zhang San, Li Si, Administrator."), answer
    assert agent.interrupts == [] and store.snapshot()["process_task_moves"] == []


def test_a_transfer_to_nobody_named_asks_who_and_the_answer_passes_it_on_without_the_model(graph_driver, store,
                                                                                             start_request):
    # The model put the approver themself as the taker (held-out ho4_transfer_ask_colleague_zh: refused to the model,
    # which answered "已由你接管"); the person is asked who, among those who may take it, and their answer is filed.
    start_request(requester="user_1", approver="user_2", days=2, reason="回老家")
    agent = graph_driver(tool_call("transferTask", {"taskId": "张三", "nextUserId": "李四"}, id="c1"), user_id="user_2")
    result = agent.say("张三这个假我处理不了，帮我转给别人")
    assert str(result["messages"][-1].content) == "请问转交给谁？可选：王五、赵六、管理员。"
    assert agent.interrupts == []
    agent.say("赵六")
    card = agent.card
    assert (card["from"], card["to"]) == ("李四", "赵六")
    assert agent.values["budget"]["model_calls"] == 0  # this turn's call was filled from the answer, in code
    agent.approve()
    assert store.snapshot()["tasks"][0]["assignee_id"] == "user_4"


def test_a_deputy_is_set_from_the_persons_dates_after_its_card(graph_driver, store):
    agent = graph_driver(
        tool_call("setDeputy", {"deputyUserId": "王五", "startDate": "下周一", "endDate": "下周五"}, id="c1"),
        "好的。", user_id="user_2",
    )
    agent.say("下周一到下周五我休假，让王五代我审批")
    card = agent.card
    assert card["deputy"] == "王五" and "至" in card["period"] and card["summary"].endswith("由王五代你审批")
    assert store.snapshot()["deputies"] == []
    agent.approve()
    [row] = store.snapshot()["deputies"]
    start, end = date.fromisoformat(row["start_date"]), date.fromisoformat(row["end_date"])
    assert (row["user_id"], row["deputy_id"], start.weekday(), (end - start).days) == ("user_2", "user_3", 0, 4)


def test_the_deputy_is_asked_for_when_the_person_names_nobody(graph_driver, store):
    agent = graph_driver(
        tool_call("setDeputy", {"deputyUserId": "王五", "startDate": "下周一", "endDate": "下周五"}, id="c1"),
        user_id="user_2",
    )
    result = agent.say("下周一到下周五我休假，帮我设个代理审批")
    assert agent.interrupts == []
    assert "请问由谁代你审批" in str(result["messages"][-1].content)
    assert store.snapshot()["deputies"] == []


def test_a_bare_next_week_is_no_range_the_days_are_asked_and_the_answer_fills_them(graph_driver, store):
    agent = graph_driver(
        tool_call("setDeputy", {"deputyUserId": "王五", "startDate": "下周一", "endDate": "下周五"}, id="c1"),
        "好的。", user_id="user_2",
    )
    asked = agent.say("下周我休假，让王五代我审批")  # 下周 says no days: the model's 下周一 and 下周五 are not the person's
    assert str(asked["messages"][-1].content) == "请问代理从哪天开始？请问代理到哪天结束？" and agent.interrupts == []
    agent.say("下周一到下周五")
    assert agent.card["period"] == "1月18日至1月22日"  # the graph's clock: Friday 15 January 2027
    agent.approve()
    [row] = store.snapshot()["deputies"]
    assert (row["start_date"], row["end_date"]) == ("2027-01-18", "2027-01-22")


def _trip_and_leave(make_ctx, start_request):
    """李四 holds 赵六's leave (task_1) and 张三's trip to Xiamen (task_2)."""
    from tools import execute_call
    from tools.workflow import TOOLSET

    start_request(requester="user_4", approver="user_2", days=1, reason="搬家")
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_chuchai", "userId": "user_1", "reason": "验收新仓库",
                                          "fields": {"destination": "厦门", "startDate": "2027-01-25",
                                                     "endDate": "2027-01-26"}, "nextUserId": "user_2"},
                 make_ctx("user_1"))


def test_a_decision_of_another_to_do_beside_a_hand_over_is_no_decision_of_the_one_passed_on(graph_driver, store,
                                                                                           make_ctx, start_request):
    # the thirty-seventh round's writer's report (none of its words): the leave is decided, the trip passed on
    _trip_and_leave(make_ctx, start_request)
    agent = graph_driver(tool_call("transferTask", {"taskId": "task_2", "nextUserId": "王五"}, id="c1"), "x",
                         user_id="user_2")
    agent.say("Zhao Liu's day off is fine by me, and pass the Xiamen trip on to Wang Wu")
    assert agent.card["to"] == "Wang Wu"  # the transfer's card, not a refusal that turns it into an approval


def test_a_decision_of_the_to_do_passed_on_is_still_that_decision(graph_driver, store, make_ctx, start_request):
    _trip_and_leave(make_ctx, start_request)
    agent = graph_driver(tool_call("transferTask", {"taskId": "task_1", "nextUserId": "王五"}, id="c1"), "x",
                         user_id="user_2")
    agent.say("赵六那个假我同意了，走之前让他把手上的活交接给王五")
    refused = [m for m in agent.messages if isinstance(m, ToolMessage) and "decided_not_passed" in str(m.content)]
    assert refused, "the leave is approved, not passed on"


@pytest.mark.parametrize(("said", "told"), [
    ("理由改成陪家人看病，重新提交", "等待赵六代李四审批"),
    ("change the reason to a family hospital visit and resubmit", "it waits for Zhao Liu's decision on Li Si's behalf"),
])
def test_a_resend_while_its_approver_is_away_names_who_holds_it(graph_driver, store, make_ctx, start_request, said,
                                                                told):
    # the seventy-fifth round's writer: the resend said it waited for Li Si, the deputy held it
    start_request(requester="user_1", approver="user_2", days=1, reason="家里有事")
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "理由写具体点"}, make_ctx("user_2"))
    execute_call(TOOLSET, "setDeputy", {"deputyUserId": "user_4", "startDate": "2027-01-15", "endDate": "2027-01-22"},
                 make_ctx("user_2"))
    reason = "陪家人看病" if said.startswith("理由") else "a family hospital visit"
    resend = tool_call("resubmitRequest", {"requestId": "req_1", "reason": reason})
    agent = graph_driver(resend, "OK", fixed_answers=True)
    agent.say(said)
    agent.approve()
    assert [(t["id"], t["assignee_id"]) for t in store.snapshot()["tasks"]][-1] == (2, "user_4")
    assert told in str(agent.messages[-1].content), agent.messages[-1].content


@pytest.mark.parametrize(("first", "then"), [  # the seventy-seventh round's writer; phrasings written later
    ("1月25日到29日去成都出差见客户，李四审批", "我出差期间的审批交给赵六代一下"),
    ("Business trip to Chengdu from Jan 25 to Jan 29 to see a client, Li Si approves",
     "While I'm on that trip, have Zhao Liu cover my approvals"),
])
def test_a_deputy_for_the_days_of_ones_own_trip_said_before_takes_those_days(graph_driver, store, first, then):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "李四",
                                     "fields": {"destination": "成都", "startDate": "2027-01-25", "endDate": "2027-01-29"}})
    agent = graph_driver(trip, "OK", user_id="user_3")
    agent.say(first)
    agent.approve()
    agent.script(tool_call("setDeputy", {"deputyUserId": "赵六", "startDate": "2027-01-25", "endDate": "2027-01-29"}),
                 "OK")
    agent.say(then)
    [action] = agent.actions
    assert (action["args"]["startDate"], action["args"]["endDate"]) == ("2027-01-25", "2027-01-29")


def test_a_deputy_with_no_days_said_and_none_pointed_at_is_asked_them(graph_driver, store):
    agent = graph_driver(tool_call("setDeputy", {"deputyUserId": "赵六", "startDate": "2027-01-25",
                                                 "endDate": "2027-01-29"}), "OK", user_id="user_3")
    answer = str(agent.say("我的审批交给赵六代一下")["messages"][-1].content)
    assert "哪天" in answer and agent.actions == []
