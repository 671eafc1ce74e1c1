"""Deployments: BPMN stored and versioned, definitions with their forms, and invalid BPMN refused naming its element."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, select

from tests.support.engine import PURCHASE_KEY, count, purchase_bpmn, sqlite_engine
from tools.workflow.engine import SEED_FILES, DeployError, SpiffEngine, create_tables, seed, tables


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Engine]:
    engine = sqlite_engine(tmp_path / "engine.db")
    with engine.begin() as conn:
        create_tables(conn)
    yield engine
    engine.dispose()


@pytest.fixture
def engine() -> SpiffEngine:
    return SpiffEngine()


def test_a_key_deployed_again_gets_the_next_version_and_definitions_show_the_latest(db: Engine, engine: SpiffEngine):
    with db.begin() as conn:
        first = engine.deploy(conn, purchase_bpmn(name="采购申请"))
        second = engine.deploy(conn, purchase_bpmn(name="采购申请（新）", limit=20000))
        definitions = engine.definitions(conn)
        v1 = engine.definition(conn, PURCHASE_KEY, 1)
    assert (first.key, first.version, second.version) == (PURCHASE_KEY, 1, 2)
    assert [(d.key, d.version, d.name) for d in definitions] == [(PURCHASE_KEY, 2, "采购申请（新）")]
    assert v1.name == "采购申请" and v1.version == 1


def test_a_definition_lists_its_start_form_as_the_bpmn_declares_it(db: Engine, engine: SpiffEngine):
    with db.begin() as conn:
        engine.deploy(conn, purchase_bpmn())
        (definition,) = engine.definitions(conn)
    fields = {f.id: f for f in definition.fields}
    assert list(fields) == ["item", "quantity", "unitPrice", "urgent", "channel", "neededBy"]
    assert (fields["quantity"].type, fields["quantity"].required, fields["quantity"].min, fields["quantity"].max) == (
        "long", True, 1.0, 1000.0,
    )
    price = fields["unitPrice"]
    assert (price.type, price.label, price.label_en, price.min_exclusive) == ("decimal", "单价", "Unit price", True)
    assert [(c.id, c.name) for c in fields["channel"].choices] == [("online", "网购"), ("supplier", "供应商")]
    assert fields["urgent"].required is False and fields["urgent"].default == "false"
    steps = {s.element_id: s for s in definition.steps}
    assert steps["Task_manager"].assignee == "${nextUserId}"
    assert steps["Task_purchasing"].candidate_groups == ("purchasing",)


def test_the_seed_processes_deploy_once_with_chinese_and_english_labels(db: Engine, engine: SpiffEngine):
    with db.begin() as conn:
        first = seed(engine, conn)
        again = seed(engine, conn)
        definitions = {d.key: d for d in engine.definitions(conn)}
        hr, finance = tables.members_of(conn, "hr"), tables.members_of(conn, "finance")
    assert [(d.key, d.version, d.created) for d in first] == [
        ("process_qingjia", 1, True), ("process_baoxiao", 1, True), ("process_chuchai", 1, True),
    ]
    assert [d.created for d in again] == [False, False, False]
    assert (hr, finance) == (["user_admin"], ["user_4"])
    leave = definitions["process_qingjia"]
    assert (leave.name, leave.name_en) == ("请假流程", "Leave request")
    assert [(f.id, f.label, f.label_en, f.type, f.step) for f in leave.fields] == [
        ("days", "请假天数", "Days of leave", "double", 0.5), ("leaveType", "请假类型", "Type of leave", "enum", None),
        ("startDate", "开始日期", "First day", "date", None), ("startHalf", "开始时段", "Starting", "enum", None),
        ("endDate", "结束日期", "Last day", "date", None), ("endHalf", "结束时段", "Ending", "enum", None),
        ("reason", "请假原因", "Reason", "string", None),
    ]
    assert [(s.name, s.name_en) for s in leave.steps] == [("审批人审批", "Approver's decision"), ("人事审批", "HR's decision")]
    category = definitions["process_baoxiao"].fields[1]
    assert [(c.id, c.name_en) for c in category.choices] == [
        ("差旅", "Travel"), ("餐饮", "Meals"), ("办公", "Office"), ("其他", "Other"),
    ]
    trip = {f.id: f for f in definitions["process_chuchai"].fields}
    assert trip["endDate"].not_before == "startDate" and trip["startDate"].not_past and trip["endDate"].not_past


def test_the_seed_files_carry_a_diagram_for_every_element():
    from lxml import etree

    ns = {"bpmn": "http://www.omg.org/spec/BPMN/20100524/MODEL", "bpmndi": "http://www.omg.org/spec/BPMN/20100524/DI"}
    for path in SEED_FILES:
        root = etree.parse(str(path)).getroot()
        process = root.find("bpmn:process", ns)
        elements = {e.get("id") for e in process if e.get("id") and etree.QName(e).localname != "extensionElements"}
        drawn = {e.get("bpmnElement") for e in root.iterfind(".//bpmndi:BPMNShape", ns)} | {
            e.get("bpmnElement") for e in root.iterfind(".//bpmndi:BPMNEdge", ns)
        }
        assert elements and elements == drawn, (path.name, elements ^ drawn)


def test_a_file_path_deploys_like_its_text(tmp_path: Path, db: Engine, engine: SpiffEngine):
    path = tmp_path / "caigou.bpmn"
    path.write_text(purchase_bpmn(), encoding="utf-8")
    with db.begin() as conn:
        assert engine.deploy(conn, path).version == 1
        assert engine.deploy(conn, str(path)).version == 2


# ---------------------------------------------------------------- invalid BPMN: refused, named, nothing stored

VALID = purchase_bpmn()
START_EVENT = VALID[VALID.index('    <bpmn:startEvent'):VALID.index('    <bpmn:userTask id="Task_manager"')]


def _without_flow(text: str, flow_id: str) -> str:
    return re.sub(rf'\s*<bpmn:sequenceFlow id="{flow_id}"[^>]*?(/>|>.*?</bpmn:sequenceFlow>)', "", text, count=1, flags=re.S)


INVALID = {
    "not_xml": (VALID[: len(VALID) // 2], ""),
    "not_bpmn": ('<?xml version="1.0"?><definitions xmlns="http://example.com/not-bpmn"><process id="x"/></definitions>', ""),
    "no_process": (
        '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d" targetNamespace="x" />', ""
    ),
    "process_without_id": (VALID.replace('<bpmn:process id="process_caigou"', "<bpmn:process"), ""),
    "not_executable": (VALID.replace('isExecutable="true"', 'isExecutable="false"'), "process_caigou"),
    "no_start_event": (_without_flow(VALID.replace(START_EVENT, ""), "Flow_start"), "process_caigou"),
    "no_assignee_rule": (VALID.replace(' camunda:assignee="${nextUserId}"', ""), "Task_manager"),
    "unknown_field_type": (VALID.replace('label="数量" type="long"', 'label="数量" type="money"'), "quantity"),
    "enum_without_values": (
        re.sub(r'<camunda:value id="\w+" name="[^"]+" />', "", VALID),
        "channel",
    ),
    "bad_condition": (VALID.replace("quantity * unitPrice &lt;=", "quantity * * unitPrice &lt;="), "Flow_small"),
    "missing_condition": (
        VALID.replace(
            '<bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">not approved</bpmn:conditionExpression>\n'
            '    </bpmn:sequenceFlow>\n    <bpmn:sequenceFlow id="Flow_purchasing_decided"',
            '</bpmn:sequenceFlow>\n    <bpmn:sequenceFlow id="Flow_purchasing_decided"',
        ),
        "Flow_no",
    ),
    "unsafe_condition": (VALID.replace("not approved</bpmn", "__import__('os').system('true')</bpmn", 1), "Flow_no"),
    "unknown_name": (VALID.replace("not approved</bpmn", "not aproved</bpmn", 1), "Flow_no"),
    "unsupported_element": (
        VALID.replace(
            '<bpmn:exclusiveGateway id="Gateway_amount" />',
            '<bpmn:scriptTask id="Gateway_amount"><bpmn:script>x = 1</bpmn:script></bpmn:scriptTask>',
        ),
        "Gateway_amount",
    ),
    "bad_assignee": (VALID.replace('camunda:assignee="${nextUserId}"', 'camunda:assignee="${next user}"'), "Task_manager"),
    "condition_outside_gateway": (
        VALID.replace(
            '<bpmn:sequenceFlow id="Flow_decided" sourceRef="Task_manager" targetRef="Gateway_amount" />',
            '<bpmn:sequenceFlow id="Flow_decided" sourceRef="Task_manager" targetRef="Gateway_amount">'
            '<bpmn:conditionExpression>approved</bpmn:conditionExpression></bpmn:sequenceFlow>',
        ),
        "Flow_decided",
    ),
    "no_outgoing_flow": (_without_flow(VALID, "Flow_purchasing_decided"), "Task_purchasing"),
    "reserved_id": (VALID.replace('"Start_caigou"', '"Start"'), "Start"),  # SpiffWorkflow's own start task is "Start"
    "duplicate_id": (VALID.replace('id="Gateway_purchasing"', 'id="Gateway_amount"'), "Gateway_amount"),
    "reserved_field": (VALID.replace('id="item" label="采购物品"', 'id="requester" label="申请人"'), "requester"),
}


@pytest.mark.parametrize("code", sorted(INVALID))
def test_invalid_bpmn_is_refused_naming_its_element_and_nothing_is_stored(code: str, db: Engine, engine: SpiffEngine):
    xml, element_id = INVALID[code]
    with db.begin() as conn, pytest.raises(DeployError) as refused:
        engine.deploy(conn, xml)
    assert refused.value.code == code, refused.value
    assert refused.value.element_id == element_id
    if element_id:
        assert f"`{element_id}`" in refused.value.message
    with db.connect() as conn:
        assert count(conn, tables.deployments) == 0


def test_the_valid_document_the_invalid_ones_derive_from_deploys(db: Engine, engine: SpiffEngine):
    with db.begin() as conn:
        assert engine.deploy(conn, VALID).version == 1


def test_a_camunda_style_condition_written_with_and_and_or_operators_is_told_to_use_python(db: Engine, engine: SpiffEngine):
    xml = VALID.replace("${approved and quantity * unitPrice &gt;", "${approved &amp;&amp; quantity * unitPrice &gt;")
    with db.begin() as conn, pytest.raises(DeployError) as refused:
        engine.deploy(conn, xml)
    assert (refused.value.code, refused.value.element_id) == ("bad_condition", "Flow_big")
    assert "`and`" in refused.value.message


def test_a_refused_deploy_leaves_earlier_versions_alone(db: Engine, engine: SpiffEngine):
    with db.begin() as conn:
        engine.deploy(conn, VALID)
    with db.begin() as conn, pytest.raises(DeployError):
        engine.deploy(conn, VALID.replace(' camunda:assignee="${nextUserId}"', ""))
    with db.connect() as conn:
        versions = conn.execute(select(tables.deployments.c.version)).scalars().all()
        assert versions == [1]
        assert engine.definitions(conn)[0].version == 1


def test_a_camunda_literal_in_a_condition_is_told_to_use_python(db: Engine, engine: SpiffEngine):
    with db.begin() as conn, pytest.raises(DeployError) as refused:
        engine.deploy(conn, VALID.replace("not approved</bpmn", "approved == false</bpmn", 1))
    assert (refused.value.code, refused.value.element_id) == ("unknown_name", "Flow_no")
    assert "false → False" in refused.value.message


def test_a_file_saved_by_camunda_modeler_with_its_extra_attributes_deploys(db: Engine, engine: SpiffEngine):
    modeler = (
        VALID.replace(
            'targetNamespace="http://bpmn.io/schema/bpmn"',
            'targetNamespace="http://bpmn.io/schema/bpmn" xmlns:modeler="http://camunda.org/schema/modeler/1.0" '
            'exporter="Camunda Modeler" exporterVersion="5.20.0" modeler:executionPlatform="Camunda Platform" '
            'modeler:executionPlatformVersion="7.20.0"',
        )
        .replace('isExecutable="true"', 'isExecutable="true" camunda:historyTimeToLive="180"')
        .replace('name="主管审批"', 'name="主管审批" camunda:formKey="embedded:app:forms/approve.html"')
    )
    with db.begin() as conn:
        assert engine.deploy(conn, modeler).version == 1
        assert [s.element_id for s in engine.definitions(conn)[0].steps] == ["Task_manager", "Task_purchasing"]
