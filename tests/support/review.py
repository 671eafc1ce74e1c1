"""The approval card's shape in one place: what a waiting interrupt proposes, and the answer that approves it.

The human_review interrupt is moving to LangChain's HITL request shape (`action_requests` / `review_configs`,
resumed with `{"decisions": [{"type": "approve"}]}`); tests that resume through the API read and answer cards
only through these two functions, which understand both shapes.
"""

from __future__ import annotations

from typing import Any


def proposed_call(value: dict[str, Any]) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """(tool name, exact arguments, card built from the store) of a waiting human_review interrupt value."""
    if "action_requests" in value:
        [request] = value["action_requests"]
        return request["name"], request["args"], request["card"]
    return value["tool"], value["args"], value["card"]


def approval(value: dict[str, Any]) -> dict[str, Any]:
    """The resume value that approves the card of `value`, exactly as shown (its hash where the shape has one)."""
    if "action_requests" in value:
        return {"decisions": [{"type": "approve"}]}
    return {"decision": "approve", "args_hash": value["args_hash"]}
