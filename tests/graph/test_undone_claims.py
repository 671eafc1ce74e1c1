"""An answer never says a thing was done in a run where nothing the model proposed to write was done (refused, failed,
or declined at the card): "已驳回" after its return was refused and no decision made is asked once more, then replaced by
a plain "that was not done", beside what actually happened. A state the conversation showed (a refusal saying the
request "already ended (rejected)") may be told, and a run that wrote something is not read this way.

The phrasings below were written for this test, after the rule; the first case is the fifth held-out round's
(ho5_reject_expense_reason_zh: the model answered "已驳回" after its return was refused)."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage

from evals.doubles.scripted import tool_call
from graph.known import done_claims
from graph.prompts import THOUGHTS, UNDONE_NOTE
from tools import execute_call
from tools.workflow import TOOLSET


def final(result: dict[str, Any]) -> AIMessage:
    answer = result["messages"][-1]
    assert isinstance(answer, AIMessage) and not answer.tool_calls
    return answer


# The refusals below name no whole call to make instead (graph.answers.instead_call): the request named waits on
# someone else, so the model's answer is what is read.
OTHERS = "这是别人的申请，只有申请人自己可以发起、撤回、重新提交或催办。"


def test_a_decision_claimed_after_the_refusal_of_another_is_never_shown(graph_driver, store, start_request):
    start_request(requester="user_4", approver="user_3", days=1, reason="搬家")  # waits on 王五, not 李四
    agent = graph_driver(
        tool_call("withdrawRequest", {"requestId": "req_1"}),
        "已驳回赵六的申请。",  # after the refusal
        "已驳回，意见：发票抬头开错了。",  # told of the tools to call instead, it answers again
        "好的，已经帮你驳回了。",  # told it was not done, it says so once more
        user_id="user_2",
    )
    answer = final(agent.say("赵六那个申请驳回，发票抬头开错了，让他重开一张再提"))
    assert answer.content == f"这件事没有办成：{OTHERS}"  # why, in the person's words
    assert answer.response_metadata["ungrounded"] == ["已驳回"]
    assert answer.response_metadata["thought"] == THOUGHTS["zh"]["not_done"]
    [line] = answer.response_metadata["outcome"]
    assert (line["tool"], line["status"]) == ("withdrawRequest", "refused")
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending"]
    redo = agent.model.prompts[3]
    assert redo[-2].content == "已驳回，意见：发票抬头开错了。"  # the model sees what it wrote, then what happened
    assert redo[-1].content.startswith(UNDONE_NOTE["zh"].split("{claims}")[0] + "「已驳回」")
    assert "未执行" in redo[-1].content
    assert agent.script_used_up


def test_a_redone_answer_that_says_it_was_not_done_is_the_answer(graph_driver, store, start_request):
    start_request(requester="user_3", approver="user_4", days=2, reason="回老家")  # waits on Zhao Liu
    truth = "I haven't sent it back: Wang Wu's leave waits on Zhao Liu, not on you."
    agent = graph_driver(
        tool_call("withdrawRequest", {"requestId": "req_1"}),
        "Wang Wu's leave has been sent back.",
        "Done, I returned it to him.",
        truth,
        user_id="user_2",
    )
    answer = final(agent.say("Bounce Wang Wu's leave back to him, the dates are off"))
    assert answer.content == truth
    assert sorted(answer.response_metadata["redone"]) == ["Done", "I returned"]
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending"]


def test_a_redone_answer_in_another_language_than_the_persons_is_not_shown(graph_driver, store, start_request):
    # The full held-out run at 8c3cda9 (ho5_reject_expense_reason_zh): told it had decided nothing, the offline model
    # answered a Chinese approver "Sorry, I can't fulfill your request."
    start_request(requester="user_3", approver="user_4", days=1, reason="搬家")
    agent = graph_driver(
        tool_call("withdrawRequest", {"requestId": "req_1"}),
        "已经驳回了王五的申请。", "王五的申请已驳回。", "Sorry, I can't do that. Please provide more details.",
        user_id="user_2",
    )
    answer = final(agent.say("王五的申请拒了吧，这周人手不够"))
    assert answer.content == f"这件事没有办成：{OTHERS}"
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending"]


def test_a_state_a_refusal_showed_may_be_told(graph_driver, store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙医")
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": False, "result": "人手不够"},
                 make_ctx("user_2", thread_id="other", call_id="c0"))
    told = "That request was rejected by Li Si, so there is nothing to withdraw."
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "req_1"}), told)
    answer = final(agent.say("Withdraw my dentist leave"))
    assert answer.content == told
    assert "redone" not in answer.response_metadata and "ungrounded" not in answer.response_metadata
    assert agent.values["budget"]["model_calls"] == 2  # no redo asked


def test_an_answer_after_a_write_that_was_done_is_not_read_for_claims(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙医")
    said = "已批准张三的请假。"
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "同意"}), said,
                         user_id="user_2")
    agent.say("张三的假批了吧，意见写同意")
    answer = final(agent.approve())
    assert answer.content == said
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["approved"]


def _claims(text: str) -> list[str]:
    return [said for _, _, said in done_claims(text)]


@pytest.mark.parametrize("text", [
    "您的出差申请已成功提交，请等待审批。",
    "已经为您转交给王五了",
    "报销提交成功！",
    "好的，我帮你把张三的假批了",
    "这条待办已处理完毕",
    "已驳回。",
    "Your claim has been submitted to Li Si.",
    "It's been approved.",
    "I've forwarded it to Wang Wu",
    "I just sent the reminder.",
    "The trip was successfully booked",
    "Nothing more to do: your leave was submitted.",  # the denial is of another clause
    # a deputy said to be set (the twenty-fourth round's writer's report; none from it)
    "已将王五设为你的代理人，下周一至周三生效。", "王五已设为你的审批代理", "I've set Wang Wu as your deputy for those days.",
    "Wang Wu is now your deputy until Friday.", "Wang Wu has been assigned to cover your approvals",
    # the verb alone as a sentence (the twenty-ninth round, read: "Withdrawn." after a refused withdrawal)
    "Withdrawn.", "All approved!", "OK. Submitted, Li Si will review it.",
    # "Done" and "E-mailed …" after a refused call (the forty-first round's writer's report; none from it)
    "Done! Zhao Liu covers your approvals next week.", "All done.", "Emailed Wang Wu about the claim.",
    "Sure. E-mailed Li Si with your note.", "I've notified Zhao Liu.", "已经给李四发了邮件，提醒他尽快审批。",
    "搞定了，王五下周替你审批。",
    # a request said moved to another approver after a refused transfer (the sixty-second round's run; none of its words)
    "Your Xiamen trip has been moved to Wang Wu's list.", "It's been handed over to Zhao Liu for approval.",
    "The leave has been reassigned to Wang Wu.",
    # a change and its resend said in one breath (the seventy-sixth round's run; none of its words)
    "Your claim is now 1,050 yuan and submitted again.", "The trip is now three days and resubmitted.",
])
def test_words_that_say_something_was_done_are_read_as_such(text):
    assert _claims(text), text


@pytest.mark.parametrize("text", [
    "还没有提交，要我现在提交吗？",
    "这个申请未驳回，仍在审批中。",
    "要我帮你退回吗？",
    "需要李四审批通过后才生效。",
    "The request has not been approved yet.",
    "Would you like me to return it with your comment?",
    "今天已经催办过李四了，明天可以再催。",
    "Li Si was already reminded today.",
    "It wasn't sent: the e-mail needs a subject.",
    "Shall I submit it now?",
    # a claim its own clause denies (the fifteenth round's writer found "nothing was filed"; none from it)
    "Nothing was filed: the amount is still missing.",
    "No reminder was sent, since one went out today.",
    "没有提交成功，金额还没确定。",
    "要我把王五设为你的代理人吗？", "The amount is set to 500 on the card.", "Shall I set Wang Wu as your deputy?",
    "Submitted requests are listed below.", "Approved ones drop off your list.",
    "Done with the list? Tell me which to approve.", "Once it is done, Li Si will be e-mailed.", "要我给李四发邮件吗？",
    "It is now with Li Si and waiting.",
])
def test_words_that_do_not_say_so_are_not(text):
    assert _claims(text) == [], text


def test_withdrawing_a_leave_that_ended_is_told_it_ended_and_no_new_one_is_filed(graph_driver, store, make_ctx,
                                                                              start_request):
    # The fifth held-out round (ho5_withdraw_approved_zh): the refusal said "to file a new request, call runWorkFlow",
    # and the model filed one. It now names the request that ended, and the answer that says so is kept.
    start_request(requester="user_1", approver="user_2", days=1, reason="搬家")
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "同意"},
                 make_ctx("user_2", thread_id="other", call_id="c0"))
    told = "你的请假 req_1 已批准，已经结束了，无法撤回。"
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "请假"}), told)
    result = agent.say("上周请的那天假用不上了，帮我撤掉")
    [refusal] = [m for m in result["messages"] if getattr(m, "status", None) == "error"]
    assert "[request_not_pending]" in str(refusal.content) and "req_1" in str(refusal.content)
    assert "runWorkFlow" not in str(refusal.content)
    answer = final(result)
    assert answer.content == told and "redone" not in answer.response_metadata
    assert agent.values["budget"]["model_calls"] == 2  # no redirect to another tool, no redo
    assert [r["status"] for r in store.snapshot()["requests"]] == ["approved"]


def test_a_withdrawal_claimed_for_a_request_that_ended_is_replaced_by_why_it_was_not_done(graph_driver, store, make_ctx,
                                                                                        start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="搬家")
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "同意"},
                 make_ctx("user_2", thread_id="other", call_id="c0"))
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "请假"}), "已帮你撤回了。", "好的，已撤回。")
    answer = final(agent.say("那天的假不请了，撤了吧"))
    assert answer.content == "这件事没有办成：这个申请已经结束，不能再撤回。"
    assert [r["status"] for r in store.snapshot()["requests"]] == ["approved"]


def test_an_answer_with_made_up_values_after_a_refused_write_says_why_it_was_not_done(graph_driver, store, make_ctx):
    # the twenty-fifth round, read: a finance member's own claim, refused at its finance step, got "I don't know" and
    # the list of what the assistant can do; what is known is why it was not done (phrasing written for this test)
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_qingjia", "userId": "user_3", "reason": "搬家",
                                          "days": 1, "nextUserId": "user_2"}, make_ctx("user_3"))
    store_task = store.snapshot()["tasks"][0]
    assert store_task["assignee_id"] == "user_2"
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "同意"}),
                         "这条假还要再等 3 天。", "这条假还要再等 3 天。", user_id="user_3")
    answer = final(agent.say("我那条搬家的假顺手也过了吧，意见写同意"))
    assert "自己" in answer.content and "李四" in answer.content  # why, and who it waits on (a code-written refusal)
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending"]


def test_done_after_a_refused_call_is_not_shown(graph_driver, store):  # the forty-first round's writer's report
    said = "Done! Wang Wu covers your approvals from Monday to Wednesday."
    agent = graph_driver(tool_call("setDeputy", {"deputy": "王五"}), said, said, user_id="user_1", locale="en")
    answer = final(agent.say("set wang wu as my deputy mon to wed"))
    assert answer.content != said and "Done" not in answer.content
    assert "Done" in answer.response_metadata["ungrounded"]
    assert store.snapshot()["deputies"] == []


@pytest.mark.parametrize(("said", "claims", "told"), [
    ("王五那趟出差你帮我签了吧", ["王五的出差我已经批了。", "已经帮你批准了。"], "这件事没有办成：这次什么都没有改动。"),
    ("Sign off Wang Wu's trip for me", ["Wang Wu's trip has been approved.", "Done, approved."],
     "That was not done: nothing was changed."),
])
def test_a_decision_claimed_after_a_look_up_alone_is_not_shown(graph_driver, store, make_ctx, said, claims, told):
    # A look-up is no write: the to-do list it showed, the task still waiting, is no ground for "已经批了".
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "user_2",
                                          "fields": {"destination": "北京", "startDate": "2027-01-20",
                                                     "endDate": "2027-01-22"}}, make_ctx("user_3"))
    agent = graph_driver(tool_call("queryTodoTask", {"userId": "user_2"}), *claims, user_id="user_2")
    answer = final(agent.say(said))
    assert answer.content.endswith(told), answer.content
    assert "task_1" in answer.content  # what the look-up found is told before it
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending"]


def test_a_state_a_look_up_showed_may_be_told_after_an_asked_write(graph_driver, store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="搬家")
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "result": "同意", "isOK": True}, make_ctx("user_2"))
    agent = graph_driver(tool_call("queryMyRequests", {"userId": "user_1"}), "你的请假已经批准了，不用再催。",
                         user_id="user_1")
    answer = final(agent.say("帮我催一下我那个请假"))
    assert answer.content.startswith("你的请假已经批准了")  # the look-up showed it approved


@pytest.mark.parametrize(("said", "told"), [  # the seventy-eighth round's run: "several steps failed, help me" instead
    ("人事那一步我能不能顺手也批了？", "这件事没有办成：这个待办不归你处理。"),
    ("can I just approve the HR step myself too?", "That was not done: that task is not yours to decide."),
])
def test_a_run_stopped_after_refused_steps_says_why(graph_driver, store, make_ctx, start_request, said, told):
    start_request(requester="user_1", approver="user_2", days=5, reason="带家人出去玩")
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "同意"}, make_ctx("user_2"))
    calls = [tool_call("handleTodoTask", {"taskId": "task_2", "isOK": True, "result": "同意"}, id="c0"),
             tool_call("viewTask", {"taskId": "task_2"}, id="c1"), tool_call("viewTask", {"taskId": "task_2"}, id="c2"),
             tool_call("queryTodoTask", {"userId": "user_2"}, id="c3")]
    agent = graph_driver(*calls, "OK", "OK", user_id="user_2", fixed_answers=True)
    assert final(agent.say(said)).content == told
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["approved", "pending"]


def test_done_after_look_ups_asked_for_is_their_answer(graph_driver, store, start_request):
    # the benchmark's workload ("Show me the to-do lists of these colleagues." … "Done."): no write was asked for
    start_request(requester="user_1", approver="user_2", days=1, reason="搬家")
    agent = graph_driver(tool_call("queryTodoTask", {"userId": "user_1"}), "Done.", user_id="user_1")
    answer = final(agent.say("Show me my to-do list."))
    assert answer.content == "Done." and "ungrounded" not in answer.response_metadata


@pytest.mark.parametrize(("said", "call", "claim"), [  # the eightieth round's writer: a declined card, "已驳回…" shown
    ("张三的请假驳回，理由是项目上线", {"taskId": "张三", "isOK": False, "result": "项目上线"},
     "已驳回张三的请假，意见：项目上线。"),
    ("Reject Zhang San's leave, the release is that week", {"taskId": "Zhang San", "isOK": False,
                                                             "result": "the release is that week"},
     "Zhang San's leave has been rejected."),
])
def test_a_rejection_claimed_after_the_person_declined_its_card_is_not_shown(graph_driver, store, start_request, said,
                                                                            call, claim):
    # the card's refusal reads "Rejected by the reviewer …": no state of the request, whatever its words
    start_request(requester="user_1", approver="user_2", days=2, reason="回老家")
    agent = graph_driver(tool_call("handleTodoTask", call), claim, claim, user_id="user_2")
    agent.say(said)
    answer = final(agent.resume({"decisions": [{"type": "reject", "message": "wait"}]}))
    assert claim not in answer.content
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending"]
