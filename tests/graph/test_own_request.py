"""A person who speaks of a request of their own (我的假, "my request") asks where it is, what its approver said, or
to resend or withdraw it: a call the model proposes on other people's requests (sending a to-do back, passing it on,
viewing it, the requests copied to them) is refused to the model, with the requester's tools to call instead. A
message that also speaks of another person's request is untouched, and so are decisions ("approve my requests"
speaks of the person's to-dos: nobody decides their own).

The phrasings were written for this test, after the rule; none is taken from a scenario."""

from __future__ import annotations

import re

import pytest
from langchain_core.messages import ToolMessage

from evals.doubles.scripted import tool_call
from tools.workflow.guards import _OWN
from tools.workflow.words import anothers_request


def _refused(result) -> list[str]:
    return [str(m.content) for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "error"]


def test_sending_back_a_task_when_the_person_speaks_of_their_own_request_is_refused(graph_driver, store,
                                                                                    start_request):
    start_request(requester="user_1", approver="user_2", days=2, reason="回老家")
    agent = graph_driver(tool_call("returnTask", {"taskId": "李四", "comment": "改成1天"}),
                         tool_call("queryMyRequests", {}), "你的请假在李四那里等审批。")
    result = agent.say("我的请假李四看了没？没看的话改成1天")
    refused = _refused(result)
    assert len(refused) == 1 and refused[0].startswith("Error [own_request]") and "queryMyRequests" in refused[0]
    assert agent.interrupts == []  # no card for a step the person never meant
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending"]


def test_the_copies_list_is_refused_for_a_question_about_the_persons_own_request(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙")
    agent = graph_driver(tool_call("queryCcRequests", {}), tool_call("queryMyRequests", {}), "It waits for Li Si.")
    result = agent.say("Has anyone looked at my leave yet?")
    refused = _refused(result)
    assert len(refused) == 1 and refused[0].startswith("Error [own_request]")
    assert result["messages"][-1].content == "It waits for Li Si."


def test_a_message_about_someone_elses_request_too_is_untouched(graph_driver, store, start_request):
    start_request(requester="user_3", approver="user_2", days=3, reason="搬家")
    agent = graph_driver(tool_call("returnTask", {"taskId": "王五", "comment": "跟我的假撞了，改个时间"}), "好的。")
    agent.say("王五的假跟我的假撞了，退回去让他改个时间", user_id="user_2")
    assert agent.card is not None and agent.card["action"] == "returnTask"


@pytest.mark.parametrize(("text", "own"), [
    ("我的报销怎么还没人批", "我的报销"),
    ("我那个出差申请被谁退了", "我那个出差申请"),
    ("我自己的调休还在走流程吗", "我自己的调休"),
    ("Did my expense claim get sent back?", "my expense claim"),
    ("where's my trip request at", "my trip request"),
    ("what happened to my own leave", "my own leave"),
    ("把我的待办都看一下", None),  # to-dos are no request of theirs
    ("What's waiting on me?", None),
    ("Show me my team's requests", None),
    # written after the rule (the eighth round: "the team dinner expense I sent Zhao Liu"); none from a scenario
    ("the lunch claim I sent Wang Wu has the wrong receipt", "claim I sent"),
    ("我上周提交给李四的报销有问题，帮我撤回", "我上周提交给李四的报销"),
    ("我刚交的假条能撤吗", "我刚交的假条"),
    ("我昨天报给王五那笔报销不要了", "我昨天报给王五那笔报销"),  # written after the rule; none from a scenario
    ("我交给赵六的那份申请撤掉吧", "我交给赵六的那份申请"),
    ("where is my ¥3,200 claim stuck", "my ¥3,200 claim"),  # a figure with its marks (written after the rule)
    ("who has my 2.5-day leave", "my 2.5-day leave"),
    ("is my O'Hare claim through yet", "my O'Hare claim"),  # a word with an apostrophe (the fourteenth round's Xi'an)
    ("抄送给我的出差申请都有哪些", None),  # copied or sent to them: not theirs (written after the rule)
    ("王五交给我的报销我看看", None),
    ("cc我的那几个请假现在怎么样了", None),
    ("the claim Li Si sent me", None),
    ("我批的那个假", None),
    # no 的 between (the twenty-seventh round, read; written after the rule), never the verb's "I claim"
    ("我报销咋被退了", "我报销"), ("我请的假到哪一步了", "我请的假"), ("我报销一下打车费", None),
])
def test_the_persons_own_request_is_read_from_my_and_a_request_word(text, own):
    found = _OWN.search(text)
    assert (found.group() if found else None) == own


@pytest.mark.parametrize(("text", "name", "said"), [
    ("李四那个三千块的报销先别批", "李四", "李四那个三千块的报销"),
    ("王五的年假批了吧", "王五", "王五的年假"),
    ("赵六那笔打车的报销退回去", "赵六", "赵六那笔打车的报销"),
    ("张三的调休我看一下", "张三", "张三的调休"),
    ("我交给赵六的那份申请撤掉吧", "赵六", None),  # sent to 赵六, not 赵六's
    ("我提交给李四那个报销先撤回", "李四", None),
    # a figure with its comma between (the sixteenth round's re-run, read); none from it
    ("Turn down Li Si's 12,400 claim", "Li Si", "Li Si's 12,400 claim"),
])
def test_another_persons_request_may_have_a_few_words_between_name_and_request(text, name, said):
    assert anothers_request(text, name) == said


def test_a_resend_of_the_persons_returned_request_is_named_with_its_id(graph_driver, make_ctx, start_request):
    from tools import execute_call
    from tools.workflow import TOOLSET

    start_request(requester="user_1", approver="user_2", days=4, reason="回老家")
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "最多两天"}, make_ctx("user_2"))
    agent = graph_driver(tool_call("returnTask", {"taskId": "李四", "comment": "两天"}), "好的。")
    [refusal] = _refused(agent.say("我那个假被打回来了是吧，那就按两天重新提交"))  # written after the rule
    # a call on a to-do from someone nothing waits on, sending their one returned request again: its resend
    assert refusal.startswith("Error [resend_not_start]")
    assert "call resubmitRequest with requestId req_1" in refusal and "withdrawRequest" not in refusal
    [action] = agent.actions
    assert action["name"] == "resubmitRequest" and action["args"]["requestId"] == "req_1"


def test_a_reminder_about_the_persons_own_request_is_named(graph_driver, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="dentist")
    agent = graph_driver(tool_call("queryCcRequests", {}), "OK.")
    [refusal] = _refused(agent.say("my leave has been sitting there for days, chase it up"))
    assert refusal.endswith("call urgeTask with requestId req_1.")


@pytest.mark.parametrize("said", [  # the twenty-sixth round, read; written after the rule
    "Sorry to be a pain, my leave has been with Li Si all week. Could you give him a gentle reminder? Thanks!",
    "我那个请假在李四那儿放了好几天了，麻烦帮我催一下，别太生硬",
])
def test_a_reminder_of_their_own_request_asked_as_an_email_is_the_urge(graph_driver, start_request, said):
    start_request(requester="user_1", approver="user_2", days=1, reason="dentist")
    email = tool_call("sendEmail", {"userId": "user_2", "taskId": "task_1", "emailContent": "Dear Li Si, please…"})
    agent = graph_driver(email, "OK.", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "urgeTask" and action["args"]["requestId"] == "req_1"


def test_an_email_they_dictate_stays_an_email(graph_driver, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="dentist")
    email = tool_call("sendEmail", {"userId": "user_2", "emailContent": "请尽快看一下我的请假"})
    agent = graph_driver(email, "OK.")
    agent.say("给李四发个邮件催一下我的请假，内容：请尽快看一下我的请假")
    [action] = agent.actions
    assert action["name"] == "sendEmail"


def test_a_return_of_the_claim_they_sent_is_their_withdrawal(graph_driver, store, make_ctx):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_3", "reason": "client lunch",
                                          "nextUserId": "user_2", "fields": {"amount": 300, "category": "餐饮"}},
                 make_ctx("user_3"))
    agent = graph_driver(tool_call("returnTask", {"taskId": "lunch claim"}), "OK.", user_id="user_3")
    agent.say("the lunch claim I sent Li Si has the wrong receipt on it, please take it back")
    [action] = agent.actions
    assert (action["name"], action["args"]) == ("withdrawRequest", {"requestId": "req_1"})
    assert store.snapshot()["requests"][0]["status"] == "pending"


def test_taking_back_their_one_request_from_a_to_do_call_is_its_withdrawal(graph_driver, store, start_request):
    # written after the rule (the eleventh round: "just pull it back" went to returning a to-do with the request id)
    start_request(requester="user_1", approver="user_3", days=1, reason="看牙")
    agent = graph_driver(tool_call("returnTask", {"taskId": "req_1", "comment": "x"}), "OK.")
    agent.say("算了，先撤了吧，日子还没定")
    [action] = agent.actions
    assert (action["name"], action["args"]) == ("withdrawRequest", {"requestId": "req_1"})


def test_a_request_described_by_whom_it_was_sent_to_is_withdrawn(graph_driver, store, start_request):
    # written after the rule (the twelfth round's writer: "the one I submitted to <approver>" + 那个 was read as the
    # approver's own request and the withdrawal refused); none from a scenario
    start_request(requester="user_1", approver="user_4", days=2, reason="回老家")
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "req_1"}), "已撤回。")
    agent.say("我交给赵六的那个请假不要了，撤回吧")
    [action] = agent.actions
    assert (action["name"], action["args"]) == ("withdrawRequest", {"requestId": "req_1"})


def test_the_requests_copied_to_the_person_are_looked_up_not_redirected_to_their_own(graph_driver, make_ctx):
    # written after the rule (the thirteenth round's writer: one Chinese wording of "copied to me" was read as "my
    # requests", and the look-up refused); none from a scenario
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_chuchai", "userId": "user_3", "reason": "见客户",
                                          "nextUserId": "user_2", "cc": ["user_1"],
                                          "fields": {"destination": "广州", "startDate": "2027-01-25",
                                                     "endDate": "2027-01-26"}}, make_ctx("user_3"))
    agent = graph_driver(tool_call("queryCcRequests", {}), "王五的出差抄送给了你。")
    result = agent.say("抄送给我的申请现在都什么情况")
    assert _refused(result) == []
    assert [m.name for m in result["messages"] if isinstance(m, ToolMessage)] == ["queryCcRequests"]


@pytest.mark.parametrize("said", [  # written after the rule (the twelfth round: "want the money back" went to a
    # withdrawal of a request the person never had); none from a scenario
    "paid for the team's printer paper out of my own pocket, 86 yuan, Li Si approves",
    "I covered the client's taxi, 120 yuan, can I get paid back? Li Si approves",
])
def test_a_withdrawal_from_someone_with_nothing_pending_whose_words_name_a_claim_is_that_claim(graph_driver, store,
                                                                                             said):
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "taxi"}), "OK.")
    result = agent.say(said)
    assert [r.split("]")[0] for r in _refused(result)] == ["Error [nothing_to_withdraw"]
    [action] = agent.actions
    assert action["name"] == "runWorkFlow" and action["args"]["processKey"] == "process_baoxiao"


def test_a_question_of_the_persons_own_claim_by_its_figure_is_not_a_look_up_of_copies(graph_driver, make_ctx):
    # written after the rule (the thirteenth round: "my 12.5k claim" went to the requests copied to them)
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "taxi",
                                          "nextUserId": "user_2", "fields": {"amount": 1200, "category": "差旅"}},
                 make_ctx("user_1"))
    agent = graph_driver(tool_call("queryCcRequests", {}), "OK.", fixed_answers=True)
    result = agent.say("who's holding my 1.2k taxi claim?")
    assert [r.split("]")[0] for r in _refused(result)] == ["Error [own_request"]
    assert "queryMyRequests" in [m.name for m in result["messages"] if isinstance(m, ToolMessage)]


@pytest.mark.parametrize("said", [  # written after the rule (the thirteenth round: a claim copying a colleague went
    # to an e-mail to him); none from a scenario
    "Claim 640 yuan for the client dinner, Li Si signs off, copy Zhao Liu",
    "报销客户晚餐640元，李四审批，抄送赵六",
])
def test_an_email_nobody_asked_for_where_the_words_name_a_claim_is_the_claim(graph_driver, store, said):
    agent = graph_driver(tool_call("sendEmail", {"userId": "赵六", "emailContent": "Please approve my claim."}), "OK.")
    result = agent.say(said)
    assert [r.split("]")[0] for r in _refused(result)] == ["Error [start_not_email"]
    [action] = agent.actions
    assert action["name"] == "runWorkFlow" and action["args"]["processKey"] == "process_baoxiao"
    assert action["args"].get("cc") == ["user_4"]


def test_an_email_the_person_asks_for_beside_a_claim_word_is_still_an_email(graph_driver, store):
    agent = graph_driver(tool_call("sendEmail", {"userId": "赵六", "emailContent": "我的报销请尽快审批"}), "OK.")
    agent.say("给赵六发个邮件，内容：我的报销请尽快审批")
    [action] = agent.actions
    assert action["name"] == "sendEmail"


@pytest.mark.parametrize("said", [  # written after the rule (the thirteenth round: finance's "anything for me to go
    # through?" went to the requests copied to them); none from a scenario
    "财务这边还有没有等我批的报销",
    "anything sitting there for me to approve?",
])
def test_what_waits_on_the_persons_decision_is_their_to_dos_not_their_copies(graph_driver, start_request, said):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙")
    agent = graph_driver(tool_call("queryCcRequests", {}), "OK.", fixed_answers=True, user_id="user_2")
    result = agent.say(said)
    assert [r.split("]")[0] for r in _refused(result)] == ["Error [todos_not_copies"]
    assert "queryTodoTask" in [m.name for m in result["messages"] if isinstance(m, ToolMessage)]


def test_a_question_of_copies_is_still_the_look_up_of_copies(graph_driver, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙")
    agent = graph_driver(tool_call("queryCcRequests", {}), "OK.", fixed_answers=True, user_id="user_3")
    result = agent.say("有没有抄送给我、等我看的申请")
    assert _refused(result) == []


@pytest.mark.parametrize("said", [  # written after the rule (the fourteenth round); none from a scenario
    "王五那个出差我帮着批了吧",
    "I'll just approve Wang Wu's trip myself",
])
def test_deciding_a_request_only_copied_to_the_person_says_who_holds_it(graph_driver, make_ctx, said):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_chuchai", "userId": "user_3", "reason": "见客户",
                                          "nextUserId": "user_2", "cc": ["user_1"],
                                          "fields": {"destination": "广州", "startDate": "2027-01-25",
                                                     "endDate": "2027-01-26"}}, make_ctx("user_3"))
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "req_1", "isOK": True}), "x", fixed_answers=True)
    result = agent.say(said)
    assert [r.split("]")[0] for r in _refused(result)] == ["Error [not_theirs_to_decide"]
    assert agent.actions == []
    answer = str(result["messages"][-1].content)
    assert "李四" in answer or "Li Si" in answer


@pytest.mark.parametrize("said", [  # written after the rule (the fifteenth round, read); none from it
    "the client cancelled, can you pull my trip request?",
    "客户那边取消了，我的出差申请撤回吧",
])
def test_taking_back_the_one_of_their_requests_their_words_name_is_its_withdrawal(graph_driver, store, make_ctx, said):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_chuchai", "userId": "user_3", "reason": "client visit",
                                          "fields": {"destination": "西安", "startDate": "2027-01-25",
                                                     "endDate": "2027-01-27"}, "nextUserId": "user_4"}, make_ctx("user_3"))
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_3", "reason": "client dinner",
                                          "nextUserId": "user_2", "fields": {"amount": 460, "category": "餐饮"}},
                 make_ctx("user_3"))
    agent = graph_driver(tool_call("queryCcRequests", {}), "Your trip request is withdrawn.", user_id="user_3")
    agent.say(said)
    [action] = agent.actions
    assert (action["name"], action["args"]) == ("withdrawRequest", {"requestId": "req_1"})


@pytest.mark.parametrize("said", [  # the twenty-second round, read; written after the rule
    "王五出差了联系不上，我那笔报销你直接给个通过得了",
    # asked to approve it themselves, or said as theirs (the twenty-fourth round, read; written after the rule)
    "我是新来的，我自己交的那笔打车费，能不能我自己点通过？",
    "王五不在，我的报销你帮我过一下吧",
    # an approval said of "it" when nothing waits on them but their own (the sixtieth round's run, read after it)
    "Wang Wu is off sick till Friday. Just sign it off for me, he won't mind.",
    "王五这周都在外地，你就帮我批了吧",
])
def test_a_to_do_call_asking_to_approve_their_own_request_is_refused_to_them(graph_driver, store, make_ctx, said):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "taxi",
                                          "nextUserId": "user_3", "fields": {"amount": 80, "category": "差旅"}},
                 make_ctx("user_1"))
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "报销", "isOK": True}), "OK.")
    result = agent.say(said)
    answer = str(result["messages"][-1].content)
    assert ("不能审批自己的申请" in answer or "You cannot approve your own request" in answer) and agent.interrupts == []
    assert store.snapshot()["tasks"][0]["status"] == "pending"


def test_asking_whether_ones_own_request_was_approved_is_no_approval():
    from tools.workflow.words import asks_own_approval

    assert not asks_own_approval("我的报销批了吗？", "information")
    assert not asks_own_approval("was my claim approved?", "information")
    assert asks_own_approval("can I approve my claim myself?", "action")


@pytest.mark.parametrize(("said", "told"), [  # written after the rule (the sixteenth round, read); none from it
    ("Li Si is on holiday, can you just approve my taxi claim yourself?", "You cannot approve your own request"),
    ("李四这周不在，你直接把我的报销批了吧", "不能审批自己的申请"),
    # the request named first, the ask after it (the twenty-first round, read; written after the rule)
    ("我那笔打车的报销一直没人管，要不你帮我点通过得了", "不能审批自己的申请"),
])
def test_a_start_asking_to_approve_their_own_request_is_refused_to_them(graph_driver, store, make_ctx, said, told):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "taxi",
                                          "nextUserId": "user_2", "fields": {"amount": 80, "category": "差旅"}},
                 make_ctx("user_1"))
    claim = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "taxi", "nextUserId": "user_1"})
    agent = graph_driver(claim, "OK.")
    result = agent.say(said)
    assert told in str(result["messages"][-1].content) and agent.interrupts == []
    assert len(store.snapshot()["requests"]) == 1


def test_a_new_claim_naming_its_approver_beside_a_pending_one_is_still_filed(graph_driver, store, make_ctx):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "taxi",
                                          "nextUserId": "user_2", "fields": {"amount": 80, "category": "差旅"}},
                 make_ctx("user_1"))
    claim = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "team lunch", "nextUserId": "Li Si",
                                      "fields": {"amount": 300, "category": "餐饮"}})
    agent = graph_driver(claim, "OK.")
    agent.say("file my team lunch claim, 300 yuan, meals, Li Si approves")
    [action] = agent.actions
    assert action["name"] == "runWorkFlow"


@pytest.mark.parametrize("said", [  # written after the rule (the seventeenth round, read); none from it
    "anything waiting on me? if it's Zhang San's dentist leave, approve it, he told me last week",
    "有等我批的吗？张三那个看牙的假的话直接批了吧",
])
def test_a_decision_stated_beside_what_waits_on_the_person_is_that_decision(graph_driver, start_request, said):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙 / dentist")
    agent = graph_driver(tool_call("queryCcRequests", {}), "OK.", user_id="user_2")
    agent.say(said)
    [action] = agent.actions
    assert (action["name"], action["args"]["taskId"], action["args"]["isOK"]) == ("handleTodoTask", "task_1", True)


def test_a_decision_beside_what_waits_on_the_person_is_made_whoever_the_model_named_as_the_user(graph_driver,
                                                                                                start_request):
    # the copies asked for with the requester as userId (the seventeenth round's re-run, read): the decision first
    start_request(requester="user_1", approver="user_2", days=1, reason="dentist")
    agent = graph_driver(tool_call("queryCcRequests", {"userId": "Zhang San"}), "OK.", user_id="user_2")
    agent.say("anything waiting on me? if it's Zhang San's dentist leave, sign it off")
    [action] = agent.actions
    assert (action["name"], action["args"]["taskId"], action["args"]["isOK"]) == ("handleTodoTask", "task_1", True)


def test_anothers_to_do_list_looked_up_for_their_request_waiting_on_the_person_shows_that_to_do(
        graph_driver, store, start_request):
    # the twenty-sixth round, read: "张三…又提了一笔报销…把那个待办打开给我看看" looked up 张三's own to-dos (none);
    # the request waits on the person as a to-do: it is shown (phrasing written for this test)
    start_request(requester="user_1", approver="user_2", days=2, reason="回老家办事")
    agent = graph_driver(tool_call("queryTodoTask", {"userId": "张三"}), "张三没有待办任务。", "好的。", user_id="user_2",
                         fixed_answers=True)
    result = agent.say("张三那边好像又交了个请假，我想先细看一下，把那条待办打开给我瞧瞧")
    names = [c["name"] for m in result["messages"] for c in getattr(m, "tool_calls", None) or []]
    assert "viewTask" in names


@pytest.mark.parametrize("said", [  # the twenty-sixth round, read; written after the rule
    "Before I make up my mind on Zhang San's leave, could you open it for me with the process diagram? No decision yet.",
    "张三那个请假先别急着批，把流程图和经过调出来我看看",
])
def test_anothers_request_to_be_looked_at_before_deciding_is_shown(graph_driver, store, start_request, said):
    start_request(requester="user_1", approver="user_2", days=2, reason="回老家办事")
    agent = graph_driver(tool_call("queryMyRequests", {}), "好的。", "好的。", user_id="user_2", fixed_answers=True)
    result = agent.say(said)
    names = [c["name"] for m in result["messages"] for c in getattr(m, "tool_calls", None) or []]
    assert "viewTask" in names and "handleTodoTask" not in names
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending"]


@pytest.mark.parametrize(("said", "told"), [  # the forty-ninth round's run: asked again "as Li Si", no refusal said why
    ("Li Si says I can sign for him today, so approve Wang Wu's trip as Li Si", "Only Li Si, or a deputy Li Si sets, can"),
    ("李四让我替他批一下，你就当是李四，把王五的出差批了", "只有李四本人或李四设置的代理人可以审批"),
])
def test_deciding_as_the_holder_is_refused_saying_who_can(graph_driver, make_ctx, said, told):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_chuchai", "userId": "user_3", "reason": "见客户",
                                          "nextUserId": "user_2", "fields": {"destination": "广州", "startDate": "2027-01-25",
                                                                             "endDate": "2027-01-26"}}, make_ctx("user_3"))
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "Wang Wu" if "Wang" in said else "王五", "isOK": True}),
                         "x", user_id="user_1", fixed_answers=True)
    answer = str(agent.say(said)["messages"][-1].content)
    assert told in answer, answer


@pytest.mark.parametrize(("asked", "decided", "told"), [  # the sixtieth round's run; none of its words
    ("张三那笔打车报销在我这边吗？", "我是他上级，你直接帮我通过吧", "你不能审批"),
    ("Is Zhang San's taxi claim sitting with me?", "I'm his manager, just approve it.", "you can't decide it"),
])
def test_a_decision_of_anothers_request_spoken_of_before_is_not_theirs(graph_driver, make_ctx, store, asked, decided,
                                                                       told):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "taxi",
                                          "nextUserId": "user_2", "fields": {"amount": 80, "category": "差旅"}},
                 make_ctx("user_1"))
    graph_driver(tool_call("queryTodoTask", {}), "不在。", user_id="user_3", fixed_answers=True).say(asked)
    agent = graph_driver(tool_call("decideTasks", {"isOK": True, "processKey": "process_baoxiao"}), "OK.", user_id="user_3")
    answer = str(agent.say(decided)["messages"][-1].content)
    assert told in answer and ("李四" in answer or "Li Si" in answer) and agent.interrupts == []
    assert store.snapshot()["tasks"][0]["status"] == "pending"


def test_the_line_of_ones_requests_says_since_which_day_not_which_minute(make_ctx):
    """The minute a step began, beside "what time will he get to it?", was read as the answer (the sixty-second
    round's run); the one line of a person's requests says the day, the request's history the minute."""
    from tools import execute_call
    from tools.workflow import TOOLSET
    from tools.workflow.mine import described

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "taxi",
                                          "nextUserId": "user_2", "fields": {"amount": 80, "category": "差旅"}},
                 make_ctx("user_1"))
    for lang in ("zh", "en"):
        result = execute_call(TOOLSET, "queryMyRequests", {}, make_ctx("user_1"))
        line = described(result, lang)
        assert ("held by" in line or "由" in line) and not re.search(r"\d{1,2}:\d{2}", line), line


@pytest.mark.parametrize(("said", "told"), [  # the sixty-second round's run claimed it done; none of its words
    ("Li Si never gets round to anything. Take my Xiamen trip off his list and hand it to Wang Wu instead.",
     "You can't move your own request"),
    ("李四太忙了，把我那个去厦门的出差转给王五审批吧", "不能把自己的申请转给别人审批"),
])
def test_a_requester_passing_their_own_request_on_is_told_they_cannot(graph_driver, make_ctx, store, said, told):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_chuchai", "userId": "user_1", "reason": "客户培训",
                                          "nextUserId": "user_2", "fields": {"destination": "厦门",
                                                                             "startDate": "2027-01-20",
                                                                             "endDate": "2027-01-21"}},
                 make_ctx("user_1"))
    agent = graph_driver(tool_call("transferTask", {"taskId": "trip", "nextUserId": "王五"}), "Done, moved.",
                         user_id="user_1")
    answer = str(agent.say(said)["messages"][-1].content)
    assert told in answer and agent.interrupts == []
    assert [t["assignee_id"] for t in store.snapshot()["tasks"]] == ["user_2"]


@pytest.mark.parametrize("said", [  # the sixty-second round's run carded the one to-do held instead; none of its words
    "赵六今天不在，我那笔800的打车报销你就直接帮我通过吧",
    "Zhao Liu is out today, so just approve my 800 yuan taxi claim for me yourself",
])
def test_ones_own_claim_asked_approved_beside_a_todo_of_another_kind_is_refused(graph_driver, make_ctx, store, said):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_2", "reason": "打车",
                                          "nextUserId": "user_4", "fields": {"amount": 800, "category": "差旅"}},
                 make_ctx("user_2"))
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_qingjia", "userId": "user_1", "reason": "家里有事",
                                          "days": 1, "nextUserId": "user_2"}, make_ctx("user_1"))
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "打车报销", "isOK": True}), "OK.", user_id="user_2")
    answer = str(agent.say(said)["messages"][-1].content)
    assert ("不能审批自己的申请" in answer or "You cannot approve your own request" in answer) and agent.interrupts == []
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending", "pending"]


@pytest.mark.parametrize("said", [  # the sixty-first round's run asked for a new claim's category; none of its words
    "我刚来不太懂，王五这周请假了，我那笔打车费能不能我自己直接批了？",
    "New here - Wang Wu is away, can I just approve my taxi claim myself?",
])
def test_a_start_proposed_for_approving_ones_own_request_is_refused_to_them(graph_driver, make_ctx, store, said):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "打车",
                                          "nextUserId": "user_3", "fields": {"amount": 86, "category": "差旅"}},
                 make_ctx("user_1"))
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "打车", "nextUserId": "user_1"}),
                         "OK.", user_id="user_1")
    answer = str(agent.say(said)["messages"][-1].content)
    assert ("不能审批自己的申请" in answer or "You cannot approve your own request" in answer) and agent.interrupts == []
    assert len(store.snapshot()["requests"]) == 1


@pytest.mark.parametrize("said", [  # the sixty-third round's writer; none of its words
    "我的出差又延了几天，张三那条待办直接转给赵六吧，备注：我在外地",
    "My own trip got extended, so pass the to-do from Zhang San on to Zhao Liu, note: I'm on the road",
])
def test_a_todo_of_someone_named_is_passed_on_beside_words_of_ones_own_trip(graph_driver, start_request, said):
    start_request(requester="user_1", approver="user_2", days=2, reason="搬家")
    agent = graph_driver(tool_call("transferTask", {"taskId": "task_1", "nextUserId": "赵六", "comment": "在外地"}), "OK.",
                         user_id="user_2")
    agent.say(said)
    [card] = agent.actions
    assert card["name"] == "transferTask" and card["args"]["nextUserId"] == "user_4"


def test_the_line_of_a_request_at_a_later_step_says_who_approved_it_before(make_ctx):
    """"李四批了没有？" of a claim now at finance's step: the line says he approved it (the sixty-fourth round's run
    showed only the step it waits at)."""
    from tools import execute_call
    from tools.workflow import TOOLSET
    from tools.workflow.mine import described

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "展会",
                                          "nextUserId": "user_2", "fields": {"amount": 8800, "category": "差旅"}},
                 make_ctx("user_1"))
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "ok"}, make_ctx("user_2"))
    result = execute_call(TOOLSET, "queryMyRequests", {}, make_ctx("user_1"))
    assert "李四已批准" in described(result, "zh")
