"""When an approver's words fit several of their to-dos, the question that asks which one lists them in the person's
language: in English the requester by their English name, the process and the form's values as English reads them
(Annual leave, 1,200 yuan), with no Chinese but what the requester typed; in Chinese as before. Written after the
sixty-sixth round's writer reported an English question that listed the to-dos in Chinese; its words are not here."""

from __future__ import annotations

import re

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.workflow import TOOLSET

CJK = re.compile(r"[\u3400-\u9fff\uff08\uff09\uff0c]")


def _two_of_zhang_sans(make_ctx) -> None:  # type: ignore[no-untyped-def]
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_qingjia", "reason": "moving house", "days": 2,
                                          "nextUserId": "user_2", "fields": {"leaveType": "年假"}}, make_ctx("user_1"))
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "reason": "client dinner",
                                          "nextUserId": "user_2", "fields": {"amount": 1200, "category": "餐饮"}},
                 make_ctx("user_1"))


def test_an_english_question_lists_the_todos_in_english(graph_driver, make_ctx, store):
    _two_of_zhang_sans(make_ctx)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "Zhang San", "isOK": True, "result": "ok"}), "Done.",
                         user_id="user_2")
    agent.say("Please approve what Zhang San sent me")
    answer = agent.messages[-1].content
    assert "task_1" in answer and "task_2" in answer and "Zhang San" in answer, answer
    assert "1,200 yuan" in answer and "Annual" in answer, answer
    assert not CJK.search(answer), answer
    assert all(t["status"] == "pending" for t in store.snapshot()["tasks"])


def test_a_chinese_question_lists_them_in_chinese(graph_driver, make_ctx, store):
    _two_of_zhang_sans(make_ctx)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "张三", "isOK": True, "result": "同意"}), "好的。",
                         user_id="user_2")
    agent.say("把张三提交的批了")
    answer = agent.messages[-1].content
    assert "task_1（张三，请假" in answer and "1200 元" in answer and "餐饮" in answer, answer
    assert all(t["status"] == "pending" for t in store.snapshot()["tasks"])
