"""Helpers for the timers' tests: a process written here as BPMN whose one step is reminded, then escalated to a group,
and a clock the test moves by hand (`tests.support.clock.ManualClock`) read as a timezone-aware UTC time."""

from __future__ import annotations

from datetime import UTC, datetime

from tests.support.clock import ManualClock

REMIND_KEY = "process_duban"

REMIND_BPMN = """<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="Definitions_duban" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="process_duban" name="督办流程" isExecutable="true">
    <bpmn:extensionElements><camunda:properties>
      <camunda:property name="label_en" value="Follow-up" />
      <camunda:property name="workingTime" value="__WORKING__" />
    </camunda:properties></bpmn:extensionElements>
    <bpmn:startEvent id="Start_duban">
      <bpmn:extensionElements><camunda:formData>
        <camunda:formField id="reason" label="事由" type="string">
          <camunda:validation><camunda:constraint name="required" /></camunda:validation>
        </camunda:formField>
      </camunda:formData></bpmn:extensionElements>
    </bpmn:startEvent>
    <bpmn:userTask id="Task_approve" name="审批人审批" camunda:assignee="${nextUserId}" camunda:dueDate="__DUE__">
      <bpmn:extensionElements><camunda:properties>
        <camunda:property name="label_en" value="Approver's decision" />
      </camunda:properties></bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:boundaryEvent id="Timer_remind" name="提醒审批人" attachedToRef="Task_approve" cancelActivity="false">
      <bpmn:timerEventDefinition><bpmn:timeDuration>__REMIND__</bpmn:timeDuration></bpmn:timerEventDefinition>
    </bpmn:boundaryEvent>
    <bpmn:boundaryEvent id="Timer_escalate" name="转人事" attachedToRef="Task_approve" cancelActivity="false">
      <bpmn:extensionElements><camunda:properties>
        <camunda:property name="action" value="escalate" />
        <camunda:property name="escalateTo" value="hr" />
      </camunda:properties></bpmn:extensionElements>
      <bpmn:timerEventDefinition><bpmn:timeDuration>__ESCALATE__</bpmn:timeDuration></bpmn:timerEventDefinition>
    </bpmn:boundaryEvent>
    <bpmn:endEvent id="End_done" name="完成" />
    <bpmn:endEvent id="End_timer" name="已提醒" />
    <bpmn:sequenceFlow id="Flow_start" sourceRef="Start_duban" targetRef="Task_approve" />
    <bpmn:sequenceFlow id="Flow_done" sourceRef="Task_approve" targetRef="End_done" />
    <bpmn:sequenceFlow id="Flow_reminded" sourceRef="Timer_remind" targetRef="End_timer" />
    <bpmn:sequenceFlow id="Flow_escalated" sourceRef="Timer_escalate" targetRef="End_timer" />
  </bpmn:process>
</bpmn:definitions>
"""


def remind_bpmn(*, remind: str = "P1D", escalate: str = "P2D", due: str = "P3D", working: bool = True) -> str:
    """The follow-up process: its step reminded after `remind`, moved to `hr` after `escalate`, due after `due`
    (counted in working time when `working`)."""
    return (REMIND_BPMN.replace("__REMIND__", remind).replace("__ESCALATE__", escalate).replace("__DUE__", due)
            .replace("__WORKING__", "true" if working else "false"))


FRIDAY_MORNING = datetime(2026, 12, 4, 2, 0, tzinfo=UTC)
"""Friday 4 December 2026, 10:00 in Shanghai: a working day before a weekend."""


class UtcClock(ManualClock):
    """`ManualClock`, called as the engine's clock: a timezone-aware UTC time."""

    def __init__(self, start: datetime = FRIDAY_MORNING) -> None:
        super().__init__(start.timestamp())

    def __call__(self) -> datetime:  # type: ignore[override]
        return datetime.fromtimestamp(self.now, UTC)

    def advance_to(self, moment: datetime) -> None:
        self.now = moment.timestamp()
