"""Guard: a decision the person holds for now is not made. "OK, leave it for now, I'll ask him for a budget first"
was filed as an approval (its "OK" read as one), and 先放着 and 先不批，等他把预算发过来再说 were asked "approve or
reject?", or read as a rejection: the person said to decide nothing yet. A decision whose latest message holds it
(`words.HELD`) and states none is not proposed; the person is told it stays in their to-dos."""

from __future__ import annotations

from tools.errors import CannotError
from tools.guards.call import Call
from tools.request import latest_message
from tools.workflow.words import HELD, stated_decision

_DECIDING = frozenset({"handleTodoTask", "decideTasks"})
LEFT = {"zh": "好的，先不处理：它还在你的待办里，等你决定。",
        "en": "Fine, I've left it as it is: it stays in your to-dos until you decide."}


class DecisionHeld:
    """Refuses a decision the person's latest message holds for now and does not state, telling them it is left."""

    name = "decision_held"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name not in _DECIDING:
            return
        latest = latest_message(call.request)
        if HELD.search(latest) and stated_decision(call.request) is None:  # "拒了吧" then its reason "等下个月再说"
            raise CannotError("decision_held", "The user holds this decision for now and states none: decide nothing; "
                              "it stays in their to-dos.", say=LEFT)
