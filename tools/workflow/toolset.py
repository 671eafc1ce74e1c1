"""The workflow toolset: the seed's leave-approval tools with their role and rules."""

from tools.toolset import Toolset
from tools.workflow.prompts import WORKFLOW_PROMPT
from tools.workflow.specs import REGISTRY

TOOLSET = Toolset(
    name="workflow",
    registry=REGISTRY,
    prompt=WORKFLOW_PROMPT,
    title="Leave approvals: workflows, requests, to-do tasks, reminders",
    lookup_answers=True,
)
"""The seed's leave-approval system (the default)."""
