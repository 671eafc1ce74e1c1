"""Each phrasing judged through the path that files it: the person's `Request` read from it, and the reader of the shipped
form field it states (`tools.workflow.forms.person_values` of the process, as deployed by the store), asked through
`tools.grounding.stated_value`: read exactly, left unread (the graph then asks), or read wrong."""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Literal

from evals.corpora.phrasing import Kind, Phrasing

Verdict = Literal["exact", "unread", "wrong"]
FIELDS: dict[Kind, tuple[str, tuple[str, ...]]] = {
    "money": ("process_baoxiao", ("fields.amount",)),
    "days": ("process_qingjia", ("days",)),
    "range": ("process_chuchai", ("fields.startDate", "fields.endDate")),
    "half": ("process_qingjia", ("fields.startHalf", "fields.endHalf")),
}
"""Which process's form fields read each kind of value; a half-day range's dates are read as a range's (a leave's
dates have no reader of their own: the model gives them, and they must be among those stated), and its days are what
the leave's rules count from the values read, as the form files them."""
ACTOR = "user_1"


@dataclass(frozen=True)
class Judged:
    """A phrasing, what its form field's reader read from it (None: unread), and the verdict."""

    phrasing: Phrasing
    read: Any
    verdict: Verdict


def field_readers() -> dict[Kind, Callable[[Any], Any]]:
    """For each kind, the reader of its form field(s) in the shipped processes, loaded as the store loads them (a
    throwaway SQLite store, seeded with the BPMN files of tools/workflow/processes/)."""
    from tools.grounding import stated_value
    from tools.workflow.forms import person_values
    from tools.workflow.store import WorkflowStore

    with tempfile.TemporaryDirectory() as folder:
        store = WorkflowStore(f"sqlite:///{Path(folder) / 'corpora.db'}")
        try:
            with store.read() as conn:
                definitions = {d.key: d for d in store.process_engine.definitions(conn)}
        finally:
            store.dispose()
    readers: dict[Kind, Callable[[Any], Any]] = {}
    for kind, (key, params) in FIELDS.items():
        values = {v.param: v for v in person_values(definitions[key])}
        chosen = [values[param] for param in params]

        def read(request: Any, chosen: Sequence[Any] = chosen) -> Any:
            found = tuple(stated_value(value, request) for value in chosen)
            return found[0] if len(found) == 1 else found

        readers[kind] = read
    readers["half"] = _with_dates(readers["range"], readers["half"])
    return readers


def _with_dates(dates: Callable[[Any], Any], halves: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A half-day range's reader: its dates, its halves, and the working days the leave's rules count from them."""
    from tools.errors import DomainError
    from tools.workflow.leave.rules import read_leave

    def read(request: Any) -> tuple[Any, ...]:
        (start, end), (first, last) = dates(request), halves(request)
        days = None
        if start is not None and end is not None:
            form = {"leaveType": "事假", "startDate": start, "endDate": end, "startHalf": first, "endHalf": last}
            try:
                days = read_leave({k: v for k, v in form.items() if v is not None}, date.fromisoformat(start)).days
            except DomainError:
                days = None
        return start, end, first, last, days

    return read


def verdict(expected: Any, read: Any) -> Verdict:
    """Exact when the reader read the value meant (nothing, for words that state no one value); unread when it read
    nothing (a range: an end) and nothing else; wrong when it read anything but the value meant."""
    reads = read if isinstance(read, tuple) else (read,)
    if expected is None:
        return "exact" if all(r is None for r in reads) else "wrong"
    meant = expected if isinstance(expected, tuple) else (expected,)
    if any(r is not None and (m is None or not _same(r, m)) for r, m in zip(reads, meant, strict=True)):
        return "wrong"  # a value read that was not meant, or one read where none was said (a half not said)
    return "unread" if any(r is None and m is not None for r, m in zip(reads, meant, strict=True)) else "exact"


def _same(read: Any, meant: Any) -> bool:
    if isinstance(meant, str):
        return read == meant
    return isinstance(read, int | float) and not isinstance(read, bool) and abs(read - meant) < 1e-9


def judge(phrasings: Iterable[Phrasing]) -> list[Judged]:
    """Every phrasing read as the graph reads a request (the seed's people in the directory), and judged."""
    from tools.request import read_request
    from tools.workflow.seed import USERS

    readers = field_readers()
    judged = []
    for phrasing in phrasings:
        request = read_request([phrasing.text], index=0, today=phrasing.today, people=USERS, actor_id=ACTOR)
        read = readers[phrasing.kind](request)
        judged.append(Judged(phrasing, read, verdict(phrasing.expected, read)))
    return judged


def group_of(judged: Judged) -> str:
    """The report's kind of a phrasing: money, days, range, or the words of either that state no one value
    ("money, unclear")."""
    kind = judged.phrasing.kind
    return f"{kind}, unclear" if judged.phrasing.expected is None else kind


def tally(judged: Iterable[Judged], *, by_style: bool = True) -> dict[tuple[str, str, str], Counter[str]]:
    """Verdicts counted per (kind, language, ""), and with `by_style` per (kind, language, style) too."""
    counts: dict[tuple[str, str, str], Counter[str]] = {}
    for one in judged:
        keys = [(group_of(one), one.phrasing.lang, "")]
        if by_style:
            keys.append((group_of(one), one.phrasing.lang, one.phrasing.style))
        for key in keys:
            counts.setdefault(key, Counter())[one.verdict] += 1
    return counts


def exact_share(count: Counter[str]) -> float:
    return count["exact"] / max(1, sum(count.values()))
