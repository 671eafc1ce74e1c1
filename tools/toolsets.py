"""The toolsets the graph can run, by name: the workflow (the seed's leave approvals), toy and travel."""

from __future__ import annotations

from tools import toy, travel, workflow
from tools.toolset import Toolset

WORKFLOW = workflow.TOOLSET
WORKFLOW_PROMPT = workflow.WORKFLOW_PROMPT

TOOLSETS: dict[str, Toolset] = {t.name: t for t in (workflow.TOOLSET, toy.TOOLSET, travel.TOOLSET)}
UNKNOWN_TOOLSET_TEMPLATE = "There is no toolset {name!r}; choose one of: {available}."


def get_toolset(name: str) -> Toolset:
    """The toolset of that name; an unknown name raises ValueError listing the known ones."""
    try:
        return TOOLSETS[name]
    except KeyError:
        raise ValueError(UNKNOWN_TOOLSET_TEMPLATE.format(name=name, available=", ".join(TOOLSETS))) from None
