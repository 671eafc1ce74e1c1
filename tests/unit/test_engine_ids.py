"""The ids the engine shows read back to the numbers it wrote them from (a benchmark's backlog has ids ≤ 0), and
anything else is no id."""

from __future__ import annotations

import pytest

from tools.workflow.engine import EngineError
from tools.workflow.engine.ids import format_instance_id, format_task_id, parse_instance_id, parse_task_id


@pytest.mark.parametrize("number", [12, 1, 0, -26])
def test_an_id_the_engine_wrote_reads_back(number):
    assert parse_task_id(format_task_id(number)) == number
    assert parse_instance_id(format_instance_id(number)) == number


@pytest.mark.parametrize("value", ["task_", "task_x", "req_3", "task_1.5", "-", "task_--1", "李四"])
def test_anything_else_is_no_task_id(value):
    with pytest.raises(EngineError):
        parse_task_id(value)
