"""A deputy named beside another write of the same message ("approve every leave waiting on me … and have Wang Wu
handle my approvals while I'm away") is proposed once that write is made, its days read from the person's words; and a
batch of one's own to-dos never has the person as its requester (the model's "requester": the approver left the batch
empty). The seventy-fifth round's run, read after it; the phrasings below were written for these tests.

The graph's clock says 2027-01-15, a Friday."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call


@pytest.mark.parametrize(("said", "days"), [
    ("Approve all the leave requests waiting on me, and while I'm away next Monday to Wednesday Zhao Liu covers my "
     "approvals", ("2027-01-18", "2027-01-20")),
    ("下周一到周三我出差，待办里的请假都批了吧，这几天的审批让赵六帮我顶一下", ("2027-01-18", "2027-01-20")),
])
def test_a_deputy_named_beside_a_batch_is_proposed_after_it(graph_driver, store, start_request, said, days):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙")
    start_request(requester="user_3", approver="user_2", days=1, reason="探亲")
    batch = tool_call("decideTasks", {"isOK": True, "processKey": "process_qingjia", "requester": "user_2"})
    agent = graph_driver(batch, "OK", "OK", user_id="user_2", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "decideTasks" and not action["args"].get("requester")  # the person's own: none
    agent.approve()
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["approved", "approved"]
    [action] = agent.actions
    assert action["name"] == "setDeputy" and action["args"]["deputyUserId"] == "user_4"
    assert (action["args"]["startDate"], action["args"]["endDate"]) == days


def test_a_colleague_named_as_the_approver_of_a_start_is_no_deputy_after_it(graph_driver, store):
    leave = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "看牙", "nextUserId": "王五",
                                      "fields": {"days": 1, "leaveType": "事假", "startDate": "2027-01-18",
                                                 "endDate": "2027-01-18"}})
    agent = graph_driver(leave, "OK", "OK", user_id="user_1", fixed_answers=True)
    agent.say("下周一请一天事假去看牙，让王五审批")
    agent.approve()
    assert agent.actions == []


@pytest.mark.parametrize(("said", "told"), [  # the seventy-fifth round's run: the refusal named nobody
    ("Wang Wu is off this week, can you hand my leave over to Zhao Liu instead?", "with Wang Wu"),
    ("王五这周不在，我那个请假能不能转给赵六批？", "在王五那里"),
])
def test_asking_to_move_ones_own_request_is_told_who_holds_it_and_why_not(graph_driver, store, start_request, said,
                                                                           told):
    start_request(requester="user_1", approver="user_3", days=1, reason="看牙")
    move = tool_call("transferTask", {"taskId": "my leave", "nextUserId": "Zhao Liu"})
    agent = graph_driver(move, "OK", user_id="user_1", fixed_answers=True)
    answer = str(agent.say(said)["messages"][-1].content)
    assert told in answer and ("withdraw" in answer or "撤回" in answer), answer
    assert [t["assignee_id"] for t in store.snapshot()["tasks"]] == ["user_3"]


@pytest.mark.parametrize(("said", "told"), [  # the seventy-eighth round's run: the refusal named nobody
    ("I approve things now too, so just approve my own leave, Wang Wu is swamped", "with Wang Wu"),
    ("我现在也能审批了，我那个请假我自己批了吧", "在王五那里"),
])
def test_approving_ones_own_request_is_told_who_holds_it(graph_driver, store, start_request, said, told):
    start_request(requester="user_2", approver="user_3", days=1, reason="看牙")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "leave", "isOK": True}), "OK", user_id="user_2",
                         fixed_answers=True)
    answer = str(agent.say(said)["messages"][-1].content)
    assert told in answer, answer
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending"]


def test_my_trip_is_the_trip_of_the_persons_two_requests(graph_driver, store, make_ctx, start_request):
    # the seventy-seventh round's run: "whoever's sitting on my trip" asked which of a trip and a leave
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_chuchai", "reason": "client workshop",
                                          "nextUserId": "user_3", "fields": {"destination": "Shenzhen",
                                          "startDate": "2027-01-20", "endDate": "2027-01-22"}}, make_ctx("user_1"))
    start_request(requester="user_1", approver="user_2", days=1, reason="dentist")
    agent = graph_driver(tool_call("urgeTask", {"requestId": "trip"}), "OK", user_id="user_1", fixed_answers=True)
    agent.say("Whoever is holding up my trip, send them a reminder")
    [action] = agent.actions
    assert action["name"] == "urgeTask" and action["args"]["requestId"] == "req_1"


@pytest.mark.parametrize("said", [  # the eighty-second round's run; none of its words
    "下周一请一天事假去办证，客户电话赵六帮我接着，李四审批",
    "I need next Monday off, personal leave, to sort out my visa. Zhao Liu will cover my desk. Li Si approves.",
])
def test_someone_covering_the_persons_work_is_no_deputy(graph_driver, store, said):
    start = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "办证" if said[0] > "z" else "visa",
                                      "days": 1, "nextUserId": "李四" if said[0] > "z" else "Li Si",
                                      "fields": {"leaveType": "事假"}})
    agent = graph_driver(start, tool_call("setDeputy", {"deputyUserId": "user_4"}), "OK", "OK", user_id="user_1")
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "runWorkFlow" and action["args"]["nextUserId"] == "user_2"
    agent.approve()
    assert [a["name"] for a in agent.actions] == []  # no deputy card
    assert store.snapshot()["deputies"] == []


def test_the_deputy_beside_the_leaves_approver_is_the_one_covering_approvals(graph_driver):
    # "李四审批，这几天我的审批让赵六代我": the leave's approver is 李四, the deputy 赵六, whoever the model named
    agent = graph_driver(tool_call("setDeputy", {"deputyUserId": "user_2", "startDate": "下周一", "endDate": "下周三"}),
                         "OK", user_id="user_1")
    agent.say("下周一到周三我请年假，李四审批，这几天我的审批让赵六代我")
    [action] = agent.actions
    assert action["name"] == "setDeputy" and action["args"]["deputyUserId"] == "user_4"


@pytest.mark.parametrize("said", [  # the eighty-second round's run; none of its words
    "Put me down for personal leave next Monday, my sister's graduation. Zhao Liu is filling in for me.",
    "下周一请一天事假，参加妹妹的毕业典礼，赵六替我顶一下",
])
def test_a_cover_beside_a_leave_that_names_no_approvals_files_the_leave(graph_driver, store, said):
    agent = graph_driver(tool_call("setDeputy", {"deputyUserId": "user_4", "startDate": "下周一", "endDate": "下周一"}),
                         "OK", user_id="user_1")
    result = agent.say(said)
    assert [a["name"] for a in agent.actions] in ([], ["runWorkFlow"])
    assert store.snapshot()["deputies"] == []
    answer = str(result["messages"][-1].content)
    assert agent.actions or "审批" in answer or "approve" in answer  # the leave's approver asked


@pytest.mark.parametrize(("user", "said", "kept", "not_said"), [  # the eighty-seventh round's writer
    ("user_4", "下周一到周三我去培训，这几天的审批让王五代我处理", "仍在你这里", None),  # 赵六, alone in finance
    ("user_2", "下周一到周三我去培训，这几天的审批让王五代我处理", None, "组"),  # 李四, in no group
])
def test_a_deputy_card_says_a_groups_steps_are_not_passed_on(graph_driver, user, said, kept, not_said):
    agent = graph_driver(tool_call("setDeputy", {"deputyUserId": "王五", "startDate": "下周一", "endDate": "下周三"}),
                         "OK", user_id=user)
    agent.say(said)
    told = agent.card["next"]
    assert (kept is None or kept in told) and (not_said is None or not_said not in told), told


@pytest.mark.parametrize("said", [  # the eighty-seventh round's run; written after the rule, none of its words
    "下周二到下周四我在外地开会，这几天我的审批让赵六替我处理",
    "I'm out next Tuesday to Thursday, Zhao Liu handles my approvals for me those days",
])
def test_a_colleague_taking_over_approvals_for_days_is_a_deputy_not_a_transfer(graph_driver, store, start_request, said):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙")
    agent = graph_driver(tool_call("transferTask", {"taskId": "培训", "nextUserId": "赵六"}), "OK", user_id="user_2")
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "setDeputy" and action["args"]["deputyUserId"] == "user_4", action
    assert store.snapshot()["tasks"][0]["assignee_id"] == "user_2"  # nothing passed on


def test_someone_approving_things_for_the_person_while_away_is_a_deputy(graph_driver, store):
    # the eighty-eighth round's run filed "I'm away … let zhao liu approve things for me" as a trip; written after
    said = "I'm off next Tuesday to Thursday, let li si sign off everything for me"
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "I'm off next Tuesday to Thursday",
                                     "nextUserId": "Li Si"})
    agent = graph_driver(trip, "OK", user_id="user_3", locale="en")
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "setDeputy" and action["args"]["deputyUserId"] == "user_2", action


@pytest.mark.parametrize("said", ["赵六要去杭州？去干嘛", "王五想去三亚？为啥"])  # the eighty-eighth round's run; written after
def test_where_a_colleague_is_going_asked_shows_the_trip_that_waits_on_the_approver(graph_driver, make_ctx, said):
    from langchain_core.messages import ToolMessage

    from tools import execute_call
    from tools.workflow import TOOLSET

    who = "user_4" if said.startswith("赵六") else "user_3"
    place = said[3:5]
    trip = {"processKey": "process_chuchai", "userId": who, "reason": "见客户", "nextUserId": "user_2",
            "fields": {"destination": place, "startDate": "2027-01-20", "endDate": "2027-01-21"}}
    execute_call(TOOLSET, "runWorkFlow", trip, make_ctx(who))
    agent = graph_driver(tool_call("queryCcRequests", {"userId": said[:2]}), "OK", user_id="user_2")
    result = agent.say(said)
    ran = [m.name for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "success"]
    assert ran == ["viewTask"], ran


def test_my_approvals_handled_for_me_on_days_away_is_a_deputy_not_a_trip(graph_driver):
    # the ninetieth round's run filed a trip for "…这几天我的审批让王五帮我处理一下"; written after the rule
    said = "下周二到周四我去总部开会，这段时间我的审批让赵六帮我管一下"
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "去总部开会", "nextUserId": "赵六"})
    agent = graph_driver(trip, "OK", user_id="user_2")
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "setDeputy" and action["args"]["deputyUserId"] == "user_4", action
