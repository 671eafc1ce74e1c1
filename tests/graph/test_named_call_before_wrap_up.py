"""A model that makes the same refused call again, where the refusal named the call the person's words ask for: the
named call is proposed (no model call) before the run wraps up for the repeat. The eighty-sixth round's run: "Wang Wu's
leave is in my queue. If I approve it, is that it?" looked up the approver's own requests twice, was told twice to show
the to-do, and ended with "several steps failed". Phrasings written for this test, none from a round."""

from __future__ import annotations

import pytest
from langchain_core.messages import ToolMessage

from evals.doubles.scripted import tool_call


@pytest.mark.parametrize("said", [
    "Zhao Liu's leave is waiting on me. Once I approve it, does anyone else need to sign?",
    "赵六的请假在我这儿，我批了之后还要别人审吗？",
])
def test_a_refused_call_made_again_has_the_named_look_up_made_before_the_run_ends(graph_driver, start_request, said):
    start_request(requester="user_4", approver="user_2", days=4, reason="family visit")
    agent = graph_driver(tool_call("queryMyRequests", {}, id="q1"), tool_call("queryMyRequests", {}, id="q2"),
                         "It goes on to HR after you.", user_id="user_2")
    result = agent.say(said)
    ran = [m.name for m in result["messages"] if isinstance(m, ToolMessage) and m.status == "success"]
    assert ran == ["viewTask"], ran
    assert agent.actions == []  # a look-up: nothing to confirm, nothing written
