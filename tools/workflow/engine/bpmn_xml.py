"""Reading a BPMN document's XML: the root, an element's BPMN tag and how a refusal names it, its Camunda properties."""

from __future__ import annotations

import re
from typing import Any

from lxml import etree

from tools.workflow.engine.errors import DeployError
from tools.workflow.engine.model import BPMN_NS, NS


def tag_of(element: Any) -> str:
    """The local name of a BPMN element, "" for comments and other namespaces."""
    if not isinstance(element.tag, str):
        return ""
    qname = etree.QName(element)
    return qname.localname if qname.namespace == BPMN_NS else ""


def describe(element: Any) -> str:
    """An element as a refusal names it: "userTask `Task_approve` (审批人审批)"."""
    name = element.get("name")
    return f"{tag_of(element) or etree.QName(element).localname} `{element.get('id')}`" + (f" ({name})" if name else "")


def clean(text: str | None) -> str:
    """An attribute's text with its white space collapsed."""
    return " ".join((text or "").split())


def parse_xml(xml: str | bytes) -> Any:
    """The document's root element, parsed without network access or entity expansion."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True, huge_tree=False)
    data = xml.encode("utf-8") if isinstance(xml, str) else xml
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise DeployError("not_xml", f"The file is not well-formed XML: {exc}. Save it from a BPMN modeler again.") from None
    if root is None:
        raise DeployError("not_xml", "The file is empty; deploy a BPMN 2.0 XML document.")
    if etree.QName(root).namespace != BPMN_NS or etree.QName(root).localname != "definitions":
        raise DeployError(
            "not_bpmn",
            f"The root element is <{etree.QName(root).localname}>, not BPMN 2.0's <bpmn:definitions> in namespace "
            f"{BPMN_NS}; export the diagram as BPMN 2.0 XML.",
        )
    return root


def property_of(element: Any, name: str) -> str:
    """A `camunda:property` of the element's own extension elements (by `name`, or by `id` as form fields write it)."""
    for prop in element.findall("bpmn:extensionElements/camunda:properties/camunda:property", NS) + element.findall(
        "camunda:properties/camunda:property", NS
    ):
        if prop.get("name") == name or prop.get("id") == name:
            return clean(prop.get("value"))
    return ""


def listed(value: str) -> tuple[str, ...]:
    """A property's comma-separated words (",", "，" or "、")."""
    return tuple(w.strip() for w in re.split(r"[,，、]", value) if w.strip())
