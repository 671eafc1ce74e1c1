"""A request starts only after its requester confirmed a card: the values as they will be filed, beside the words
they were read from, the first approver and what happens next, in the person's language. Nothing is filed before
approve; edit is checked again; reject files nothing."""

from __future__ import annotations

import json
import re
from typing import Any

from langchain_core.messages import AIMessage

from evals.doubles.scripted import tool_call

APPROVE = {"decisions": [{"type": "approve"}]}
RAW_WORDS = re.compile(r"runWorkFlow|process_[a-z]+|\bpending\b|\bapprove\b|\bTrue\b|\bFalse\b|person_stated|user_\d")


def final(result: dict[str, Any]) -> str:
    last = result["messages"][-1]
    assert isinstance(last, AIMessage) and not last.tool_calls, last
    return str(last.content)


def expense(amount: float, category: str = "差旅", reason: str = "打车去客户公司") -> dict[str, Any]:
    return tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": reason, "nextUserId": "李四",
                                     "fields": {"amount": amount, "category": category}})


def person_text(card: dict[str, Any]) -> str:
    """Everything of the card a person reads: title, summary, labelled fields, notes."""
    parts = [card["title"], card["summary"], *card["labels"].values(), *card.get("notes", [])]
    for key in card["labels"]:
        value = card[key]
        parts += value if isinstance(value, list) else [str(value)]
    return "\n".join(parts)


def test_an_expense_waits_for_its_card_and_nothing_is_filed_before_approve(graph_driver, store):
    agent = graph_driver(expense(6800), "已提交。")
    agent.say("报销6800元打车去客户公司的差旅费，李四审批")
    [action] = agent.actions
    assert action["name"] == "runWorkFlow"
    assert store.snapshot()["requests"] == []  # nothing filed while the card waits
    card = action["card"]
    assert card["title"] == "发起申请"
    assert card["process"] == "报销流程"
    assert card["values"][0] == "报销金额：6800 元 ← 6800元"
    assert card["approver"] == "李四 (user_2)"
    assert card["next"] == "提交后先送审批人审批（李四），审批人会收到通知；批准后转到财务审批（财务：赵六）"
    assert list(card["labels"]) == ["process", "requester", "values", "approver", "next"]
    assert action["description"].splitlines()[0] == card["summary"]
    agent.resume(APPROVE)
    [request] = store.snapshot()["requests"]
    filed = (request["process_key"], json.loads(request["form"])["amount"], request["status"])
    assert filed == ("process_baoxiao", 6800, "pending")


def test_a_small_expense_ends_with_its_approver_on_the_card(graph_driver):
    agent = graph_driver(expense(300, reason="打印纸"), "已提交。")
    agent.say("报销打印纸300元，差旅，李四审批")
    [action] = agent.actions
    assert action["card"]["next"] == "提交后先送审批人审批（李四），审批人会收到通知"


def test_the_card_speaks_english_to_an_english_speaker(graph_driver):
    agent = graph_driver(expense(430, reason="a taxi to the airport"), "Filed.")
    agent.say("Claim 430 yuan for a taxi to the airport, category Travel, Li Si approves")
    [action] = agent.actions
    card = action["card"]
    assert card["title"] == "start a request"
    assert card["values"][0] == "Amount (yuan): 430 yuan"  # the words are what is shown: no arrow to the same
    assert [(r["shown"], r["said"], r["how"]) for r in card["fields"] if r["field"] == "amount"] == [
        ("430 yuan", "430 yuan", "stated")
    ]
    assert card["labels"]["next"] == "what happens next"
    assert not re.search(r"[\u4e00-\u9fff]", person_text(card).replace("Li Si", "")), person_text(card)


def test_nothing_for_the_model_or_the_code_is_on_the_card(graph_driver):
    agent = graph_driver(expense(6800), "已提交。")
    agent.say("报销6800元打车去客户公司的差旅费，李四审批")
    [action] = agent.actions
    shown = person_text(action["card"]).replace("(user_1)", "").replace("(user_2)", "")
    assert not RAW_WORDS.search(shown), shown


def test_reject_on_the_start_card_files_nothing_and_says_so(graph_driver, store):
    agent = graph_driver(expense(6800), "好的，没有提交。")
    agent.say("报销6800元打车去客户公司的差旅费，李四审批")
    answer = final(agent.resume({"decisions": [{"type": "reject", "message": "金额不对"}]}))
    assert store.snapshot()["requests"] == []
    assert answer
    audit = [row["event"] for row in store.snapshot()["audit_log"]]
    assert "review_reject" in audit


def test_edit_on_the_start_card_is_checked_again_before_it_is_filed(graph_driver, store):
    agent = graph_driver(expense(6800), "已提交。")
    agent.say("报销6800元打车去客户公司的差旅费，李四审批")
    [action] = agent.actions
    edited = {**action["args"], "fields": {"amount": 6800, "category": "差旅"}, "nextUserId": "user_1"}
    agent.resume({"decisions": [{"type": "edit", "edited_action": {"name": "runWorkFlow", "args": edited}}]})
    assert store.snapshot()["requests"] == []  # the requester as their own approver is refused, edited or not


def test_a_category_in_the_models_own_words_is_mapped_and_shown_as_inferred(graph_driver):
    agent = graph_driver(expense(68, category="交通", reason="打车去机场"), "已提交。")
    agent.say("报销打车去机场的68元，李四审批")
    card = agent.card
    [category] = [r for r in card["fields"] if r["field"] == "category"]
    assert (category["value"], category["how"]) == ("差旅", "inferred")
    assert "报销类别：差旅 ← 打车（推断）" in card["values"]
    assert card["notes"][0] == "以下内容是根据你的话推断的，请核对：报销类别"


def test_the_persons_amount_replaces_the_models_and_the_card_says_so(graph_driver, store):
    agent = graph_driver(expense(68000), "已提交。")
    agent.say("报销6800元打车去客户公司的差旅费，李四审批")
    card = agent.card
    assert [r["value"] for r in card["fields"] if r["field"] == "amount"] == [6800]
    assert "报销金额按你的原话填写，不是助手提出的 68000" in card["notes"]
    agent.approve()
    assert [json.loads(r["form"])["amount"] for r in store.snapshot()["requests"]] == [6800]
