"""Deployments: a BPMN document checked once and stored as the next version of its key, and the models read back.

A deployment's XML never changes, so a document is checked (the BPMN schema, SpiffWorkflow's parser) once per
process: `LOADED` keeps the valid ones by the SHA-256 of their XML, for every engine in the process.
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Row, and_, func, insert, select
from sqlalchemy.exc import IntegrityError

from tools.workflow.engine import tables
from tools.workflow.engine.errors import DeployError, EngineError
from tools.workflow.engine.model import ProcessModel
from tools.workflow.engine.records import Definition, Deployed
from tools.workflow.engine.validation import Loaded, load


def read_bpmn(bpmn: str | Path) -> str:
    """The XML of `bpmn`: a Path is read; a str is XML text, or the path of an existing file when it is not XML."""
    if isinstance(bpmn, Path):
        return bpmn.read_text(encoding="utf-8")
    text = bpmn.lstrip("\ufeff \t\r\n")
    if not text.startswith("<") and "\n" not in bpmn and len(bpmn) < 4096:
        path = Path(bpmn)
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return bpmn


class LoadedCache:
    """Valid BPMN documents by the SHA-256 of their XML, shared by every engine in the process.

    A deployment's XML never changes, and checking it (the BPMN schema, SpiffWorkflow's parser) costs tens of
    milliseconds: a store that deploys the seed processes again, or an instance that starts, reuses the check.
    Only documents that passed the full check (schema included) are kept, so a cache hit is as good as a check.
    """

    MAX_ENTRIES = 256

    def __init__(self) -> None:
        self._loaded: dict[str, Loaded] = {}
        self._lock = threading.Lock()

    def get(self, xml: str, sha: str | None = None) -> Loaded:
        sha = sha or hashlib.sha256(xml.encode("utf-8")).hexdigest()
        with self._lock:
            found = self._loaded.get(sha)
        if found is None:
            found = load(xml)
            with self._lock:
                if len(self._loaded) >= self.MAX_ENTRIES:
                    self._loaded.pop(next(iter(self._loaded)))
                self._loaded[sha] = found
        return found


LOADED = LoadedCache()


def loaded_of(deployment: Row[*tuple[Any, ...]]) -> Loaded:
    """A stored deployment's checked document: its model and SpiffWorkflow's specs (any row with its `bpmn_xml` and
    `sha256`)."""
    return LOADED.get(deployment.bpmn_xml, deployment.sha256)


def model_of(deployment: Row[*tuple[Any, ...]]) -> ProcessModel:
    """A stored deployment's model (any row with its `bpmn_xml` and `sha256`)."""
    return loaded_of(deployment).model


def deploy(conn: Connection, bpmn: str | Path, *, now: str, only_if_changed: bool = False) -> Deployed:
    """Check a BPMN document and store it as its key's next version (see `ProcessEngine.deploy`)."""
    xml = read_bpmn(bpmn)
    sha = hashlib.sha256(xml.encode("utf-8")).hexdigest()
    model = LOADED.get(xml, sha).model
    d = tables.deployments
    latest = conn.execute(
        select(d.c.version, d.c.sha256).where(d.c.key == model.key).order_by(d.c.version.desc()).limit(1)
    ).first()
    if only_if_changed and latest is not None and latest.sha256 == sha:
        return Deployed(key=model.key, version=latest.version, name=model.name, created=False)
    version = (latest.version if latest is not None else 0) + 1
    try:
        conn.execute(
            insert(d).values(key=model.key, version=version, name=model.name, bpmn_xml=xml, sha256=sha, created_at=now)
        )
    except IntegrityError:
        raise DeployError(
            "deploy_conflict",
            f"Version {version} of {model.key} was deployed by someone else meanwhile; roll back and deploy again.",
            element_id=model.key,
        ) from None
    return Deployed(key=model.key, version=version, name=model.name)


def latest_definitions(conn: Connection) -> list[Definition]:
    """The latest version of each deployed key, ordered by key."""
    d = tables.deployments
    latest = select(d.c.key, func.max(d.c.version).label("version")).group_by(d.c.key).subquery()
    rows = conn.execute(
        select(d.c.version, d.c.sha256, d.c.bpmn_xml)
        .join(latest, and_(d.c.key == latest.c.key, d.c.version == latest.c.version))
        .order_by(d.c.key)
    ).all()
    return [model_of(row).definition(row.version) for row in rows]


def deployment_row(conn: Connection, key: str, version: int | None = None) -> Row[Any]:
    """A key's latest deployment, or the given version of it; `unknown_process` naming the deployed keys if none."""
    d = tables.deployments
    query = select(d).where(d.c.key == key)
    query = query.where(d.c.version == version) if version is not None else query.order_by(d.c.version.desc()).limit(1)
    row = conn.execute(query).first()
    if row is None:
        known = [r.key for r in conn.execute(select(d.c.key).distinct().order_by(d.c.key))]
        what = f"version {version} of process {key!r}" if version is not None else f"process {key!r}"
        raise EngineError("unknown_process", f"There is no {what}; deployed: {', '.join(known) or 'none'}.")
    return row


def deployment_of(conn: Connection, instance: Row[Any]) -> Row[Any]:
    """The deployment an instance runs on."""
    return conn.execute(select(tables.deployments).where(tables.deployments.c.id == instance.deployment_id)).one()
