"""The tool layer: the engine (tool specs, registry, runtime, toolsets, the request parsers) and one package per
toolset (`tools.workflow`, `tools.toy`, `tools.travel`).

The engine imports no toolset. `WorkflowStore`, `Mailer` and `REGISTRY` are the workflow toolset's, re-exported
here for the public contract (`from tools import WorkflowStore`) and loaded only when asked for.
"""

from typing import Any

from tools.errors import DomainError, InvalidArgumentsError, NotFoundError, PolicyError
from tools.runtime import CheckedCall, check_call, execute_call
from tools.spec import CallContext, Effect, ObservationShape, Reference, ToolRegistry, ToolSpec, Verdict

_WORKFLOW_EXPORTS = {"WorkflowStore": "tools.workflow.store", "Mailer": "tools.workflow.mailer", "REGISTRY": "tools.workflow"}


def __getattr__(name: str) -> Any:
    """The workflow toolset's public names, imported on first use (the engine never imports them)."""
    module = _WORKFLOW_EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tools' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ = [
    "REGISTRY",
    "CallContext",
    "CheckedCall",
    "DomainError",
    "Effect",
    "InvalidArgumentsError",
    "Mailer",
    "NotFoundError",
    "ObservationShape",
    "PolicyError",
    "Reference",
    "ToolRegistry",
    "ToolSpec",
    "Verdict",
    "WorkflowStore",
    "check_call",
    "execute_call",
]
