"""The executor's last check: a call of a tool that needs approval runs only with a person's review on record.

The thread's state says a call is "approved", but state can be written by others than the review node (a client of
LangGraph's server, a bug, a replayed checkpoint). The record that counts is the toolset's audit log (its backend's
`reviews`), which `human_review` appends to for every decision and no client writes: the executor runs such a call
only when the log holds, for this thread and this tool call id, by the run's actor,

- an approval (`review_approve`) whose `args_hash` is the hash of exactly the arguments about to run, or
- an edit (`review_edit`) whose arguments are those arguments: either as the reviewer typed them, or as the
  validator normalises them (names resolved to ids, the actor's own id filled in, the schema's types), checked
  here through the same `check_call` the validator runs for an edit. So an edited call runs as the person's
  approval, and a call whose arguments changed after the review does not.

Anything else is refused with a readable outcome (`not_reviewed`) and an `unreviewed_call_refused` audit record.
"""

from __future__ import annotations

from typing import Any

from graph.calls import action_hash, args_hash
from state.context import Context
from state.records import Outcome, ToolCallRecord
from tools.errors import DomainError
from tools.runtime import check_call
from tools.spec import CallContext, ToolRegistry
from tools.toolset import Toolset

REVIEW_EVENTS = ("review_approve", "review_edit")
NOT_REVIEWED = "not_reviewed"
NOT_REVIEWED_MESSAGE = (
    "{name} needs a person's approval and no approval of these exact arguments by {actor} is on record for this "
    "call; it was not run. Propose it again so the person sees its card."
)


def needs_review(registry: ToolRegistry, context: Context, name: str) -> bool:
    """Whether the run's settings make `name` a tool that stops for a person (as the validator decides it)."""
    return name in registry.approval_tools(context.approval_tools)


def _edited_hashes(toolset: Toolset, name: str, edited: Any, ctx: CallContext) -> set[str]:
    """The hashes of an edit's arguments: as typed, and as the validator normalises them (if they still check)."""
    hashes = {args_hash(name, edited)} if isinstance(edited, dict) else set()
    try:
        checked = check_call(toolset, name, edited, ctx)
    except DomainError:
        return hashes
    return hashes | {args_hash(name, checked.args.model_dump(exclude_none=True))}


def review_on_record(toolset: Toolset, call: ToolCallRecord, ctx: CallContext) -> bool:
    """Whether the audit log holds the run actor's approval (or edit) of exactly this call in this thread."""
    expected = args_hash(call["name"], call["args"])
    for entry in ctx.backend.reviews(ctx.thread_id, call["id"]):
        detail = entry["detail"]
        if (
            entry["event"] not in REVIEW_EVENTS
            or entry["actor_id"] != ctx.actor_id
            or detail.get("tool_call_id") != call["id"]
            or detail.get("tool") != call["name"]
        ):
            continue
        if entry["event"] == "review_approve" and detail.get("args_hash") == expected:
            return True
        if entry["event"] == "review_edit" and expected in _edited_hashes(toolset, call["name"], detail.get("args"), ctx):
            return True
    return False


def unreviewed(toolset: Toolset, context: Context, call: ToolCallRecord, ctx: CallContext) -> Outcome | None:
    """None when the call may run; else the refusal as the call's outcome (and recorded in the audit log)."""
    if not needs_review(toolset.registry, context, call["name"]) or review_on_record(toolset, call, ctx):
        return None
    message = NOT_REVIEWED_MESSAGE.format(name=call["name"], actor=ctx.actor_id)
    ctx.backend.record_audit(
        "unreviewed_call_refused",
        {"tool": call["name"], "tool_call_id": call["id"], "args_hash": args_hash(call["name"], call["args"]),
         "status": call["status"]},
        thread_id=ctx.thread_id,
        actor_id=ctx.actor_id,
    )
    return Outcome(
        id=call["id"], name=call["name"], action=action_hash(call["name"], call["args"]), ok=False,
        result={"error": NOT_REVIEWED, "message": message}, elapsed_ms=0.0,
    )
