"""A deputy while away (代理审批): tasks that come to a person on a day of their range go to the deputy, marked as on
their behalf in the to-do list, the card, the e-mail and the timeline; the deputy's own request goes to the person's
own approver instead (their manager, else HR, as the timers' escalation finds them), so a deputy never decides their
own request."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from tools import execute_call
from tools.errors import PolicyError
from tools.workflow import TOOLSET
from tools.workflow.cards import decision_card, start_card
from tools.workflow.deputies import company_today, deputy_card
from tools.workflow.readable import started

TODAY = date(2026, 12, 3)


def _call(make_ctx, actor: str, tool: str, args: dict, **kwargs):
    return execute_call(TOOLSET, tool, args, make_ctx(actor, today=TODAY, **kwargs))


def _away(make_ctx, start: str = "2026-12-01", end: str = "2026-12-11") -> dict:
    """李四 (user_2) is away; 王五 (user_3) covers for them."""
    return _call(make_ctx, "user_2", "setDeputy", {"deputyUserId": "王五", "startDate": start, "endDate": end})


def _start(make_ctx, requester: str, approver: str, days: float = 1, reason: str = "看牙医") -> dict:
    return _call(make_ctx, requester, "runWorkFlow", {"processKey": "process_qingjia", "userId": requester,
                                                      "reason": reason, "days": days, "nextUserId": approver})


def test_a_task_that_comes_to_an_away_person_goes_to_their_deputy(store, make_ctx):
    result = _away(make_ctx)
    assert (result["deputy"], result["period"]) == ("王五", "12月1日至12月11日")
    _start(make_ctx, "user_1", "user_2")
    assert _call(make_ctx, "user_2", "queryTodoTask", {"userId": "user_2"})["total"] == 0
    [todo] = _call(make_ctx, "user_3", "queryTodoTask", {"userId": "user_3"})["tasks"]
    assert (todo["taskId"], todo["onBehalfOf"]) == ("task_1", "李四")
    with store.read() as conn:
        card = decision_card(conn, {"taskId": "task_1", "isOK": True, "result": "同意"}, "zh")
    assert card["on_behalf"] == "代李四审批" and card["labels"]["on_behalf"] == "代理"
    mails = [n for n in store.snapshot()["notifications"] if n["recipient_id"] == "user_3"]
    assert any("代李四审批" in m["body"] and "等待您审批" in m["body"] for m in mails)
    assert not [n for n in store.snapshot()["notifications"] if n["recipient_id"] == "user_2"]
    _call(make_ctx, "user_3", "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "同意"})
    [mine] = _call(make_ctx, "user_1", "queryMyRequests", {})["requests"]
    assert any("转给王五代李四审批" in line for line in mine["timeline"]), mine["timeline"]
    assert mine["status"] == "已批准"


def test_the_start_says_who_decides_in_place_of_an_away_approver(store, make_ctx):
    today = company_today()  # the card reads the company's today, as a start without a run's date does
    _away(make_ctx, start=today.isoformat(), end=(today + timedelta(days=3)).isoformat())
    args = {"processKey": "process_qingjia", "userId": "user_1", "reason": "看牙医", "days": 1, "nextUserId": "user_2"}
    with store.read() as conn:
        card = start_card(conn, args, "zh")
    assert "李四不在，由王五代李四审批" in card["notes"]
    result = execute_call(TOOLSET, "runWorkFlow", args, make_ctx("user_1", today=today))
    assert (result["heldBy"], result["onBehalfOf"]) == ("王五", "李四")
    assert started(result, "zh").endswith("等待王五代李四审批（task_1）。")


def test_the_deputys_own_request_goes_to_the_persons_own_approver(store, make_ctx):
    _away(make_ctx)
    _start(make_ctx, "user_3", "user_2", reason="回老家")
    assert _call(make_ctx, "user_3", "queryTodoTask", {"userId": "user_3"})["total"] == 0
    [todo] = _call(make_ctx, "user_admin", "queryTodoTask", {"userId": "user_admin"})["tasks"]
    assert (todo["taskId"], todo["onBehalfOf"]) == ("task_1", "李四")
    with pytest.raises(PolicyError) as own:
        _call(make_ctx, "user_3", "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "同意"})
    assert own.value.code == "self_approval"
    [mine] = _call(make_ctx, "user_3", "queryMyRequests", {})["requests"]
    assert any("改由管理员代李四审批" in line for line in mine["timeline"]), mine["timeline"]


def test_the_deputys_own_request_goes_to_the_persons_manager_when_that_is_not_the_deputy(store, make_ctx):
    _call(make_ctx, "user_4", "setDeputy", {"deputyUserId": "张三", "startDate": "2026-12-01", "endDate": "2026-12-11"})
    _start(make_ctx, "user_1", "user_4")  # 张三 covers for 赵六, whose manager is 王五
    [todo] = _call(make_ctx, "user_3", "queryTodoTask", {"userId": "user_3"})["tasks"]
    assert (todo["taskId"], todo["onBehalfOf"]) == ("task_1", "赵六")
    assert _call(make_ctx, "user_1", "queryTodoTask", {"userId": "user_1"})["total"] == 0


def test_outside_the_range_a_task_stays_with_the_person(store, make_ctx):
    _away(make_ctx, start="2026-12-07", end="2026-12-11")
    _start(make_ctx, "user_1", "user_2")
    [todo] = _call(make_ctx, "user_2", "queryTodoTask", {"userId": "user_2"})["tasks"]
    assert "onBehalfOf" not in todo
    assert store.snapshot()["process_task_moves"] == []


def test_a_later_range_replaces_the_ones_it_overlaps(store, make_ctx):
    _away(make_ctx, start="2026-12-07", end="2026-12-11")
    result = _call(make_ctx, "user_2", "setDeputy", {"deputyUserId": "赵六", "startDate": "2026-12-10",
                                                     "endDate": "2026-12-14"})
    assert result["replaced"] == 1
    assert [r["status"] for r in store.snapshot()["deputies"]] == ["replaced", "active"]
    mine = _call(make_ctx, "user_2", "queryMyDeputies", {})
    assert mine == {"myDeputies": [{"deputy": "赵六", "period": "12月10日至12月14日"}], "coveringFor": []}
    assert _call(make_ctx, "user_4", "queryMyDeputies", {})["coveringFor"] == [{"for": "李四",
                                                                              "period": "12月10日至12月14日"}]


@pytest.mark.parametrize(("deputy", "start", "end", "code"), [
    ("李四", "2026-12-07", "2026-12-11", "deputy_self"),
    ("王五", "2026-12-11", "2026-12-07", "bad_range"),
    ("王五", "2026-11-02", "2026-11-06", "range_past"),
    ("王五", "2026-12-07", "2028-12-07", "range_too_long"),
])
def test_a_deputy_is_someone_else_for_days_to_come(store, make_ctx, deputy, start, end, code):
    with pytest.raises(PolicyError) as refused:
        _call(make_ctx, "user_2", "setDeputy", {"deputyUserId": deputy, "startDate": start, "endDate": end})
    assert refused.value.code == code
    assert store.snapshot()["deputies"] == []


def test_the_card_says_who_covers_which_days_and_what_it_replaces(store, make_ctx):
    _away(make_ctx, start="2026-12-07", end="2026-12-11")
    with store.read() as conn:
        card = deputy_card(conn, {"userId": "user_2", "deputyUserId": "user_4", "startDate": "2026-12-10",
                                  "endDate": "2026-12-14"}, "zh")
        en = deputy_card(conn, {"userId": "user_2", "deputyUserId": "user_4", "startDate": "2026-12-10",
                                "endDate": "2026-12-14"}, "en")
    assert card["summary"] == "12月10日至12月14日由赵六代你审批" and card["replaces"] == "王五（12月7日至12月11日）"
    assert list(card["labels"].values()) == ["代理人", "期间", "替换", "接下来"]
    assert card["next"].endswith("赵六自己的申请改由王五审批")  # 李四's manager (the reporting lines)
    assert en["summary"] == "Zhao Liu decides your tasks from 10 Dec to 14 Dec"


@pytest.mark.parametrize(("said", "asked"), [  # the sixty-second round's run: the model's self-deputy was refused to it
    ("下下周我全周出差，找个人替我审批吧", "谁"),
    ("I'm off all of the week after next - get someone to approve for me while I'm away", "Who"),
])
def test_a_deputy_left_to_be_found_is_asked_for(graph_driver, said, asked):
    from evals.doubles.scripted import tool_call

    call = tool_call("setDeputy", {"deputyUserId": "李四", "startDate": "2027-01-25", "endDate": "2027-01-29"})
    agent = graph_driver(call, "OK", user_id="user_2")
    answer = str(agent.say(said)["messages"][-1].content)
    assert asked in answer and agent.actions == [] and "ask the user" not in answer


def test_a_step_whose_group_holds_only_its_requester_goes_to_the_requesters_approver(store, make_ctx):
    # the eighty-seventh round's writer: 赵六, alone in finance, filed a claim over 5000 yuan; its finance step waited
    # on him, and nobody could ever decide it
    claim = {"processKey": "process_baoxiao", "userId": "user_4", "reason": "设备采购", "nextUserId": "user_2",
             "fields": {"amount": 6800, "category": "办公"}}
    execute_call(TOOLSET, "runWorkFlow", claim, make_ctx("user_4"))
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "ok"}, make_ctx("user_2"))
    [todo] = execute_call(TOOLSET, "queryTodoTask", {"userId": "user_3"}, make_ctx("user_3"))["tasks"]
    assert todo["taskId"] == "task_2"  # 王五, 赵六's manager
    result = execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_2", "isOK": True, "result": "ok"}, make_ctx("user_3"))
    assert result["request"] == "approved"
    timeline = execute_call(TOOLSET, "queryMyRequests", {}, make_ctx("user_4"))["requests"][0]["timeline"]
    assert any("只有申请人赵六本人，改由王五审批" in line for line in timeline), timeline


def test_a_step_whose_group_holds_others_too_stays_with_the_group(store, make_ctx):
    leave = {"processKey": "process_qingjia", "userId": "user_1", "reason": "回老家", "days": 5, "nextUserId": "user_2"}
    execute_call(TOOLSET, "runWorkFlow", leave, make_ctx("user_1"))
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "ok"}, make_ctx("user_2"))
    [task] = [t for t in store.snapshot()["tasks"] if t["id"] == 2]
    assert task["candidate_groups"] == "hr" and task["assignee_id"] is None
