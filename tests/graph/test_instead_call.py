"""A refusal that knows the whole call the person's words ask for in place of the refused one (the decision they stated
on the one to-do they named; the withdrawal or reminder of their one request) carries it: when the model then answers
with nothing done, the graph proposes that call as the person said, with no model call, to the same checks and card.
Nothing is decided before the card, and the call is never proposed twice in a run. The phrasings were written for this
test, after the rule."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from evals.doubles.scripted import tool_call
from graph.answers import instead_call


def _proposed(result) -> list[tuple[str, dict]]:
    return [(c["name"], c["args"]) for m in result["messages"] if isinstance(m, AIMessage) for c in m.tool_calls]


def test_a_rejection_proposed_as_a_return_becomes_the_rejection_on_its_card(graph_driver, store, start_request):
    start_request(requester="user_3", approver="user_2", days=1, reason="回老家")
    agent = graph_driver(tool_call("returnTask", {"taskId": "王五", "comment": "不行"}), "好的，已处理。",
                         user_id="user_2")
    result = agent.say("王五这个假驳回，理由：这周人手不够")
    assert _proposed(result)[1] == ("handleTodoTask", {"taskId": "王五", "isOK": False, "result": "不行"})
    assert agent.card is not None and agent.actions[0]["args"]["isOK"] is False
    assert "人手不够" in agent.actions[0]["args"]["result"]  # the person's grounds, read by the guards
    assert store.snapshot()["tasks"][0]["status"] == "pending"  # nothing before the card
    agent.approve()
    assert store.snapshot()["tasks"][0]["status"] == "rejected"


def test_a_withdrawal_of_the_persons_one_request_is_proposed_for_its_card(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=2, reason="去医院")
    agent = graph_driver(tool_call("queryCcRequests", {}), "好的。")
    result = agent.say("I won't need my leave after all, cancel it")
    assert _proposed(result)[1] == ("withdrawRequest", {"requestId": "req_1"})
    assert agent.actions[0]["name"] == "withdrawRequest"
    assert store.snapshot()["requests"][0]["status"] == "pending"


def test_a_resend_is_proposed_with_what_the_person_changes_read_from_their_words(graph_driver, make_ctx,
                                                                                 start_request):
    from tools import execute_call
    from tools.workflow import TOOLSET

    start_request(requester="user_1", approver="user_2", days=4, reason="回老家")
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "最多两天"}, make_ctx("user_2"))
    agent = graph_driver(tool_call("returnTask", {"taskId": "李四"}), "好的。", "好的。")
    result = agent.say("我的假退回来了，改成两天重新提交")
    assert [name for name, _ in _proposed(result)] == ["returnTask", "resubmitRequest"]
    [action] = agent.actions  # what changes is the person's to say: read from their words, on the card
    assert action["args"]["requestId"] == "req_1" and action["args"]["days"] == 2


def test_a_new_start_for_taking_back_the_request_they_have_proposes_the_withdrawal(graph_driver, store,
                                                                                   start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="家长会")
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "x",
                                                   "nextUserId": "user_1"}), "OK.")
    result = agent.say("The school trip is off, so please drop my leave request.")
    assert [name for name, _ in _proposed(result)] == ["runWorkFlow", "withdrawRequest"]
    assert agent.actions[0]["args"]["requestId"] == "req_1"
    assert [r["status"] for r in store.snapshot()["requests"]] == ["pending"]


def test_a_changed_reason_in_quotes_is_read_for_the_resend(graph_driver, make_ctx, start_request):
    from tools import execute_call
    from tools.workflow import TOOLSET

    start_request(requester="user_1", approver="user_2", days=1, reason="有事")
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "理由写具体点"}, make_ctx("user_2"))
    agent = graph_driver(tool_call("resubmitRequest", {"requestId": "req_1"}), "好的。")
    agent.say("把我请假的理由改成“孩子学校开家长会”，再提交一次")
    assert agent.actions[0]["args"]["reason"] == "孩子学校开家长会"


def test_one_decision_made_as_a_batch_becomes_that_decision_on_its_card(graph_driver, store, start_request):
    start_request(requester="user_3", approver="user_2", days=1, reason="回老家")
    start_request(requester="user_4", approver="user_2", days=2, reason="搬家")
    agent = graph_driver(tool_call("decideTasks", {"isOK": False, "requester": "Wang Wu", "comment": "launch week"}),
                         "Done.", user_id="user_2")
    result = agent.say("Turn down Wang Wu's leave, we need everyone in for the launch.")
    assert _proposed(result)[1] == ("handleTodoTask", {"taskId": "task_1", "isOK": False, "result": "launch week"})
    assert agent.actions[0]["args"]["isOK"] is False and "launch" in agent.actions[0]["args"]["result"]
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending", "pending"]
    agent.approve()
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["rejected", "pending"]


def test_of_two_people_named_the_batch_filter_picks_the_one_decided(graph_driver, start_request):
    start_request(requester="user_3", approver="user_2", days=1, reason="回老家")
    start_request(requester="user_4", approver="user_2", days=2, reason="搬家")
    agent = graph_driver(tool_call("decideTasks", {"isOK": True, "requester": "赵六"}), "好的。", user_id="user_2")
    result = agent.say("赵六那个可以批，王五的先放一放")
    assert _proposed(result)[1] == ("handleTodoTask", {"taskId": "task_2", "isOK": True})


def test_a_requester_with_two_to_dos_gets_no_proposal(graph_driver, start_request):
    start_request(requester="user_3", approver="user_2", days=1, reason="回老家")
    start_request(requester="user_3", approver="user_2", days=2, reason="搬家")
    agent = graph_driver(tool_call("decideTasks", {"isOK": True}), "请问是哪一个？", user_id="user_2")
    result = agent.say("王五的假批了")
    assert [name for name, _ in _proposed(result)] == ["decideTasks"] and agent.actions == []


def test_a_resend_of_nothing_sent_back_proposes_the_start_the_person_asked_for(graph_driver, store):
    agent = graph_driver(tool_call("resubmitRequest", {"requestId": "expense claim"}), "Done.")
    result = agent.say("Could you put in an expense claim for me: 210 yuan, team lunch with the new hires. Li Si "
                       "approves.")
    assert _proposed(result)[1] == ("runWorkFlow", {"processKey": "process_baoxiao"})
    [action] = agent.actions  # its values are the person's words, read by the guards, on the start card
    assert action["args"]["processKey"] == "process_baoxiao" and action["args"]["fields"]["amount"] == 210
    assert store.snapshot()["requests"] == []


def test_a_resend_of_a_withdrawn_request_proposes_it_filed_anew(graph_driver, store, make_ctx):
    # the twenty-fifth round, read: "重新报一下" after a withdrawal was refused as no return, and nothing filed
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "买了一箱A4纸",
                                          "nextUserId": "user_2", "fields": {"amount": 180, "category": "办公"}},
                 make_ctx("user_1"))
    execute_call(TOOLSET, "withdrawRequest", {"requestId": "req_1"}, make_ctx("user_1"))
    agent = graph_driver(tool_call("resubmitRequest", {"requestId": "req_1", "fields": {"amount": 260}}), "已重新提交。",
                         fixed_answers=True)
    result = agent.say("打印纸那笔再报一次吧，加上订书钉一共260元，还是李四批")
    assert ("runWorkFlow", {"processKey": "process_baoxiao"}) in _proposed(result)
    [action] = agent.actions
    assert action["args"]["fields"]["amount"] == 260 and action["args"]["nextUserId"] == "user_2"


def test_the_call_is_never_proposed_twice_in_a_run():
    refusal = ToolMessage(content="Error [anothers_request]: …", tool_call_id="c2", name="queryCcRequests",
                          status="error", artifact={"instead": {"name": "handleTodoTask",
                                                                "args": {"taskId": "task_1", "isOK": True}}})
    before = [HumanMessage("王五那个假批了吧")]
    first = instead_call([*before, refusal], "zh")
    assert first is not None and first.tool_calls[0]["name"] == "handleTodoTask"
    again = [*before, first, ToolMessage(content="Error [x]: …", tool_call_id=first.tool_calls[0]["id"],
                                         name="handleTodoTask", status="error"), refusal]
    assert instead_call(again, "zh") is None
    assert instead_call([*before, ToolMessage(content="ok", tool_call_id="c3", name="viewTask")], "zh") is None


def test_a_return_proposed_as_a_rejection_keeps_the_persons_grounds(graph_driver, store, make_ctx):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_4", "reason": "团建",
                                          "nextUserId": "user_2", "fields": {"amount": 900, "category": "餐饮"}},
                 make_ctx("user_4"))
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": False, "result": "金额"}), "好的。",
                         user_id="user_2")
    agent.say("赵六那个报销退回去，金额写错了，改对了再提")
    [action] = agent.actions
    assert action["name"] == "returnTask" and "金额写错了" in action["args"]["comment"]
    assert store.snapshot()["tasks"][0]["status"] == "pending"


def test_a_request_named_by_a_process_the_person_never_said_is_read_from_their_words(graph_driver, store, make_ctx):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "打车",
                                          "nextUserId": "user_2", "fields": {"amount": 90, "category": "差旅"}},
                 make_ctx("user_1"))
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "金额不对"}, make_ctx("user_2"))
    agent = graph_driver(tool_call("resubmitRequest", {"requestId": "leave", "fields": {"amount": 95}}), "OK.")
    agent.say("oops, should be 95, send it in again")  # written after the rule
    [action] = agent.actions
    assert action["name"] == "resubmitRequest" and action["args"]["requestId"] == "req_1"
    assert store.snapshot()["requests"][0]["status"] == "returned"  # nothing before the card


def test_a_process_the_person_named_stays_theirs_to_name(graph_driver, store, make_ctx):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "打车",
                                          "nextUserId": "user_2", "fields": {"amount": 90, "category": "差旅"}},
                 make_ctx("user_1"))
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "金额不对"}, make_ctx("user_2"))
    agent = graph_driver(tool_call("resubmitRequest", {"requestId": "请假"}), "好的。")
    result = agent.say("把我的请假重新提交一下")
    refused = [m for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "error"]
    assert refused and "[unknown_request]" in str(refused[0].content)  # they have no returned leave


def test_a_resend_leaves_out_what_the_request_already_has(graph_driver, store, make_ctx):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "client dinner",
                                          "nextUserId": "user_2", "fields": {"amount": 1500, "category": "餐饮"}},
                 make_ctx("user_1"))
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "receipt says less"}, make_ctx("user_2"))
    agent = graph_driver(tool_call("resubmitRequest", {"requestId": "req_1", "reason": "client dinner",
                                                       "fields": {"amount": 1350, "category": "Meals"}}), "OK.")
    agent.say("right, it was 1350 yuan, send it in again")  # written after the rule
    [action] = agent.actions
    assert action["name"] == "resubmitRequest"
    assert action["args"].get("fields") == {"amount": 1350} and "reason" not in action["args"]
    assert store.snapshot()["requests"][0]["status"] == "returned"


def test_a_resend_id_of_no_request_is_read_from_the_persons_words(graph_driver, make_ctx, start_request):
    from tools import execute_call
    from tools.workflow import TOOLSET

    start_request(requester="user_1", approver="user_2", days=3, reason="装修")
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "最多两天"}, make_ctx("user_2"))
    agent = graph_driver(tool_call("resubmitRequest", {"requestId": "req_7", "days": 2}), "好的。")
    agent.say("那改成两天，重新提交吧")
    [action] = agent.actions  # req_7 is no request and nobody wrote it: their one returned request, req_1
    assert action["name"] == "resubmitRequest" and action["args"]["requestId"] == "req_1"


def test_a_withdrawal_for_a_resend_proposes_the_resend(graph_driver, make_ctx, start_request):
    from tools import execute_call
    from tools.workflow import TOOLSET

    start_request(requester="user_1", approver="user_2", days=3, reason="装修")
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "最多两天"}, make_ctx("user_2"))
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "req_1"}), "好的。")
    result = agent.say("OK then, make it 2 days and submit it again")
    assert [name for name, _ in _proposed(result)] == ["withdrawRequest", "resubmitRequest"]
    assert agent.actions[0]["args"]["days"] == 2


def test_sending_anothers_request_back_proposes_the_return(graph_driver, start_request):
    start_request(requester="user_3", approver="user_2", days=4, reason="探亲")
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "请假"}), "好的。", user_id="user_2")
    result = agent.say("王五那个4天的假先退回给他，最多批两天")
    assert ("returnTask", {"taskId": "task_1"}) in _proposed(result)


def test_a_transfer_made_as_a_batch_proposes_the_transfer(graph_driver, start_request):
    start_request(requester="user_1", approver="user_2", days=2, reason="回老家")
    agent = graph_driver(tool_call("decideTasks", {"isOK": True, "requester": "Zhang San"}), "OK.", user_id="user_2")
    result = agent.say("Swamped today, pass Zhang San's leave over to Wang Wu please")
    assert _proposed(result)[1] == ("transferTask", {"taskId": "task_1", "nextUserId": "user_3"})


@pytest.mark.parametrize(("said", "ok", "comment"), [
    ("赵六那个两天的假我批了，休假前把周报交给王五", True, "周报"),
    ("Reject Zhao Liu's leave request. Tell him to hand the release over to Wang Wu and apply after it", False,
     "release"),
])
def test_a_decision_stated_with_a_hand_over_is_that_decision_not_a_transfer(graph_driver, store, start_request, said,
                                                                           ok, comment):
    # written after the rule (the eighth round: the model passed the to-do on to the colleague the comment names)
    start_request(requester="user_4", approver="user_2", days=2, reason="回老家")
    agent = graph_driver(tool_call("transferTask", {"taskId": "task_1", "nextUserId": "user_3"}), "OK.",
                         user_id="user_2")
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "handleTodoTask" and action["args"]["isOK"] is ok
    assert comment in action["args"]["result"]
    assert store.snapshot()["tasks"][0]["status"] == "pending"


@pytest.mark.parametrize("said", ["同意，转给王五吧", "Approve it and pass it on to Wang Wu"])
def test_a_transfer_with_only_consent_beside_it_stays_a_transfer(graph_driver, start_request, said):
    start_request(requester="user_4", approver="user_2", days=2, reason="回老家")
    agent = graph_driver(tool_call("transferTask", {"taskId": "task_1", "nextUserId": "user_3"}), "OK.",
                         user_id="user_2")
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "transferTask"


@pytest.mark.parametrize(("text", "decided"), [
    ("王五那个假我拿不准", None), ("这个说不准", None), ("这个假不准", False), ("同意王五的假", True),
    # the noun names what was needed, not the decision (the ninth round's author found it; none from a scenario)
    ("Decline it, the offsite never got budget approval", False), ("reject: approvals from IT come first", False),
    ("you have my approval", True),
    # colloquial Chinese (the fourteenth round's writer found them; none from a scenario)
    ("赵六那笔报销毙了吧", False), ("这个出差申请否掉", False), ("那就放行吧", True), ("让她过吧，材料齐了", True),
    ("签了吧", True),
    # written after the rule (the sixteenth round's writer found "给过了" and "turn that one down"; none from a scenario)
    ("五天的那个也给过了", True), ("给她过吧", True), ("turn those ones down", False), ("shoot that one down", False),
    ("let Wang Wu's claim through", True), ("wave it through", True), ("nix it", False),
    ("给你过目一下", None), ("已经过了三天", None),
    # 准了 inside 标准了 is no approval (the nineteenth round's writer found it; written after the rule)
    ("驳回吧，住宿费超出公司标准了", False), ("这个水准了解一下", None), ("准了，下不为例", True),
    # 过 as the to-do's verb (the eighty-eighth round's writer; written after the rule, none of its words)
    ("把赵六的请假过了", True), ("帮我把那笔餐费过一下", True), ("张三的出差过一下吧", True),
    ("把他那笔过了没？", None), ("把单子过一遍再说", None), ("把假期过完再说", None), ("张三那个假过了没有？", None),
    ("把经过调出来我看看", None), ("把它改过了", None),
])
def test_unsure_is_no_rejection(text, decided):
    from tools.workflow.words import decision_in

    assert decision_in(text) is decided


@pytest.mark.parametrize(("said", "comment"), [
    ("李四那个年假我同意，交接都安排好了", "交接"),
    ("Zhao Liu's claim is fine by me, I checked the receipts", "receipts"),
])
def test_a_return_where_the_person_approved_becomes_the_approval(graph_driver, store, start_request, said, comment):
    # written after the rule (the ninth round: the model sent back what the person approved); none from a scenario
    start_request(requester="user_4" if "Zhao" in said else "user_2", approver="user_3", days=2, reason="回老家")
    agent = graph_driver(tool_call("returnTask", {"taskId": "task_1", "comment": "x"}), "OK.", user_id="user_3")
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "handleTodoTask" and action["args"]["isOK"] is True
    assert comment in action["args"]["result"]
    assert store.snapshot()["tasks"][0]["status"] == "pending"


@pytest.mark.parametrize(("said", "amount", "category"), [
    ("bought office supplies for the team, 580 yuan, can you get that reimbursed? Zhao Liu approves", 580, "办公"),
    ("上周请客户吃饭花了一千二，走报销，赵六批", 1200, "餐饮"),
])
def test_a_to_do_call_from_someone_nothing_waits_on_is_the_start_their_words_name(graph_driver, store, said, amount,
                                                                                 category):
    # written after the rule (the ninth round: "claim it back" went to sending a to-do back); none from a scenario
    agent = graph_driver(tool_call("returnTask", {"taskId": "claim", "comment": "x"}), "OK.")
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "runWorkFlow" and action["args"]["processKey"] == "process_baoxiao"
    assert action["args"]["fields"]["amount"] == amount and action["args"]["fields"]["category"] == category
    assert store.snapshot()["requests"] == []


@pytest.mark.parametrize("said", ["ok from my side, sign off on Zhao Liu's big one", "赵六那笔我这边没问题，批了吧"])
def test_a_start_that_names_no_process_but_decides_the_one_to_do_of_the_one_named_is_that_decision(
    graph_driver, store, start_request, said
):
    # written after the rule (a held-out trial: finance's "sign off on Wang Wu's laptop one" started a trip)
    start_request(requester="user_4", approver="user_2", days=1, reason="回老家")
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": said, "days": 0.5,
                                                   "nextUserId": "赵六"}), "OK.", user_id="user_2")
    agent.say(said)
    [action] = agent.actions
    assert (action["name"], action["args"]["taskId"], action["args"]["isOK"]) == ("handleTodoTask", "task_1", True)
    assert len(store.snapshot()["requests"]) == 1


@pytest.mark.parametrize("said", [  # written after the rule (the seventeenth round, read); none from it
    "赵六烧得厉害，那两天病假我给批了，意见写：安心休息",
    "Zhao Liu's really ill, I'm approving his sick leave - note: rest up",
])
def test_a_start_naming_a_process_where_the_person_says_they_decide_is_that_decision(graph_driver, store,
                                                                                     start_request, said):
    start_request(requester="user_4", approver="user_2", days=2, reason="发烧 / fever")
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "安心休息", "days": 2,
                                                   "nextUserId": "赵六"}), "OK.", user_id="user_2")
    agent.say(said)
    [action] = agent.actions
    assert (action["name"], action["args"]["taskId"], action["args"]["isOK"]) == ("handleTodoTask", "task_1", True)


def test_a_start_that_names_its_process_stays_a_start(graph_driver, start_request):
    start_request(requester="user_4", approver="user_1", days=1, reason="回老家")  # 赵六's leave waits on 张三
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "搬家", "days": 2,
                                                   "nextUserId": "赵六"}), "OK.")
    agent.say("请2天假搬家，赵六批准")
    [action] = agent.actions
    assert action["name"] == "runWorkFlow"


@pytest.mark.parametrize("said", [  # written after the rule (the eighteenth round, read); none from it
    "王五的年假余额我查过了，三天够的，批准",
    "Wang Wu's leave balance covers the three days, I checked it myself. Approve it",
])
def test_a_model_that_keeps_making_other_refused_calls_has_the_named_one_proposed(graph_driver, store, start_request,
                                                                                 said):
    # two steps refused in a row, the first naming the decision on the one to-do: it is proposed, not a third guess
    start_request(requester="user_3", approver="user_2", days=3, reason="回老家")
    agent = graph_driver(tool_call("decideTasks", {"isOK": True, "processKey": "process_qingjia", "maxDays": 1}),
                         tool_call("getLeaveBalance", {}), tool_call("queryMyRequests", {}), "好的。",
                         user_id="user_2")
    result = agent.say(said)
    assert [name for name, _ in _proposed(result)] == ["decideTasks", "getLeaveBalance", "handleTodoTask"]
    [action] = agent.actions
    assert action["args"]["taskId"] == "task_1" and action["args"]["isOK"] is True
    assert store.snapshot()["tasks"][0]["status"] == "pending"  # nothing before the card


def test_a_streak_is_broken_by_a_call_that_ran_and_needs_two_refused_steps():
    named = {"instead": {"name": "handleTodoTask", "args": {"taskId": "task_1", "isOK": True}}}
    human = HumanMessage("王五那个批了")

    def step(call_id: str, name: str, status: str, artifact=None):
        return [AIMessage(content="", tool_calls=[{"name": name, "args": {}, "id": call_id}]),
                ToolMessage(content="…", tool_call_id=call_id, name=name, status=status, artifact=artifact)]

    one = [human, *step("c1", "decideTasks", "error", named)]
    assert instead_call(one, "zh", after_refused_steps=2) is None  # the model is asked again first
    two = [*one, *step("c2", "getLeaveBalance", "error")]
    proposed = instead_call(two, "zh", after_refused_steps=2)
    assert proposed is not None and proposed.tool_calls[0]["args"] == {"taskId": "task_1", "isOK": True}
    ran = [*one, *step("c2", "queryTodoTask", "success"), *step("c3", "getLeaveBalance", "error")]
    assert instead_call(ran, "zh", after_refused_steps=2) is None  # what ran since may change what is asked


def test_a_model_that_answers_after_look_ups_has_the_named_call_proposed(graph_driver, store, start_request):
    # the look-ups it made after the refusal change nothing the person asked for (written after the rule)
    start_request(requester="user_3", approver="user_2", days=1, reason="回老家")
    agent = graph_driver(tool_call("decideTasks", {"isOK": True, "processKey": "process_qingjia"}),
                         tool_call("queryTodoTask", {"userId": "user_2"}), "好的，已处理。", user_id="user_2")
    result = agent.say("王五那一天的假没问题，批了吧")
    assert [name for name, _ in _proposed(result)] == ["decideTasks", "queryTodoTask", "handleTodoTask"]
    assert (agent.actions[0]["args"]["taskId"], agent.actions[0]["args"]["isOK"]) == ("task_1", True)
