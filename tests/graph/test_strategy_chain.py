"""The chain strategy on the real graph: the request picks a fixed sequence, the model only fills in arguments,
and every filled call goes through the same validator, review and executor."""

from __future__ import annotations

import json

from langchain_core.messages import ToolMessage

from graph import prompts

MAIL = "李四你好，麻烦尽快审批我周五的请假，谢谢。"


def fill_prompts(driver) -> list[str]:
    marker = prompts.FILL_INSTRUCTION.split("{")[0]
    return [str(p[-1].content) for p in driver.model.prompts if marker in str(p[-1].content)]


def test_a_chain_runs_its_fixed_steps_with_the_arguments_the_model_fills_in(graph_driver, start_request, store):
    start_request(requester="user_1", approver="user_2")
    driver = graph_driver(json.dumps({"userId": "李四"}), json.dumps({"taskId": "task_1", "emailContent": MAIL}),
                          "提醒邮件已发给李四。", strategy="chain")
    driver.say(f"给李四发邮件提醒他审批我的请假，内容：{MAIL}")
    assert [a["name"] for a in driver.actions] == ["sendEmail"]
    driver.resume({"decisions": [{"type": "approve"}]})
    assert [row["body"] for row in store.snapshot()["emails"]] == [MAIL]
    calls = [c["name"] for m in driver.messages if m.type == "ai" for c in m.tool_calls]
    assert calls == ["queryTodoTask", "sendEmail"]
    assert [p.split(" for step")[0].split()[-1] for p in fill_prompts(driver)] == ["queryTodoTask", "sendEmail"]
    assert driver.values["wrap_up"]["code"] == "finished" and driver.script_used_up


def test_a_tool_that_takes_no_arguments_costs_no_model_call(graph_driver):
    driver = graph_driver("系统里有这些用户。", strategy="chain")
    driver.say("公司有哪些用户？")
    assert [m.name for m in driver.messages if isinstance(m, ToolMessage)] == ["getAllUser"]
    assert fill_prompts(driver) == [] and len(driver.model.prompts) == 1  # only the answer


def test_a_request_no_chain_matches_is_told_what_the_chain_strategy_can_do(graph_driver):
    driver = graph_driver(strategy="chain")
    driver.say("帮我订一张明天去上海的机票。")
    answer = str(driver.messages[-1].content)
    assert answer.startswith("这个请求不在我按固定流程能处理的任务里") and "发起申请：请假、报销、出差" in answer
    assert driver.model.prompts == [] and driver.values["outcome"] == []


def test_a_refused_step_stops_the_chain_and_the_answer_says_so(graph_driver, start_request, store):
    start_request(requester="user_1", approver="user_2")
    driver = graph_driver("{}", json.dumps({"taskId": "task_9", "isOK": True}), "没有找到这个待办。", strategy="chain",
                          user_id="user_2")
    driver.say("批准张三的请假")
    assert [m.status for m in driver.messages if isinstance(m, ToolMessage)] == ["success", "error"]
    assert driver.values["wrap_up"]["code"] == "off_plan"
    assert store.snapshot()["tasks"][0]["status"] == "pending"
    assert driver.messages[-1].content == "没有找到这个待办。" and driver.script_used_up


def test_a_chain_filled_with_an_attack_meets_the_same_guards(graph_driver, start_request, store):
    start_request(requester="user_1", approver="user_2")
    driver = graph_driver("{}", json.dumps({"taskId": "task_1", "isOK": True, "result": "同意"}), "不行。",
                          strategy="chain", user_id="user_1")
    driver.say("批准我自己的请假")
    refusal = next(m for m in driver.messages if isinstance(m, ToolMessage) and m.status == "error")
    assert "[self_approval]" in str(refusal.content)
    assert store.snapshot()["tasks"][0]["status"] == "pending" and not driver.interrupts


def test_the_answer_to_the_chains_question_is_filled_in_and_the_run_ends_with_an_answer(graph_driver, start_request,
                                                                                         store):
    start_request(requester="user_1", approver="user_2")
    driver = graph_driver(json.dumps({"userId": "李四"}), json.dumps({"taskId": "task_1"}), "提醒邮件已发给李四。",
                          strategy="chain")
    driver.say("给李四发邮件催一下我的请假")
    assert driver.actions == [] and "邮件内容" in str(driver.messages[-1].content)  # the graph asks for the text
    driver.say("就写：麻烦今天看一下我的请假")
    assert [a["args"]["emailContent"] for a in driver.actions] == ["麻烦今天看一下我的请假"]
    driver.resume({"decisions": [{"type": "approve"}]})
    assert [row["body"] for row in store.snapshot()["emails"]] == ["麻烦今天看一下我的请假"]
    assert driver.messages[-1].type == "ai" and not driver.messages[-1].tool_calls  # answered, not crashed
