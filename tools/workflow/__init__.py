"""The workflow toolset: the seed's leave-approval tools (arguments, reads, writes, review cards, specs)."""

from tools.workflow.specs import REGISTRY, SPECS

__all__ = ["REGISTRY", "SPECS"]
