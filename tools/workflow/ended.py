"""What follows a request's end besides the e-mails, whichever way it ended: approved, rejected, or withdrawn by its
requester. `tools.workflow.notify.notify` calls `request_ended` for every `InstanceEnded` event, in the transaction
that ended the request, so a rejection and a withdrawal (and any end still to come) go through the same rules."""

from __future__ import annotations

from sqlalchemy import Connection

from tools.workflow.leave import release_for_instance

GIVES_BACK = frozenset({"rejected", "withdrawn"})
"""The ends that give back what a request held (a leave's days)."""


def request_ended(conn: Connection, instance_id: str, outcome: str) -> None:
    """A request ended with `outcome` (approved, rejected, ended, withdrawn), in the transaction that ended it."""
    if outcome in GIVES_BACK:
        release_held(conn, instance_id, outcome)


def release_held(conn: Connection, instance_id: str, outcome: str) -> None:
    """Give back what a rejected or withdrawn request held: its leave days (the leave balances'
    `release_for_instance`, which gives nothing back twice, so a decision that settled its leave already is no
    matter)."""
    release_for_instance(conn, instance_id, note=outcome)
