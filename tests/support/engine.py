"""Helpers for the process engine's tests: databases configured as the workflow store configures them, a fourth
process written here as BPMN (no Python for it), and scenarios the SQLite and PostgreSQL tests share."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, func, select

from tools import database
from tools.workflow.engine import EngineError, SpiffEngine, create_tables, parse_instance_id, set_group, tables

PURCHASE_KEY = "process_caigou"
PURCHASE_GROUP = "purchasing"
PURCHASE_MEMBERS = ("user_3", "user_4")

# A purchase request: its own form (text, whole number, decimal, boolean, enum, date), the requester's chosen
# approver first, then, for an approved order over 10,000 yuan, any member of the purchasing group.
PURCHASE_BPMN = """<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC"
    xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="Definitions_caigou"
    targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="process_caigou" name="__NAME__" isExecutable="true">
    <bpmn:startEvent id="Start_caigou" name="发起采购">
      <bpmn:extensionElements>
        <camunda:formData>
          <camunda:formField id="item" label="采购物品" type="string">
            <camunda:validation><camunda:constraint name="required" /></camunda:validation>
          </camunda:formField>
          <camunda:formField id="quantity" label="数量" type="long">
            <camunda:validation>
              <camunda:constraint name="required" />
              <camunda:constraint name="min" config="1" />
              <camunda:constraint name="max" config="1000" />
            </camunda:validation>
          </camunda:formField>
          <camunda:formField id="unitPrice" label="单价" type="decimal">
            <camunda:properties><camunda:property id="label_en" value="Unit price" /></camunda:properties>
            <camunda:validation>
              <camunda:constraint name="required" />
              <camunda:constraint name="minExclusive" config="0" />
            </camunda:validation>
          </camunda:formField>
          <camunda:formField id="urgent" label="加急" type="boolean" defaultValue="false" />
          <camunda:formField id="channel" label="采购渠道" type="enum">
            <camunda:value id="online" name="网购" />
            <camunda:value id="supplier" name="供应商" />
          </camunda:formField>
          <camunda:formField id="neededBy" label="需要日期" type="date" />
        </camunda:formData>
      </bpmn:extensionElements>
    </bpmn:startEvent>
    <bpmn:userTask id="Task_manager" name="主管审批" camunda:assignee="${nextUserId}" />
    <bpmn:exclusiveGateway id="Gateway_amount" />
    <bpmn:userTask id="Task_purchasing" name="采购部审批" camunda:candidateGroups="purchasing" />
    <bpmn:exclusiveGateway id="Gateway_purchasing" default="Flow_purchasing_yes" />
    <bpmn:endEvent id="End_done" name="完成" />
    <bpmn:sequenceFlow id="Flow_start" sourceRef="Start_caigou" targetRef="Task_manager" />
    <bpmn:sequenceFlow id="Flow_decided" sourceRef="Task_manager" targetRef="Gateway_amount" />
    <bpmn:sequenceFlow id="Flow_big" sourceRef="Gateway_amount" targetRef="Task_purchasing">
      <bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">
        ${approved and quantity * unitPrice &gt; __LIMIT__}
      </bpmn:conditionExpression>
    </bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="Flow_small" sourceRef="Gateway_amount" targetRef="End_done">
      <bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">
        approved and quantity * unitPrice &lt;= __LIMIT__
      </bpmn:conditionExpression>
    </bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="Flow_no" sourceRef="Gateway_amount" targetRef="End_done">
      <bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">not approved</bpmn:conditionExpression>
    </bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="Flow_purchasing_decided" sourceRef="Task_purchasing" targetRef="Gateway_purchasing" />
    <bpmn:sequenceFlow id="Flow_purchasing_yes" sourceRef="Gateway_purchasing" targetRef="End_done" />
    <bpmn:sequenceFlow id="Flow_purchasing_no" sourceRef="Gateway_purchasing" targetRef="End_done">
      <bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">not approved</bpmn:conditionExpression>
    </bpmn:sequenceFlow>
  </bpmn:process>
  <bpmndi:BPMNDiagram id="Diagram_caigou">
    <bpmndi:BPMNPlane id="Plane_caigou" bpmnElement="process_caigou">
      <bpmndi:BPMNShape id="Start_caigou_di" bpmnElement="Start_caigou">
        <dc:Bounds x="152" y="182" width="36" height="36" />
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="Task_manager_di" bpmnElement="Task_manager">
        <dc:Bounds x="240" y="160" width="100" height="80" />
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="Gateway_amount_di" bpmnElement="Gateway_amount" isMarkerVisible="true">
        <dc:Bounds x="395" y="175" width="50" height="50" />
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="Task_purchasing_di" bpmnElement="Task_purchasing">
        <dc:Bounds x="500" y="160" width="100" height="80" />
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="Gateway_purchasing_di" bpmnElement="Gateway_purchasing" isMarkerVisible="true">
        <dc:Bounds x="655" y="175" width="50" height="50" />
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="End_done_di" bpmnElement="End_done">
        <dc:Bounds x="762" y="182" width="36" height="36" />
      </bpmndi:BPMNShape>
      <bpmndi:BPMNEdge id="Flow_start_di" bpmnElement="Flow_start">
        <di:waypoint x="188" y="200" />
        <di:waypoint x="240" y="200" />
      </bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="Flow_decided_di" bpmnElement="Flow_decided">
        <di:waypoint x="340" y="200" />
        <di:waypoint x="395" y="200" />
      </bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="Flow_big_di" bpmnElement="Flow_big">
        <di:waypoint x="445" y="200" />
        <di:waypoint x="500" y="200" />
      </bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="Flow_small_di" bpmnElement="Flow_small">
        <di:waypoint x="420" y="175" />
        <di:waypoint x="420" y="100" />
        <di:waypoint x="780" y="100" />
        <di:waypoint x="780" y="182" />
      </bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="Flow_no_di" bpmnElement="Flow_no">
        <di:waypoint x="420" y="225" />
        <di:waypoint x="420" y="300" />
        <di:waypoint x="780" y="300" />
        <di:waypoint x="780" y="218" />
      </bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="Flow_purchasing_decided_di" bpmnElement="Flow_purchasing_decided">
        <di:waypoint x="600" y="200" />
        <di:waypoint x="655" y="200" />
      </bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="Flow_purchasing_yes_di" bpmnElement="Flow_purchasing_yes">
        <di:waypoint x="705" y="200" />
        <di:waypoint x="762" y="200" />
      </bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="Flow_purchasing_no_di" bpmnElement="Flow_purchasing_no">
        <di:waypoint x="680" y="225" />
        <di:waypoint x="680" y="260" />
        <di:waypoint x="770" y="260" />
        <di:waypoint x="770" y="216" />
      </bpmndi:BPMNEdge>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>
"""


ORDER_OVER_LIMIT = {"item": "服务器", "quantity": 2, "unitPrice": 8000, "channel": "supplier", "nextUserId": "user_2"}
"""A purchase of 16,000 yuan: the manager (user_2) decides, then the purchasing group."""


def purchase_bpmn(*, name: str = "采购申请", limit: int = 10000) -> str:
    """The purchase process; `limit` is the order total above which the purchasing group decides too."""
    return PURCHASE_BPMN.replace("__NAME__", name).replace("__LIMIT__", str(limit))


def sqlite_engine(path: Path) -> Engine:
    """A SQLite file engine set up as the workflow store's own (`tools.database.sqlite_engine`): WAL, and writes that
    begin IMMEDIATE."""
    return database.sqlite_engine(f"sqlite:///{path}")


def prepare(db: Engine, engine: SpiffEngine) -> None:
    """The engine's tables, the purchasing group, and the purchase process deployed (version 1)."""
    with db.begin() as conn:
        create_tables(conn)
        set_group(conn, PURCHASE_GROUP, "采购部", PURCHASE_MEMBERS, name_en="Purchasing")
        deployed = engine.deploy(conn, purchase_bpmn())
    assert (deployed.key, deployed.version) == (PURCHASE_KEY, 1)


def count(conn: Connection, table: Any) -> int:
    return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def race(db: Engine, engine: SpiffEngine, task_id: str, users: tuple[str, str], *, meet: bool) -> list[Any]:
    """Two threads complete one task at once, each in its own transaction; returns each one's result or error.

    With `meet`, both threads have read the task (still ready) and run the process in memory before either
    writes: the compare-and-set, not an early status check, decides who wins. (SQLite's BEGIN IMMEDIATE lets
    only one transaction in at a time, so there the second cannot read before the first commits: no meeting.)
    """
    start = threading.Barrier(2)
    meeting = threading.Barrier(2, timeout=10)
    original: Callable[..., Any] = engine._ready

    def ready_then_meet(*args: Any, **kwargs: Any) -> Any:
        found = original(*args, **kwargs)
        if meet:
            meeting.wait()
        return found

    engine._ready = ready_then_meet  # type: ignore[method-assign]
    results: list[Any] = [None, None]

    def decide(index: int) -> None:
        start.wait()
        try:
            with db.begin() as conn:
                results[index] = engine.complete(conn, task_id, user_id=users[index], approved=True, comment=f"同意 {index}")
        except EngineError as exc:
            results[index] = exc

    threads = [threading.Thread(target=decide, args=(i,)) for i in range(2)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    finally:
        engine._ready = original  # type: ignore[method-assign]
    assert not any(thread.is_alive() for thread in threads), "a completing thread hung"
    return results


def assert_one_decision(
    db: Engine, engine: SpiffEngine, task_id: str, instance_id: str, results: list[Any], *, decided_before: int
) -> None:
    """Exactly one of `race`'s two completions won, the other got `task_not_pending`, and the store holds one
    decision more than `decided_before`, made by the winner, with one compare-and-set on the instance."""
    won = [r for r in results if not isinstance(r, EngineError)]
    lost = [r for r in results if isinstance(r, EngineError)]
    assert len(won) == 1, results
    assert len(lost) == 1 and lost[0].code == "task_not_pending", results
    winner = won[0]
    with db.connect() as conn:
        task = engine.task(conn, task_id)
        view = engine.instance(conn, instance_id)
        number = parse_instance_id(instance_id)
        decided = conn.execute(
            select(func.count())
            .select_from(tables.tasks)
            .where(tables.tasks.c.instance_id == number, tables.tasks.c.status == "completed")
        ).scalar_one()
        version = conn.execute(select(tables.instances.c.version).where(tables.instances.c.id == number)).scalar_one()
    assert task.status == "completed" and task.decided_by == winner.task.decided_by
    assert len(view.history) == decided_before + 1 and view.history[-1].task_id == task_id
    assert view.history[-1].user == winner.task.decided_by
    assert [h["user"] for h in view.data["history"]] == [h.user for h in view.history]
    assert decided == decided_before + 1
    assert version == decided_before + 2  # 1 at the start, one successful compare-and-set per decision
    assert [e.kind for e in winner.events] == ["instance_ended"]  # one e-mail's worth: the requester is told
