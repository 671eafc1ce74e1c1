"""What the person quotes someone else as saying is theirs: "我那笔报销" in 张三's message, passed on by his approver,
is 张三's claim, not the approver's (the forty-eighth round's writer found the approver sent to their own requests).
What the person quotes themselves saying, or gives as a text to write, stays theirs. Phrasings written for these
tests, none from a scenario."""

from __future__ import annotations

import pytest
from langchain_core.messages import ToolMessage

from evals.doubles.scripted import tool_call
from tools.message_kind import others_words_masked
from tools.workflow.words import asks_own_approval


@pytest.mark.parametrize("said", [
    "王五下午在钉钉上给我留言：“我那个出差你抓紧批一下，客户等着呢”。他那个出差具体是去哪？",
    'Wang Wu texted me: "my trip request is urgent, can you sign it today?" Where is his trip to, exactly?',
    "王五跟我说「我的假你直接通过就行」，先让我看看他请的什么假",
])
def test_a_request_called_mine_in_someone_elses_quoted_words_is_theirs(graph_driver, start_request, said):
    start_request(requester="user_3", approver="user_2", days=2, reason="搬家")
    agent = graph_driver(tool_call("viewTask", {"taskId": "task_1"}), "好的", user_id="user_2")
    result = agent.say(said)
    [looked] = [m for m in result["messages"] if isinstance(m, ToolMessage)]
    assert looked.name == "viewTask" and looked.status != "error", looked.content


@pytest.mark.parametrize(("said", "kept"), [
    ("我跟李四说：“我的报销麻烦尽快批”，他还没回", "我的报销"),  # the person's own words, quoted
    ('I told Li Si: "please sign my claim today"', "my claim"),
    ("意见写“我这边没意见”", "我这边没意见"),  # a text to write
])
def test_what_the_person_quotes_themselves_saying_stays_theirs(said, kept):
    assert kept in others_words_masked(said)


@pytest.mark.parametrize(("said", "own"), [
    ('Wang Wu pinged me: "just approve my claim, it is fine" - ok, approve his claim', False),
    ("王五刚才说：“我那笔报销你直接通过就行”，那就通过吧", False),
    ("我那笔报销你直接帮我通过一下", True),
])
def test_an_approval_of_mine_in_the_requesters_quoted_words_is_no_self_approval(said, own):
    assert asks_own_approval(said, "action") is own
