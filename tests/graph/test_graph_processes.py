"""Processes on the BPMN engine, through the graph with scripted models: a fourth process deployed from a BPMN file
written here (no Python for it) is listed, asks for its missing field in code, starts, and goes through a two-step
approval to a group; the three seed processes start and complete through the chat; the requester decides no step.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, ToolMessage

from evals.doubles.scripted import tool_call
from tests.support.engine import PURCHASE_GROUP, PURCHASE_MEMBERS, purchase_bpmn
from tools.workflow.engine import set_group

APPROVE = {"decisions": [{"type": "approve"}]}


def final(result: dict[str, Any]) -> str:
    last = result["messages"][-1]
    assert isinstance(last, AIMessage) and not last.tool_calls, last
    return str(last.content)


def results(agent: Any, tool: str) -> list[dict[str, Any]]:
    """The full results (artifacts) of a tool's successful calls in the thread, oldest first."""
    return [m.artifact for m in agent.messages if isinstance(m, ToolMessage) and m.name == tool and m.status == "success"]


def filed_as(card: dict[str, Any]) -> list[tuple[str, str]]:
    """The start card's values as the person reads them: (label, value as it will be filed)."""
    return [(f["label"], f["shown"]) for f in card["fields"]]


def refusals(agent: Any) -> list[str]:
    return [str(m.content) for m in agent.messages if isinstance(m, ToolMessage) and m.status == "error"]


def deploy_purchase(store: Any, tmp_path: Path, *, limit: int = 10000) -> dict[str, Any]:
    path = tmp_path / f"caigou-{limit}.bpmn"
    path.write_text(purchase_bpmn(limit=limit), encoding="utf-8")
    return store.deploy(path)


def test_a_fourth_process_deployed_from_bpmn_runs_through_the_chat_to_its_group(graph_driver, store, tmp_path):
    assert deploy_purchase(store, tmp_path) == {"key": "process_caigou", "version": 1}
    with store.transaction() as conn:  # the purchasing group: data, like the seed's hr and finance
        set_group(conn, PURCHASE_GROUP, "采购部", PURCHASE_MEMBERS, name_en="Purchasing")

    # It is listed, with its own form fields.
    zhang = graph_driver(tool_call("getAllWorkFlow"), "有四个流程。", thread_id="zhang")
    zhang.say("有哪些流程？")
    [listed] = [w for w in results(zhang, "getAllWorkFlow")[0]["workflows"] if w["processKey"] == "process_caigou"]
    assert (listed["name"], listed["version"]) == ("采购申请", 1)
    assert [(f["id"], f["label"], f["type"], f["required"]) for f in listed["fields"]] == [
        ("item", "采购物品", "string", True), ("quantity", "数量", "long", True), ("unitPrice", "单价", "decimal", True),
        ("urgent", "加急", "boolean", False), ("channel", "采购渠道", "enum", False), ("neededBy", "需要日期", "date", False),
    ]
    assert listed["fields"][4]["choices"] == ["网购", "供应商"]

    # A required field the person did not give is asked in code, by its label; the answer starts the request.
    zhang.script(tool_call("runWorkFlow", {"processKey": "process_caigou", "nextUserId": "李四",
                                           "fields": {"item": "服务器", "quantity": 2}}))
    assert final(zhang.say("我要采购2台服务器，李四审批")) == "请问单价是多少？"
    assert store.snapshot()["requests"] == []
    zhang.script("已提交。")
    zhang.say("单价8000元")
    # The requester confirms the start card: the values as filed, and the path the engine previews for 16,000 yuan.
    assert filed_as(zhang.card) == [("采购物品", "服务器"), ("数量", "2"), ("单价", "8000")]
    assert zhang.card["next"] == "提交后先送主管审批（李四），审批人会收到通知；批准后转到采购部审批（采购部：王五、赵六）"
    assert store.snapshot()["requests"] == []
    zhang.approve()
    [started] = results(zhang, "runWorkFlow")
    assert (started["requestId"], started["taskId"], started["step"], started["version"]) == ("req_1", "task_1", "主管审批", 1)
    assert started["form"] == {"item": "服务器", "quantity": 2, "unitPrice": 8000.0, "urgent": False, "channel": None,
                               "neededBy": None}

    # Version 2 changes the gateway (purchasing decides only above 100,000): the running instance keeps version 1.
    assert deploy_purchase(store, tmp_path, limit=100000) == {"key": "process_caigou", "version": 2}

    # The first approver approves: the card says approving sends it on to the purchasing group.
    li = graph_driver(tool_call("handleTodoTask", {"taskId": "张三", "isOK": True, "result": "同意"}), "已批准。",
                      thread_id="li", user_id="user_2")
    li.say("批准张三的采购，意见：同意")
    [action] = li.actions
    assert action["card"]["step"] == "主管审批"
    assert action["card"]["on_approve"] == "批准后转到：采购部审批（采购部：王五、赵六）"
    li.resume(APPROVE)
    [decided] = results(li, "handleTodoTask")
    assert [(n["taskId"], n["step"], n["groups"]) for n in decided["next"]] == [("task_2", "采购部审批", ["purchasing"])]

    # A group member sees the second task and approves it; the card shows the first decision.
    wang = graph_driver(tool_call("queryTodoTask", {}), "你有 1 个待办。", thread_id="wang", user_id="user_3")
    wang.say("我有哪些待办？")
    [todo] = results(wang, "queryTodoTask")
    assert [(t["taskId"], t["step"], t["requester"], t["groups"]) for t in todo["tasks"]] == [
        ("task_2", "采购部审批", "user_1", ["purchasing"])]
    wang.script(tool_call("handleTodoTask", {"taskId": "task_2", "isOK": True, "result": "可以采购"}), "已批准。")
    wang.say("批准 task_2，意见：可以采购")
    [action] = wang.actions
    assert action["card"]["history"] == "主管审批：李四 批准（同意）"
    assert action["card"]["on_approve"] == "批准后申请结束（已批准）"
    wang.resume(APPROVE)

    snap = store.snapshot()
    assert [(r["id"], r["process_version"], r["status"]) for r in snap["requests"]] == [(1, 1, "approved")]
    assert [(t["id"], t["step"], t["status"], t["decided_by"]) for t in snap["tasks"]] == [
        (1, "主管审批", "approved", "user_2"), (2, "采购部审批", "approved", "user_3")]
    # Each decider was told when a step became theirs, and the requester when the request ended.
    assert [(n["recipient_id"], n["task_id"]) for n in snap["notifications"]] == [
        ("user_2", 1), ("user_3", 2), ("user_4", 2), ("user_1", None)]
    assert snap["notifications"][-1]["body"].startswith("您的采购申请（服务器）已批准（req_1）")

    # A request started now runs on version 2: 16,000 yuan ends after the first approval.
    zhang.script(tool_call("runWorkFlow", {"processKey": "process_caigou", "nextUserId": "李四",
                                           "fields": {"item": "服务器", "quantity": 2, "unitPrice": 8000}}), "已提交。")
    zhang.say("再采购2台服务器，单价8000元，李四审批")
    assert zhang.card["next"] == "提交后先送主管审批（李四），审批人会收到通知"  # previewed on version 2
    zhang.approve()
    assert results(zhang, "runWorkFlow")[-1]["version"] == 2
    li.script(tool_call("handleTodoTask", {"taskId": "task_3", "isOK": True, "result": "同意"}), "已批准。")
    li.say("批准 task_3，意见：同意")
    assert li.actions[0]["card"]["on_approve"] == "批准后申请结束（已批准）"
    li.resume(APPROVE)
    assert [(r["id"], r["process_version"], r["status"]) for r in store.snapshot()["requests"]] == [
        (1, 1, "approved"), (2, 2, "approved")]


def decide(driver: Any, task: str, comment: str, said: str) -> dict[str, Any]:
    """The driver's user decides a task through the chat (approve, confirmed on the card); returns the card."""
    driver.script(tool_call("handleTodoTask", {"taskId": task, "isOK": True, "result": comment}), "已处理。")
    driver.say(said)
    [action] = driver.actions
    driver.resume(APPROVE)
    return dict(action["card"])


def requester_tries(driver: Any, task: str) -> str:
    """The requester asks to approve a step of their own request: the policy refuses it, nothing is asked (the code
    says why, with no model call)."""
    driver.script(tool_call("handleTodoTask", {"taskId": task, "isOK": True, "result": "同意"}))
    driver.say(f"{task} 我自己批了，意见：同意")
    assert driver.interrupts == []
    return refusals(driver)[-1]


def test_an_expense_over_5000_goes_on_to_finance_and_the_requester_decides_no_step(graph_driver, store):
    zhang = graph_driver(tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "去北京见客户的机票和酒店",
                                                   "nextUserId": "李四", "fields": {"amount": 8000, "category": "差旅"}}),
                         "已提交。", thread_id="zhang")
    zhang.say("报销去北京见客户的机票和酒店，差旅费8000元，李四审批")
    assert filed_as(zhang.card) == [("报销金额", "8000 元"), ("报销类别", "差旅"), ("报销事由", "去北京见客户的机票和酒店")]
    assert zhang.card["next"] == "提交后先送审批人审批（李四），审批人会收到通知；批准后转到财务审批（财务：赵六）"
    zhang.approve()
    assert requester_tries(zhang, "task_1").startswith("Error [self_approval]")
    card = decide(graph_driver(thread_id="li", user_id="user_2"), "task_1", "同意", "批准张三的报销，意见：同意")
    assert (card["step"], card["on_approve"]) == ("审批人审批", "批准后转到：财务审批（财务：赵六）")
    assert card["form"] == "报销金额：8000；报销类别：差旅；报销事由：去北京见客户的机票和酒店"
    assert requester_tries(zhang, "task_2").startswith("Error [self_approval]")
    card = decide(graph_driver(thread_id="zhao", user_id="user_4"), "task_2", "票据齐全", "批准张三的报销，意见：票据齐全")
    assert card["step"] == "财务审批"
    snap = store.snapshot()
    assert [(r["process_key"], r["status"]) for r in snap["requests"]] == [("process_baoxiao", "approved")]
    assert [(t["candidate_groups"], t["decided_by"]) for t in snap["tasks"]] == [("", "user_2"), ("finance", "user_4")]


def test_a_leave_over_3_days_goes_on_to_hr_and_a_short_one_ends_with_its_approver(graph_driver, store):
    zhang = graph_driver(tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "回老家", "days": 5,
                                                   "nextUserId": "李四"}), "已提交。", thread_id="zhang")
    zhang.say("请5天假回老家，李四审批")
    assert zhang.card["next"] == "提交后先送审批人审批（李四），审批人会收到通知；批准后转到人事审批（人事：管理员）"
    zhang.approve()
    li = graph_driver(thread_id="li", user_id="user_2")
    assert decide(li, "task_1", "同意", "批准张三的请假，意见：同意")["on_approve"] == "批准后转到：人事审批（人事：管理员）"
    assert requester_tries(zhang, "task_2").startswith("Error [self_approval]")
    decide(graph_driver(thread_id="admin", user_id="user_admin"), "task_2", "同意，注意交接", "批准 task_2，意见：同意，注意交接")
    zhang.script(tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "看牙医", "days": 1,
                                           "nextUserId": "李四"}), "已提交。")
    zhang.say("请1天假看牙医，李四审批")
    assert zhang.card["next"] == "提交后先送审批人审批（李四），审批人会收到通知"
    zhang.approve()
    assert decide(li, "task_3", "同意", "批准 task_3，意见：同意")["on_approve"] == "批准后申请结束（已批准）"
    snap = store.snapshot()
    assert [(r["days"], r["status"]) for r in snap["requests"]] == [(5.0, "approved"), (1.0, "approved")]
    assert [(t["step"], t["decided_by"]) for t in snap["tasks"]] == [
        ("审批人审批", "user_2"), ("人事审批", "user_admin"), ("审批人审批", "user_2")]


def test_a_business_trip_reads_its_dates_from_the_persons_words_and_ends_with_its_approver(graph_driver, store):
    # The graph's clock says 2027-01-15 (a Friday): "下周一到周三" is 2027-01-18 to 2027-01-20.
    fields = {"destination": "深圳", "startDate": "下周一", "endDate": "2027-01-21"}
    zhang = graph_driver(tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "王五",
                                                   "fields": fields}), "已提交。", thread_id="zhang")
    zhang.say("下周一到周三去深圳见客户，出差申请，王五审批")
    assert filed_as(zhang.card)[1:3] == [("出发日期", "2027年1月18日"), ("返回日期", "2027年1月20日")]  # shown before filing
    zhang.approve()
    [started] = results(zhang, "runWorkFlow")
    # The person's own range wins over the model's end date.
    assert (started["form"]["startDate"], started["form"]["endDate"]) == ("2027-01-18", "2027-01-20")
    assert requester_tries(zhang, "task_1").startswith("Error [self_approval]")
    card = decide(graph_driver(thread_id="wang", user_id="user_3"), "task_1", "同意", "批准张三的出差，意见：同意")
    assert card["on_approve"] == "批准后申请结束（已批准）" and card["flagged"] is True
    assert [(r["process_key"], r["status"]) for r in store.snapshot()["requests"]] == [("process_chuchai", "approved")]


def test_a_missing_expense_field_is_asked_by_its_label_in_the_persons_language(graph_driver, store):
    zhang = graph_driver(tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "client dinner",
                                                   "nextUserId": "Li Si", "fields": {"category": "Meals"}}),
                         thread_id="en", locale="en")
    assert final(zhang.say("I want to claim a client dinner as meals, Li Si approves")) == "What is the amount (yuan)?"
    zhang.script("Filed.")
    zhang.say("320 yuan")
    assert filed_as(zhang.card) == [("Amount (yuan)", "320 yuan"), ("Category", "Meals"), ("Reason", "client dinner")]
    zhang.approve()
    [started] = results(zhang, "runWorkFlow")
    assert started["form"] == {"amount": 320.0, "category": "餐饮", "reason": "client dinner"}
    chinese = graph_driver(tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "团队活动用的",
                                                     "nextUserId": "李四", "fields": {"amount": 120}}), thread_id="zh")
    # A category the person neither named nor implied (打印纸 would imply 办公) is asked, with the choices.
    assert final(chinese.say("报销团队活动用的120元，李四审批")) == "请问报销类别是什么？可选：差旅、餐饮、办公、其他。"


def test_zero_days_on_a_form_without_days_is_no_count_and_the_missing_amount_is_asked(graph_driver, store):
    # A small model fills in "days": 0 for an expense claim; 0 days is no count, not an argument to refuse.
    zhang = graph_driver(tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "打印纸和文件夹",
                                                   "days": 0, "nextUserId": "李四", "fields": {"category": "办公"}}),
                         thread_id="zh")
    assert final(zhang.say("报销打印纸和文件夹，办公用品，李四审批")) == "请问报销金额是多少？"
    zhang.script("好的")
    zhang.say("86元")
    assert filed_as(zhang.card) == [("报销金额", "86 元"), ("报销类别", "办公"), ("报销事由", "打印纸和文件夹")]
    zhang.approve()
    [started] = results(zhang, "runWorkFlow")
    assert started["form"] == {"amount": 86.0, "category": "办公", "reason": "打印纸和文件夹"}
