"""Seed data of the leave-approval system: the users and process definitions of the seed demo."""

from __future__ import annotations

USERS: list[dict[str, str]] = [
    {"id": "user_1", "name": "张三", "email": "zhangsan@example.com"},
    {"id": "user_2", "name": "李四", "email": "lisi@example.com"},
    {"id": "user_3", "name": "王五", "email": "wangwu@example.com"},
    {"id": "user_4", "name": "赵六", "email": "zhaoliu@example.com"},
    {"id": "user_admin", "name": "管理员", "email": "admin@example.com"},
]

PROCESSES: list[dict[str, object]] = [
    {"key": "process_qingjia", "name": "请假流程", "description": "Leave request (请假)", "startable": True},
    {"key": "process_baoxiao", "name": "报销流程", "description": "Expense claim (报销)", "startable": False},
    {"key": "process_chuchai", "name": "出差流程", "description": "Business trip (出差)", "startable": False},
]
