"""A request sent back for something outside its form (a receipt handed in, a word with the team) goes again as it was,
with the requester's note to the approver read from their words: through the real graph with a scripted model that
leaves the note out or writes its own. Without a change or a note the resend is asked what to change, or what to tell
the approver. Phrasings written for these tests, none from the evaluation sets.

The graph's clock says 2027-01-15, a Friday.
"""

from __future__ import annotations

from datetime import date

import pytest

from evals.doubles.scripted import tool_call
from graph.history import refusal_text
from graph.prompts import THOUGHTS
from tools import execute_call
from tools.request import read_request
from tools.workflow import TOOLSET
from tools.workflow.resubmit import resend_note


def _returned_claim(graph_driver, make_ctx, *replies, lang: str = "zh"):
    zh = lang == "zh"
    claim = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "客户招待" if zh else "client dinner",
                                      "nextUserId": "李四" if zh else "Li Si",
                                      "fields": {"amount": 1260, "category": "餐饮"}})
    agent = graph_driver(claim, "已提交。" if zh else "Filed.", *replies)
    agent.say("报销客户招待1260元，餐饮，李四审批" if zh else "Claim 1260 yuan for the client dinner, meals, Li Si approves")
    agent.approve()
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "缺发票，补上再提交" if zh else "receipt missing"},
                 make_ctx("user_2"))
    return agent


def test_a_resend_with_a_note_goes_as_it_was_and_the_note_is_kept(graph_driver, store, make_ctx):
    agent = _returned_claim(graph_driver, make_ctx, tool_call("resubmitRequest", {"requestId": "报销"}), "已重新提交。")
    agent.say("发票我已经交给财务那边了，原样再提交一次吧")
    [action] = agent.actions
    assert action["name"] == "resubmitRequest" and action["args"]["note"] == "发票我已经交给财务那边了"
    assert "原样" in agent.card["summary"] and agent.card["note"] == "发票我已经交给财务那边了"
    agent.approve()
    [request] = store.snapshot()["requests"]
    assert request["status"] == "pending" and '"amount": 1260' in request["form"]
    [mine] = execute_call(TOOLSET, "queryMyRequests", {}, make_ctx("user_1"))["requests"]
    assert mine["timeline"][-1].endswith("张三 原样重新提交（发票我已经交给财务那边了）")


def test_the_models_own_note_is_left_out_for_the_persons_words(graph_driver, make_ctx):
    resend = tool_call("resubmitRequest", {"requestId": "req_1", "note": "Receipt has been provided."})
    agent = _returned_claim(graph_driver, make_ctx, resend, "Sent again.", lang="en")
    agent.say("ok I dropped the paper receipt at the finance desk this morning, so please send it back in as is")
    [action] = agent.actions
    assert action["args"]["note"] == "I dropped the paper receipt at the finance desk this morning"
    assert agent.card["changes"] == "nothing changed, sent as it was"


def test_a_resend_with_neither_a_change_nor_a_note_is_asked_about(graph_driver, store, make_ctx):
    agent = _returned_claim(graph_driver, make_ctx, tool_call("resubmitRequest", {"requestId": "req_1"}), "好的。")
    agent.say("重新提交吧")
    assert not agent.interrupts
    assert "要向审批人说明什么" in agent.messages[-1].content
    assert store.snapshot()["requests"][0]["status"] == "returned"


def test_a_change_with_its_resend_words_makes_no_note(graph_driver, make_ctx):
    fixed = tool_call("resubmitRequest", {"requestId": "req_1", "fields": {"amount": 1160}})
    agent = _returned_claim(graph_driver, make_ctx, fixed, "已重新提交。")
    agent.say("金额改成1160，重新提交")
    [action] = agent.actions
    assert action["args"]["fields"] == {"amount": 1160} and not action["args"].get("note")


@pytest.mark.parametrize("said", [  # the fifty-third round's writer: "…, and send it again." made the note "again."
    'Change the reason to "offsite in Hangzhou", and send it again.', "update the reason to team offsite, then send it in again",
    "事由改成“杭州团建”，然后重新提交",
])
def test_a_resend_that_only_changes_and_sends_has_no_note(said):
    assert resend_note(read_request([said], index=0, today=date(2027, 1, 15))) is None


@pytest.mark.parametrize("texts", [  # the seventy-sixth round's writer: an instruction to the assistant became the note
    ["Move my claim to the meals category as Wang Wu said and send it again"],
    ["王五说类别填错了，帮我换成餐饮再提交"],
    ["赵六说金额填错了，帮我把金额改了再交一次", "应该是一千零五十"],  # the change said in the answer
    ["Zhao Liu says the total is off, fix it and resubmit", "it should be 1,050"],
])
def test_a_resend_whose_change_is_said_in_other_words_has_no_note(texts):
    assert resend_note(read_request(texts, index=0, today=date(2027, 1, 15))) is None


@pytest.mark.parametrize(("said", "told"), [  # the seventy-sixth round's writer: two refusals pointed at each other
    ("把我的事假改成半天再提交一次", "撤回"), ("change my leave to one day and resubmit it", "withdraw it"),
])
def test_resending_a_request_still_waiting_says_to_withdraw_it_first(graph_driver, store, start_request, said, told):
    start_request(requester="user_1", approver="user_2", days=2, reason="家里有事")
    resend = tool_call("resubmitRequest", {"requestId": "my leave", "days": 1})
    agent = graph_driver(resend, "OK", "OK", fixed_answers=True)
    result = agent.say(said)
    [line] = result["messages"][-1].response_metadata["outcome"]  # what the surfaces show beside the answer
    assert line["status"] == "refused" and "request_still_pending" in line["detail"], line
    lang = "en" if said.isascii() else "zh"
    assert told in refusal_text(line["detail"], lang, TOOLSET.language.refusals)
    assert agent.actions == [] and [r["days"] for r in store.snapshot()["requests"]] == [2]


@pytest.mark.parametrize(("said", "note"), [
    # the fifty-ninth and sixtieth rounds' writers, none of their words: the cue words were filed with the note
    ("Resend it as it was, with a note: paper receipt given to Wang Wu in person", "paper receipt given to Wang Wu in person"),
    ("原样重新提交，备注：纸质发票已经当面交给王五了", "纸质发票已经当面交给王五了"),
])
def test_a_notes_cue_words_are_not_the_note(graph_driver, make_ctx, said, note):
    lang = "en" if said.isascii() else "zh"
    agent = _returned_claim(graph_driver, make_ctx, tool_call("resubmitRequest", {"requestId": "req_1"}), "OK",
                            lang=lang)
    agent.say(said)
    [action] = agent.actions
    assert action["args"]["note"] == note


def test_a_time_of_day_in_the_note_of_a_leave_sent_as_it_was_changes_nothing(graph_driver, make_ctx, start_request):
    # the fifty-ninth round's writer: "… handed to HR this morning" had been read as a half day, and the resend
    # refused as half a day of a leave taken in whole days
    start_request(requester="user_1", approver="user_2", days=3, reason="家里有事")
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "need the paperwork"}, make_ctx("user_2"))
    agent = graph_driver(tool_call("resubmitRequest", {"requestId": "req_1", "days": 0.5}), "OK", user_id="user_1",
                         fixed_answers=True)
    agent.say("Send it again as it is, with the note: paperwork handed to HR this morning")
    [action] = agent.actions
    assert action["name"] == "resubmitRequest" and "days" not in action["args"]
    assert action["args"]["note"] == "paperwork handed to HR this morning"


@pytest.mark.parametrize(("said", "asked", "answer", "lang"), [  # the seventy-sixth round's run; phrasings written later
    ("王五说金额对不上，帮我把金额改了再提交", "请问报销金额要改成多少？", "应该是一千零五十", "zh"),
    ("the amount was wrong, fix it and send it again", "How much should the amount be?", "it's 1,050", "en"),
])
def test_a_resend_naming_what_changes_but_not_to_what_asks_for_that_alone(graph_driver, make_ctx, said, asked, answer,
                                                                          lang):
    agent = _returned_claim(graph_driver, make_ctx, tool_call("resubmitRequest", {"requestId": "req_1"}), lang=lang)
    assert str(agent.say(said)["messages"][-1].content) == asked
    agent.say(answer)
    [action] = agent.actions
    assert action["args"]["fields"] == {"amount": 1050} and not action["args"].get("note")


@pytest.mark.parametrize(("said", "comment"), [  # the seventy-sixth round's run: "nothing was changed" was the answer
    ("我的报销怎么又被退回来了？", "缺发票"), ("why did my claim come back?", "receipt missing"),
])
def test_asking_why_ones_request_came_back_is_answered_from_ones_requests(graph_driver, make_ctx, said, comment):
    lang = "en" if said.isascii() else "zh"
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "reason": "客户招待", "nextUserId": "user_2",
                                          "fields": {"amount": 1260, "category": "餐饮"}}, make_ctx("user_1"))
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "缺发票" if lang == "zh" else "receipt missing"},
                 make_ctx("user_2"))
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "claim"}), "OK", "OK", fixed_answers=True)
    answer = agent.say(said)["messages"]
    assert agent.actions == [] and comment in str(answer[-1].content), answer[-1].content
    [looked] = [m for m in answer if getattr(m, "tool_calls", None) and m.tool_calls[0]["name"] == "queryMyRequests"]
    assert looked.response_metadata["thought"] in (THOUGHTS[lang]["instead_read"], THOUGHTS[lang]["next_read"])  # no card


@pytest.mark.parametrize(("said", "changed"), [  # the seventy-sixth round's run: "sent back" said, nothing proposed
    ("fine, make it 1,050 and send it in again", {"amount": 1050}), ("那就改成一千零五十，再提交一次", {"amount": 1050}),
])
def test_a_resend_the_model_only_talks_about_is_proposed_as_said(graph_driver, make_ctx, said, changed):
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "reason": "客户招待", "nextUserId": "user_2",
                                          "fields": {"amount": 1260, "category": "餐饮"}}, make_ctx("user_1"))
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "金额不对"}, make_ctx("user_2"))
    agent = graph_driver("Your claim is now 1,050 yuan and submitted again.", "OK", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "resubmitRequest" and action["args"]["fields"] == changed
