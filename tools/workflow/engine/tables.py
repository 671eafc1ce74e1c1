"""The engine's tables (SQLAlchemy Core) on their own module-level `metadata`.

The caller creates them next to its own tables with `create_tables(engine_or_connection)` (or
`metadata.create_all`). They hold no foreign key to the caller's tables (users live there), so the two
`MetaData` need no merging; every name starts with `process_` or `user_group` so that none collides with the
store's `processes`, `requests` or `tasks`.

Timestamps are ISO 8601 UTC text, as in the workflow store, so every backend compares them the same way.
Works on SQLite and PostgreSQL (psycopg 3).

For the compare-and-set on SQLite, the caller's engine must begin write transactions with `BEGIN IMMEDIATE`
(as `tools.database.sqlite_engine` does): with pysqlite's deferred BEGIN, two writers that both read first fail
with "database is locked" instead of queueing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    delete,
    insert,
    select,
)

metadata = MetaData()

deployments = Table(
    "process_deployments",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(64), nullable=False),
    Column("version", Integer, nullable=False),
    Column("name", String(256), nullable=False),
    Column("bpmn_xml", Text, nullable=False),
    Column("sha256", String(64), nullable=False),
    Column("created_at", String(40), nullable=False),
    UniqueConstraint("key", "version", name="uq_process_deployments_key_version"),
)

instances = Table(
    "process_instances",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("deployment_id", Integer, ForeignKey("process_deployments.id"), nullable=False),
    Column("process_key", String(64), nullable=False),
    Column("process_version", Integer, nullable=False),
    Column("requester", String(64), nullable=False),
    Column("status", String(16), nullable=False),  # running | approved | rejected | ended | returned | withdrawn
    Column("data", Text, nullable=False),  # JSON: the instance data after the last step, for reads without Spiff
    Column("state", Text, nullable=False),  # SpiffWorkflow's serialized workflow (JSON)
    Column("version", Integer, nullable=False),  # compare-and-set: UPDATE … WHERE id = :id AND version = :expected
    Column("created_at", String(40), nullable=False),
    Column("updated_at", String(40), nullable=False),
    Column("ended_at", String(40)),
    # Ids are never reused (SQLite's AUTOINCREMENT; PostgreSQL's sequences never go back): a request id in an old
    # e-mail or conversation names one request forever, and stores carried over from the seed's tables keep theirs.
    sqlite_autoincrement=True,
)

tasks = Table(
    "process_tasks",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),  # shown as task_<id>
    Column("instance_id", Integer, ForeignKey("process_instances.id"), nullable=False),
    Column("spiff_task_id", String(36), nullable=False),
    Column("element_id", String(128), nullable=False),
    Column("step", String(256), nullable=False),
    Column("step_en", String(256), nullable=False, default=""),
    Column("assignee", String(64)),
    Column("candidate_users", Text, nullable=False, default="[]"),  # JSON list of user ids
    Column("candidate_groups", Text, nullable=False, default="[]"),  # JSON list of group ids
    Column("status", String(16), nullable=False),  # ready | completed | cancelled | returned
    Column("decided_by", String(64)),
    Column("approved", Boolean),
    Column("comment", Text),
    Column("created_at", String(40), nullable=False),
    Column("decided_at", String(40)),
    UniqueConstraint("instance_id", "spiff_task_id", name="uq_process_tasks_instance_spiff_task"),
    Index("ix_process_tasks_status", "status"),
    sqlite_autoincrement=True,
)

instance_actions = Table(
    "process_instance_actions",
    metadata,
    # What a requester did to their request besides starting it (decisions are on the tasks): resubmitted after it
    # was sent back (detail: the changed values), or withdrawn. With the tasks, a request's whole timeline.
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("instance_id", Integer, ForeignKey("process_instances.id"), nullable=False),
    Column("kind", String(16), nullable=False),  # resubmitted | withdrawn
    Column("user_id", String(64), nullable=False),
    Column("comment", Text, nullable=False, default=""),
    Column("detail", Text, nullable=False, default="{}"),  # JSON: {"changes": {field: [before, after]}}
    Column("at", String(40), nullable=False),
    Index("ix_process_instance_actions_instance", "instance_id"),
)

timers = Table(
    "process_timers",
    metadata,
    # A waiting task's timers (its due date, its timer boundary events): the timer service polls the due ones by
    # (status, due_at) and claims each with `UPDATE … WHERE id = :id AND status = 'waiting'` in the transaction of its
    # effect, so each fires once however many services run (`tools.workflow.engine.timers`).
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("instance_id", Integer, ForeignKey("process_instances.id"), nullable=False),
    Column("task_id", Integer, ForeignKey("process_tasks.id"), nullable=False),
    Column("element_id", String(128), nullable=False),  # the boundary event's BPMN id (the user task's for a due date)
    Column("name", String(256), nullable=False, default=""),
    Column("action", String(16), nullable=False),  # remind | escalate | due
    Column("escalate_to", Text, nullable=False, default="[]"),  # JSON list of group ids
    Column("due_at", String(40), nullable=False),
    Column("status", String(16), nullable=False),  # waiting | fired | cancelled (its task was decided first)
    Column("fired_at", String(40)),
    Column("fired_by", String(128)),  # the timer service that fired it
    Column("detail", Text, nullable=False, default="{}"),  # JSON: who was reminded, whom the task moved from and to
    Column("created_at", String(40), nullable=False),
    Index("ix_process_timers_status_due", "status", "due_at"),
    Index("ix_process_timers_instance", "instance_id"),
    sqlite_autoincrement=True,
)

task_moves = Table(
    "process_task_moves",
    metadata,
    # A waiting task passed on to other holders while it waits (`tools.workflow.engine.moves`): transferred by a
    # holder, sent to an away person's deputy, or to the person's own approver when the deputy is the requester.
    # With the tasks and the timers, part of a request's timeline.
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("instance_id", Integer, ForeignKey("process_instances.id"), nullable=False),
    Column("task_id", Integer, ForeignKey("process_tasks.id"), nullable=False),
    Column("kind", String(16), nullable=False),  # transferred | deputy | deputy_own | group_own
    Column("from_user", String(64), nullable=False),  # who passed it on; for a deputy: on whose behalf
    Column("to_users", Text, nullable=False, default="[]"),  # JSON list of user ids
    Column("to_groups", Text, nullable=False, default="[]"),  # JSON list of group ids
    Column("by_user", String(64), nullable=False, default=""),  # who did it ("" for the system's routing)
    Column("comment", Text, nullable=False, default=""),
    Column("at", String(40), nullable=False),
    Index("ix_process_task_moves_instance", "instance_id"),
    Index("ix_process_task_moves_task", "task_id"),
    sqlite_autoincrement=True,
)

task_offers = Table(
    "process_task_offers",
    metadata,
    # Who a task is offered to, one row per user or group, so "tasks for a user and their groups" is one query.
    Column("task_id", Integer, ForeignKey("process_tasks.id"), primary_key=True),
    Column("kind", String(8), primary_key=True),  # user (the assignee or a candidate user) | group
    Column("name", String(64), primary_key=True),
    Index("ix_process_task_offers_kind_name", "kind", "name"),
)

groups = Table(
    "user_groups",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("name", String(128), nullable=False),
    Column("name_en", String(128), nullable=False, default=""),
)

group_members = Table(
    "user_group_members",
    metadata,
    Column("group_id", String(64), ForeignKey("user_groups.id"), primary_key=True),
    Column("user_id", String(64), primary_key=True),
    Index("ix_user_group_members_user", "user_id"),
)

ENGINE_TABLES: tuple[Table, ...] = (
    deployments, instances, tasks, instance_actions, timers, task_moves, task_offers, groups, group_members,
)

SEED_GROUPS: tuple[dict[str, object], ...] = (
    {"id": "hr", "name": "人事", "name_en": "HR", "members": ("user_admin",)},
    {"id": "finance", "name": "财务", "name_en": "Finance", "members": ("user_4",)},
)
"""The seed data's groups: `hr` = 管理员 (user_admin), `finance` = 赵六 (user_4)."""


def create_tables(bind: Engine | Connection) -> None:
    """Create the engine's tables that do not exist yet."""
    metadata.create_all(bind)


def set_group(conn: Connection, group_id: str, name: str, members: Iterable[str], *, name_en: str = "") -> None:
    """Create or replace a group and its members."""
    exists = conn.execute(select(groups.c.id).where(groups.c.id == group_id)).first()
    if exists:
        conn.execute(groups.update().where(groups.c.id == group_id).values(name=name, name_en=name_en))
        conn.execute(delete(group_members).where(group_members.c.group_id == group_id))
    else:
        conn.execute(insert(groups).values(id=group_id, name=name, name_en=name_en))
    rows = [{"group_id": group_id, "user_id": user} for user in dict.fromkeys(members)]
    if rows:
        conn.execute(insert(group_members), rows)


def seed_groups(conn: Connection, seed: Sequence[dict[str, object]] = SEED_GROUPS) -> None:
    """Create the seed groups that do not exist yet (a group already there, maybe edited, is left alone)."""
    for group in seed:
        group_id = str(group["id"])
        if conn.execute(select(groups.c.id).where(groups.c.id == group_id)).first() is None:
            members = group.get("members", ())
            assert isinstance(members, Iterable)
            set_group(conn, group_id, str(group["name"]), (str(m) for m in members), name_en=str(group.get("name_en", "")))


def groups_of(conn: Connection, user_id: str) -> list[str]:
    """The ids of the groups the user is a member of, sorted."""
    rows = conn.execute(
        select(group_members.c.group_id).where(group_members.c.user_id == user_id).order_by(group_members.c.group_id)
    )
    return [row.group_id for row in rows]


def members_of(conn: Connection, group_id: str) -> list[str]:
    """The user ids of a group's members, sorted ([] for an unknown group)."""
    rows = conn.execute(
        select(group_members.c.user_id).where(group_members.c.group_id == group_id).order_by(group_members.c.user_id)
    )
    return [row.user_id for row in rows]
