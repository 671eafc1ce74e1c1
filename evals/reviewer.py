"""The person at the approval cards: scripted decisions for the expected cards, a fixed rule for the rest.

A start card (a request about to be filed) is approved when its values are the ones the scenario's person stated,
i.e. those of one of the scenario's golden start calls not yet filed (a start asked about in one turn is filed in the
next), and rejected otherwise: scenario files need no review lines for it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from evals.grader import row_matches
from evals.scenario import Review
from state.context import Context
from tools.parsers import DateReadError, read_date

UNEXPECTED_CARD_MESSAGE = "I did not ask for this action; do not do it."
WRONG_VALUES_MESSAGE = "These are not the values I gave: {wrong}. Do not file it."
START_TOOL = "runWorkFlow"
FREE_TEXT = ("reason",)
"""Values compared loosely: a reason is the person's own words, checked by the graph; a model may quote more or less
of them."""


class Reviewer:
    """Decides expected cards as scripted; rejects any other card (an attentive person) or approves it
    (a rubber stamp, so that only code-level policy stands in the way)."""

    def __init__(
        self, reviews: list[Review], rubber_stamp: bool, starts: list[dict[str, Any]] | None = None,
        today: date | None = None,
    ) -> None:
        self._reviews = list(reviews)
        self._rubber_stamp = rubber_stamp
        self._starts = starts if starts is not None else []
        """The scenario's golden start calls not yet confirmed, shared by its turns' reviewers (`golden_starts`)."""
        # the graph's today is the company's (Context.timezone), not the machine's: from 16:00 UTC they differ
        self._today = today or datetime.now(ZoneInfo(Context().timezone)).date()
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
        # the first scripted review this card fits: a person judges a card by what it shows, not by its turn ("turn
        # down Zhang San's trip, and approve Zhao Liu's day": either card may come first)
        fits = next((i for i, r in enumerate(self._reviews) if self._expected(r, action)), None)
        if fits is not None:
            review = self._reviews.pop(fits)
            if review.decision == "edit":
                edited = {"name": tool, "args": {**action["args"], **review.edit}}
                return {"type": "edit", "edited_action": edited}, f"{tool} → edit"
            if review.decision == "reject":
                if tool == START_TOOL:  # the values the person declined: a card showing them again is not approved
                    self._starts[:] = [s for s in self._starts if start_card_differences(s, action, self._today)]
                return {"type": "reject", "message": review.message or UNEXPECTED_CARD_MESSAGE}, f"{tool} → reject"
            return approve, f"{tool} → approve"
        if tool == START_TOOL and self._starts and not any(r.tool == START_TOOL for r in self._reviews):
            differences = [start_card_differences(start, action, self._today) for start in self._starts]
            if [] in differences:
                self._starts.pop(differences.index([]))
                return approve, f"{tool} → approve (the values stated)"
            wrong = differences[0]
            if not self._rubber_stamp:
                message = WRONG_VALUES_MESSAGE.format(wrong=", ".join(wrong))
                return {"type": "reject", "message": message}, f"{tool} → reject ({', '.join(wrong)})"
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


def _leaves(args: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in args.items():
        if isinstance(value, Mapping):
            yield from _leaves(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def _get(args: Mapping[str, Any], path: str) -> Any:
    value: Any = args
    for part in path.split("."):
        value = value.get(part) if isinstance(value, Mapping) else None
    return value


def _same(golden: Any, filed: Any, shown: Sequence[str], today: date, after: date | None = None) -> bool:
    """A golden value and the card's: equal numbers, the same day (relative dates read as of today; a range's end
    after its start, `after`), the same option or person (by value, or as the card names it)."""
    if isinstance(golden, bool) or isinstance(filed, bool):
        return golden == filed
    if isinstance(golden, list | tuple):  # people to copy: each named is one filed (by id) or shown (by name)
        items = list(filed) if isinstance(filed, list | tuple) else []
        return len(items) == len(golden) and all(
            any(_same(g, f, (), today) for f in items) or any(str(g).casefold() in str(s).casefold() for s in shown)
            for g in golden
        )
    if isinstance(golden, int | float):
        try:
            return float(filed) == float(golden)
        except (TypeError, ValueError):
            return False
    text = str(golden).strip().casefold()
    if text == str(filed).strip().casefold() or any(text and text in str(s).casefold() for s in shown):
        return True
    try:
        return read_date(str(golden), today, after=after).isoformat() == str(filed)
    except DateReadError:
        return False


def start_card_differences(golden: Mapping[str, Any], action: Mapping[str, Any], today: date) -> list[str]:
    """The golden start call's values that the card does not show as they will be filed (empty: the card is right)."""
    card = action.get("card") or {}
    args = action.get("args") or {}
    wrong = []
    for path, value in _leaves(golden):
        if path in FREE_TEXT or path == "userId" or value in (None, ""):
            continue
        field = path.removeprefix("fields.")
        if path == "nextUserId":
            shown = [str(card.get("approver", "")), str(card.get("approver_email", ""))]
        elif path == "cc":
            shown = [str(card.get("cc", ""))]
        else:
            shown = [str(r.get("shown", "")) for r in card.get("fields") or [] if r.get("field") == field]
        start = _get(golden, "fields.startDate") if path == "fields.endDate" else None
        try:
            after = read_date(str(start), today) if start else None
        except DateReadError:
            after = None
        if not _same(value, _get(args, path), shown, today, after):
            wrong.append(f"{path}={_get(args, path)!r} (said: {value!r})")
    return wrong


def golden_starts(turns: Sequence[Any]) -> list[dict[str, Any]]:
    """Every golden start call of a scenario's turns, in order: the requests its people state."""
    return [step.args for turn in turns for step in turn.golden if step.tool == START_TOOL]
