"""The tool layer: tool specs and registry, and the workflow domain (store, policy, mailer, seed data)."""

from tools.errors import DomainError, InvalidArgumentsError, NotFoundError, PolicyError
from tools.mailer import Mailer
from tools.runtime import CallContext, CheckedCall, check_call, execute_call
from tools.spec import Effect, Reference, ToolRegistry, ToolSpec
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
    "PolicyError",
    "Reference",
    "ToolRegistry",
    "ToolSpec",
    "WorkflowStore",
    "check_call",
    "execute_call",
]
