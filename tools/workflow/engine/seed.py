"""The seed processes shipped as BPMN files in `tools/workflow/processes/`, and the seed groups."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Connection

from tools.workflow.engine.interface import Deployed, ProcessEngine
from tools.workflow.engine.tables import SEED_GROUPS, seed_groups

PROCESSES_DIR = Path(__file__).resolve().parent.parent / "processes"
"""`tools/workflow/processes/`: 请假 (qingjia), 报销 (baoxiao), 出差 (chuchai)."""

SEED_FILES: tuple[Path, ...] = tuple(PROCESSES_DIR / name for name in ("qingjia.bpmn", "baoxiao.bpmn", "chuchai.bpmn"))


def deploy_seed_processes(engine: ProcessEngine, conn: Connection) -> list[Deployed]:
    """Deploy each shipped BPMN file whose XML differs from its key's latest version (first use, or an update)."""
    return [engine.deploy(conn, path, only_if_changed=True) for path in SEED_FILES]


def seed(engine: ProcessEngine, conn: Connection) -> list[Deployed]:
    """The seed groups (`hr`, `finance`) and the seed processes, idempotent: call it on every start."""
    seed_groups(conn, SEED_GROUPS)
    return deploy_seed_processes(engine, conn)
