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
