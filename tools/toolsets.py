"""The toolsets the graph can run, by name, found as installed plugins (the `flowagent.toolsets` entry points).

The engine imports no toolset: each package declares its `Toolset` and registers it under its name in
`pyproject.toml` (`[project.entry-points."flowagent.toolsets"]`), so a new domain is one new package and one line.
The three shipped ones are `workflow` (the seed's approvals, the default), `toy` and `travel`.
"""

from __future__ import annotations

import functools
from importlib.metadata import entry_points

from tools.spec import ToolRegistry
from tools.toolset import Toolset

ENTRY_POINT_GROUP = "flowagent.toolsets"
UNKNOWN_TOOLSET_TEMPLATE = "There is no toolset {name!r}; choose one of: {available}."
NOT_INSTALLED = (
    "No toolsets are registered: flowagent is not installed in this environment. Run `./run chat` (or "
    "`pip install -e .`), which registers them."
)


@functools.cache
def toolset_names() -> tuple[str, ...]:
    """The registered toolsets' names, the default (workflow) first."""
    names = sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))
    return tuple(sorted(names, key=lambda n: n != "workflow"))


@functools.cache
def get_toolset(name: str) -> Toolset:
    """The toolset of that name; an unknown name raises ValueError listing the known ones."""
    found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    if not found:
        if not toolset_names():
            raise ValueError(NOT_INSTALLED)
        raise ValueError(UNKNOWN_TOOLSET_TEMPLATE.format(name=name, available=", ".join(toolset_names())))
    toolset = found[0].load()
    if not isinstance(toolset, Toolset):
        raise TypeError(f"the entry point {found[0].value} of toolset {name!r} is not a Toolset")
    return toolset


def approval_registry(toolset: Toolset, setting: str) -> ToolRegistry | None:
    """A deployment's FLOWAGENT_APPROVAL_TOOLS (comma-separated tool names): exactly these stop for a person's
    confirmation in every run of the deployment; empty: the tools' specs decide (None). An unknown name raises
    ValueError naming the toolset's tools. A client's run context cannot change it
    (`flowagent.server.actor.with_spec_approvals`)."""
    names = [name.strip() for name in setting.split(",") if name.strip()]
    return toolset.registry.requiring_approval(names) if names else None
