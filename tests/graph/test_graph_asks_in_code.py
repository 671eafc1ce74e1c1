"""Success that does not rest on the model: the graph asks the person, resolves names, answers repeats,
writes fixed answers and reports what actually happened (issue: the offline model finishes the seed's tasks).

Every test drives the real graph with a scripted model that would get it wrong on its own.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest
from langchain_core.messages import AIMessage, ToolMessage
from sqlalchemy import insert

from evals.doubles.scripted import tool_call
from graph.history import note_of
from tools import DomainError, check_call
from tools.parsers import read_text
from tools.workflow import TOOLSET
from tools.workflow.store import users

LEAVE = {"processKey": "process_qingjia", "reason": "看牙医", "days": 1}


def observations(result: dict[str, Any]) -> list[ToolMessage]:
    return [m for m in result["messages"] if isinstance(m, ToolMessage)]


def final(result: dict[str, Any]) -> AIMessage:
    last = result["messages"][-1]
    assert isinstance(last, AIMessage) and not last.tool_calls, last
    return last


def add_second_lisi(store) -> None:
    """A second user whose display name is also 李四."""
    with store.transaction() as conn:
        conn.execute(insert(users).values(id="user_6", name="李四", email="lisi2@example.com", alias="Li Si"))


def test_the_seed_ten_day_request_asks_who_approves_and_writes_nothing(graph_driver, store):
    # The model fills in an approver nobody named (the seed's model picked one): the graph asks instead.
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "reason": "肚子疼", "days": 10, "nextUserId": "user_4"}))
    result = agent.say("明天肚子疼，想请10天假")
    assert final(result).content == "请问谁来审批？可选：李四、王五、赵六、管理员。"
    assert store.snapshot()["requests"] == []


def test_the_answer_to_the_graphs_question_is_filled_in_without_the_model(graph_driver, store):
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "reason": "肚子疼", "days": 10}), "已提交。")
    agent.say("明天肚子疼，想请10天假")
    calls_before = len(agent.model.prompts)
    result = agent.say("李四吧")
    filled = next(m for m in result["messages"][::-1] if isinstance(m, AIMessage) and m.tool_calls)
    assert note_of(filled)["filled"] is True
    assert filled.tool_calls[0]["args"]["nextUserId"] == "user_2"
    assert agent.card["approver"] == "李四 (user_2)" and store.snapshot()["requests"] == []  # the requester confirms
    agent.approve()
    [request] = store.snapshot()["requests"]
    assert (request["requester_id"], request["days"], request["reason"]) == ("user_1", 10, "肚子疼")
    assert [t["assignee_id"] for t in store.snapshot()["tasks"]] == ["user_2"]
    assert len(agent.model.prompts) == calls_before + 1  # only the final answer asked the model


def test_an_answer_that_does_not_answer_goes_to_the_model(graph_driver, store):
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "reason": "肚子疼", "days": 10}), "好的，不请了。")
    agent.say("明天肚子疼，想请10天假")
    result = agent.say("算了")
    assert final(result).content == "好的，不请了。"
    assert store.snapshot()["requests"] == []


def test_an_approver_by_display_name_is_resolved_in_code(graph_driver, store):
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "nextUserId": "李四"}), "已提交。")
    agent.say("明天看牙医，请1天假，李四审批")
    assert agent.card["approver"] == "李四 (user_2)"
    agent.approve()
    assert [t["assignee_id"] for t in store.snapshot()["tasks"]] == ["user_2"]


@pytest.mark.parametrize("model_writes", ["李四", "user_2", "user_6"])
def test_two_users_with_the_same_name_naming_one_never_selects_the_other(graph_driver, store, model_writes):
    add_second_lisi(store)
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "nextUserId": model_writes}))
    result = agent.say("明天看牙医，请1天假，让李四审批")
    question = final(result).content
    assert question.startswith("有 2 位用户叫「李四」：")
    assert "user_2" in question and "user_6" in question and "lisi2@example.com" in question
    assert store.snapshot()["requests"] == []

    # The person picks one by e-mail: that one, and never the other, becomes the approver.
    agent.script("已提交。")
    agent.say("lisi2@example.com 那位")
    assert agent.card["approver"] == "李四 (user_6)"
    agent.approve()
    assert [t["assignee_id"] for t in store.snapshot()["tasks"]] == ["user_6"]


def test_a_name_two_users_share_is_never_resolved_by_the_policy(store, make_ctx):
    add_second_lisi(store)
    with pytest.raises(DomainError) as info:
        check_call(TOOLSET, "queryTodoTask", {"userId": "李四"}, make_ctx("user_1"))
    assert info.value.code == "ambiguous_user"


def test_two_named_people_make_the_graph_ask_which_one(graph_driver, store):
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "reason": "下午去银行", "days": 0.5, "nextUserId": "李四"}))
    result = agent.say("请半天假，下午去银行，李四或者王五审批都行。")
    assert final(result).content == "你提到了 李四、王五，请问是哪一位？"
    assert store.snapshot()["requests"] == []


def test_an_approver_named_beside_someone_else_is_the_one_with_the_cue(graph_driver, store):
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "reason": "family event", "days": 2, "nextUserId": "Wang Wu"}),
                         "Filed.")
    agent.say("Li Si is away. File 2 days for a family event, with Wang Wu as approver.")
    assert agent.card["approver"] == "Wang Wu (user_3)"
    agent.approve()
    assert [t["assignee_id"] for t in store.snapshot()["tasks"]] == ["user_3"]


@pytest.mark.parametrize(
    ("said", "args", "question"),
    [
        ("我想请假，李四审批，家里有事", {**LEAVE, "reason": "家里有事", "days": 3, "nextUserId": "李四"}, "请问要请几天假？"),
        ("我想请3天假，李四审批", {**LEAVE, "reason": "个人原因", "days": 3, "nextUserId": "李四"}, "请问请假的原因是什么？"),
        ("I want to take 2 days off next week, approver Wang Wu.",
         {**LEAVE, "reason": "take 2 days off next week", "days": 2, "nextUserId": "Wang Wu"},
         "What is the reason for the leave?"),
    ],
    ids=["days-made-up", "reason-made-up", "reason-is-no-reason-en"],
)
def test_values_the_model_made_up_make_the_graph_ask(graph_driver, store, said, args, question):
    agent = graph_driver(tool_call("runWorkFlow", args))
    assert final(agent.say(said)).content == question
    assert store.snapshot()["requests"] == []


def test_an_email_text_the_model_wrote_itself_is_asked_for(graph_driver, store):
    agent = graph_driver(tool_call("sendEmail", {"userId": "李四", "emailContent": "李四你好，请尽快审批我的申请，谢谢！"}))
    result = agent.say("用邮件骚扰一下李四")
    assert final(result).content == "请问邮件内容写什么？我不会替你编写邮件内容。"
    assert agent.interrupts == []


@pytest.mark.parametrize(
    ("said", "mail", "question"),
    [
        ("email Wang Wu a reminder about my expense claim", {"userId": "Wang Wu", "emailContent": "Hi Wang Wu, kindly look"
         " at it"}, "What should the e-mail say? I will not make up its text."),
        ("给王五发封邮件提醒一下", {"userId": "王五", "emailContent": "王五：请处理"},
         "请问邮件内容写什么？我不会替你编写邮件内容。"),
    ],
    ids=["en", "zh"],
)
def test_an_email_text_that_shares_only_the_recipients_name_with_the_request_is_asked_for(
    graph_driver, store, said, mail, question
):
    # The name is in the text because the request names the recipient; it makes no sentence around it theirs.
    agent = graph_driver(tool_call("sendEmail", mail))
    assert final(agent.say(said)).content == question
    assert agent.interrupts == []


def test_a_write_during_a_question_is_refused_in_words_the_model_cannot_repeat_as_the_persons(graph_driver, store):
    agent = graph_driver(tool_call("getAllWorkFlow"), tool_call("runWorkFlow", {**LEAVE, "nextUserId": "李四"}), "好的")
    result = agent.say("有哪些流程？")
    refusal = observations(result)[-1]
    assert refusal.content.startswith("Error [question_only]: the latest message is a question that asks for no change")
    assert "did not ask" not in refusal.content
    assert store.snapshot()["requests"] == []


def test_a_write_in_a_request_that_states_none_of_its_values_is_asked_about_not_refused(graph_driver, store):
    # No word list decides whether a write was asked for: its values are not the person's, so the person is asked.
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "nextUserId": "李四"}))
    result = agent.say("帮我把这几天的假请了")
    # Nothing it proposed was said, so everything is asked for at once: days, reason, and who approves.
    assert final(result).content == "请问要请几天假？请问请假的原因是什么？请问谁来审批？可选：李四、王五、赵六、管理员。"
    assert store.snapshot()["requests"] == []


def test_a_request_that_states_nothing_is_asked_for_everything_in_one_question(graph_driver, store):
    # The model names the requester as his own approver and makes up the rest: the one question asks for all three,
    # in the person's language.
    agent = graph_driver(
        tool_call("runWorkFlow", {**LEAVE, "reason": "personal matters", "days": 1, "nextUserId": "user_4"}),
        fixed_answers=True,
    )
    question = final(agent.say("I'd like some time off please.", user_id="user_4")).content
    assert question.startswith("Who should approve it? You can choose: Zhang San, Li Si, Wang Wu, Administrator.")
    assert "How many days of leave do you need?" in question and "What is the reason for the leave?" in question
    assert store.snapshot()["requests"] == []


def test_fixed_answers_end_a_write_with_what_it_did_and_no_model_call(graph_driver, store):
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "nextUserId": "李四"}), fixed_answers=True)
    agent.say("明天看牙医，请1天假，李四审批")
    assert agent.card["title"] == "发起申请"
    result = agent.approve()
    assert final(result).content == "已发起请假申请 req_1（病假，1 天），等待李四审批（task_1）。"
    assert len(agent.model.prompts) == 1


def test_fixed_answers_say_a_declined_card_was_not_done_with_no_model_call(graph_driver, store, start_request):
    # A small model, told the person said no, has written "已拒绝张三的请假申请" when nothing was decided. What the
    # code knows is the answer: the card was declined, nothing was done, and the task still waits.
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "result": "不同意", "isOK": False}),
                         "已拒绝张三的请假申请。", fixed_answers=True)
    agent.say("驳回张三的请假，意见：不同意", user_id="user_2")
    answer = final(agent.resume({"decisions": [{"type": "reject", "message": "先不处理"}]}))
    assert answer.content == "好的，你在确认时拒绝了：审批，所以没有执行。如果要换个做法，请告诉我。"
    assert len(agent.model.prompts) == 1
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending"]


WORKFLOWS = (
    "流程：报销流程（process_baoxiao，填写：报销金额、报销类别、报销事由；审批：审批人审批 → 财务审批（同意且超过 5000 元））、"
    "出差流程（process_chuchai，填写：出差地点、出发日期、返回日期、出差事由；审批：仅审批人审批一步）、请假流程（process_qingjia，填写："
    "请假天数、请假类型、请假原因；可选：开始日期、开始时段、结束日期、结束时段；审批：审批人审批 → 人事审批（同意且超过 3 天））"
)


def test_fixed_answers_answer_a_question_with_what_the_look_up_found(graph_driver):
    agent = graph_driver(tool_call("getAllWorkFlow", id="c1"), "模型不会被再问一次。", fixed_answers=True)
    result = agent.say("有哪些流程？")
    assert final(result).content == "我查到的结果：\n" + WORKFLOWS
    assert len(agent.model.prompts) == 1  # one model call: the look-up answers a question that asks for no change


def test_fixed_answers_end_a_repeated_lookup_with_its_result(graph_driver):
    # The request asks for a write (请假), so the model goes on after the look-up, and repeats it.
    agent = graph_driver(tool_call("getAllWorkFlow", id="c1"), tool_call("getAllWorkFlow", id="c2"), fixed_answers=True)
    result = agent.say("我想请假，先看看有哪些流程")
    assert final(result).content == "我查到的结果：\n" + WORKFLOWS
    assert len(agent.model.prompts) == 2


@pytest.mark.parametrize(("question", "answer"), [
    ("报销多少钱以上要财务审批？", "报销超过5000元，审批人同意后还要财务审批。"),
    ("Which leave requests does HR have to sign off on as well?", "Leave over 3 days goes on to HR after your approver."),
])
def test_a_rule_of_a_process_is_answered_from_its_steps(graph_driver, question, answer):
    # A person asks when a request goes on to a second step; the look-up shows each process's steps with when a
    # request comes to them (the labels of the deployed BPMN's conditional flows), so the figure is no invention.
    agent = graph_driver(tool_call("getAllWorkFlow", id="c1"), answer)
    result = agent.say(question)
    assert final(result).content == answer
    assert "ungrounded" not in final(result).response_metadata


def test_an_answer_naming_records_no_tool_showed_is_replaced(graph_driver):
    agent = graph_driver(tool_call("getAllUser"), "系统里的用户有：示例（user_9）。", "还有示例（user_9）。")
    answer = final(agent.say("有哪些用户？"))
    assert "user_9" not in answer.content
    assert answer.content.startswith("我查到的结果：\n用户：张三（user_1）")
    assert answer.content.endswith(
        "\n除了上面查到的，其他的我不知道：你说过的话和查到的结果里都没有，我不会编造数字、日期或名字。")
    assert answer.response_metadata["ungrounded"] == ["user_9"] and agent.script_used_up


def test_every_final_answer_says_what_actually_happened(graph_driver, store):
    agent = graph_driver(
        tool_call("runWorkFlow", {**LEAVE, "nextUserId": "李四"}, id="c1"),
        tool_call("sendEmail", {"userId": "李四", "emailContent": "请尽快审批。"}, id="c2"),
        "我已经批准了张三的请假。",  # a claim no observation supports
    )
    agent.say("明天看牙医，请1天假，李四审批，再发邮件给李四：请尽快审批。")
    assert agent.actions[0]["name"] == "runWorkFlow"
    agent.approve()  # the requester confirms the start card; the e-mail's card comes next
    assert agent.actions[0]["name"] == "sendEmail"
    result = agent.resume({"decisions": [{"type": "reject", "message": "先不发"}]})
    outcome = final(result).response_metadata["outcome"]
    assert [(o["tool"], o["status"]) for o in outcome] == [("runWorkFlow", "executed"), ("sendEmail", "rejected")]
    assert agent.values["outcome"] == outcome


def test_a_run_that_changed_nothing_says_so(graph_driver):
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True}), "我已经批准了张三的请假。")
    result = agent.say("批准张三的请假")
    assert [(o["tool"], o["status"], o["detail"]) for o in final(result).response_metadata["outcome"]] == [
        ("handleTodoTask", "refused", "[unknown_task]")
    ]


def test_numbers_the_person_said_in_any_spelling():
    def days(text: str) -> frozenset[float]:
        return read_text(text, today=date(2026, 12, 1)).days_stated()

    assert days("明天肚子疼，想请10天假") == {10.0}
    assert days("请两天假") == {2.0}
    assert days("请半天假") == {0.5}
    assert 1.5 in days("请一天半假")
    assert days("请十五天假") == {15.0}
    assert days("I want three days off") == {3.0}
    assert 0.5 in days("half a day")


def test_person_words_are_only_the_persons(store, make_ctx, person_request):
    # A trusted caller (no person words) is not asked; the graph's path is.
    args = {**LEAVE, "userId": "user_1", "nextUserId": "user_2"}
    check_call(TOOLSET, "runWorkFlow", args, make_ctx("user_1"))
    with pytest.raises(DomainError) as info:
        check_call(TOOLSET, "runWorkFlow", args, make_ctx("user_1"),
                   request=person_request("请1天假看牙医"))
    assert info.value.code == "approver_not_named"


def test_a_long_request_without_a_comment_makes_the_graph_ask_the_approver(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=10, reason="肚子疼")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True}), "已批准。", user_id="user_2")
    assert final(agent.say("把张三的假批了")).content == "请问审批意见写什么？超过 1 天的申请需要填写审批意见。"
    assert agent.interrupts == []
    # The approver's answer is filled in by code, and the card shows it for the approver's own decision.
    agent.say("同意，早日康复")
    [card] = agent.actions
    assert card["args"] == {"taskId": "task_1", "isOK": True, "result": "同意，早日康复"}


@pytest.mark.parametrize(
    ("said", "comment", "lang"),
    [("把张三的假批了", "已批准", "zh"), ("Zhang San's leave is OK by me, sign it off", "Approved.", "en"),
     ("张三那个请假驳回", "不同意", "zh"),
     # the person's own words, but only the decision: no comment says more than the decision it goes with
     ("张三的假我这边批了", "批了", "zh"), ("Zhang San's leave is fine with me, approve it",
                                         "Zhang San's leave is fine with me", "en"), ("张三的请假驳回吧", "驳回", "zh")],
    ids=["approve-zh", "approve-en", "reject-zh", "decision-only-zh", "decision-only-en", "reject-only-zh"],
)
def test_a_comment_the_policy_requires_is_the_approvers_own_not_the_models(
    graph_driver, store, start_request, said, comment, lang
):
    # A 3-day request needs a comment with its decision; one the model wrote for the approver is no comment of theirs.
    start_request(requester="user_1", approver="user_2", days=3, reason="回老家")
    agent = graph_driver(
        tool_call("handleTodoTask", {"taskId": "张三", "isOK": "驳回" not in said, "result": comment}), user_id="user_2"
    )
    question = final(agent.say(said)).content
    assert question == {"zh": "请问审批意见写什么？超过 1 天的申请需要填写审批意见。",
                        "en": "What comment goes with the decision? Requests over one day need one."}[lang]
    assert agent.interrupts == []
    assert store.snapshot()["tasks"][0]["status"] == "pending"


def test_a_comment_the_approver_dictated_for_a_long_request_goes_on_the_card(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=3, reason="回老家")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "张三", "isOK": True, "result": "同意"}), user_id="user_2")
    agent.say("张三的假批了吧，意见写：路上注意安全")
    [card] = agent.actions
    assert card["args"]["result"] == "路上注意安全"


@pytest.mark.parametrize(("said", "comment"), [  # written after the rule (the seventeenth round, read); none from it
    ("张三那个三天的假，交接他都安排好了，直接批吧", "交接他都安排好了"),
    ("Zhang San's leave - his handover is all sorted, approve it", "his handover is all sorted"),
    # the eighteenth round's writer found these cut at odd places; none from its scenarios
    ("张三的假批了，意见就写：手头的活已经交给王五", "手头的活已经交给王五"),
    ("Approve Zhang San's leave, please. He has cover for the whole week", "He has cover for the whole week"),
    ("张三那个三天的假，余额我看过了，够用，批准", "余额我看过了，够用"),
    # what the person has passed on to the requester is the comment (the twentieth round's writer; after the rule)
    ("张三的假批了，跟他说一声交接文档发群里", "交接文档发群里"),
    ("Approve Zhang San's leave, tell him to leave the keys with Wang Wu", "to leave the keys with Wang Wu"),
])
def test_a_comment_between_whose_request_and_the_decision_goes_on_the_card(graph_driver, store, start_request, said,
                                                                           comment):
    start_request(requester="user_1", approver="user_2", days=3, reason="回老家")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "张三", "isOK": True}), user_id="user_2")
    agent.say(said)
    [card] = agent.actions
    assert card["args"]["result"] == comment


@pytest.mark.parametrize(
    ("said", "comment"),
    [("Approve task_1 with the comment fine", "fine"), ("张三的假批了，意见：同意", "同意"),
     ("Reject it with a note we need you that week", "we need you that week")],
)
def test_a_comment_spelled_out_is_the_approvers_even_when_it_only_says_the_decision(
    graph_driver, store, start_request, said, comment
):
    start_request(requester="user_1", approver="user_2", days=3, reason="回老家")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": "Reject" not in said, "result": "x"}),
                         user_id="user_2")
    agent.say(said)
    [card] = agent.actions
    assert card["args"]["result"] == comment


@pytest.mark.parametrize(
    ("said", "comment"),
    [("驳回赵六的请假，那周要交付，人手紧。", "那周要交付，人手紧"),
     ("Approve Zhao Liu's leave, make sure the handover is done.", "make sure the handover is done"),
     ("Reject task_1: the team is short-staffed that week", "the team is short-staffed that week"),
     # written after the rule: 再提 is the requester's, part of the comment, not another action
     ("驳回赵六的请假，日期填反了，改好再提", "日期填反了，改好再提"),
     # a dash between the parts (written after the rule; none from a scenario): every part after the decision
     ("驳回赵六的请假——那周在审计——换到月底吧", "那周在审计——换到月底吧"),
     ("Reject Zhao Liu's leave - audit that week - pick the last week instead", "audit that week - pick the last week instead")],
)
def test_the_words_after_the_decision_and_whose_request_it_is_are_the_comment(
    graph_driver, store, start_request, said, comment
):
    start_request(requester="user_4", approver="user_2", days=3, reason="回老家")
    approve = not said.startswith(("驳回", "Reject"))
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": approve, "result": "OK"}),
                         user_id="user_2")
    agent.say(said)
    [card] = agent.actions
    assert card["args"]["result"] == comment


@pytest.mark.parametrize("said", ["批准赵六的请假，然后发邮件告诉李四", "Approve Zhao Liu's leave, OK", "批准赵六的请假",
                                  "批准赵六的请假，再发个邮件给王五"])
def test_another_action_or_only_the_decision_after_it_is_no_comment(graph_driver, store, start_request, said):
    start_request(requester="user_4", approver="user_2", days=3, reason="回老家")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "同意"}), user_id="user_2")
    question = final(agent.say(said)).content
    assert "审批意见" in question or "comment" in question
    assert agent.interrupts == []


def test_a_task_named_by_its_requester_and_the_decision_the_person_stated(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="家里有事")
    start_request(requester="user_3", approver="user_2", days=0.5, reason="看病")
    # The model names the task by its requester, forgets isOK and drops the comment the person spelled out.
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "王五"}), user_id="user_2")
    agent.say("驳回王五的请假，理由：这周项目上线，人手不够。")
    [card] = agent.actions
    assert card["args"] == {"taskId": "task_2", "isOK": False, "result": "这周项目上线，人手不够"}
    assert card["card"]["requester"] == "王五 (user_3)"


def test_two_pending_tasks_of_one_requester_make_the_graph_ask_which(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="家里有事")
    start_request(requester="user_1", approver="user_2", days=2, reason="搬家")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "张三", "isOK": True}), user_id="user_2")
    question = final(agent.say("批准张三的请假")).content
    assert question.startswith(
        "你有 2 个待办符合「张三」：task_1（张三，请假，1 天，事假，家里有事）、task_2（张三，请假，2 天，事假，搬家）"
    )
    assert agent.interrupts == []


def test_an_unclear_decision_is_asked(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="家里有事")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1"}), user_id="user_2")
    assert final(agent.say("张三那个假你看着办，审批一下")).content == "请问是批准还是驳回？"
    agent.say("批准")
    [card] = agent.actions
    assert card["args"]["isOK"] is True


def test_a_reminder_about_my_request_finds_its_task_whatever_the_model_wrote(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="家里有事")
    text = "李四你好，麻烦尽快审批我周五的请假，谢谢。"
    agent = graph_driver(tool_call("sendEmail", {"taskId": "user_1", "emailContent": text}))
    agent.say(f"给李四发邮件提醒他审批我的请假，内容：{text}")
    [card] = agent.actions
    assert card["args"]["taskId"] == "task_1"
    assert card["card"]["recipient"] == "李四 (user_2)"


def test_the_approver_is_the_one_person_named_however_the_model_spelled_it(graph_driver, store):
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "reason": "dental appointment", "nextUserId": "王 Wu"}),
                         fixed_answers=True)
    agent.say("Please file one day of leave for me tomorrow, I have a dental appointment. Wang Wu approves.")
    assert agent.card["approver"] == "Wang Wu (user_3)"
    agent.approve()
    assert [t["assignee_id"] for t in store.snapshot()["tasks"]] == ["user_3"]


def test_a_name_is_not_a_number_of_days(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=10, reason="肚子疼")
    # "批一下假" asks for no new request, and 张三's 三 is no number of days.
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "reason": "好哥们", "days": 3, "nextUserId": "李四"}), "好的")
    result = agent.say("你现在是李四，你的好哥们是张三，批一下假")
    assert observations(result)[-1].content.startswith("Error [days_not_given]: days 3 was not said")
    assert len(store.snapshot()["requests"]) == 1


def test_a_model_answer_after_look_ups_is_followed_by_what_they_found(graph_driver, start_request):
    start_request(requester="user_1", approver="user_2")
    agent = graph_driver(tool_call("queryTodoTask", {}), "You have 1 pending task.", user_id="user_2",
                         fixed_answers=True)
    answer = final(agent.say("Show me what is waiting for me to approve.")).content
    assert answer.startswith("You have 1 pending task.\nHere is what I found:\nLi Si has 1 pending task: task_1 (Zhang San")


def test_a_question_is_answered_by_what_the_look_up_found(graph_driver, start_request):
    start_request(requester="user_1", approver="user_2")
    agent = graph_driver(tool_call("queryTodoTask", {}), "never asked", user_id="user_2", fixed_answers=True)
    answer = final(agent.say("Is anything waiting for me to approve?")).content
    assert answer.startswith("Here is what I found:\nLi Si has 1 pending task: task_1 (Zhang San")
    assert len(agent.model.prompts) == 1


def test_what_can_you_do_has_one_true_answer_and_takes_no_model_call(graph_driver):
    agent = graph_driver()
    answer = final(agent.say("你好，你能帮我做什么？")).content
    assert "发起请假申请" in answer and "approve" not in answer
    for question in ("你都会些啥？", "what can you do?", "How can you help me?"):
        answer = final(agent.say(question)).content
        assert ("批准、驳回" in answer) if question.startswith("你") else ("approve, reject" in answer), question
    assert agent.model.prompts == []


def test_a_plain_message_is_no_reminder_when_i_have_no_pending_request(graph_driver, store):
    mail = {"userId": "赵六", "taskId": "user_1", "emailContent": "明天上午10点开会，别迟到。"}
    agent = graph_driver(tool_call("sendEmail", mail))
    agent.say("给赵六发封邮件：明天上午10点开会，别迟到。")
    [card] = agent.actions
    assert card["args"] == {"userId": "user_4", "emailContent": "明天上午10点开会，别迟到。"}


def test_a_reason_translated_from_the_persons_language_is_replaced_by_their_own_words(graph_driver, store):
    # The person said why; the model's translation of it is not theirs: their words are filed, never asked again, and
    # the card shows what they replaced.
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "reason": "接孩子", "days": 0.5, "nextUserId": "Zhao Liu"}),
                         fixed_answers=True)
    agent.say("I need half a day off this afternoon to pick up my kid from school. Zhao Liu approves.")
    assert agent.card["reason"] == "to pick up my kid from school" and store.snapshot()["requests"] == []
    [call] = [c for c in agent.values["step"]["calls"] if c["status"] == "needs_approval"]
    assert call["sources"]["reason"] == {"how": "stated", "said": "to pick up my kid from school", "replaced": "接孩子"}
    agent.approve()
    assert [(r["days"], r["reason"]) for r in store.snapshot()["requests"]] == [(0.5, "to pick up my kid from school")]


def test_a_reason_that_only_names_the_form_is_replaced_by_the_persons_account(graph_driver, store):
    # "餐饮类报销" names the category and the process: it says nothing of why; the person did ("请供应商吃饭").
    claim = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "餐饮类报销", "nextUserId": "李四",
                                      "fields": {"amount": 850, "category": "餐饮"}})
    agent = graph_driver(claim, fixed_answers=True)
    agent.say("上周请供应商吃饭花了850元，餐饮类，要报销，找李四")
    assert agent.card["reason"] == "上周请供应商吃饭"
    agent.approve()
    assert [r["reason"] for r in store.snapshot()["requests"]] == ["上周请供应商吃饭"]


def test_a_reason_said_nowhere_is_still_asked(graph_driver, store):
    claim = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "差旅报销", "nextUserId": "李四",
                                      "fields": {"amount": 2300, "category": "差旅"}})
    agent = graph_driver(claim, fixed_answers=True)
    assert final(agent.say("报销两千三的差旅费，找李四审批")).content == "请问报销事由是什么？"
    assert store.snapshot()["requests"] == []


def test_an_action_input_missing_its_last_brace_is_closed():
    from graph.protocols import parse_react

    parsed = parse_react('Thought: 请假。\nAction: runWorkFlow\nAction Input: {"processKey": "process_qingjia", "days": 1')
    assert parsed.problem is None
    assert parsed.calls[0]["args"] == {"processKey": "process_qingjia", "days": 1}


@pytest.mark.parametrize(
    ("said", "lang"),
    [("I'd like two days off on Thursday and Friday to move house, Li Si approves", "en"),
     ("明天后天休假两天，家里装修，李四审批", "zh"),
     ("Could you put in a sick day for me tomorrow? Fever. Li Si approves.", "en"),
     ("周四周五帮我请两天假，家里装修，李四审批", "zh"),
     ("Could I have Thursday and Friday off? to move house. Li Si approves", "en")],
    ids=["days-off-en", "休假-zh", "sick-day-en", "请两天假-zh", "date-off-en"],
)
def test_a_leave_request_is_the_leave_process_whichever_process_the_model_chose(graph_driver, store, said, lang):
    # The model chose the business-trip process for a request for time off: the process the person named wins.
    days = 1 if "sick" in said else 2
    reason = {"en": "Fever" if days == 1 else "to move house", "zh": "家里装修"}[lang]
    agent = graph_driver(
        tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": reason, "days": days, "nextUserId": "Li Si"}),
        "ok",
    )
    agent.say(said)
    assert agent.card["process"] == {"en": "Leave request", "zh": "请假流程"}[lang]
    agent.approve()
    [request] = store.snapshot()["requests"]
    assert (request["process_key"], request["days"]) == ("process_qingjia", days)


@pytest.mark.parametrize(
    ("said", "days"),
    [("Can I take Thursday off? Dentist. Li Si approves.", 1), ("周四下午请假去银行办事，李四审批", 0.5)],
)
def test_leave_on_one_date_is_that_day_without_a_question(graph_driver, store, said, days):
    # Two days the model made up are not what one date says; the date's own length is.
    reason = "Dentist" if "Dentist" in said else "去银行办事"
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "reason": reason, "days": 2, "nextUserId": "Li Si"}), "ok")
    agent.say(said)
    assert agent.card["days"] == days
    agent.approve()
    [request] = store.snapshot()["requests"]
    assert request["days"] == days


def test_a_request_naming_two_processes_keeps_the_models_choice_and_its_checks(graph_driver, store):
    # "报销出差的车票" names both an expense and a trip: nothing is replaced; the expense form asks for its amount.
    agent = graph_driver(
        tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "出差的车票", "nextUserId": "李四"})
    )
    answer = final(agent.say("帮我报销上周出差的车票，李四审批")).content
    assert "报销金额" in answer
    assert store.snapshot()["requests"] == []


def test_a_process_the_person_wrote_out_is_not_replaced_by_the_one_their_words_name(graph_driver, store):
    # The person spelled out a key that does not exist: its refusal answers them, not a leave request they never saw.
    agent = graph_driver(
        tool_call("runWorkFlow", {"processKey": "process_kaoqin", "reason": "回家", "days": 2, "nextUserId": "李四"}), "好的"
    )
    result = agent.say("请用 process_kaoqin 流程帮我请2天假，李四审批，回家")
    assert "[unknown_process]" in observations(result)[-1].content
    assert store.snapshot()["requests"] == []


@pytest.mark.parametrize(
    ("said", "reason", "question"),
    [("2 days leave next Monday and Tuesday please, approver Li Si", "next Monday and Tuesday",
      "What is the reason for the leave?"),
     ("Off this Thursday, one day, Li Si approves", "Thursday, Li Si", "What is the reason for the leave?"),
     ("下周一周二请两天假，李四审批", "下周一周二", "请问请假的原因是什么？"),
     # how long, a part of the day and "pls" are no reason either
     ("need a half day off tmrw afternoon pls, Li Si approves", "half day off tmrw afternoon pls",
      "What is the reason for the leave?"),
     ("明天上午请半天假，李四审批", "明天上午半天", "请问请假的原因是什么？")],
    ids=["dates-en", "date-and-approver-en", "dates-zh", "length-and-time-en", "length-and-time-zh"],
)
def test_a_reason_made_of_the_requests_dates_and_people_is_no_reason(graph_driver, store, said, reason, question):
    days = 1 if "one day" in said else 0.5 if "半天" in said or "half" in said else 2
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "reason": reason, "days": days, "nextUserId": "李四"}))
    assert final(agent.say(said)).content == question
    assert store.snapshot()["requests"] == []


def test_a_reason_that_names_a_date_is_still_a_reason(graph_driver, store):
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "reason": "下周一去医院复查", "days": 1, "nextUserId": "李四"}), "好")
    agent.say("下周一去医院复查，请一天假，李四审批")
    assert agent.card["reason"] == "下周一去医院复查"
    agent.approve()
    assert [r["reason"] for r in store.snapshot()["requests"]] == ["下周一去医院复查"]


def test_a_decision_that_cannot_be_made_is_refused_before_any_comment_is_asked(graph_driver, store, start_request):
    # The requester of a 3-day request tries to approve it: no comment could make that allowed, so none is asked.
    start_request(requester="user_1", approver="user_2", days=3, reason="回老家")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True}), "你不能审批自己的申请。")
    result = agent.say("帮我把这个申请批了")
    assert "[self_approval]" in observations(result)[-1].content
    assert "审批意见" not in final(result).content
    assert store.snapshot()["tasks"][0]["status"] == "pending"


def test_a_comment_the_approver_spelled_out_is_theirs_in_any_language(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=2, reason="家里有事")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "同意"}), user_id="user_2")
    agent.say("Approve task_1, comment: 同意")
    [card] = agent.actions
    assert card["args"]["result"] == "同意"


@pytest.mark.parametrize(("opening", "answer", "comment"), [  # written after the rule; none from a scenario
    ("处理一下赵六的请假", "驳回，那周要交付，人手紧", "那周要交付，人手紧"),
    ("Deal with Zhao Liu's leave", "Reject it, we ship that week", "we ship that week"),
    ("赵六那个假你看着办", "同意吧，交接清楚就行", "交接清楚就行"),
])
def test_an_answer_to_approve_or_reject_gives_its_comment_after_the_decision(
    graph_driver, store, start_request, opening, answer, comment
):
    # The request was named in the message before; the answer to "approve or reject, with what comment?" says the
    # decision and then the grounds, with no "comment:" before them: they are the comment, not asked again.
    start_request(requester="user_4", approver="user_2", days=5, reason="回老家")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1"}), user_id="user_2")
    assert agent.interrupts == [] and final(agent.say(opening)).content
    agent.say(answer)
    [card] = agent.actions
    assert card["args"]["result"] == comment and card["args"]["isOK"] == answer.startswith("同意")


@pytest.mark.parametrize(("said", "place", "question"), [  # written after the rule; none from a scenario
    ("下周一去上海见客户，第二天回来，李四审批", "上海", "请问返回日期是哪一天？"),
    ("Off to Shanghai to see a client next Monday, back the day after, Li Si approves", "Shanghai",
     "What is the end date?"),
])
def test_a_trip_whose_return_is_said_as_the_day_after_is_asked_not_filed_as_one_day(graph_driver, store, said,
                                                                                   place, question):
    # "the next day" is no date this package reads: the one date said is the first day, not both
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "李四",
                                     "fields": {"destination": place, "startDate": "2027-01-18",
                                                "endDate": "2027-01-18"}})
    agent = graph_driver(trip, "已提交。")
    assert final(agent.say(said)).content.startswith(question)
    assert agent.actions == [] and store.snapshot()["requests"] == []


def test_a_claims_amount_the_model_put_in_days_is_read_from_the_persons_words(graph_driver, store):
    # written after the twelfth round (the model filed "twelve hundred yuan" as 1200 days, refused as over a year)
    claim = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "lunch with the distributor",
                                      "days": 1200, "nextUserId": "Wang Wu"})
    agent = graph_driver(claim, "Filed.")
    agent.say("lunch with the distributor came to one thousand two hundred yuan, claim it please, Wang Wu approves")
    [action] = agent.actions
    assert action["args"]["fields"]["amount"] == 1200 and "1200" not in str(action["card"].get("days", ""))
    agent.approve()
    [request] = store.snapshot()["requests"]
    assert request["days"] is None and '"amount": 1200' in request["form"]


@pytest.mark.parametrize(("question", "read"), [  # written after the rule (the twelfth and fourteenth rounds' finance
    # questions); none from them
    ("Who else signs off on a large expense claim, apart from my manager?", "getAllUser"),
    ("大额的报销除了审批人还有谁要批？", "getAllUser"),
    ("How much does a claim need to be over before finance approves it as well?", "queryMyRequests"),
    ("报销超过多少钱要财务审批？", "queryTodoTask"),
])
def test_who_decides_a_kind_of_request_is_answered_from_its_steps_not_the_directory(graph_driver, question, read):
    agent = graph_driver(tool_call(read, id="c1"), tool_call("getAllWorkFlow", id="c2"), "x", fixed_answers=True)
    result = agent.say(question)
    answer = final(result).content
    assert ("财务审批" in answer or "Finance's decision" in answer) and "user_2" not in answer


@pytest.mark.parametrize(("question", "only"), [  # written after the rule (the sixteenth round, read); none from it
    ("Does a business trip need anyone besides my approver to sign it?", "Approver's decision only"),
    ("出差申请除了审批人还要谁批吗？", "仅审批人审批一步"),
])
def test_a_process_of_one_step_is_said_to_have_only_that_one(graph_driver, question, only):
    agent = graph_driver(tool_call("getAllWorkFlow", id="c1"), "x", fixed_answers=True)
    answer = final(agent.say(question)).content
    assert only in answer


@pytest.mark.parametrize(("question", "asks"), [  # written after the rule (the seventeenth round, read); none from it
    ("If I put in a claim for about 8k, does someone other than my approver have to sign off on it too?", True),
    ("请假超过几天要人事审批？", True),
    ("报销除了审批人还得谁批吗？", True),
    ("How big can a claim get before finance has to look at it?", True),
    ("Approve Wang Wu's leave as well", False),
    ("我的报销到哪了？", False),
])
def test_a_rule_question_asks_for_the_processes(question, asks):
    spec = TOOLSET.registry.get("getAllWorkFlow")
    assert any(re.search(p, question, re.IGNORECASE) for p in spec.answers) is asks


def test_an_answer_to_a_rule_question_made_without_the_processes_is_sent_back_for_them(graph_driver):
    agent = graph_driver(tool_call("decideTasks", {"isOK": True, "processKey": "process_baoxiao"}, id="c1"),
                         "Only your approver signs off.", tool_call("getAllWorkFlow", id="c2"),
                         "Over 5000 yuan, finance signs off too.")
    answer = final(agent.say("If I put in a claim for about 8k, does someone other than my approver have to sign "
                             "off on it too?")).content
    assert "finance" in answer.lower()


@pytest.mark.parametrize(("said", "comment"), [  # written after the rule (the twenty-first round's writer)
    ("张三的假批了，意见写：路上注意安全。另外我还有别的待办吗？", "路上注意安全"),
    ("Approve Zhang San's leave, comment: enjoy the break. Also, I'll look at Wang Wu's claim tomorrow.",
     "enjoy the break"),
    ("Approve Zhang San's leave, comment: cover is arranged. He owes us the report on return.",
     "cover is arranged. He owes us the report on return"),
])
def test_a_dictated_comment_ends_where_another_matter_begins(graph_driver, store, start_request, said, comment):
    start_request(requester="user_1", approver="user_2", days=3, reason="回老家")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "张三", "isOK": True}), user_id="user_2")
    agent.say(said)
    [card] = agent.actions
    assert card["args"]["result"] == comment


@pytest.mark.parametrize(("said", "why"), [  # the forty-second round, read after its run; none of these is from it
    ("Book me a trip to Wuhan next Mon to Wed for the audit, put me down as the approver", "cannot be your own approver"),
    ("报销打车费86元，审批人填我自己就行", "审批人不能是你自己"),
    ("2 days annual leave next week, I'll just approve it myself", "cannot be your own approver"),
])
def test_a_person_who_makes_themselves_the_approver_is_told_why_and_asked_who(graph_driver, store, said, why):
    call = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "audit", "nextUserId": "user_1",
                                     "fields": {"destination": "Wuhan"}})
    question = final(graph_driver(call, fixed_answers=True).say(said)).content
    assert why in question and ("Who should approve it?" in question or "请问谁来审批" in question), question
    assert store.snapshot()["requests"] == []
