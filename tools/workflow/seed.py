"""Seed data of the leave-approval system: the users and process definitions of the seed demo."""

from __future__ import annotations

USERS: list[dict[str, str]] = [
    # alias: the romanised name people use in English ("Li Si approves").
    {"id": "user_1", "name": "张三", "email": "zhangsan@example.com", "alias": "Zhang San"},
    {"id": "user_2", "name": "李四", "email": "lisi@example.com", "alias": "Li Si"},
    {"id": "user_3", "name": "王五", "email": "wangwu@example.com", "alias": "Wang Wu"},
    {"id": "user_4", "name": "赵六", "email": "zhaoliu@example.com", "alias": "Zhao Liu"},
    {"id": "user_admin", "name": "管理员", "email": "admin@example.com", "alias": "Administrator"},
]

PROCESSES: list[dict[str, object]] = [
    {"key": "process_qingjia", "name": "请假流程", "description": "Leave request (请假)", "startable": True},
    {"key": "process_baoxiao", "name": "报销流程", "description": "Expense claim (报销)", "startable": False},
    {"key": "process_chuchai", "name": "出差流程", "description": "Business trip (出差)", "startable": False},
]
