"""What the graph's nodes are built from: one record, made once per graph by `build_graph` and shared by its nodes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graph.budget import SYSTEM_CLOCK, Clock
from graph.calls import Actors, CheckedReads
from tools.backend import Backend
from tools.spec import ToolRegistry
from tools.toolset import Toolset


@dataclass(frozen=True)
class NodeDeps:
    """The toolset, its backend, what its handlers need, the clock, and the two caches the nodes share."""

    toolset: Toolset
    """The domain the graph runs (its registry, prompts, hooks)."""
    backend: Backend
    """The toolset's backend (the workflow's `WorkflowStore`)."""
    needs: Any = None
    """What the toolset's handlers need beyond the backend (the workflow's mailer; None keeps e-mail in the outbox)."""
    clock: Clock = SYSTEM_CLOCK
    """The budgets' time and the runs' date."""
    actors: Actors = field(default=None)  # type: ignore[assignment]
    """Who the actors are, looked up once and kept (made from the toolset and backend when not given)."""
    reads: CheckedReads = field(default_factory=CheckedReads)
    """What the validator checked, for the executor to run without checking again."""

    def __post_init__(self) -> None:
        if self.actors is None:
            object.__setattr__(self, "actors", Actors(self.toolset, self.backend))

    @property
    def registry(self) -> ToolRegistry:
        return self.toolset.registry
