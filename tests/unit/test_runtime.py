"""The runtime runs each check once per path: read-only on the validator's, in the write's transaction on the
executor's, where the handler only does the effect."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

from tools import REGISTRY, ToolRegistry, check_call, execute_call
from tools import runtime as runtime_module

LEAVE = {"processKey": "process_qingjia", "reason": "看牙医", "days": 1, "nextUserId": "李四"}


@pytest.fixture
def counted(monkeypatch) -> tuple[ToolRegistry, Counter[str]]:
    """The seed's registry with runWorkFlow's own check counted, and the runtime's general checks counted."""
    calls: Counter[str] = Counter()

    def counting(name: str, fn: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return fn(*args, **kwargs)
        return wrapper

    for name in ("require_actor", "check_identity", "resolve_user", "require_reference"):
        monkeypatch.setattr(runtime_module, name, counting(name, getattr(runtime_module, name)))
    spec = REGISTRY.get("runWorkFlow")
    assert spec.check is not None
    specs = [dataclasses.replace(s, check=counting("check", s.check)) if s is spec else s for s in REGISTRY]
    return ToolRegistry(specs), calls


@pytest.mark.parametrize("path", [check_call, execute_call])
def test_each_check_of_a_write_runs_once_per_path(path, counted, make_ctx):
    registry, calls = counted
    path(registry, "runWorkFlow", LEAVE, make_ctx("user_1"))
    # userId and nextUserId are resolved once each; processKey is looked up once; one identity parameter.
    assert calls == Counter(require_actor=1, check_identity=1, resolve_user=2, require_reference=1, check=1)
