"""The tool layer: tool specs and registry, and the workflow domain (store, policy, mailer, seed data)."""

from tools.errors import DomainError, InvalidArgumentsError, NotFoundError, PolicyError
from tools.mailer import Mailer
from tools.runtime import CheckedCall, check_call, execute_call
from tools.spec import CallContext, Effect, ObservationShape, Reference, ToolRegistry, ToolSpec, Verdict
from tools.store import WorkflowStore
from tools.workflow import REGISTRY

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
