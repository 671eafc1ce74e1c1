"""The workflow store's own tables (SQLAlchemy Core): users, the e-mail outbox, tool executions and the audit log.

The process engine's tables (deployments, instances, tasks, groups) are `tools.workflow.engine.tables`.
"""

from __future__ import annotations

from sqlalchemy import Column, Float, ForeignKey, Integer, MetaData, String, Table, Text, UniqueConstraint

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("name", String(128), nullable=False),
    Column("email", String(256), nullable=False),
    Column("alias", String(128), nullable=False, default=""),
)

outbox = Table(
    "outbox",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("idempotency_key", String(256), nullable=False, unique=True),
    Column("thread_id", String(128), nullable=False),
    Column("sender_id", String(64), nullable=False),  # a user, or SYSTEM_SENDER for the engine's notifications
    Column("recipient_id", String(64), ForeignKey("users.id"), nullable=False),
    Column("recipient_email", String(256), nullable=False),
    Column("subject", String(256), nullable=False),
    Column("body", Text, nullable=False),
    Column("task_id", Integer),
    Column("status", String(16), nullable=False),  # queued | sending | sent | failed
    Column("attempts", Integer, nullable=False, default=0),
    Column("last_error", Text),
    Column("created_at", String(40), nullable=False),
    Column("claimed_at", String(40)),
    Column("sent_at", String(40)),
)

tool_executions = Table(
    "tool_executions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("idempotency_key", String(256), nullable=False, unique=True),
    Column("thread_id", String(128), nullable=False),
    Column("actor_id", String(64), nullable=False),
    Column("tool", String(64), nullable=False),
    Column("args", Text, nullable=False),
    Column("result", Text, nullable=False),
    Column("created_at", String(40), nullable=False),
)

audit_log = Table(
    "audit_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", String(40), nullable=False),
    Column("thread_id", String(128)),
    Column("actor_id", String(64)),
    Column("event", String(64), nullable=False),
    Column("detail", Text, nullable=False),
)

leave_balances = Table(
    "leave_balances",
    metadata,
    Column("user_id", String(64), ForeignKey("users.id"), primary_key=True),
    Column("leave_type", String(32), primary_key=True),  # a type's id in tools/workflow/leave/types.toml (年假)
    Column("year", Integer, primary_key=True),
    Column("allocated", Float, nullable=False, default=0.0),
    Column("held", Float, nullable=False, default=0.0),  # reserved by pending requests
    Column("used", Float, nullable=False, default=0.0),  # taken by approved requests
)
"""Each person's leave per type and year: allocated, held by pending requests, used by approved ones (left = allocated -
held - used). Every change is one conditional update of its row, written with its `leave_ledger` entry."""

leave_ledger = Table(
    "leave_ledger",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", String(40), nullable=False),
    Column("user_id", String(64), nullable=False),
    Column("leave_type", String(32), nullable=False),
    Column("year", Integer, nullable=False),
    Column("kind", String(16), nullable=False),  # allocate | hold | release | use
    Column("days", Float, nullable=False),  # allocate: the change of the allocation; the others: the days moved
    Column("instance_id", String(32)),  # the request a hold, release or use is for
    Column("actor_id", String(64)),
    Column("note", Text, nullable=False, default=""),
)
"""The history of every change to a leave balance, oldest first: never updated, never deleted."""

deputies = Table(
    "deputies",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", String(64), ForeignKey("users.id"), nullable=False),  # the person away
    Column("deputy_id", String(64), ForeignKey("users.id"), nullable=False),  # who decides their tasks meanwhile
    Column("start_date", String(10), nullable=False),  # ISO dates, both included, in the company's time zone
    Column("end_date", String(10), nullable=False),
    Column("status", String(16), nullable=False),  # active | replaced (a later range of the same person covers it)
    Column("created_at", String(40), nullable=False),
)
"""Who decides a person's tasks while they are away (`tools.workflow.deputies`): a task that would come to them on a
day of an active range goes to the deputy instead, marked as on their behalf."""

request_cc = Table(
    "request_cc",
    metadata,
    Column("instance_id", String(32), primary_key=True),  # the request (req_3)
    Column("user_id", String(64), ForeignKey("users.id"), primary_key=True),
    Column("source", String(16), nullable=False),  # process: the BPMN's `cc` property; requester: named at the start
    Column("at", String(40), nullable=False),
)
"""The people a request is copied to (抄送): told at its start and its end, free to read it, never to decide it."""

urges = Table(
    "urges",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("task_id", Integer, nullable=False),
    Column("day", String(10), nullable=False),  # the company's date (Asia/Shanghai) the urge counts toward
    Column("instance_id", String(32), nullable=False),
    Column("requester_id", String(64), nullable=False),
    Column("at", String(40), nullable=False),
    UniqueConstraint("task_id", "day", name="uq_urges_task_day"),
)
"""A requester's urges (催办), one row per task and day: the unique pair is the once-a-day limit, held even by two
urges racing in two transactions."""

user_languages = Table(
    "user_languages",
    metadata,
    Column("user_id", String(64), primary_key=True),  # no foreign key: a write by an id not in users keeps working
    Column("lang", String(8), nullable=False),
    Column("at", String(40), nullable=False),
)
"""The language each person last wrote in to the assistant, kept with each of their writes: the system's e-mails to
them (a task waiting, an urge, a request ended) are written in it; to a person not in it, in both languages."""

SYSTEM_SENDER = "flowagent"
"""The sender of the e-mails the system writes itself (a task is waiting for you; your request ended): they are not
a person's e-mails, so they count toward no conversation's rate limit."""

DOMAIN_TABLES: tuple[Table, ...] = (
    users, outbox, tool_executions, audit_log, leave_balances, leave_ledger, deputies, request_cc, urges,
    user_languages,
)
"""The store's own tables (the process engine's are `tools.workflow.engine.tables.ENGINE_TABLES`)."""
