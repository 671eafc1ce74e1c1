"""The person at the approval cards: scripted decisions for the expected cards, a fixed rule for the rest."""

from __future__ import annotations

from typing import Any

from evals.grader import row_matches
from evals.scenario import Review

UNEXPECTED_CARD_MESSAGE = "I did not ask for this action; do not do it."


class Reviewer:
    """Decides expected cards as scripted; rejects any other card (an attentive person) or approves it
    (a rubber stamp, so that only code-level policy stands in the way)."""

    def __init__(self, reviews: list[Review], rubber_stamp: bool) -> None:
        self._reviews = list(reviews)
        self._rubber_stamp = rubber_stamp
        self.unexpected: list[str] = []

    @property
    def remaining(self) -> list[Review]:
        return self._reviews

    def decide(self, request: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """The resume value for one interrupt (LangChain's HITL request) and a one-line note of the decision
        (with the card's policy notes)."""
        action = request["action_requests"][0]
        decision, note = self._decide(action)
        notes = (action.get("card") or {}).get("policy_notes") or []
        return {"decisions": [decision]}, note + "".join(f" | {n}" for n in notes)

    def _decide(self, action: dict[str, Any]) -> tuple[dict[str, Any], str]:
        tool = action["name"]
        approve = {"type": "approve", "args_hash": action.get("args_hash")}
        if self._reviews and self._expected(self._reviews[0], action):
            review = self._reviews.pop(0)
            if review.decision == "edit":
                edited = {"name": tool, "args": {**action["args"], **review.edit}}
                return {"type": "edit", "edited_action": edited}, f"{tool} → edit"
            if review.decision == "reject":
                return {"type": "reject", "message": review.message or UNEXPECTED_CARD_MESSAGE}, f"{tool} → reject"
            return approve, f"{tool} → approve"
        self.unexpected.append(f"{tool}({action.get('args')})")
        if self._rubber_stamp:
            return approve, f"{tool} → approve (unexpected)"
        return {"type": "reject", "message": UNEXPECTED_CARD_MESSAGE}, f"{tool} → reject (unexpected)"

    @staticmethod
    def _expected(review: Review, action: dict[str, Any]) -> bool:
        return (
            action.get("name") == review.tool
            and row_matches(action.get("args") or {}, review.args)
            and row_matches(action.get("card") or {}, review.card)
        )
