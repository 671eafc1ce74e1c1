"""A request's process as text: each step of its BPMN in order, marked done, current or next, as the page's diagram
marks them (the chat's `/process`)."""

from __future__ import annotations

import functools
from typing import Any

from lxml import etree

from tools.workflow.engine import InstanceView
from tools.workflow.engine.model import NS
from tools.workflow.timeline import VERDICTS

MARKS = {"done": "✓", "current": "▶", "next": "○", "other": "·"}
STATUS = {
    "zh": {"running": "进行中", "approved": "已批准", "rejected": "已驳回", "ended": "已结束", "returned": "已退回",
           "withdrawn": "已撤回"},
    "en": {"running": "in progress", "approved": "approved", "rejected": "rejected", "ended": "ended",
           "returned": "sent back to the requester", "withdrawn": "withdrawn"},
}
_SHOWN = ("startEvent", "userTask", "endEvent")
"""The elements a person reads as steps (gateways and flows are how the process decides, drawn on the page)."""


@functools.lru_cache(maxsize=64)
def _elements(xml: str) -> tuple[tuple[str, str, str, str], ...]:
    """(id, tag, name, English name) of the process's flow nodes, in document order."""
    root = etree.fromstring(xml.encode("utf-8"), parser=etree.XMLParser(resolve_entities=False, no_network=True))
    process = root.find("bpmn:process", NS)
    found = []
    timers = {e.get("id") for e in process.findall("bpmn:boundaryEvent", NS)} if process is not None else set()
    flows = process.findall("bpmn:sequenceFlow", NS) if process is not None else []
    # an end only a step's timer leads to (its reminder's, its escalation's) is no step of the request
    timer_ends = {f.get("targetRef") for f in flows if f.get("sourceRef") in timers} - {
        f.get("targetRef") for f in flows if f.get("sourceRef") not in timers}
    for element in process if process is not None else []:
        tag = etree.QName(element).localname
        if tag not in _SHOWN or not element.get("id") or element.get("id") in timer_ends:
            continue
        name_en = ""
        for prop in element.findall("bpmn:extensionElements/camunda:properties/camunda:property", NS):
            if prop.get("name") == "label_en" or prop.get("id") == "label_en":
                name_en = prop.get("value") or ""
        found.append((element.get("id"), tag, element.get("name") or element.get("id"), name_en))
    # Steps first in the order a request goes through them: the start, the user tasks, then the ends.
    order = {"startEvent": 0, "userTask": 1, "endEvent": 2}
    return tuple(sorted(found, key=lambda e: order[e[1]]))


def process_lines(view: InstanceView, people: dict[str, dict[str, Any]], lang: str,
                  conditions: dict[str, str] | None = None) -> list[str]:
    """The request's steps, one a line: ✓ done, ▶ waiting now (and for whom), ○ may come next (with when a request
    comes to it, from `conditions` by element id: "HR's decision (approved and over 3 days)"), · not reached."""
    decided = {d.element_id: d for d in view.history}
    waiting = {t.element_id: t for t in view.tasks}
    lines = []
    for element_id, _tag, name, name_en in _elements(view.bpmn_xml):
        label = name_en or name if lang == "en" else name
        if element_id in view.diagram.current:
            mark = MARKS["current"]
        elif element_id in view.diagram.done:
            mark = MARKS["done"]
        elif element_id in view.diagram.next:
            mark = MARKS["next"]
        else:
            mark = MARKS["other"]
        line = f"{mark} {label}"
        if element_id in decided:
            d = decided[element_id]
            who = _name(people, d.user, lang)
            kind = "returned" if d.returned else "approved" if d.approved else "rejected"
            verdict = VERDICTS["en" if lang == "en" else "zh"][kind]
            comment = (f"（{d.comment}）" if lang == "zh" else f" ({d.comment})") if d.comment else ""
            line += f" — {who} {verdict}{comment}"
        elif element_id in view.diagram.next and (cond := (conditions or {}).get(element_id)):
            line += f"（{cond}）" if lang == "zh" else f" ({cond})"
        elif element_id in waiting:
            task = waiting[element_id]
            offered = [_name(people, u, lang) for u in ([task.assignee] if task.assignee else []) + list(task.candidate_users)]
            offered += [_name(people, group, lang) for group in task.candidate_groups]  # `groups_as_people`
            line += (f" — 等待 {'、'.join(offered)}（{task.id}）" if lang == "zh"
                     else f" — waiting for {', '.join(offered)} ({task.id})")
        lines.append(line)
    return lines


def _name(people: dict[str, dict[str, Any]], user_id: str, lang: str) -> str:
    person = people.get(user_id)
    if person is None:
        return user_id
    return str(person.get("alias") or person["name"]) if lang == "en" else str(person["name"])


def describe(view: InstanceView, people: dict[str, dict[str, Any]], lang: str) -> str:
    """A request's header and its steps as text."""
    name = view.process_name_en or view.process_name if lang == "en" else view.process_name
    status = STATUS["en" if lang == "en" else "zh"].get(view.status, view.status)
    header = f"{view.id} {name} v{view.version} — {status}"
    return "\n".join([header, *(f"  {line}" for line in process_lines(view, people, lang))])
