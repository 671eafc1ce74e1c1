"""State schemas of the flowagent graph: the agent state, its input schema, the run context, records."""

from state.agent import AgentState, InputState
from state.context import Context, Protocol
from state.records import AuditRecord, Outcome, RunBudget, Step, ToolCallRecord, WrapUp

__all__ = [
    "AgentState",
    "AuditRecord",
    "Context",
    "InputState",
    "Outcome",
    "Protocol",
    "RunBudget",
    "Step",
    "ToolCallRecord",
    "WrapUp",
]
