"""Who manages whom: the reporting line a step's escalation follows (`escalateTo="${manager}, hr"` in the BPMN: the
approver's manager, else `hr`). A person has at most one manager; the seed's: 张三, 李四 and 赵六 report to 王五, 王五 to
管理员. It is the workflow toolset's, not the engine's: the store hands `manager_of` to its engine.
"""

from __future__ import annotations

from sqlalchemy import Column, Connection, ForeignKey, String, Table, func, insert, select

from tools.workflow.tables import metadata, users

reporting_lines = Table(
    "reporting_lines",
    metadata,
    Column("user_id", String(64), ForeignKey("users.id"), primary_key=True),
    Column("manager_id", String(64), ForeignKey("users.id"), nullable=False),
)

MANAGERS: dict[str, str] = {"user_1": "user_3", "user_2": "user_3", "user_4": "user_3", "user_3": "user_admin"}
"""The seed's reporting lines: person → manager."""


def seed_managers(conn: Connection, lines: dict[str, str] = MANAGERS) -> None:
    """The seed's reporting lines, into a store that has none yet (of its people that exist)."""
    if conn.execute(select(func.count()).select_from(reporting_lines)).scalar_one():
        return
    known = set(conn.execute(select(users.c.id)).scalars())
    rows = [{"user_id": u, "manager_id": m} for u, m in lines.items() if u in known and m in known]
    if rows:
        conn.execute(insert(reporting_lines), rows)


def manager_of(conn: Connection, user_id: str) -> str | None:
    """A person's manager, or None."""
    query = select(reporting_lines.c.manager_id).where(reporting_lines.c.user_id == user_id)
    return conn.execute(query).scalar_one_or_none()
