"""Guard: a leave type the company does not have. "公司陪产假能休几天？" was answered with the person's annual leave
("陪产假可以休 5 天"), a figure about something else, and "three days of paternity leave" would have been filed as
personal leave, the default, as if they had said nothing of its type. A question about a leave type that is none of
`types.toml`'s, or a leave asked for as one, is told plainly that there is none such here, with the types there are:
how many days a type the company lacks gives is HR's to say, and which of its types a leave is filed as, the
person's.

The types named are those leave systems commonly have (产假, 陪产假, 育儿假, "parental leave", "sabbatical"): the
words name a kind of leave, not one of ours. A message that names one of ours as well ("产假休完了，年假还剩几天？")
asks about that one, and is left to it."""

from __future__ import annotations

import re

from tools.errors import CannotError
from tools.guards.call import Call
from tools.request import latest_message
from tools.workflow.leave.rules import starts_a_leave
from tools.workflow.leave.specs import LEAVE_BALANCE
from tools.workflow.leave.types import leave_types

NOT_OFFERED = re.compile(
    r"陪产假|护产假|产检假|流产假|产假|育儿假|探亲假|(?:独生子女)?护理假|哺乳假|工伤假|节育假|献血假|生日假|"
    r"\b(?:(?:shared\s+)?parental|paternity|maternity|adoption|study|exam|jury(?:\s+(?:duty|service))?|sabbatical|"
    r"military|birthday|volunteer(?:ing)?|carer'?s|caregiver|breastfeeding|nursing)\s+leave\b|"
    r"\b(?:paternity|maternity)\b",
    re.IGNORECASE,
)
"""Kinds of leave other companies have and this one's types do not: 陪产假, 产假, 育儿假, "paternity leave"."""

_KNOWN_ALSO = ("vacation", "pto", "comp day", "comp time", "time in lieu", "年休假", "倒休", "补休")


def _ours(text: str, words: tuple[str, ...]) -> bool:
    """Whether `text` names one of the company's leave types (by id, code, English name or one of `words`)."""
    names = [w for t in leave_types().types for w in (t.id, t.code, t.name_en)] + [*_KNOWN_ALSO, *words]
    return any(re.search(rf"(?<![a-z]){re.escape(n)}(?![a-z])", text, re.IGNORECASE) for n in names if n)


class TypeOffered:
    """Tells the person a leave type they named is none of the company's, instead of a balance or a start."""

    name = "type_offered"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        balance = call.spec.name == LEAVE_BALANCE.name
        if not balance and not starts_a_leave(call):
            return
        latest = latest_message(call.request)
        named = next(reversed(list(NOT_OFFERED.finditer(latest))), None)  # the one asked of, said last ("休完产假，育儿假…")
        words = tuple(w for v in call.person_values if v.param == "fields.leaveType"
                      for option in (*v.choices, *v.hints) for w in option[1:] if w)
        if named is None or _ours(NOT_OFFERED.sub(" ", latest), words):
            return
        said = named.group(0)
        if said.isascii() and not said.lower().endswith("leave"):
            said += " leave"  # "paternity" alone: the kind of leave it is
        types = leave_types().types
        zh_types, en_types = "、".join(t.name("zh") for t in types), ", ".join(t.name("en") for t in types)
        if balance:
            say = {"zh": f"这里的请假类型里没有{said}（有：{zh_types}），所以我查不到{said}能休几天，可以问一下人事。",
                   "en": f"There is no {said} among the leave types here ({en_types}), so I can't tell how many days "
                         "you would get; HR can tell you."}
        else:
            say = {"zh": f"这里的请假类型里没有{said}（有：{zh_types}）。要按哪种假请，请告诉我。",
                   "en": f"There is no {said} among the leave types here ({en_types}). Which of them should I "
                         "file it as?"}
        raise CannotError("type_not_offered", f"The user names {said!r}, which is none of the leave types here; "
                          "they are told so, with the types there are.", say=say)
