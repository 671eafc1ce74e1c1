"""What a message asks beside a look-up, for a model whose answers are not trusted (`Context.fixed_answers`, the offline
model's): another look-up it asks for, made even when the model, reminded, leaves it out; and a reminder asked beside a
question about where the person's request is ("我的请假到哪一步了？还在王五那儿的话帮我催一下") is proposed after the
look-up, to its card; not when the person they name no longer holds it, nor when their words fit several requests.
Written after the forty-second round's run (a claim looked up and told, the reminder never proposed); none of these
phrasings is from a scenario."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call

LOOKUP = tool_call("queryMyRequests", {"userId": "user_1"})


@pytest.mark.parametrize("said", [
    "我的请假到哪一步了？还在王五那儿的话帮我催一下", "where's my leave request at? if Wang Wu still has it, give him a nudge",
    "请假批了没啊 没批就催催",
])
def test_a_reminder_asked_beside_the_look_up_gets_its_card(graph_driver, start_request, said):
    start_request(requester="user_1", approver="user_3", days=1, reason="看牙")
    agent = graph_driver(LOOKUP, "It is with Wang Wu.", "OK.", user_id="user_1", fixed_answers=True)
    agent.say(said)
    assert [(a["name"], a["args"]["requestId"]) for a in agent.actions] == [("urgeTask", "req_1")]


@pytest.mark.parametrize("said", [
    "我的请假到哪一步了？要是还在赵六那儿就帮我催一下", "where is my leave? nudge Zhao Liu if he has it",
])
def test_no_reminder_when_the_person_named_holds_it_no_longer(graph_driver, start_request, said):
    start_request(requester="user_1", approver="user_3", days=1, reason="看牙")  # with 王五
    agent = graph_driver(LOOKUP, "It is with Wang Wu, not Zhao Liu.", user_id="user_1", fixed_answers=True)
    agent.say(said)
    assert agent.actions == []


def test_no_reminder_when_the_words_fit_several_requests(graph_driver, start_request):
    start_request(requester="user_1", approver="user_3", days=1, reason="看牙")
    start_request(requester="user_1", approver="user_2", days=1, reason="搬家")
    agent = graph_driver(LOOKUP, "Two leaves are waiting.", user_id="user_1", fixed_answers=True)
    agent.say("我的请假都到哪一步了？没批的帮我催一下")
    assert agent.actions == []


@pytest.mark.parametrize("said", [
    "where's my leave request at? and how many days of annual leave have I got left?", "我的请假到哪了？另外我还剩几天年假？",
])
def test_a_look_up_asked_beside_another_and_left_out_after_the_reminder_is_made(graph_driver, start_request, said):
    # the forty-second round, read after its run: the trip was told, the balance left out even when reminded
    start_request(requester="user_1", approver="user_3", days=1, reason="看牙")
    agent = graph_driver(LOOKUP, "It is with Wang Wu.", "It is with Wang Wu.", "It is with Wang Wu.", user_id="user_1",
                         fixed_answers=True)
    answer = str(agent.say(said)["messages"][-1].content)
    assert [m.name for m in agent.values["messages"] if m.type == "tool"] == ["queryMyRequests", "getLeaveBalance"]
    assert ("annual leave" in answer or "年假" in answer) and ("Wang Wu" in answer or "王五" in answer), answer


@pytest.mark.parametrize("said", [  # the forty-eighth round's run proposed a claim after a return; none of its words
    "Wang Wu dropped by: he typed 920 on his taxi claim but the receipt is 290. Send it back to him to fix, comment: "
    "the receipt says 290",
    "王五说他报销填成了920，小票是290，退回去让他改，意见：小票是290",
])
def test_a_write_the_message_asked_for_is_not_followed_by_a_start_of_its_words(graph_driver, make_ctx, said):
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "reason": "taxi to the airport",
                                          "nextUserId": "user_2", "fields": {"amount": 920, "category": "差旅"}},
                 make_ctx("user_3"))
    comment = "the receipt says 290" if "receipt" in said else "小票是290"
    agent = graph_driver(tool_call("returnTask", {"taskId": "task_1", "comment": comment}), "Sent back.", "Sent back.",
                         user_id="user_2", fixed_answers=True)
    agent.say(said)
    agent.approve()
    proposed = [c["name"] for m in agent.values["messages"] for c in getattr(m, "tool_calls", [])]
    assert proposed == ["returnTask"] and agent.interrupts == []
