"""A person who says to send their returned request again (再提一次, "resend it") wants it sent, not withdrawn: a
withdrawal the model proposes for it is refused to the model, with the resend to call instead, before any card. A
message that takes the request back, even while it speaks of sending again, is untouched.

The phrasings were written for this test, after the rule; none is taken from a scenario."""

from __future__ import annotations

import pytest
from langchain_core.messages import ToolMessage

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.workflow import TOOLSET
from tools.workflow.resubmit import RESEND
from tools.workflow.words import WITHDRAW as _WITHDRAW


def _returned(store, make_ctx, start_request) -> None:
    start_request(requester="user_1", approver="user_2", days=4, reason="回老家")
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "最多批两天"}, make_ctx("user_2"))


def test_a_withdrawal_proposed_for_a_resend_is_refused_to_the_model(graph_driver, store, make_ctx, start_request):
    _returned(store, make_ctx, start_request)
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "req_1"}),
                         tool_call("resubmitRequest", {"requestId": "req_1", "days": 2}), "已重新提交。")
    result = agent.say("知道了，天数改成2天，重新交一下")
    refused = [m for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "error"]
    assert len(refused) == 1 and str(refused[0].content).startswith("Error [resend_not_withdraw]")
    assert "resubmitRequest" in str(refused[0].content)
    assert agent.card is not None and agent.card["action"] == "resubmitRequest"  # the next card is the resend's
    assert [r["status"] for r in store.snapshot()["requests"]] == ["returned"]


def test_a_withdrawal_the_person_asked_for_is_untouched(graph_driver, store, make_ctx, start_request):
    _returned(store, make_ctx, start_request)
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "req_1"}), "已撤回。")
    agent.say("算了，不再提交了，直接撤回吧")
    assert agent.card is not None and agent.card["action"] == "withdrawRequest"


@pytest.mark.parametrize(("text", "again", "back"), [
    ("行，按他说的改成两天重新提交", True, False),
    ("那我把理由写清楚再提一遍", True, False),
    ("改完再交吧", True, False),
    ("Fine, make it two days and resend it", True, False),
    ("Change the reason to my kid's recital and submit it again", True, False),
    ("ok, re-submit with 3 days", True, False),
    ("算了，撤回吧，下个月再重新申请", True, True),
    ("Never mind, withdraw it; I'll file it again next month", True, True),
    ("把我的请假撤了", False, True),
    ("Scrap my expense claim", False, True),
    ("我的请假到哪一步了", False, False),
    ("What did Li Si say when he sent it back?", False, False),
])
def test_sending_again_and_taking_back_are_read_from_their_words(text, again, back):
    assert (bool(RESEND.search(text)), bool(_WITHDRAW.search(text))) == (again, back)
