"""One test per contract of the graph (DESIGN.md): validator checks, protocols, budgets, human review, audit.

Every test drives the real graph (scripted model, real store, real SQLite checkpointer) and asserts the
observation the model is shown, the store, or the interrupt the person sees.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from sqlalchemy import select

from evals.doubles.scripted import tool_call
from graph import prompts
from tools.workflow import REGISTRY
from tools.workflow.store import audit_log

MAIL = "李四你好，我的请假申请还在等你审批，麻烦尽快处理，谢谢！"
LEAVE = {"processKey": "process_qingjia", "userId": "user_1", "reason": "看牙医", "days": 1, "nextUserId": "user_2"}


def observations(result: dict[str, Any]) -> list[ToolMessage]:
    return [m for m in result["messages"] if isinstance(m, ToolMessage)]


def only_observation(result: dict[str, Any]) -> ToolMessage:
    [observation] = observations(result)
    return observation


def final(result: dict[str, Any]) -> AIMessage:
    last = result["messages"][-1]
    assert isinstance(last, AIMessage) and not last.tool_calls, last
    return last


def written(store) -> dict[str, list[dict[str, Any]]]:
    """The tables a write could change."""
    snap = store.snapshot()
    return {t: snap[t] for t in ("requests", "tasks", "emails", "tool_executions")}


# ---------------------------------------------------------------- tool_validator


def test_validator_rejects_unknown_tool_naming_available_tools(graph_driver):
    agent = graph_driver(tool_call("deleteAllUsers", id="c1"), "好的")
    result = agent.say("删掉所有用户")
    observation = only_observation(result)
    assert observation.status == "error"
    # the seed's six first, then the toolset's others (the requester's, the leave balance, …)
    assert observation.content == (
        "Error [unknown_tool]: deleteAllUsers is not a valid tool; use one of: getAllWorkFlow, getAllUser, "
        f"runWorkFlow, queryTodoTask, handleTodoTask, sendEmail, {', '.join(REGISTRY.names[6:])}."
    )


def test_validator_turns_invalid_json_arguments_into_an_error_observation(graph_driver, store):
    broken = AIMessage(
        content="",
        invalid_tool_calls=[
            {
                "type": "invalid_tool_call",
                "name": "queryTodoTask",
                "args": '{"userId": "user_2"',
                "id": "c-broken",
                "error": "Expecting ',' delimiter",
            }
        ],
    )
    agent = graph_driver(broken, "好的")
    result = agent.say("李四有哪些待办？")
    observation = only_observation(result)
    assert (observation.tool_call_id, observation.status) == ("c-broken", "error")
    assert observation.content == (
        "Error: the arguments of queryTodoTask are not valid JSON (Expecting ',' delimiter). "
        "Call queryTodoTask again with a JSON object."
    )
    assert written(store)["tool_executions"] == []


def test_validator_asks_for_missing_required_parameter(graph_driver, store):
    args = {k: v for k, v in LEAVE.items() if k != "processKey"}
    agent = graph_driver(tool_call("runWorkFlow", args, id="c1"), "请告诉我流程。")
    result = agent.say("请1天假看牙医，李四审批")
    assert only_observation(result).content == (
        "Error: runWorkFlow needs processKey. Do not guess: ask the user for processKey in your answer, "
        "then call runWorkFlow again."
    )
    assert written(store)["requests"] == []


def test_a_missing_approver_is_asked_by_the_graph_not_left_to_the_model(graph_driver, store):
    args = {k: v for k, v in LEAVE.items() if k != "nextUserId"}
    agent = graph_driver(tool_call("runWorkFlow", args, id="c1"))  # the model would never ask: it has no reply
    result = agent.say("请1天假看牙医")
    assert only_observation(result).content == "Error [missing_approver]: nextUserId is missing; the user is asked"
    answer = final(result)
    assert answer.content == "请问谁来审批？可选：李四、王五、赵六、管理员。"
    assert answer.response_metadata["asked"] is True
    assert len(agent.model.prompts) == 1  # the question cost no model call
    assert written(store)["requests"] == []


@pytest.mark.parametrize(
    ("user_id", "tool", "args", "expected"),
    [
        (
            "user_1",
            "queryTodoTask",
            {"userId": "user_99"},
            "Error [unknown_user]: userId user_99 does not exist; call getAllUser",
        ),
        (
            "user_2",
            "handleTodoTask",
            {"taskId": "task_42", "result": "同意", "isOK": True},
            "Error [unknown_task]: taskId task_42 does not exist; call queryTodoTask to list tasks",
        ),
        (
            "user_1",
            "runWorkFlow",
            {**LEAVE, "processKey": "process_fake"},
            "Error [unknown_process]: processKey process_fake does not exist; call getAllWorkFlow",
        ),
    ],
    ids=["user", "task", "process"],
)
def test_validator_refuses_made_up_ids(graph_driver, store, user_id, tool, args, expected):
    agent = graph_driver(tool_call(tool, args, id="c1"), "好的", user_id=user_id)
    result = agent.say("做吧：发起申请，1天，看牙医，李四审批，批了")  # asks for each of these tools, naming no process
    assert only_observation(result).content == expected
    assert agent.interrupts == []
    assert written(store) == {"requests": [], "tasks": [], "emails": [], "tool_executions": []}


def test_validator_refuses_identity_parameter_that_is_not_the_actor(graph_driver, store):
    # the model puts another user in; the words ask for the person's own leave ("帮王五请…" is refused before, as
    # for_another: tests/unit/test_for_another.py)
    agent = graph_driver(tool_call("runWorkFlow", {**LEAVE, "userId": "user_3"}, id="c1"), "好的")
    result = agent.say("王五说我可以请1天假，李四审批")
    assert only_observation(result).content == (
        "Error [not_actor]: userId must be the session user user_1, not user_3; "
        "you act only for the signed-in user, whatever the conversation claims"
    )
    assert written(store)["requests"] == []


def test_validator_answers_a_repeated_call_with_its_earlier_result(graph_driver):
    agent = graph_driver(tool_call("getAllUser", id="c1"), tool_call("getAllUser", id="c2"), "共有5位用户")
    result = agent.say("有哪些用户？")
    first, repeat = observations(result)
    assert first.status == "success" and repeat.status == "success"  # a repeated look-up is not a failure
    assert repeat.content == (
        f"{first.content}\n(Same result as before: getAllUser was already called. Answer from it now.)"
    )
    assert agent.values["budget"]["consecutive_failures"] == 0
    assert agent.values["budget"]["tool_calls"] == {"getAllUser": 1}


def test_a_call_repeated_in_a_later_run_runs_again(graph_driver):
    """Repeats are caught within a run: the person's next message may ask for the same look-up afresh."""
    agent = graph_driver(tool_call("getAllUser", id="c1"), "共有5位用户", tool_call("getAllUser", id="c2"), "还是5位")
    agent.say("有哪些用户？")
    result = agent.say("再查一次用户")
    assert [m.status for m in observations(result)] == ["success", "success"]  # both turns ran it
    assert agent.values["budget"]["tool_calls"] == {"getAllUser": 1}


def test_validator_refuses_a_second_write_in_the_same_step(graph_driver, store):
    both = AIMessage(
        content="",
        tool_calls=[
            {"type": "tool_call", "name": "runWorkFlow", "args": LEAVE, "id": "c-start"},
            {"type": "tool_call", "name": "sendEmail", "args": {"userId": "user_2", "emailContent": MAIL}, "id": "c-mail"},
        ],
    )
    agent = graph_driver(both, "已提交；邮件稍后再发。")
    agent.say(f"请1天假看牙医，李四审批，再发邮件提醒他：{MAIL}")
    [action] = agent.actions  # only the first write reaches a person: the requester's start card
    assert (action["name"], action["tool_call_id"], action["card"]["title"]) == ("runWorkFlow", "c-start", "发起申请")
    assert written(store)["requests"] == []
    result = agent.approve()
    by_id = {m.tool_call_id: m for m in observations(result)}
    assert by_id["c-start"].status == "success"
    assert by_id["c-mail"].status == "error"
    assert by_id["c-mail"].content == (
        "Error: only one write action per step. runWorkFlow was proposed first; "
        "propose sendEmail again after its result."
    )
    assert agent.interrupts == []
    assert len(written(store)["requests"]) == 1 and written(store)["emails"] == []


# ---------------------------------------------------------------- protocols


@pytest.mark.parametrize(
    ("protocol", "garbage", "problem"),
    [
        (
            "react",
            'Thought: 查一下\nAction: queryTodoTask\nAction Input: {"userId": "user_2',  # the string is not closed either
            "Action Input of queryTodoTask: the JSON object is not closed",
        ),
        ("json", '{"thought": "查一下", "action_input": {"userId": "user_2"}}', 'the object has neither "action" nor "final"'),
    ],
)
def test_unparseable_output_becomes_a_format_correction_observation(graph_driver, protocol, garbage, problem):
    fixed = 'Final Answer: 李四有1个待办' if protocol == "react" else '{"thought": "", "final": "李四有1个待办"}'
    agent = graph_driver(garbage, fixed, protocol=protocol)
    result = agent.say("查一下李四的待办。")
    correction = only_observation(result)
    assert correction.status == "error"
    assert correction.content.startswith(f"Error: Your last reply could not be parsed ({problem}).")
    assert final(result).content == "李四有1个待办"
    # The model read the correction as an Observation in its own text format.
    assert agent.model.prompts[1][-1].content == "\n".join(
        [
            prompts.OBSERVATION_PREFIX + correction.content,
            prompts.NEXT_STEP_NUDGE[protocol]["zh"].format(question="查一下李四的待办。"),
        ]
    )
    assert agent.values["budget"]["model_calls"] == 2


@pytest.mark.parametrize("protocol", ["react", "json"])
def test_unparseable_output_counts_against_the_model_call_budget(graph_driver, protocol):
    agent = graph_driver("Action: getAllUser\nAction Input: {oops", "还不能回答。", protocol=protocol, max_model_calls=1)
    result = agent.say("有哪些用户？")
    assert final(result).response_metadata["wrap_up"]["code"] == "model_calls"
    assert [m.name for m in observations(result)] == ["format_error"]


GOOD_REPLIES = {
    "native": tool_call("queryTodoTask", {"userId": "user_2"}, id="c1", thought="看看李四的待办"),
    "react": 'Thought: 看看李四的待办\nAction: queryTodoTask\nAction Input: {"userId": "user_2"}',
    "json": '```json\n{"thought": "看看李四的待办", "action": "queryTodoTask", "action_input": {"userId": "user_2"}}\n```',
}
FINAL_REPLIES = {
    "native": "李四没有待办",
    "react": "Thought: 看到了\nFinal Answer: 李四没有待办",
    "json": '{"thought": "看到了", "final": "李四没有待办"}',
}


@pytest.mark.parametrize("protocol", ["react", "json"])
def test_text_protocols_parse_into_the_same_tool_calls_as_native(graph_driver, protocol):
    def run(p: str) -> tuple[AIMessage, ToolMessage, AIMessage]:
        agent = graph_driver(GOOD_REPLIES[p], FINAL_REPLIES[p], protocol=p, thread_id=f"t-{p}")
        result = agent.say("李四有哪些待办？")
        proposal, observation, answer = result["messages"][1:]
        return proposal, observation, answer

    native_call, native_obs, native_final = run("native")
    text_call, text_obs, text_final = run(protocol)
    assert [(c["name"], c["args"]) for c in text_call.tool_calls] == [
        (c["name"], c["args"]) for c in native_call.tool_calls
    ]
    assert text_call.content == native_call.content == "看看李四的待办"
    assert (text_obs.status, text_obs.content) == (native_obs.status, native_obs.content)
    assert text_final.content == native_final.content


# ---------------------------------------------------------------- budgets


def test_step_budget_exhausted_ends_with_a_written_wrap_up(graph_driver, store):
    agent = graph_driver(
        tool_call("getAllWorkFlow", id="c1"),
        tool_call("getAllUser", id="c2"),
        tool_call("runWorkFlow", LEAVE, id="c3"),  # offered at wrap-up: must not run
        max_model_calls=2,
    )
    result = agent.say("请1天假")
    answer = final(result)
    assert answer.response_metadata["wrap_up"] == {
        "code": "model_calls", "text": "the model-call budget of this run (2) is used up", "values": {"limit": 2}
    }
    # The model ignored "no tools" and proposed a write: the fixed answer replaces it, nothing runs.
    assert answer.content == (
        "我查到的结果：\n流程：报销流程（process_baoxiao，填写：报销金额、报销类别、报销事由；"
        "审批：审批人审批 → 财务审批（同意且超过 5000 元））、出差流程（process_chuchai，填写：出差地点、出发日期、"
        "返回日期、出差事由；审批：仅审批人审批一步）、请假流程（process_qingjia，填写：请假天数、请假类型、请假原因；可选：开始日期、开始时段、"
        "结束日期、结束时段；审批：审批人审批 → 人事审批（同意且超过 3 天））"
        "\n用户：张三（user_1）、李四（user_2）、王五（user_3）、赵六（user_4）、管理员（user_admin）"
        "\n（已停止：本次的模型调用次数（2）已用完）"
    )
    assert [m.name for m in observations(result)] == ["getAllWorkFlow", "getAllUser"]
    assert written(store)["requests"] == [] and written(store)["tool_executions"] == []
    assert agent.script_used_up


def test_token_budget_exhausted_ends_with_a_written_wrap_up(graph_driver):
    agent = graph_driver(tool_call("getAllUser", id="c1"), "目前查到了用户列表，还需要你告诉我审批人。", max_tokens=50)
    result = agent.say("有哪些用户？")
    answer = final(result)
    assert answer.response_metadata["wrap_up"] == {
        "code": "tokens", "text": "the token budget of this run (50) is used up", "values": {"limit": 50}
    }
    assert answer.content == "目前查到了用户列表，还需要你告诉我审批人。"
    assert "Do not call any tool" in agent.model.prompts[-1][-1].content


def test_time_budget_exhausted_ends_with_a_written_wrap_up(graph_driver):
    def slow_lookup(messages: list[BaseMessage]) -> AIMessage:
        agent.clock.advance(0.15)  # the model takes longer than the run may
        return tool_call("getAllUser", id="c1")

    agent = graph_driver(slow_lookup, "时间到了：用户列表已查到。", max_seconds=0.1)
    result = agent.say("有哪些用户？")
    assert final(result).response_metadata["wrap_up"] == {
        "code": "seconds", "text": "the time budget of this run (0.1 s) is used up", "values": {"limit": 0.1}
    }
    assert final(result).content == "时间到了：用户列表已查到。"
    assert agent.script_used_up


def test_three_failures_in_a_row_make_the_agent_ask_the_person(graph_driver):
    agent = graph_driver(
        tool_call("queryTodoTask", {"userId": "user_97"}, id="c1"),
        tool_call("queryTodoTask", {"userId": "user_98"}, id="c2"),
        tool_call("queryTodoTask", {"userId": "user_99"}, id="c3"),
        "我找不到这个人，请告诉我他的全名或userId。",
    )
    result = agent.say("老王有哪些待办？")
    assert [m.status for m in observations(result)] == ["error", "error", "error"]
    answer = final(result)
    assert answer.response_metadata["wrap_up"] == {
        "code": "consecutive_failures", "text": "3 steps in a row failed", "values": {"limit": 3}
    }
    assert answer.content == "我找不到这个人，请告诉我他的全名或userId。"
    assert agent.model.prompts[-1][-1].content.endswith(prompts.WRAP_UP_ASK_FOR_HELP)


# ---------------------------------------------------------------- human review


def mail_agent(graph_driver, *after: Any, **context: Any):
    """An agent that proposes one reminder e-mail to 李四 (then the given replies) and is waiting for review."""
    agent = graph_driver(tool_call("sendEmail", {"userId": "user_2", "emailContent": MAIL}, id="c-mail"), *after, **context)
    agent.say(f"给李四发邮件：{MAIL}")
    return agent


def edit_mail(args: dict[str, Any]) -> dict[str, Any]:
    return {"decisions": [{"type": "edit", "edited_action": {"name": "sendEmail", "args": args}}]}


def test_interrupt_value_is_langchains_hitl_request_with_the_card_riding_along(graph_driver):
    agent = mail_agent(graph_driver)
    [value] = agent.interrupts
    assert set(value) == {"action_requests", "review_configs"}
    assert value["review_configs"] == [{"action_name": "sendEmail", "allowed_decisions": ["approve", "edit", "reject"]}]
    [action] = value["action_requests"]
    assert set(action) == {"name", "args", "description", "tool_call_id", "args_hash", "card"}
    assert (action["name"], action["tool_call_id"]) == ("sendEmail", "c-mail")
    assert action["args"] == {"userId": "user_2", "emailContent": MAIL}
    assert action["card"]["recipient"] == "李四 (user_2)"
    assert action["description"].splitlines()[0] == action["card"]["summary"] == "发邮件给 李四 <lisi@example.com>"
    assert action["card"]["labels"] == {"recipient": "收件人", "recipient_email": "邮箱", "text": "邮件正文"}
    assert action["description"] == (
        f"发邮件给 李四 <lisi@example.com>\n收件人: 李四 (user_2)\n邮箱: lisi@example.com\n邮件正文: {MAIL}"
    )


def test_flowagents_earlier_decision_shape_is_still_accepted(graph_driver, store):
    agent = mail_agent(graph_driver, "已发送")
    agent.resume({"decision": "approve"})
    assert agent.interrupts == []
    assert len(written(store)["emails"]) == 1


def test_an_edit_that_changes_the_action_is_refused_and_the_card_asked_again(graph_driver, store):
    agent = mail_agent(graph_driver, "已发送")
    agent.resume({"decisions": [{"type": "edit", "edited_action": {"name": "handleTodoTask", "args": {}}}]})
    [again] = agent.interrupts
    assert again["error"] == (
        "An edit may change the arguments of sendEmail, not the action: edited_action.name must be sendEmail."
    )
    agent.resume({"decisions": [{"type": "approve"}, {"type": "approve"}]})
    [again] = agent.interrupts
    assert again["error"] == "2 decisions were sent for 1 action(s): send one decision per action request."
    assert written(store)["emails"] == []


def test_resume_with_a_mismatching_args_hash_asks_again(graph_driver, store):
    agent = mail_agent(graph_driver, "已发送")
    [value] = agent.actions
    agent.resume({"decisions": [{"type": "approve", "args_hash": "0" * 64}]})
    [again] = agent.interrupts
    assert again["error"] == "args_hash does not match the card shown; decide on the current card."
    assert again["action_requests"][0]["args_hash"] == value["args_hash"]
    assert written(store)["emails"] == []
    agent.resume({"decisions": [{"type": "approve", "args_hash": value["args_hash"]}]})
    assert agent.interrupts == []
    assert len(written(store)["emails"]) == 1


def test_approve_runs_exactly_the_reviewed_call(graph_driver, store):
    agent = mail_agent(graph_driver, "已发送")
    result = agent.resume({"decisions": [{"type": "approve"}]})
    assert [(r["recipient_id"], r["body"]) for r in written(store)["emails"]] == [("user_2", MAIL)]
    assert only_observation(result).status == "success"
    assert final(result).content == "已发送"


def test_edit_to_an_invalid_value_is_refused_by_the_validator(graph_driver, store):
    agent = mail_agent(graph_driver, "好的，请告诉我邮件内容。")
    result = agent.resume(edit_mail({"userId": "user_2", "emailContent": "TBD"}))
    observation = only_observation(result)
    assert observation.status == "error"
    assert observation.content.startswith("Error [invalid_arguments]: Invalid arguments for sendEmail: emailContent:")
    assert agent.interrupts == []
    assert written(store)["emails"] == []


def test_valid_edit_executes_the_edited_arguments(graph_driver, store):
    edited = "李四你好，请今天下班前审批我的请假，谢谢！"
    agent = mail_agent(graph_driver, "已按你修改的内容发送。")
    agent.resume(edit_mail({"userId": "user_2", "emailContent": edited}))
    assert agent.interrupts == []
    assert [r["body"] for r in written(store)["emails"]] == [edited]


def test_edit_keeps_the_other_cleared_calls_of_the_same_step(graph_driver, store):
    step = AIMessage(
        content="",
        tool_calls=[
            {"type": "tool_call", "name": "getAllUser", "args": {}, "id": "c-users"},
            {"type": "tool_call", "name": "sendEmail", "args": {"userId": "user_2", "emailContent": MAIL}, "id": "c-mail"},
        ],
    )
    agent = graph_driver(step, "已发送")
    agent.say(f"查一下用户，再给李四发邮件：{MAIL}")
    result = agent.resume(edit_mail({"userId": "user_2", "emailContent": MAIL + "（急）"}))
    # Every proposed call is answered by exactly one observation, as function-calling APIs require.
    assert sorted((m.tool_call_id, m.status) for m in observations(result)) == [
        ("c-mail", "success"),
        ("c-users", "success"),
    ]
    assert [r["body"] for r in written(store)["emails"]] == [MAIL + "（急）"]


def test_reject_makes_the_message_the_observation_and_writes_nothing(graph_driver, store):
    agent = mail_agent(graph_driver, "好的，不发了。")
    result = agent.resume({"decisions": [{"type": "reject", "message": "先别发，我当面说。"}]})
    observation = only_observation(result)
    assert observation.status == "error"
    assert observation.content == "Rejected by the reviewer (user_1): 先别发，我当面说。 Do not retry this action; tell the user."
    assert written(store) == {"requests": [], "tasks": [], "emails": [], "tool_executions": []}
    assert agent.values["budget"]["consecutive_failures"] == 0  # a person's decision is not the agent failing


def test_card_shows_the_store_even_when_the_model_lies(graph_driver, start_request):
    start_request(requester="user_1", approver="user_2", days=10, reason="肚子疼")
    lie = tool_call(
        "handleTodoTask",
        {"taskId": "task_1", "result": "同意", "isOK": True},
        id="c-approve",
        thought="张三只请1天假，理由是家里有事，直接批了吧。",
    )
    agent = graph_driver(lie, user_id="user_2")
    agent.say("批一下张三的假，意见：同意")  # a 10-day request needs the approver's own comment
    [value] = agent.actions
    card = value["card"]
    assert card["days"] == 10
    assert card["reason"] == "肚子疼"
    assert card["requester"] == "张三 (user_1)"
    assert card["summary"] == "批准张三的 10 天申请 req_1"  # in the reviewer's language
    assert card["flagged"] is True


def test_audit_trail_is_kept_in_state_and_in_the_store(graph_driver, store):
    again = tool_call("sendEmail", {"userId": "user_2", "emailContent": MAIL + "！"}, id="c-2")
    agent = mail_agent(graph_driver, "已发送", again, "不发了")
    first_hash = agent.actions[0]["args_hash"]
    agent.resume({"decisions": [{"type": "approve"}]})
    agent.say(f"再发一封：{MAIL}！")
    second_hash = agent.actions[0]["args_hash"]
    agent.resume({"decisions": [{"type": "reject", "message": "够了"}]})

    trail = [(r["reviewer"], r["tool"], r["tool_call_id"], r["args_hash"], r["decision"]) for r in agent.values["audit"]]
    assert trail == [
        ("user_1", "sendEmail", "c-mail", first_hash, "approve"),
        ("user_1", "sendEmail", "c-2", second_hash, "reject"),
    ]
    assert agent.values["audit"][1]["detail"] == {"message": "够了"}
    with store.read() as conn:
        query = select(audit_log.c.event, audit_log.c.actor_id, audit_log.c.thread_id).order_by(audit_log.c.id)
        events = conn.execute(query).all()
    assert [tuple(e) for e in events] == [
        ("review_approve", "user_1", "t1"),
        ("tool_executed", "user_1", "t1"),
        ("review_reject", "user_1", "t1"),
    ]


def test_approval_wait_is_not_charged_to_the_time_budget(graph_driver, store):
    agent = mail_agent(graph_driver, "已发送", max_seconds=1.5)
    agent.clock.advance(1.6)  # the person takes longer than the whole run may
    result = agent.resume({"decisions": [{"type": "approve"}]})
    assert "wrap_up" not in final(result).response_metadata
    assert agent.values["budget"]["waited_s"] == pytest.approx(1.6)
    assert final(result).content == "已发送"


def test_tool_call_ids_reused_by_the_model_do_not_replay_an_earlier_write(graph_driver, store):
    agent = graph_driver(
        tool_call("sendEmail", {"userId": "user_2", "emailContent": MAIL}, id="call_0"),
        "已发送",
        tool_call("sendEmail", {"userId": "user_3", "emailContent": "王五你好，明天的会改到下午三点。"}, id="call_0"),
        "已发送",
    )
    agent.say(f"给李四发邮件：{MAIL}")
    agent.resume({"decisions": [{"type": "approve"}]})
    agent.say("再发邮件告诉王五：明天的会改到下午三点")
    agent.resume({"decisions": [{"type": "approve"}]})
    assert [r["recipient_id"] for r in written(store)["emails"]] == ["user_2", "user_3"]


def test_model_never_picks_the_approver_the_person_did_not_name(graph_driver, store):
    # The seed's model chose 李四 on its own; here the approver must appear in the person's own words.
    agent = graph_driver(tool_call("runWorkFlow", LEAVE, id="c1"), "请问谁来审批？")
    result = agent.say("明天看牙医，请1天假")
    [refusal] = observations(result)
    assert refusal.status == "error"
    assert refusal.content.startswith("Error [approver_not_named]: nextUserId user_2 (李四) was not named by the user")
    assert written(store)["requests"] == []
    assert final(result).content == "请问谁来审批？可选：李四、王五、赵六、管理员。"


@pytest.mark.parametrize("answer", ["李四吧", "Li Si approves", "user_2"])
def test_approver_named_by_name_alias_or_id_in_a_later_turn_is_accepted(graph_driver, store, answer):
    agent = graph_driver("请问谁来审批？", tool_call("runWorkFlow", LEAVE, id="c1"), "已提交。")
    agent.say("明天看牙医，请1天假")
    agent.say(answer)
    assert agent.card["approver"] == "李四 (user_2)" and written(store)["requests"] == []
    result = agent.approve()
    assert observations(result)[-1].status == "success"
    assert [(r["requester_id"], r["reason"]) for r in written(store)["requests"]] == [("user_1", "看牙医")]
    assert [t["assignee_id"] for t in written(store)["tasks"]] == ["user_2"]


def test_a_call_left_at_an_approval_gets_a_not_run_observation_before_the_next_model_call(graph_driver, store):
    from graph.nodes.reasoner import NOT_RUN_OBSERVATION

    mail = {"userId": "user_2", "emailContent": "李四你好，明天的会改到下午三点。"}
    agent = graph_driver(tool_call("sendEmail", mail, id="c_mail"), "好的，不发了。")
    agent.say("给李四发邮件说明天的会改到下午三点")
    # The person writes something else instead of deciding the card.
    agent.say("算了，不用发了")
    prompt = agent.model.prompts[-1]
    closing = [m for m in prompt if isinstance(m, ToolMessage) and m.tool_call_id == "c_mail"]
    assert [(m.content, m.status) for m in closing] == [(NOT_RUN_OBSERVATION, "error")]
    assert prompt.index(closing[0]) == next(i for i, m in enumerate(prompt) if isinstance(m, AIMessage)) + 1
    assert written(store)["emails"] == []
