"""The human_review node: a person confirms every call of a tool that needs approval.

The card is built by the tool's spec from the store, never from the model's text. The node re-runs from its start when
the run resumes, so nothing before `interrupt()` has side effects.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from langchain_core.messages import ToolMessage
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from graph.budget import SYSTEM_CLOCK, Clock, open_step, review_answered
from graph.calls import args_hash, thread_id_of_run
from graph.history import note
from graph.hitl import hitl_request, read_decision
from graph.run import lang_of
from state.agent import AgentState
from state.context import Context
from state.records import AuditRecord, ToolCallRecord
from tools.backend import Backend
from tools.errors import DomainError
from tools.provenance import sources_for
from tools.request import Request
from tools.spec import ToolRegistry

MAX_ASKS = 5
REJECTED_TEMPLATE = "Rejected by the reviewer ({reviewer}): {message} Do not retry this action; tell the user."
DEFAULT_REJECT_MESSAGE = "the reviewer declined this action."


def build_card(
    backend: Backend, registry: ToolRegistry, call: ToolCallRecord, lang: str = "zh", request: Request | None = None
) -> dict[str, Any]:
    """What the reviewer decides on, built by the tool's own card builder from the store (the model's own words
    are not trusted), with each of the person's values beside the words it was read from; a tool without one, or
    whose records cannot be read, gets the general card. The checks' notes ride along for the audit and clients
    (`policy_notes`, in English); a person reads the card's `title`, `summary`, labelled fields and `notes`."""
    spec = registry.get(call["name"]) if call["name"] in registry else None
    title = spec.title_in(lang) if spec is not None else call["name"]
    card: dict[str, Any] = {"action": call["name"], "title": title, "policy_notes": list(call.get("notes") or [])}
    if spec is None or spec.card is None:
        card["summary"] = title
        return card
    sources = sources_for(call["args"], call.get("sources"), request)
    try:
        with backend.read() as handle:
            card.update(spec.card(handle, call["args"], lang, sources))
    except DomainError as exc:
        card["summary"] = title
        card["notes"] = [CARD_UNREADABLE[lang if lang in CARD_UNREADABLE else "zh"]]
        card["policy_notes"].append(f"{exc.code}: {exc.message}")
    return card


CARD_UNREADABLE = {
    "zh": "现在读不到这个操作涉及的记录；确认后会再检查一次，不通过就不会执行。",
    "en": "The records this action is about cannot be read now; they are checked again when you confirm, and nothing "
          "runs if the check fails.",
}


def review_request(
    backend: Backend, registry: ToolRegistry, call: ToolCallRecord, error: str | None = None, lang: str = "zh",
    request: Request | None = None,
) -> dict[str, Any]:
    """The interrupt value for a call: LangChain's HITL request, with the tool's card from the store."""
    card = build_card(backend, registry, call, lang, request)
    return hitl_request(dict(call), card, args_hash(call["name"], call["args"]), error)


class HumanReview:
    """Interrupts for a person's decision on each of the step's calls that needs approval."""

    def __init__(self, backend: Backend, registry: ToolRegistry, *, clock: Clock = SYSTEM_CLOCK) -> None:
        self._backend = backend
        self._registry = registry
        self._clock = clock

    def __call__(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        reviewer = runtime.context.user_id
        kept: list[ToolCallRecord] = []
        rejections: list[ToolMessage] = []
        audit: list[AuditRecord] = []
        step = open_step(state.get("step"))
        for call in step["calls"]:
            if call["status"] != "needs_approval":
                kept.append(call)
                continue
            decision, body = self._ask(call, lang_of(state, runtime.context), state.get("request"))
            record = AuditRecord(
                at=datetime.now(UTC).isoformat(),
                reviewer=reviewer,
                tool=call["name"],
                tool_call_id=call["id"],
                args_hash=args_hash(call["name"], call["args"]),
                decision=decision,
            )
            if decision == "approve":
                kept.append({**call, "status": "approved"})
            elif decision == "edit":
                record["detail"] = {"args": body["args"]}
                kept.append(ToolCallRecord(id=call["id"], name=call["name"], args=dict(body["args"]), status="edited"))
            else:
                message = str(body.get("message") or DEFAULT_REJECT_MESSAGE)
                record["detail"] = {"message": message}
                rejections.append(
                    ToolMessage(
                        content=REJECTED_TEMPLATE.format(reviewer=reviewer, message=message),
                        tool_call_id=call["id"],
                        name=call["name"],
                        status="error",
                        response_metadata=note(rejected=True),
                    )
                )
            audit.append(record)

        for record in audit:
            self._backend.record_audit(
                f"review_{record['decision']}",
                {"tool": record["tool"], "tool_call_id": record["tool_call_id"], "args_hash": record["args_hash"],
                 **record.get("detail", {})},
                thread_id=thread_id_of_run(),
                actor_id=reviewer,
            )
        update: dict[str, Any] = {"step": review_answered(open_step(step, kept), self._clock), "audit": audit}
        if rejections:
            update["messages"] = rejections
        return update

    def _ask(
        self, call: ToolCallRecord, lang: str, request: Request | None
    ) -> tuple[Literal["approve", "edit", "reject"], dict[str, Any]]:
        """Interrupt until the person gives a valid decision on this exact card."""
        expected_hash = args_hash(call["name"], call["args"])
        error = None
        for _ in range(MAX_ASKS):
            answer = interrupt(review_request(self._backend, self._registry, call, error, lang, request))
            decision, body, error = read_decision(answer, call["name"])
            if decision is not None and body.get("args_hash") not in (None, expected_hash):
                error = "args_hash does not match the card shown; decide on the current card."
                continue
            if decision is not None:
                return decision, body
        return "reject", {"message": "no valid decision was given."}
