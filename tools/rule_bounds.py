"""The bounds of the rules a store holds, as an answer may state them: "超过5000元的转财务审批" explains a route (the
expense claim's finance step comes after 5000 yuan), where "paid within 3 business days" invents a figure that only
happens to be a rule's (3: HR's step, a bereavement's most days). Read by `graph.known`, beside `tools.claims`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date

from tools.claims import Claim, claims_in

_BOUND_BEFORE = re.compile(
    r"(?:超过|超出|高于|大于|多于|不超过|不到|低于|少于|小于|满|over|above|more\s+than|greater\s+than|exceed(?:s|ing)?|"
    r"beyond|under|below|less\s+than|at\s+most|up\s+to|within)\s*[¥￥$]?\s*$", re.IGNORECASE)
_BOUND_AFTER = re.compile(
    r"\s*(?:元|块|天|个?工作日|days?|working\s+days?|yuan|RMB)?\s*(?:以上|以下|以内|之内|及以上|或以上|或更多|"
    r"or\s+(?:more|less|above|over|under|below)|and\s+(?:above|over|up|under|below))", re.IGNORECASE)


def a_bound_of(rules: Mapping[float, frozenset[str]], text: str, claim: Claim) -> bool:
    """Whether `text` states the claimed number as a bound ("超过5000元", "over 3 days", "5000 元以内") of a stored rule,
    in a sentence that names what the rule is of (`rules`: each bound and its subject's words, `rule_bounds`):
    "超过5000元的转财务审批" explains a route; a balance of "3 天", or "paid within 3 business days", states none."""
    subject = rules.get(_key(claim.value)) if claim.kind == "number" else None
    if not subject:
        return False
    for m in re.finditer(re.escape(claim.text), text):
        sentence = _SENTENCE.split(text[:m.start()])[-1] + _SENTENCE.split(text[m.start():])[0]
        if (_BOUND_BEFORE.search(text[max(0, m.start() - 16):m.start()]) or _BOUND_AFTER.match(text, m.end())) and \
                any(word in sentence.casefold() for word in subject):
            return True
    return False


_SENTENCE = re.compile(r"[。！!？?；;\n]|\.(?:\s|$)")


def rule_bounds(rules: str, *, today: date) -> dict[float, frozenset[str]]:
    """Each figure the stored rules state (lines of "subject: rule", "财务审批 Finance's decision: 同意且超过 5000 元"), with
    the words of what it is of: each Latin word of the subject, and the first two characters of each Chinese one."""
    bounds: dict[float, set[str]] = {}
    for line in rules.splitlines():
        subject, _, rule = line.partition(":")
        words = {w.casefold().removesuffix("'s") for w in re.findall(r"[A-Za-z']{2,}", subject)} - {"decision", "leave"}
        words |= {w[:2] for w in re.findall(r"[\u4e00-\u9fff]{2,}", subject)}
        for claim in claims_in(rule, today=today):
            if claim.kind == "number":
                bounds.setdefault(_key(claim.value), set()).update(words)
    return {n: frozenset(w) for n, w in bounds.items()}




def _key(value: float) -> float:
    """A number as `tools.claims` compares it: 10 == 10.0, no float noise, no sign."""
    return round(abs(float(value)), 6)
