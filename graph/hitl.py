"""Approvals in LangChain's human-in-the-loop shape (`HumanInTheLoopMiddleware`'s `HITLRequest` and
`HITLResponse`), so LangChain's UIs and clients can answer flowagent's cards.

A card interrupts with
    {"action_requests": [{"name", "args", "description", "tool_call_id", "args_hash", "card"}],
     "review_configs": [{"action_name", "allowed_decisions"}]}
where `description` is the card built from the store, in words, and `card` the same as fields. It is
resumed with `{"decisions": [{"type": "approve"}]}`, `{"type": "edit", "edited_action": {"name", "args"}}`
or `{"type": "reject", "message": "..."}`; a decision may carry the `args_hash` of the card it answers.
One write is proposed a step, so the lists hold one action; they stay lists, as the convention has them.

flowagent's earlier answer `{"decision": "approve" | "edit" | "reject", "args": ..., "message": ...}` (and
the bare words approve / reject) is still accepted: `standard_decision` turns it into the standard one.
"""

from __future__ import annotations

import json
from typing import Any, Literal

DecisionType = Literal["approve", "edit", "reject"]
ALLOWED_DECISIONS: list[DecisionType] = ["approve", "edit", "reject"]

BAD_ANSWER_TEMPLATE = (
    'Unrecognised answer {answer}: resume with {{"decisions": [{{"type": "approve"}}]}}, '
    '{{"decisions": [{{"type": "edit", "edited_action": {{"name": "{tool}", "args": {{...}}}}}}]}} or '
    '{{"decisions": [{{"type": "reject", "message": "..."}}]}}.'
)
WRONG_COUNT_TEMPLATE = "{count} decisions were sent for {expected} action(s): send one decision per action request."
OTHER_TOOL_TEMPLATE = "An edit may change the arguments of {tool}, not the action: edited_action.name must be {tool}."


def card_description(card: dict[str, Any]) -> str:
    """The card as a person reads it, in their language: its summary, one line per labelled field (`labels`: the
    fields meant for a person, in order), then its notes. Ids, raw values and the checks' notes for the model are
    left to the card's other fields."""
    lines = [str(card.get("summary") or card.get("title") or card.get("action", ""))]
    for key, label in (card.get("labels") or {}).items():
        value = card.get(key)
        if value in ("", None, []):
            continue
        text = "\n  ".join(str(v) for v in value) if isinstance(value, list) else str(value)
        lines.append(f"{label}: {text}")
    lines += [str(note) for note in card.get("notes") or []]
    return "\n".join(lines)


def hitl_request(
    call: dict[str, Any], card: dict[str, Any], args_hash: str, error: str | None = None
) -> dict[str, Any]:
    """The interrupt value for one pending call: the standard request, the card riding along."""
    action = {
        "name": call["name"],
        "args": call["args"],
        "description": card_description(card),
        "tool_call_id": call["id"],
        "args_hash": args_hash,
        "card": card,
    }
    request: dict[str, Any] = {
        "action_requests": [action],
        "review_configs": [{"action_name": call["name"], "allowed_decisions": list(ALLOWED_DECISIONS)}],
    }
    if error:
        request["error"] = error
    return request


def standard_decision(answer: Any) -> Any:
    """flowagent's earlier answers (`{"decision": ...}`, or the words approve / reject) as the standard
    `{"decisions": [...]}`; anything else unchanged."""
    if isinstance(answer, str):
        answer = {"decision": answer}
    if not isinstance(answer, dict) or "decision" not in answer or "decisions" in answer:
        return answer
    word = str(answer.get("decision", "")).strip().lower()
    kind = {"approve": "approve", "approved": "approve", "yes": "approve", "y": "approve",
            "reject": "reject", "rejected": "reject", "no": "reject", "n": "reject", "edit": "edit"}.get(word)
    if kind is None:
        return answer
    decision: dict[str, Any] = {"type": kind}
    if kind == "edit":
        decision["edited_action"] = {"name": None, "args": answer.get("args")}
    if kind == "reject" and answer.get("message"):
        decision["message"] = answer["message"]
    if answer.get("args_hash"):
        decision["args_hash"] = answer["args_hash"]
    return {"decisions": [decision]}


def read_decision(answer: Any, tool: str) -> tuple[DecisionType | None, dict[str, Any], str]:
    """The person's decision on the one action of a card about `tool`: its type, its body (`args` of an
    edit, `message` of a rejection, the `args_hash` answered) and, when it cannot be used, why (the
    type is then None)."""
    answer = standard_decision(answer)
    decisions = answer.get("decisions") if isinstance(answer, dict) else None
    if not isinstance(decisions, list):
        return None, {}, _bad(answer, tool)
    if len(decisions) != 1:
        return None, {}, WRONG_COUNT_TEMPLATE.format(count=len(decisions), expected=1)
    decision = decisions[0]
    kind = decision.get("type") if isinstance(decision, dict) else None
    if kind not in ALLOWED_DECISIONS:
        return None, {}, _bad(answer, tool)
    body: dict[str, Any] = {"args_hash": decision.get("args_hash")}
    if kind == "edit":
        edited = decision.get("edited_action")
        if not isinstance(edited, dict) or not isinstance(edited.get("args"), dict):
            return None, {}, _bad(answer, tool)
        if edited.get("name") not in (None, tool):
            return None, {}, OTHER_TOOL_TEMPLATE.format(tool=tool)
        body["args"] = edited["args"]
    if kind == "reject" and decision.get("message"):
        body["message"] = str(decision["message"])
    return kind, body, ""


def _bad(answer: Any, tool: str) -> str:
    shown = json.dumps(answer, ensure_ascii=False, default=str)[:200]
    return BAD_ANSWER_TEMPLATE.format(answer=shown, tool=tool)
