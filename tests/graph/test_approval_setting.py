"""Which tools stop for a person's confirmation is declared per tool and can be changed per deployment
(FLOWAGENT_APPROVAL_TOOLS): starting a request stops at a card by default; a deployment may decide otherwise."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from tools.toolsets import approval_registry
from tools.workflow import TOOLSET

LEAVE = {"processKey": "process_qingjia", "reason": "看牙医", "days": 1, "nextUserId": "李四"}


def test_starting_a_request_needs_the_requesters_confirmation_by_default():
    assert set(TOOLSET.registry.approval_required()) == {
        "runWorkFlow", "handleTodoTask", "sendEmail", "withdrawRequest", "returnTask", "resubmitRequest", "transferTask",
        "setDeputy", "urgeTask", "decideTasks"}


def test_a_deployment_names_exactly_the_tools_that_stop_for_a_person():
    registry = approval_registry(TOOLSET, " handleTodoTask, sendEmail ")
    assert registry is not None and set(registry.approval_required()) == {"handleTodoTask", "sendEmail"}
    assert approval_registry(TOOLSET, "") is None  # unset: the tools' specs decide


def test_a_deployment_that_names_an_unknown_tool_is_told_which_there_are():
    with pytest.raises(ValueError, match="no such tool runWorkflow: the tools are getAllWorkFlow"):
        approval_registry(TOOLSET, "runWorkflow")


def test_a_deployment_without_a_start_card_files_at_once(graph_driver, store):
    registry = approval_registry(TOOLSET, "handleTodoTask,sendEmail")
    agent = graph_driver(tool_call("runWorkFlow", LEAVE), "已提交。", registry=registry)
    agent.say("明天请1天假看牙医，李四审批")
    assert agent.interrupts == []
    assert [r["reason"] for r in store.snapshot()["requests"]] == ["看牙医"]


def test_by_default_the_same_request_waits_for_its_card(graph_driver, store):
    agent = graph_driver(tool_call("runWorkFlow", LEAVE), "已提交。")
    agent.say("明天请1天假看牙医，李四审批")
    assert [a["name"] for a in agent.actions] == ["runWorkFlow"]
    assert store.snapshot()["requests"] == []
