"""Guard: a question about what a to-do the person holds says (how much, how long, who has okayed it already, whether
the requester filed such before) is answered from that to-do, as its approver sees it (`viewTask`).

Read after the thirty-seventh round's run: "What's that 7k claim sitting in my queue, and who's already okayed it?",
"there's a leave request sitting on the HR step, how long is it and has his manager already ok'd it?" and "What's
this dinner claim from Wang Wu about? how much, and is it his first one?" were each answered with the person's own
requests and a line of their to-dos: nothing they asked. Where the model looks up lists instead, and one to-do of theirs
fits the words (the process and the requester they name, else the only one they hold), the look-up is refused with
that to-do's view instead."""

from __future__ import annotations

import re

from tools.errors import PolicyError
from tools.guards.call import Call
from tools.message_kind import kind_of, sentences, tells_only
from tools.request import latest_message, persons_in_latest
from tools.workflow import lookup
from tools.workflow.engine import groups_of
from tools.workflow.request_lookup import processes_named
from tools.workflow.words import decision_in

LISTS = frozenset({"queryMyRequests", "queryTodoTask", "queryCcRequests", "getAllWorkFlow"})
"""The look-ups a question about one to-do's contents is not answered by."""

_ABOUT_EN = re.compile(
    r"\bwhat(?:'s|\s+is)\s+(?:this|that|the)\b[^?.!]{0,40}\b(?:claim|request|leave|trip|one|about)\b|"
    r"\bhow\s+(?:much|long|many\s+days)\s+(?:is|was|for)\s+(?:it|that|this|the)\b|"
    r"\bwho(?:'s|\s+has|\s+have|\s+had)?\s+(?:already\s+)?(?:ok(?:'?d|ayed|'ed)|approved|signed)|"
    r"\b(?:has|did)\s+(?:his|her|their|the)\s+(?:manager|boss|lead|approver)\b|"
    r"\b(?:his|her|their)\s+first\b|\b(?:claimed|filed|asked|requested)\b[^?.!]{0,20}\bbefore\b|"
    r"\bwhat\s+did\s+(?:\w+\s+){1,2}(?:say|write|comment)\b|\bwho\s+(?:approved|signed\s+off\s+on|signed|ok(?:'?d|ayed))\s+"
    r"(?:it\s+|this\s+|that\s+)?(?:off\s+)?(?:before|first|earlier)\b|\bwhat\s+(?:they|he|she)\s+(?:wrote|said)\b",
    re.IGNORECASE,
)
_ABOUT_ZH = re.compile(
    r"(?:这|那)(?:个|笔|张|条|份)[^，。？?]{0,12}(?:是什么|是啥|怎么回事|咋回事|多少钱|几天)|"
    r"(?:谁|哪位|哪些人)(?:已经)?(?:批|审|同意|签|看)过|(?:之前|以前|今年)[^，。？?]{0,6}(?:报|请|申请|提)过|"
    r"第一次(?:报|请|申请|提)|(?:批|审)的时候(?:怎么说|说了什么|写了什么|什么意见)|(?:前面|之前|上一步)(?:是)?(?:谁|哪位)(?:批|审)|"
    r"(?:怎么|咋)(?:说|批)的|(?:审批)?意见(?:是)?(?:什么|啥)|"
    r"(?:批|审|同意|通过)了?(?:之后|以后|完)[^，。？?]{0,10}(?:还要|还得|还需要|还用|谁|哪|就|结束|完事|流程)|"
    r"还(?:要|得|需要)(?:谁|哪个|哪些人|哪一步|别人|财务|人事)(?:再)?(?:审批|审|批|看)"
)
"""Words that ask what one to-do holds ("how much is it", "who's already okayed it", 这笔报销是怎么回事, 谁已经批过,
李四批的时候怎么说的, "what did Li Si say"), or what follows its approval (我批了之后还要谁审批, "if I approve it, does
it go on to finance?")."""
_AFTER_EN = re.compile(
    r"\b(?:if|once|after|when)\s+I\s+(?:approve|sign\s+off|ok|okay|pass)\b[^?.!]{0,50}\b(?:go(?:es)?\s+(?:on|anywhere|to)|"
    r"next|done|over|finished|end|anyone|else|further|finance|hr|another)\b|"
    r"\bwho\s+(?:else\s+)?(?:approves|signs(?:\s+off)?|decides|looks\s+at)\s+(?:it\s+|this\s+|that\s+)?(?:off\s+)?(?:after\s+me|next)\b",
    re.IGNORECASE)
_MINE = re.compile(r"\bmy\s+(?:own\s+)?(?:requests?|claims?|leave|trips?|expenses?)\b|我(?:自己)?(?:的|报|提|申请|请)的?",
                   re.IGNORECASE)


_SHOW = re.compile(r"^\s*(?:please\s+|can\s+you\s+|could\s+you\s+)?(?:show|pull\s+up|bring\s+up|open)\b|"
                   r"给我看看|调出来|打开看看|看一下|拿出来看看", re.IGNORECASE)
_ASKS_WHAT = re.compile(r"^\s*(?:and\s+)?(?:who|what|which|how|when|why)\b|谁|什么|多少|哪", re.IGNORECASE)


def _shown_only(text: str) -> bool:
    """Whether a message asks only to be shown something ("Show me the claim waiting on finance, and who signed it off
    before me"; "我第一次当审批人，有点懵。我待办里这条是什么意思？"): its parts are questions, ask to be shown or what or
    who, or only tell, and none decides."""
    said = [(s, kind_of(s) == "information") for s in sentences(text) if s.strip()]
    decides = any(decision_in(s) is not None for s, asked in said if not asked)  # "我批了之后…吗？" asks
    return bool(said) and not decides and all(
        asked or _SHOW.search(s) or _ASKS_WHAT.search(s) or tells_only(s) for s, asked in said) and any(
        asked or _SHOW.search(s) for s, asked in said)


class TodoAskedAbout:
    """Refuses a list look-up for a question about one to-do's contents, with that to-do's view instead."""

    name = "todo_asked_about"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name not in LISTS:
            return
        latest = latest_message(call.request)
        if call.request["kind"] != "information" and not _shown_only(latest):
            return
        if not (_ABOUT_EN.search(latest) or _ABOUT_ZH.search(latest) or _AFTER_EN.search(latest)) or _MINE.search(latest):
            return
        actor = call.ctx.actor_id
        offered = lookup.engine_of(call.handle).tasks_for(call.handle, actor, groups_of(call.handle, actor))
        keys = processes_named(call.handle, latest)
        named = {p["id"] for p in persons_in_latest(call.request, but=actor)}
        fits = [t for t in offered if (not keys or t.process_key in keys) and (not named or t.requester in named)]
        if len(fits) != 1:
            return
        raise PolicyError(
            "todo_asked_about", f"The user asks what their to-do {fits[0].id} holds, not for a list: call viewTask "
            f"with taskId {fits[0].id}.", instead={"name": "viewTask", "args": {"taskId": fits[0].id}},
        )
