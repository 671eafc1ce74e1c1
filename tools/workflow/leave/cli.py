"""`flowagent leave`: an admin sets allocations (`allocate USER TYPE DAYS --year Y`, `import FILE.csv`) and reads a
person's balances and their history (`show USER`). Every change is written with its ledger entry; an import is one
transaction, refused whole (naming the line) when any row is wrong."""

from __future__ import annotations

import argparse
import csv
from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy import Connection

from tools.errors import DomainError
from tools.surfaces import CliCommand, HelpSection
from tools.workflow.leave.balances import allocate, balances_of, ledger_of
from tools.workflow.leave.types import leave_types
from tools.workflow.lookup import resolve_user
from tools.workflow.store import WorkflowStore

DB_HELP = "workflow store URL or file (default FLOWAGENT_DB or .flowagent/workflow.db)"
CSV_COLUMNS = ("user", "type", "year", "days")
"""An import file's columns (a header line names them; `note` may follow)."""


def _store(db: str | None) -> WorkflowStore:
    if db and "://" not in db:
        db = f"sqlite:///{db}"
    return WorkflowStore(db)


def arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True)
    give = actions.add_parser("allocate", help="set a person's allocation of a leave type for a year")
    give.add_argument("user", help="user id or name (user_1, 张三)")
    give.add_argument("type", help="leave type (年假 or annual, 调休 or compensatory)")
    give.add_argument("days", type=float, help="the year's allocation in days (half-day steps)")
    give.add_argument("--year", type=int, default=date.today().year, help="the year (default: this year)")
    give.add_argument("--note", default="", help="why, kept in the history")
    take = actions.add_parser("import", help="set allocations from a CSV file: user,type,year,days[,note]")
    take.add_argument("file", type=Path, help="the CSV file, with a header line")
    show = actions.add_parser("show", help="a person's balances and their history")
    show.add_argument("user", help="user id or name")
    for sub in (give, take, show):
        sub.add_argument("--db", help=DB_HELP)


def _user(conn: Connection, value: str) -> str:
    return str(resolve_user(conn, value, param="user")["id"])


def _allocate_one(conn: Connection, user: str, type_key: str, year: int, days: float, note: str) -> str:
    try:
        leave_type = leave_types().require(type_key)
    except KeyError as exc:
        raise ValueError(exc.args[0]) from None
    user_id = _user(conn, user)
    now = allocate(conn, user_id, leave_type, year, days, actor_id="admin", note=note)
    return (f"{user_id} {leave_type.id} ({leave_type.code}) {year}: allocated {now.allocated:g}, held {now.held:g}, "
            f"used {now.used:g}, left {now.left:g}")


def _import(conn: Connection, path: Path) -> str:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    if not rows or any(c not in rows[0] for c in CSV_COLUMNS):
        raise ValueError(f"{path}: the first line must name the columns {','.join(CSV_COLUMNS)}[,note]")
    for line, row in enumerate(rows, start=2):
        try:
            year, days = int(str(row["year"]).strip()), float(str(row["days"]).strip())
            _allocate_one(conn, str(row["user"]).strip(), str(row["type"]).strip(), year, days,
                          str(row.get("note") or "").strip() or f"import {path.name}")
        except (ValueError, KeyError, DomainError) as exc:
            why = exc.message if isinstance(exc, DomainError) else exc
            raise ValueError(f"{path} line {line}: {why}; nothing was imported") from None
    return f"imported {len(rows)} allocations from {path}"


def _show(conn: Connection, user: str) -> list[HelpSection]:
    user_id = _user(conn, user)
    balances: list[tuple[str, ...]] = [
        (b.leave_type, str(b.year), f"{b.allocated:g}", f"{b.held:g}", f"{b.used:g}", f"{b.left:g}")
        for b in balances_of(conn, user_id)
    ]
    history: list[tuple[str, ...]] = [
        (e["at"][:19].replace("T", " "), e["leave_type"], str(e["year"]), e["kind"], f"{e['days']:g}",
         e["instance_id"] or "", e["actor_id"] or "", e["note"])
        for e in ledger_of(conn, user_id)
    ]
    return [
        HelpSection(f"Leave balances of {user_id}", ("type", "year", "allocated", "held", "used", "left"), balances),
        HelpSection("History", ("at", "type", "year", "change", "days", "request", "by", "note"), history),
    ]


def run(args: Any) -> list[HelpSection] | str:
    """`allocate`: one line with the new balance; `import`: how many rows; `show`: the balances and the history."""
    if args.action == "import" and not Path(args.file).is_file():
        raise ValueError(f"{args.file}: no such file")
    store = _store(args.db)
    try:
        if args.action == "show":
            with store.read() as conn:
                return _show(conn, args.user)
        with store.transaction() as conn:
            if args.action == "import":
                return _import(conn, Path(args.file))
            return _allocate_one(conn, args.user, args.type, args.year, args.days, args.note)
    finally:
        store.dispose()


LEAVE_CLI = CliCommand(
    help="leave allocations and balances (flowagent leave allocate USER TYPE DAYS --year Y | import FILE.csv | show USER)",
    arguments=arguments,
    run=run,
)
