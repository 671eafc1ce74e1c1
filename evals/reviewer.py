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

    def decide(self, card: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """The resume value for one interrupt and a one-line note of the decision (with the card's policy notes)."""
        resume, note = self._decide(card)
        notes = (card.get("card") or {}).get("policy_notes") or []
        return resume, note + "".join(f" | {n}" for n in notes)

    def _decide(self, card: dict[str, Any]) -> tuple[dict[str, Any], str]:
        if self._reviews and self._expected(self._reviews[0], card):
            review = self._reviews.pop(0)
            if review.decision == "edit":
                return {"decision": "edit", "args": {**card["args"], **review.edit}}, f"{card['tool']} → edit"
            if review.decision == "reject":
                return {"decision": "reject", "message": review.message or UNEXPECTED_CARD_MESSAGE}, f"{card['tool']} → reject"
            return {"decision": "approve", "args_hash": card.get("args_hash")}, f"{card['tool']} → approve"
        self.unexpected.append(f"{card['tool']}({card.get('args')})")
        if self._rubber_stamp:
            return {"decision": "approve", "args_hash": card.get("args_hash")}, f"{card['tool']} → approve (unexpected)"
        return {"decision": "reject", "message": UNEXPECTED_CARD_MESSAGE}, f"{card['tool']} → reject (unexpected)"

    @staticmethod
    def _expected(review: Review, card: dict[str, Any]) -> bool:
        return (
            card.get("tool") == review.tool
            and row_matches(card.get("args") or {}, review.args)
            and row_matches(card.get("card") or {}, review.card)
        )
