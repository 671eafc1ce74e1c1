"""`flowagent processes deploy FILE.bpmn`, `flowagent processes list` and `flowagent outbox`: the workflow toolset's
own subcommands, reached by the command line through `Surfaces.cli` (flowagent/cli.py names no toolset)."""

from __future__ import annotations

from pathlib import Path

import pytest

from flowagent.cli import main
from tests.support.engine import PURCHASE_KEY, purchase_bpmn
from tests.unit.test_engine_deploy import INVALID
from tools import WorkflowStore


def deployments(db: Path) -> list[tuple[str, int]]:
    store = WorkflowStore(f"sqlite:///{db}")
    try:
        return [(d["key"], d["version"]) for d in store.snapshot()["process_deployments"]]
    finally:
        store.dispose()


SEEDED = [("process_qingjia", 1), ("process_baoxiao", 1), ("process_chuchai", 1)]


def test_a_bpmn_file_is_deployed_as_the_next_version_and_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("COLUMNS", "300")  # the table on one line a process
    db, bpmn = tmp_path / "wf.db", tmp_path / "caigou.bpmn"
    bpmn.write_text(purchase_bpmn(), encoding="utf-8")
    assert main(["processes", "deploy", str(bpmn), "--db", str(db)]) == 0
    assert capsys.readouterr().out.strip() == f"deployed {PURCHASE_KEY} version 1"
    bpmn.write_text(purchase_bpmn(limit=20000), encoding="utf-8")
    assert main(["processes", "deploy", str(bpmn), "--db", str(db)]) == 0
    assert capsys.readouterr().out.strip() == f"deployed {PURCHASE_KEY} version 2"
    assert deployments(db) == [*SEEDED, (PURCHASE_KEY, 1), (PURCHASE_KEY, 2)]

    assert main(["processes", "list", "--db", str(db)]) == 0
    listed = capsys.readouterr().out
    for key, name in ((PURCHASE_KEY, "采购申请"), ("process_qingjia", "请假流程"), ("process_baoxiao", "报销流程")):
        assert key in listed and name in listed
    assert "item*" in listed and "主管审批 → 采购部审批" in listed


@pytest.mark.parametrize("code", ["no_start_event", "no_assignee_rule", "unknown_field_type", "bad_condition",
                                  "unsupported_element", "missing_condition", "not_executable"])
def test_invalid_bpmn_is_refused_at_deploy_naming_its_element_and_the_fix(
    code: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    db, bpmn = tmp_path / "wf.db", tmp_path / "bad.bpmn"
    xml, element_id = INVALID[code]
    bpmn.write_text(xml, encoding="utf-8")
    assert main(["processes", "deploy", str(bpmn), "--db", str(db)]) == 2
    said = " ".join(capsys.readouterr().out.split())
    assert f"[{code}]" in said and f"(element {element_id})" in said and "was not deployed" in said, said
    assert deployments(db) == SEEDED  # nothing of it was stored


def test_a_missing_file_is_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["processes", "deploy", str(tmp_path / "nope.bpmn"), "--db", str(tmp_path / "wf.db")]) == 2
    assert "no such file" in " ".join(capsys.readouterr().out.split())


def test_the_outbox_is_the_workflows_own_subcommand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.delenv("FLOWAGENT_SMTP_URL", raising=False)
    db = tmp_path / "wf.db"
    assert main(["outbox", "--db", str(db)]) == 0
    assert capsys.readouterr().out.strip() == "The outbox is empty."
    assert main(["outbox", "--retry", "--db", str(db)]) == 0
    assert capsys.readouterr().out.split("\n")[:2] == [
        "FLOWAGENT_SMTP_URL is not set: e-mails stay in the outbox.", "The outbox is empty."
    ]
