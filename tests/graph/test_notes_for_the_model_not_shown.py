"""Words meant for the model never reach the person, and a question of what waits on the person is answered with their
to-dos (read after the thirty-fifth and thirty-sixth rounds' run: the offline model answered by repeating a refusal's
note, ": the latest message is a question that asks for no change; …", and "我这边现在有啥要我批的？" was answered with
the lead's own claim). Phrasings written for these tests, none from a scenario."""

from __future__ import annotations

from langchain_core.messages import AIMessage

from evals.doubles.scripted import tool_call


def test_an_answer_that_repeats_a_refusal_note_is_replaced_by_what_was_found(graph_driver, store):
    echo = "Sorry: the latest message is a question that asks for no change; answer it from what the look-ups found."
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "rest", "days": 1,
                                                   "nextUserId": "李四"}), echo, echo, echo, user_id="user_1")
    result = agent.say("How many days of leave can a person take in a row?")
    answer = result["messages"][-1]
    assert isinstance(answer, AIMessage) and "look-ups found" not in str(answer.content)
    assert "asks for no change" not in str(answer.content) and str(answer.content).strip()


def test_what_waits_on_the_person_is_their_to_dos_not_their_own_requests(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_3", days=1, reason="体检")  # a to-do waiting on 王五
    start_request(requester="user_3", approver="user_2", days=2, reason="回老家")  # 王五's own request
    agent = graph_driver(tool_call("queryMyRequests", {}), "模型不会再被问。", user_id="user_3", fixed_answers=True)
    result = agent.say("今天有什么单子等我审的吗？")
    answer = str(result["messages"][-1].content)
    assert "张三" in answer and "task_1" in answer and "回老家" not in answer
