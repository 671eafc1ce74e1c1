"""A question of how many or which to-dos wait on someone is answered from the to-do list: an answer given after
another look-up (the offline model listed the asker's deputies for "李四那边压着几个待审批的") is sent back once, naming
it. A decision on "those few" ("那几个都批了") asks for no list. The phrasings were written for this test, after the
rule (queryTodoTask's `answers`)."""

from __future__ import annotations

import re

import pytest
from langchain_core.messages import ToolMessage

from evals.doubles.scripted import tool_call
from tools.workflow import TOOLSET


@pytest.mark.parametrize(("text", "asks"), [
    ("王五手上还有多少没批的", True),
    ("我这边积压了哪些待办？", True),
    ("几个待审批的在赵六那儿？", True),
    ("how many tasks is Zhao Liu sitting on?", True),
    ("what's waiting for me today", True),
    ("which leave requests are waiting on HR?", True),  # the forty-sixth round's run asked it of finance
    ("what is sitting with Li Si right now", True),
    ("which of my claims are waiting on finance?", False),  # the person's own: where their requests are
    # what the person filed is theirs too, and "someone" is no group (the seventy-first round's writer; written for this)
    ("is there anything I submitted last week still sitting with someone?", False),
    ("anything I've sent in that's still waiting on anybody", False),
    ("anything I put in still waiting for somebody?", False),
    ("anything in the finance queue this morning?", True), ("what's on my approvals tray", True),  # the 50th round's run
    ("帮我把待批的那几个都批了", False),
    ("我这几个待办都批了吧", False),
    ("我的申请到哪了", False),
    ("how many days of annual leave do I have left", False),
    ("approve all of them", False),
])
def test_a_question_of_how_many_or_which_to_dos_asks_for_the_list(text, asks):
    spec = TOOLSET.registry.get("queryTodoTask")
    assert any(re.search(p, text, re.IGNORECASE) for p in spec.answers) is asks


def test_an_answer_after_another_look_up_is_sent_back_to_list_the_to_dos(graph_driver, start_request):
    start_request(requester="user_1", approver="user_4", days=1, reason="看病")
    start_request(requester="user_3", approver="user_4", days=2, reason="搬家")
    agent = graph_driver(tool_call("queryMyDeputies", {}), "你没有设置代理人。",
                         tool_call("queryTodoTask", {"userId": "赵六"}), "赵六有 2 个待办。", user_id="user_2")
    result = agent.say("赵六手上现在还有多少没批的？")
    assert [m.name for m in result["messages"] if isinstance(m, ToolMessage)] == ["queryMyDeputies", "queryTodoTask"]
    assert "2" in str(result["messages"][-1].content)


def test_with_a_small_models_answers_fixed_another_look_up_does_not_end_the_run(graph_driver, start_request):
    # fixed_answers: one successful look-up ends a question's run with what it found; not one that answers nothing asked
    start_request(requester="user_1", approver="user_4", days=1, reason="看病")
    agent = graph_driver(tool_call("queryMyDeputies", {}), "你没有设置代理人。",
                         tool_call("queryTodoTask", {"userId": "赵六"}), user_id="user_2", fixed_answers=True)
    result = agent.say("赵六那边压着几个没批的？")
    assert [m.name for m in result["messages"] if isinstance(m, ToolMessage)] == ["queryMyDeputies", "queryTodoTask"]
    assert "task_1" in str(result["messages"][-1].content)


@pytest.mark.parametrize(("text", "user"), [  # written after the rule; none from a scenario
    ("王五手上还压着几个没批的？", "user_3"),
    ("赵六那边有哪些待办", "user_4"),
    ("how many tasks has Zhao Liu got waiting?", "user_4"),
])
def test_the_to_dos_listed_are_those_of_whom_the_person_says_they_sit_with(graph_driver, start_request, text, user):
    agent = graph_driver(tool_call("queryTodoTask", {"userId": "张三"}), "好的。", user_id="user_1")
    result = agent.say(text)
    [observation] = [m for m in result["messages"] if isinstance(m, ToolMessage)]
    assert observation.status == "success" and observation.artifact["userId"] == user


@pytest.mark.parametrize("text", ["张三交上来的几个待办都有啥", "我手上有几个待办"])
def test_the_persons_own_to_dos_stay_theirs(graph_driver, text):
    agent = graph_driver(tool_call("queryTodoTask", {}), "好的。", user_id="user_2")
    result = agent.say(text)
    [observation] = [m for m in result["messages"] if isinstance(m, ToolMessage)]
    assert observation.artifact["userId"] == "user_2"


@pytest.mark.parametrize("said", [  # written after the rule (the sixteenth round's writer found it; none from it)
    "批了吧，备注：他年假余额还够",
    "approve it, note: he still has annual leave left",
])
def test_a_write_done_asks_for_no_look_up_its_comment_names(graph_driver, start_request, said):
    start_request(requester="user_1", approver="user_2", days=1, reason="看病")
    decide = tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True, "result": said.split("：")[-1]})
    agent = graph_driver(decide, "已批准。", user_id="user_2")
    agent.say(said)
    result = agent.approve()
    assert [m.name for m in result["messages"] if isinstance(m, ToolMessage)] == ["handleTodoTask"]
    assert "script exhausted" not in str(result["messages"][-1].content)


@pytest.mark.parametrize("said", [  # the forty-eighth round's run listed the colleague's; none of these is its words
    "Wang Wu mentioned his leave request is sitting with me. What's pending for me right now?",
    "王五说他的请假卡在我这好几天了，我手上的待办有哪些？",
])
def test_a_colleague_named_beside_a_question_of_ones_own_to_dos_lists_ones_own(graph_driver, start_request, said):
    start_request(requester="user_3", approver="user_2", days=1, reason="搬家")
    agent = graph_driver(tool_call("queryTodoTask", {"userId": "王五"}), "OK.", user_id="user_2", fixed_answers=True)
    result = agent.say(said)
    [looked] = [m for m in result["messages"] if isinstance(m, ToolMessage)]
    assert looked.artifact["total"] == 1 and "task_1" in str(result["messages"][-1].content)
