"""A question about what a to-do the person holds says is answered from that to-do's view, not from lists of their own
requests and to-dos (tools/workflow/todo_asked.py). Read after the thirty-seventh round's run; the phrasings were
written for this test."""

from __future__ import annotations

import pytest
from langchain_core.messages import ToolMessage

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.workflow import TOOLSET


@pytest.mark.parametrize("said", ["How much is that lunch claim Wang Wu put in, and has he claimed meals before?",
                                  "王五这笔餐费报销是怎么回事？多少钱？",
                                  # what the step before said (the fiftieth round's run; none of its words)
                                  "王五那笔餐费，上一步是谁审的？", "For Wang Wu's lunch claim, what did his manager write?"])
def test_a_question_about_a_todo_is_answered_from_its_view(graph_driver, store, make_ctx, said):
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_3", "reason": "请客户吃午饭",
                                          "fields": {"amount": 368, "category": "餐饮"}, "nextUserId": "user_2"},
                 make_ctx("user_3"))
    agent = graph_driver(tool_call("queryMyRequests", {}), "x", "y", user_id="user_2", fixed_answers=True)
    result = agent.say(said)
    tools = [m.name for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "success"]
    assert tools == ["viewTask"], tools
    assert "368" in str(result["messages"][-1].content)


def test_a_question_about_ones_own_request_is_no_todos(graph_driver, store, make_ctx, start_request):
    start_request(requester="user_3", approver="user_2", days=1, reason="搬家")
    agent = graph_driver(tool_call("queryMyRequests", {}), "x", user_id="user_2", fixed_answers=True)
    result = agent.say("How much was my own taxi claim, and who has approved it?")
    tools = [m.name for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "success"]
    assert tools == ["queryMyRequests"]


@pytest.mark.parametrize("said", [  # asked to be shown (the sixtieth round's run; none of its words)
    "Pull up the expense claim that's with finance, and who okayed it first and what they wrote",
    "Show me the claim finance has to decide. Who signed it off before me?",
    "把财务那边待审的报销给我看看，前面是谁批的，写了什么意见？",
])
def test_a_todo_asked_to_be_shown_with_who_decided_it_before_is_its_view(graph_driver, make_ctx, said):
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "客户拜访机票酒店",
                                          "fields": {"amount": 7300, "category": "差旅"}, "nextUserId": "user_2"},
                 make_ctx("user_1"))
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "项目预算内"}, make_ctx("user_2"))
    agent = graph_driver(tool_call("queryCcRequests", {}), "x", "y", user_id="user_4", fixed_answers=True)
    result = agent.say(said)
    tools = [m.name for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "success"]
    assert tools == ["viewTask"], tools
    answer = str(result["messages"][-1].content)
    assert "项目预算内" in answer and ("李四" in answer or "Li Si" in answer)


@pytest.mark.parametrize("said", [  # told first, then asked (the sixty-first round's run; none of its words)
    "我刚开始帮部门审单子，还不太熟。待办里那笔报销是怎么回事？我同意以后还要谁审？",
    "I only started approving things this week. What's that claim in my list about, and who looks at it after me?",
])
def test_a_question_about_a_todo_after_a_word_about_oneself_is_its_view(graph_driver, make_ctx, said):
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "展会搭建材料",
                                          "fields": {"amount": 6400, "category": "办公"}, "nextUserId": "user_3"},
                 make_ctx("user_1"))
    agent = graph_driver(tool_call("queryTodoTask", {}), "x", "y", user_id="user_3", fixed_answers=True)
    result = agent.say(said)
    tools = [m.name for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "success"]
    assert tools == ["viewTask"], tools
    answer = str(result["messages"][-1].content)
    assert "财务" in answer or "Finance" in answer


@pytest.mark.parametrize("said", [  # what follows an approval (the seventy-eighth round's run; none of its words)
    "张三那笔报销，我批了之后还要谁审批吗？",
    "这个我同意完就结束了吧？",
    "If I approve Zhang San's claim, does it go on to finance?",
    "who signs it off after me?",
])
def test_what_follows_approving_a_todo_is_answered_from_its_view(graph_driver, make_ctx, said):
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "机票",
                                          "fields": {"amount": 6200, "category": "差旅"}, "nextUserId": "user_2"},
                 make_ctx("user_1"))
    agent = graph_driver(tool_call("getAllWorkFlow", {}), "x", user_id="user_2", fixed_answers=True)
    result = agent.say(said)
    tools = [m.name for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "success"]
    assert tools == ["viewTask"], tools
    answer = str(result["messages"][-1].content)
    assert ("财务" in answer or "Finance" in answer) and "出差流程" not in answer and "Business trip" not in answer


@pytest.mark.parametrize(("said", "named"), [  # the eighty-second round's run; none of its words
    ("我手上有哪些待办？李四说张三那个出差挺急的", "王五"),
    ("What's waiting for me? Li Si said Zhang San's trip is urgent", "Wang Wu"),
])
def test_the_persons_to_dos_asked_for_beside_someones_request_are_all_listed(graph_driver, make_ctx, start_request,
                                                                             said, named):
    # the model named the person by name ("王五"): their own list, not another's, however the message speaks of 张三's
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "user_3",
                                          "fields": {"destination": "上海", "startDate": "2027-01-20",
                                                     "endDate": "2027-01-21"}}, make_ctx("user_1"))
    start_request(requester="user_4", approver="user_3", days=1, reason="看病")
    agent = graph_driver(tool_call("queryTodoTask", {"userId": named}), "OK", user_id="user_3", fixed_answers=True)
    result = agent.say(said)
    tools = [m.name for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "success"]
    assert tools == ["queryTodoTask"], tools
    assert "task_1" in str(result["messages"][-1].content) and "task_2" in str(result["messages"][-1].content)
