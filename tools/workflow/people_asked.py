"""Guard: the list of people answers a question about people. "How much is still left in our team's travel budget?"
asks what no tool here knows; the model looked up the users and the answer listed everyone with their ids, figures
about something else. Like the leave balance (`tools.workflow.leave.asked`), the directory looked up for a question
that speaks of no one, and asks for no write, is refused to the model, which then says what it knows. A write's
look-up of whom the person named is untouched: its request asks for an action."""

from __future__ import annotations

import re

from tools.errors import PolicyError
from tools.guards.call import Call
from tools.request import latest_message

PEOPLE_WORD = re.compile(
    r"谁|同事|邮箱|邮件地址|用户|名单|工号|账号|人|部门|"
    r"\b(?:who|whom|whose|users?|colleagues?|co-?workers?|people|person|staff|members?|e-?mails?|addresses|ids?|"
    r"names?|everyone|everybody|anyone|anybody|someone|somebody|team\s*mates?)\b",
    re.IGNORECASE,
)
"""Words that speak of people: 谁, 同事, 邮箱, "who", "colleagues", "e-mail", "names"."""


class PeopleAsked:
    """Refuses the list of people to a question that names no one and speaks of no people."""

    name = "people_asked"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != "getAllUser" or call.request["kind"] != "information" or call.request["names"]:
            return
        if PEOPLE_WORD.search(latest_message(call.request)):
            return
        raise PolicyError(
            "people_not_asked",
            "The user's question speaks of no person, so the list of users does not answer it. If no tool answers "
            "what they asked, say plainly that you do not know it; do not list people or give figures.",
        )
