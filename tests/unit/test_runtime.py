"""The runtime runs each check once per path: read-only on the validator's, in the write's transaction on the
executor's, where the handler only does the effect."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

from tools import ToolRegistry, check_call, execute_call
from tools.guards import identity as identity_guard
from tools.toolset import Toolset
from tools.workflow import TOOLSET

LEAVE = {"processKey": "process_qingjia", "reason": "看牙医", "days": 1, "nextUserId": "李四"}


@pytest.fixture
def counted(monkeypatch) -> tuple[Toolset, Counter[str]]:
    """The workflow toolset with its actor look-up, its reference resolvers and runWorkFlow's own check counted, and
    the runtime's identity check counted."""
    calls: Counter[str] = Counter()

    def counting(name: str, fn: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return fn(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(identity_guard, "check_identity", counting("check_identity", identity_guard.check_identity))
    spec = TOOLSET.registry.get("runWorkFlow")
    assert spec.check is not None
    specs = [dataclasses.replace(s, check=counting("check", s.check)) if s is spec else s for s in TOOLSET.registry]
    resolvers = {kind: counting(f"resolve_{kind}", fn) for kind, fn in TOOLSET.resolvers.items()}
    counted_toolset = dataclasses.replace(
        TOOLSET, registry=ToolRegistry(specs), actor=counting("actor", TOOLSET.actor), resolvers=resolvers
    )
    return counted_toolset, calls


@pytest.mark.parametrize("path", [check_call, execute_call])
def test_each_check_of_a_write_runs_once_per_path(path, counted, make_ctx):
    toolset, calls = counted
    path(toolset, "runWorkFlow", LEAVE, make_ctx("user_1"))
    # userId and nextUserId are resolved once each; processKey is looked up once; one identity parameter.
    assert calls == Counter(actor=1, check_identity=1, resolve_user=2, resolve_process=1, check=1)
