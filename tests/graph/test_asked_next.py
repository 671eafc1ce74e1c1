"""A message that decides two or more to-dos has each decided, for a model whose answers are not trusted: such a run
ends after a write, and had decided the first and left the rest (read in the twenty-second round: "这两条都给过了"
approved one of two). The write no longer ends it while the message asks for more; the next to-do is proposed as the
person said, with no model call, to its own card. Phrasings written for these tests, none from a scenario."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage

from evals.doubles.scripted import tool_call


def final(result: dict[str, Any]) -> AIMessage:
    last = result["messages"][-1]
    assert isinstance(last, AIMessage) and not last.tool_calls, last
    return last


def _three(start_request) -> None:  # type: ignore[no-untyped-def]
    start_request(requester="user_1", approver="user_2", days=1, reason="回老家")  # task_1: 张三
    start_request(requester="user_3", approver="user_2", days=1, reason="搬家")  # task_2: 王五
    start_request(requester="user_4", approver="user_2", days=1, reason="陪产检")  # task_3: 赵六


@pytest.mark.parametrize(("said", "decided"), [
    ("张三那条，还有赵六的，这俩都可以过", {"task_1": True, "task_3": True}),
    ("OK Zhang San's and Zhao Liu's too", {"task_1": True, "task_3": True}),
    ("王五的先放着，张三和赵六的同意", {"task_1": True, "task_3": True}),
    ("Reject Zhao Liu's, short-staffed; Zhang San's is fine, approve", {"task_3": False, "task_1": True}),
])
def test_each_to_do_the_message_decides_gets_its_card(graph_driver, store, start_request, said, decided):
    _three(start_request)
    first = next(iter(decided))
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": first, "isOK": decided[first]}), "模型不会再被问。",
                         user_id="user_2", fixed_answers=True)
    agent.say(said)
    cards = []
    while agent.actions:
        [action] = agent.actions
        cards.append((action["args"]["taskId"], action["args"]["isOK"]))
        result = agent.approve()
    assert dict(cards) == decided and len(cards) == len(decided)
    assert len(agent.model.prompts) == 1  # the rest were proposed as the person said
    statuses = {f"task_{t['id']}": t["status"] for t in store.snapshot()["tasks"]}
    assert statuses == {"task_1": "pending", "task_2": "pending", "task_3": "pending",
                        **{t: "approved" if ok else "rejected" for t, ok in decided.items()}}
    assert final(result).content.count("task_") >= len(decided)  # the answer says what each write did


def test_a_declined_card_ends_the_run_with_the_rest_undecided(graph_driver, store, start_request):
    _three(start_request)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True}), user_id="user_2",
                         fixed_answers=True)
    agent.say("张三和王五的都批了")
    agent.resume({"decisions": [{"type": "reject", "message": "等等"}]})
    assert agent.actions == [] and [t["status"] for t in store.snapshot()["tasks"]] == ["pending"] * 3


@pytest.mark.parametrize("said", ["张三的批了，王五的明天再看", "approve Zhang San's, Wang Wu already told me about his",
                                  "approve Zhang San's leave"])
def test_a_to_do_put_off_or_only_mentioned_is_not_proposed(graph_driver, store, start_request, said):
    _three(start_request)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True}), user_id="user_2",
                         fixed_answers=True)
    agent.say(said)
    agent.approve()
    assert agent.actions == []
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["approved", "pending", "pending"]


def test_an_answer_with_nothing_done_where_the_message_decides_to_dos_brings_the_first_card(graph_driver, store,
                                                                                           start_request):
    # the twenty-fifth round, read: the offline model answered "已批准" to a message deciding two to-dos, with nothing
    # proposed; the first decision the message asks for is proposed as said (phrasing written for this test)
    _three(start_request)
    agent = graph_driver("好的，都处理好了。", user_id="user_2", fixed_answers=True)
    agent.say("赵六那条先驳回，这周人手不够；张三的同意")
    [action] = agent.actions
    assert action["name"] == "handleTodoTask" and action["args"]["taskId"] == "task_3"
    assert action["args"]["isOK"] is False


@pytest.mark.parametrize("said", ["请假的都给过了吧", "approve all the leave requests"])
def test_an_answer_with_nothing_done_to_a_plain_batch_brings_the_batch_card(graph_driver, store, start_request, said):
    # the twenty-seventh round, read: "报销的都过了" answered "报销的都过了" with nothing proposed (written after the rule)
    _three(start_request)
    agent = graph_driver("好的，都过了。", user_id="user_2", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "decideTasks" and action["args"]["processKey"] == "process_qingjia"
    assert [d["taskId"] for d in action["args"]["decisions"]] == ["task_1", "task_2", "task_3"]
    agent.approve()
    assert agent.actions == []  # decided once: the batch is not proposed again
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["approved"] * 3


def test_what_is_still_asked_is_read_once_per_step(graph_driver, store, start_request):
    # budget_check asks after the write and the reasoner right after it asks the same: one read of the store each
    from dataclasses import replace

    from tools.workflow.toolset import TOOLSET

    reads: list[str] = []

    def counted(handle, request, user_id, done):  # type: ignore[no-untyped-def]
        reads.append(user_id)
        return TOOLSET.asked_next(handle, request, user_id, done)

    _three(start_request)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True}), user_id="user_2",
                         fixed_answers=True, toolset=replace(TOOLSET, asked_next=counted))
    agent.say("张三和赵六的都批了")
    agent.approve()  # task_1 decided: the step after it proposes task_3
    assert agent.actions[0]["args"]["taskId"] == "task_3"
    assert len(reads) == 1
    agent.approve()  # task_3 decided: nothing is left, asked once more
    assert agent.actions == [] and len(reads) == 2
