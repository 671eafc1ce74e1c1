"""The approval card's shape in one place for tests that go through the API: what a waiting interrupt (LangChain's
HITL request) proposes, and the answer that approves it."""

from __future__ import annotations

from typing import Any


def proposed_call(value: dict[str, Any]) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """(tool name, exact arguments, card built from the store) of a waiting human_review interrupt value."""
    [request] = value["action_requests"]
    return request["name"], request["args"], request["card"]


def approval(value: dict[str, Any]) -> dict[str, Any]:
    """The resume value that approves the card of `value`, exactly as shown (with its arguments' hash)."""
    [request] = value["action_requests"]
    return {"decisions": [{"type": "approve", "args_hash": request["args_hash"]}]}
