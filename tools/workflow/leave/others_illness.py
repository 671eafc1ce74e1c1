"""Guard: an illness of someone else implies no sick leave. "孩子在学校发烧了，我下午请半天假去接他" and "picking up my son
from school, he threw up in class" were filed as sick leave, which is for the person's own illness (the thirty-ninth
round's writer): 发烧 and "threw up" imply sick leave only when said of the person. Where the kind was implied, not
named ("请病假" is the person's choice, whoever is ill), and the words that imply it follow a family member in their
clause, the kind is the types' default (personal leave), shown on the card as inferred for the person to change."""

from __future__ import annotations

import re

from tools.guards.call import Call
from tools.hooks import Source
from tools.person_values import get_param, set_param
from tools.workflow.leave.types import LEAVE_TYPE_FIELD, leave_types

_PARAM = f"fields.{LEAVE_TYPE_FIELD}"
_SICK = "病假"
_OTHERS = re.compile(
    r"孩子|儿子|女儿|小孩|宝宝|娃|闺女|老婆|老公|妻子|丈夫|爱人|媳妇|父亲|母亲|爸|妈|老人|家人|奶奶|爷爷|外婆|外公|公公|婆婆|岳父|岳母|"
    r"\bmy\s+(?:son|daughter|kids?|child|children|baby|toddler|wife|husband|partner|mum|mom|mother|dad|father|parents?|"
    r"grandma|grandpa|grandmother|grandfather|in-laws?)\b",
    re.IGNORECASE,
)
"""Words of someone in the person's family: what follows them in a clause is said of them."""
_CLAUSE = re.compile(r"[^，,。.;；!！?？\n]+")


def _said_of_another(text: str, words: tuple[str, ...]) -> bool:
    """Whether every clause of the text that holds a word implying sick leave names a family member before it."""
    hits = [c for c in _CLAUSE.findall(text) if any(w and w.casefold() in c.casefold() for w in words)]
    found = False
    for clause in hits:
        first = min(clause.casefold().find(w.casefold()) for w in words if w and w.casefold() in clause.casefold())
        if not _OTHERS.search(clause[:first]):
            return False
        found = True
    return found


class OthersIllness:
    """Files the default kind of leave, not sick leave, where only a family member's illness implied it."""

    name = "others_illness"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        source = call.sources.get(_PARAM)
        if call.spec.name != "runWorkFlow" or get_param(call.values, _PARAM) != _SICK or source is None or \
                source["how"] != "inferred":
            return
        value = next((v for v in call.person_values if v.param == _PARAM), None)
        words = tuple(w for hint in (value.hints if value else ()) if hint[0] == _SICK for w in hint[1:])
        said = [t for t in call.request["texts"] if any(w and w.casefold() in t.casefold() for w in words)]
        if not said or not all(_said_of_another(text, words) for text in said):
            return  # the illness is said of the person in one of the request's messages (or of nobody named)
        default = leave_types().default
        call.values = set_param(call.values, _PARAM, default)
        call.kept[_PARAM] = default  # the code's reading of their words, not asked again as "not said"
        call.sources[_PARAM] = Source(how="inferred", said="")
        call.notes.append(f"[leave] {_SICK} was implied by a family member's illness, not the user's: {default} filed")
