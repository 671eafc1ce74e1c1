"""The seam every guard shares: the record of one call being admitted, and what a guard is.

A guard reads the record and answers in one of three ways: it passes (returns, perhaps having filled in a value, a
note or a source), it refuses (raises `DomainError`, a `PolicyError` with its code: the model is told), or it asks
(raises `NeedsPersonError` for a value only the person can give: the graph asks them). The runtime runs the guards in
order (`tools.guards.admit`); the first that does not pass ends the admission.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel

from tools.spec import CallContext, Found, PersonValue, Source, ToolSpec, Verdict, get_param

if TYPE_CHECKING:
    from tools.request import Request
    from tools.toolset import Toolset


@dataclass
class Call:
    """One call being admitted: what it is, who makes it, what the person said, and what the guards found so far."""

    toolset: Toolset
    spec: ToolSpec
    handle: Any
    """The backend's handle the guards read through (inside the write's transaction on the executor's path)."""
    ctx: CallContext
    values: dict[str, Any]
    """The arguments as they stand: the model's, with the person's values put in, names made ids, dates read."""
    request: Request | None = None
    """What the person's request says, on the validator's path; None where no person can be asked (the executor, a
    script), and then the guards that need it (`Guard.needs_request`) do not run."""
    fresh_actor: bool = False
    """Read the actor again rather than take the caller's kept record (a write, inside its transaction)."""
    actor: dict[str, Any] = field(default_factory=dict)
    found: Found = field(default_factory=dict)
    """The records the call's references name, by parameter."""
    person_values: tuple[PersonValue, ...] = ()
    """The values only the person can give for this call, in the order they are asked about."""
    args: BaseModel | None = None
    """The arguments validated by the tool's schema, once that guard passed."""
    checked: Verdict = field(default_factory=Verdict)
    """What the tool's own check allowed."""
    notes: list[str] = field(default_factory=list)
    """The guards' notes for the model and the audit, in English."""
    sources: dict[str, Source] = field(default_factory=dict)
    """Where each of the person's values came from, by parameter path: the same replacements as data, for the card."""
    kept: dict[str, Any] = field(default_factory=dict)
    """Values the code proposed from the person's own record, by parameter path (the request withdrawn in this run
    that their message asks to file anew, `tools.workflow.refile`): theirs as they stand, unless their words now state
    another ("重新报一笔 580 的" over the old 500)."""

    def kept_as_is(self, param: str) -> bool:
        """Whether the call's value for `param` is still the one kept from the person's own record."""
        return param in self.kept and get_param(self.values, param) == self.kept[param]

    def to_check(self) -> tuple[PersonValue, ...]:
        """The person's values to find in their words: all but those kept as they were on their own record."""
        return tuple(v for v in self.person_values if not self.kept_as_is(v.param))

    def verdict(self) -> Verdict:
        """What the admission allowed: the check's notes and records with the guards' notes and sources."""
        return Verdict(notes=[*self.checked.notes, *self.notes], found={**self.found, **self.checked.found},
                       sources=dict(self.sources))


class Guard(Protocol):
    """One check of a call, in its own module: passes, refuses (`DomainError`) or asks (`NeedsPersonError`)."""

    name: str
    """What it checks, in a word (its module's name): how a deployment places its own guard beside it."""
    needs_request: bool
    """Runs only where the person's request is known (the validator's path): what only the person can give is judged
    there, and a write's re-check in its transaction runs the others."""
    asks_together: bool
    """A question it asks also asks for everything else the call still lacks, in one turn."""

    def __call__(self, call: Call) -> None: ...
