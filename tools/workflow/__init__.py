"""The workflow toolset: the seed's leave-approval tools (arguments, reads, writes, review cards, specs)."""

from tools.workflow.prompts import WORKFLOW_PROMPT
from tools.workflow.specs import REGISTRY, SPECS
from tools.workflow.toolset import TOOLSET

__all__ = ["REGISTRY", "SPECS", "TOOLSET", "WORKFLOW_PROMPT"]
