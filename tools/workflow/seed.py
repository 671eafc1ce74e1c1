"""Seed data of the approval system: the users of the seed demo (its processes are BPMN files in `processes/`, its
groups `hr` and `finance` are the engine's `SEED_GROUPS`)."""

from __future__ import annotations

USERS: list[dict[str, str]] = [
    # alias: the romanised name people use in English ("Li Si approves").
    {"id": "user_1", "name": "张三", "email": "zhangsan@example.com", "alias": "Zhang San"},
    {"id": "user_2", "name": "李四", "email": "lisi@example.com", "alias": "Li Si"},
    {"id": "user_3", "name": "王五", "email": "wangwu@example.com", "alias": "Wang Wu"},
    {"id": "user_4", "name": "赵六", "email": "zhaoliu@example.com", "alias": "Zhao Liu"},
    {"id": "user_admin", "name": "管理员", "email": "admin@example.com", "alias": "Administrator"},
]

ALLOCATIONS: dict[str, dict[str, float]] = {
    # Each seed user's leave allocation for the current year and the next, by leave type (tools/workflow/leave/
    # types.toml): annual leave by years of service, and a few compensatory days for weekends worked.
    "user_1": {"年假": 10, "调休": 2},
    "user_2": {"年假": 5, "调休": 1},
    "user_3": {"年假": 7},
    "user_4": {"年假": 15, "调休": 3},
    "user_admin": {"年假": 10},
}
