"""The person understood: values read with parsers made for them, plain requests never refused as not asked for, the
recipient checked like the approver, and what cannot be done said before anything is asked.

Each test is one failure seen on conversations nobody tuned for (issue "The person understood once"), replayed with a
scripted model that proposes exactly what a good model would, or what a small one did.
"""

from __future__ import annotations

from langchain_core.messages import ToolMessage

from evals.doubles.scripted import tool_call

LEAVE = {"processKey": "process_qingjia"}


def refusals(result) -> list[str]:
    return [str(m.content) for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "error"]


def test_an_article_is_no_number_of_days(graph_driver, store):
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "reason": "an operation", "days": 1, "nextUserId": "Li Si"}))
    result = agent.say("I had an operation and need some time off to recover. Li Si approves.")
    assert result["messages"][-1].content == "How many days of leave do you need?"
    assert store.snapshot()["requests"] == []


def test_a_range_of_weekdays_is_its_working_days(graph_driver, store):
    # Today is 2027-01-15, a Friday: 下周三到周五 is 2027-01-20..22, three working days.
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "reason": "回老家", "days": 3, "nextUserId": "李四"}), "已提交。")
    agent.say("下周三到周五回老家，李四审批")
    assert agent.card["days"] == 3
    agent.approve()
    assert [(r["days"], r["reason"]) for r in store.snapshot()["requests"]] == [(3, "回老家")]


def test_a_numeral_in_a_name_is_no_day_count(graph_driver, store):
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "reason": "考科目二", "days": 2, "nextUserId": "李四"}))
    result = agent.say("我要去考科目二，李四审批")
    assert result["messages"][-1].content == "请问要请几天假？"
    assert store.snapshot()["requests"] == []


def test_a_leave_request_in_other_words_is_filed(graph_driver, store):
    agent = graph_driver("好的，要我帮你提交吗？",
                         tool_call("runWorkFlow", {**LEAVE, "reason": "回老家", "days": 3, "nextUserId": "李四"}), "已提交。")
    agent.say("下周一到周三我要回老家，李四审批")
    result = agent.say("帮我把这几天的假请了")
    assert refusals(result) == []
    assert (agent.card["days"], agent.card["reason"]) == (3, "回老家")
    agent.approve()
    assert [(r["days"], r["reason"]) for r in store.snapshot()["requests"]] == [(3, "回老家")]


def test_decisions_in_other_words_reach_their_card(graph_driver, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="家里有事")
    start_request(requester="user_3", approver="user_2", days=1, reason="moving house")
    for said, args, decision in [
        ("你帮我拒了吧，张三那个", {"taskId": "张三", "isOK": False}, False),
        ("sign off on Wang Wu's request", {"taskId": "Wang Wu", "isOK": True}, True),
        ("turn down Zhang San's day off", {"taskId": "Zhang San", "isOK": False}, False),
    ]:
        agent = graph_driver(tool_call("handleTodoTask", args), user_id="user_2", thread_id=said)
        result = agent.say(said)
        assert refusals(result) == [], said
        [card] = agent.actions
        assert card["args"]["isOK"] is decision, said


def test_a_reminder_in_other_words_reaches_its_card(graph_driver, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="家里有事")
    text = "please look at my leave request today, thanks"
    agent = graph_driver(tool_call("sendEmail", {"taskId": "task_1", "emailContent": text}))
    result = agent.say(f"Chase Li Si about my leave, the text is: {text}")
    assert refusals(result) == []
    [card] = agent.actions
    assert card["card"]["recipient"] == "Li Si (user_2)" and card["card"]["text"] == text


def test_the_recipient_is_the_person_named_as_the_approver_is(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="家里有事")
    text = "请尽快审批我的请假，谢谢"
    # The person names 李四 and the model addresses the e-mail to the requester himself: the one named wins.
    agent = graph_driver(tool_call("sendEmail", {"userId": "user_1", "emailContent": text}))
    agent.say(f"给李四发邮件，内容：{text}")
    [card] = agent.actions
    assert card["card"]["recipient"] == "李四 (user_2)"
    assert "[person_stated] userId: the user named user_2, not 'user_1'" in card["card"]["policy_notes"]
    # A reminder by task goes to the task's assignee: the person named someone else, so they are asked.
    agent = graph_driver(tool_call("sendEmail", {"taskId": "task_1", "emailContent": text}), thread_id="t2")
    result = agent.say(f"提醒一下王五审批我的请假，内容：{text}")
    assert refusals(result)[0].startswith("Error [recipient_not_named]")
    assert agent.interrupts == [] and store.snapshot()["emails"] == []


def test_what_cannot_be_done_is_said_before_any_question(graph_driver, store):
    # A process nobody deployed, with the reason and the approver missing: the unknown process is what is said.
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_huiyishi", "days": 1}),
                         "There is no meeting-room process.")
    result = agent.say("I want to book the meeting room for a day")
    assert [r.split("]")[0] for r in refusals(result)] == ["Error [unknown_process"]
    assert result["messages"][-1].content == "There is no meeting-room process."  # no question of the graph's
    assert agent.interrupts == [] and store.snapshot()["requests"] == []


def test_an_approver_the_person_named_but_the_model_left_out_is_filled_in(graph_driver, store):
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "reason": "搬家", "days": 2}), "已提交。")
    agent.say("后天起请2天假搬家，王五审批")
    assert agent.card["approver"] == "王五 (user_3)"
    agent.approve()
    assert [t["assignee_id"] for t in store.snapshot()["tasks"]] == ["user_3"]



def test_the_requester_as_approver_is_asked_with_names_in_the_persons_language(graph_driver, store):
    # The model names the requester himself as approver: the question offers the others, as the person writes names.
    leave = {**LEAVE, "userId": "user_1", "reason": "moving house", "days": 1, "nextUserId": "user_1"}
    agent = graph_driver(tool_call("runWorkFlow", leave))
    result = agent.say("I need a day off tomorrow for moving house")
    assert result["messages"][-1].content == "Who should approve it? You can choose: Li Si, Wang Wu, Zhao Liu, Administrator."
    agent = graph_driver(tool_call("runWorkFlow", {**leave, "reason": "搬家"}), thread_id="zh")
    result = agent.say("明天请一天假搬家")
    assert result["messages"][-1].content == "请问谁来审批？可选：李四、王五、赵六、管理员。"
    assert store.snapshot()["requests"] == []


def test_a_question_put_to_one_user_is_never_answered_by_another(graph_driver, store):
    # 王五 is asked for his reason; 李四, next in the same thread, speaks of deciding: nothing of 王五's is filled in.
    leave = {**LEAVE, "reason": "请假", "days": 0.5, "nextUserId": "李四"}  # userId left out: the actor
    agent = graph_driver(tool_call("runWorkFlow", leave), "你没有待办。", user_id="user_3")
    result = agent.say("周四下午请半天假，李四审批")
    assert result["messages"][-1].content == "请问请假的原因是什么？"
    result = agent.say("王五的半天假没问题，批了吧", user_id="user_2")
    assert not any(m.tool_calls for m in result["messages"][-1:] if m.type == "ai")
    assert store.snapshot()["requests"] == [] and agent.interrupts == []


def test_a_number_another_user_said_is_not_the_persons(graph_driver, store):
    # 王五 said "half a day" and was asked his reason; 李四's own request names no days: 王五's 0.5 is not his.
    asked = {**LEAVE, "reason": "请假", "days": 0.5, "nextUserId": "李四"}
    guess = {**LEAVE, "reason": "搬家", "days": 0.5, "nextUserId": "王五"}
    agent = graph_driver(tool_call("runWorkFlow", asked), tool_call("runWorkFlow", guess), user_id="user_3")
    agent.say("周四下午请半天假，李四审批")
    result = agent.say("我也要请假搬家，王五审批", user_id="user_2")
    assert refusals(result)[-1].startswith("Error [days_not_given]")
    assert store.snapshot()["requests"] == []
