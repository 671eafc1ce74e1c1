"""The requester's side of a request, as tools: their own requests and where each stands (`queryMyRequests`), taking
one back while it is pending (`withdrawRequest`), and sending one again after an approver returned it
(`resubmitRequest`); and the approver's returning a request to its requester (`returnTask`)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from tools.spec import Effect, ObservationShape, PersonValue, Reference, ToolExample, ToolSpec
from tools.workflow.args import comment_arranged
from tools.workflow.comment_words import stated_comment
from tools.workflow.mine import described, query_my_requests
from tools.workflow.notify import deliver_all
from tools.workflow.request_words import resubmitted_line
from tools.workflow.resubmit import (
    ResubmitRequestArgs,
    arrange_resubmit,
    changed_person_values,
    check_resubmit_request,
    resubmit_card,
    resubmit_request,
)
from tools.workflow.send_back import ReturnTaskArgs, check_return_task, return_card, return_task, returned_line
from tools.workflow.withdraw import (
    WithdrawRequestArgs,
    check_withdraw_request,
    withdraw_card,
    withdraw_request,
    withdrawn_line,
)
from tools.workflow.words import DECISION_ONLY


class QueryMyRequestsArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    userId: str = Field(description="The requester: always the signed-in user (filled in by the system).")


MY_REQUESTS = ToolSpec(
    name="queryMyRequests",
    title={"zh": "查看我的申请", "en": "list my requests"},
    description="List the signed-in user's own requests, newest first: process, values, status, the current step, "
    "who holds it and since when, the comment a returned request came back with, and its timeline.",
    args_model=QueryMyRequestsArgs,
    effect=Effect.READ,
    handler=query_my_requests,
    backend_bound=True,
    identity_params=("userId",),
    # where a request stands, asked as a question: "撤回我的申请" or "my request ... send it again" ask for no look-up;
    # nor where a thing goes (报销的发票交到哪里, 单据放在哪); nor who approves *for* them ("我休假这几天是谁在帮我审批的？":
    # their deputy)
    answers=(r"(申请|请假|报销|出差|假)[^，。,;；？?]{0,8}(?<![交送寄放递拿贴])(到哪|在哪|进度|状态|怎么样|谁在(?!帮我|替我|代我)|谁手|卡在|"
             r"批了吗|审批了吗|批了没|批下来|(?:怎么|为什么|为啥)(?:给|被|又)*(?:退|打|驳)回|"
             r"批没批|通过了?(?:吗|没)|有没有批)|到哪一步|在谁手|(?:为什么|为啥|怎么)[^，。,;；？?]{0,6}我的[^，。,;；？?]{0,8}(?:退回|打回|驳回|被拒)|谁在(?:审|批|看|处理)我的(?:申请|请假|报销|出差|假)",
             r"\b(where|how) (is|are) my\b|\bwho(?:['’]s|\s+is)?\s+(?:actually\s+|really\s+|now\s+)?(?:has|holds|sitting\s+on|"
             r"looking\s+at|handling|reviewing|holding)\s+my\b|\bstatus of my\b|\bmy requests\b|"
             r"\bwhat\s+(?:happened|became)\s+(?:to|with|of)\s+my\b|"
             r"\bwhy\s+(?:did|was|has|is|does)\s+my\b[^?.!]{0,40}\b(?:back|returned|rejected|declined|bounced?|refused)\b|"
             r"\b(?:bounced|sent|kicked|handed|gave|given)\s+(?:\w+\s+){0,3}back\s+to\s+me\b|"
             r"\bwho\s+(?:turned\s+down|rejected|declined|approved|signed\s+off)\s+my\b|"
             r"\bI\s+(?:sent|filed|submitted|put\s+in)\b[^?]*\b(?:has|did)\s+(?:anyone|anybody|someone)\s+"
             r"(?:look(?:ed)?\s+at|approv(?:e|ed)|see|seen|check(?:ed)?|sign(?:ed)?\s+off|touch(?:ed)?)\b|"
             r"\b(?:was|is|has|did)\s+my\b[^.?!]{0,40}\b(?:approved|rejected|declined|through|signed\s+off|decided)\b|"
             # which they have filed ("What requests have I filed?", 我提过哪些申请)
             r"\b(?:what|which|how\s+many)\b[^.?!]{0,25}\b(?:requests?|claims?|applications?|trips?)\b[^.?!]{0,20}\b(?:have\s+I|"
             r"did\s+I|I(?:'ve|\s+have))\s+(?:filed|submitted|sent|put\s+in|made|raised)\b|"
             r"我(?:都|一共|现在|今年)?(?:提|交|发起|申请|报)(?:过|了)(?:哪些|几个|多少|什么)|(?:退|打)回?给我"),
    # where a colleague's request stands is shown by the copies, the to-dos and a task's view as well
    answered_by=("queryCcRequests", "queryTodoTask", "viewTask"),
    observation=ObservationShape(list_limits={"requests": 10, "timeline": 8}),
    describe=described,
    examples=(
        ToolExample(
            question="我的请假申请到哪一步了？",
            args={},
            observation='{"total":1,"requests":[{"process":"请假流程","summary":"请假天数：2 天；请假原因：看病",'
            '"status":"审批中","step":"审批人审批","heldBy":"王五","since":"12月3日 09:30"}]}',
            answer="你的请假申请（2 天，看病）在审批人审批这一步，由王五处理，自12月3日 09:30起。",
        ),
        ToolExample(
            question="Where is my leave request?",
            args={},
            observation='{"total":1,"requests":[{"process":"Leave request","summary":"Days of leave: 2 days; '
            'Reason: doctor","status":"waiting for a decision","step":"Approver\'s decision","heldBy":"Wang Wu",'
            '"since":"3 Dec 09:30"}]}',
            answer="Your leave request (2 days, doctor) is at the approver's decision, held by Wang Wu since 3 Dec 09:30.",
            lang="en",
        ),
    ),
    model_description="The requests the signed-in user filed themselves (我的申请): status, step, who holds it, since "
    "when. Not another person's request, nor their to-do tasks.",
)

WITHDRAW = ToolSpec(
    name="withdrawRequest",
    title={"zh": "撤回申请", "en": "withdraw a request"},
    description="Withdraw (撤回) one of the signed-in user's own pending requests: it is cancelled and the people "
    "holding it are told. requestId: its id from queryMyRequests, or what the user calls it (请假).",
    args_model=WithdrawRequestArgs,
    effect=Effect.WRITE,
    handler=withdraw_request,
    requires_approval=True,
    references=(Reference("requestId", "request", resolve="pending"),),
    check=check_withdraw_request,
    card=withdraw_card,
    observation=ObservationShape(drop=frozenset({"notified"})),
    after_commit=deliver_all,
    describe=withdrawn_line,
    examples=(
        ToolExample(
            question="我的请假不请了，撤回吧",
            args={"requestId": "请假"},
            observation='{"process":"请假流程","status":"withdrawn","told":["王五"]}',
            answer="已撤回你的请假申请，已通知王五。",
        ),
        ToolExample(
            question="Withdraw my leave request, plans changed",
            args={"requestId": "leave"},
            observation='{"process":"Leave request","status":"withdrawn","told":["Wang Wu"]}',
            answer="Your leave request is withdrawn; Wang Wu was told.",
            lang="en",
        ),
    ),
    model_description="Withdraw (撤回) a pending request the user filed themselves, never another person's. "
    "requestId: a req id or what they call it (请假).",
)

RETURN = ToolSpec(
    name="returnTask",
    title={"zh": "退回申请", "en": "send a request back"},
    description="Send a to-do task's request back to its requester (退回) with a comment saying what to change, "
    "instead of approving or rejecting it: they change it and send it again, or withdraw it. taskId: the requester's "
    "name or a taskId from queryTodoTask. comment: the user's words.",
    args_model=ReturnTaskArgs,
    arrange=comment_arranged("comment"),
    effect=Effect.WRITE,
    handler=return_task,
    requires_approval=True,
    references=(Reference("taskId", "task", resolve="requester"),),
    person_values=(PersonValue("comment", "text", "return_comment", stated=stated_comment, meaningful=True,
                               filler=DECISION_ONLY),),
    check=check_return_task,
    card=return_card,
    observation=ObservationShape(drop=frozenset({"notified"})),
    after_commit=deliver_all,
    describe=returned_line,
    examples=(
        ToolExample(
            question="把赵六的报销退回去，让他补上发票",
            args={"taskId": "赵六", "comment": "补上发票"},
            observation='{"step":"审批人审批","status":"returned","requester":"赵六","comment":"补上发票"}',
            answer="已把赵六的报销退回给他，意见：补上发票。",
        ),
        ToolExample(
            question="Send Zhao Liu's claim back to him: attach the receipts",
            args={"taskId": "Zhao Liu", "comment": "attach the receipts"},
            observation='{"step":"Approver\'s decision","status":"returned","requester":"Zhao Liu",'
            '"comment":"attach the receipts"}',
            answer="Zhao Liu's claim is sent back to him with your comment: attach the receipts.",
            lang="en",
        ),
    ),
    model_description="Send a to-do back to its requester to change and resend (退回修改; a rejection is "
    "handleTodoTask). taskId: the requester's name or a taskId. comment: "
    "what to change, in the user's words.",
)

RESUBMIT = ToolSpec(
    name="resubmitRequest",
    title={"zh": "重新提交申请", "en": "send a request again"},
    description="Send one of the signed-in user's requests again after an approver returned it, with the values the "
    "user changes (days, reason, or other form fields in fields); it goes through its steps again. requestId: its id "
    "or what the user calls it.",
    args_model=ResubmitRequestArgs,
    arrange=arrange_resubmit,
    effect=Effect.WRITE,
    handler=resubmit_request,
    requires_approval=True,
    references=(Reference("requestId", "request", resolve="returned"),),
    person_values_for=changed_person_values,
    check=check_resubmit_request,
    card=resubmit_card,
    observation=ObservationShape(drop=frozenset({"notified"})),
    after_commit=deliver_all,
    describe=resubmitted_line,
    examples=(
        ToolExample(
            question="请假改成2天，重新提交",
            args={"requestId": "请假", "days": 2},
            observation='{"process":"请假流程","status":"pending","changes":"请假天数：5 天 → 2 天","assigneeName":"王五"}',
            answer="已把请假改成 2 天并重新提交，等待王五审批。",
        ),
        ToolExample(
            question="Make my leave 2 days and send it again",
            args={"requestId": "leave", "days": 2},
            observation='{"process":"Leave request","status":"pending","changes":"Days of leave: 5 days → 2 days",'
            '"assigneeName":"Wang Wu"}',
            answer="Your leave is now 2 days and sent again; it waits for Wang Wu.",
            lang="en",
        ),
    ),
    model_description="Resend the user's returned request. requestId: a req id or what they call it (请假). days, "
    "reason, fields: only what changes.",
)

SPECS: tuple[ToolSpec, ...] = (MY_REQUESTS, WITHDRAW, RETURN, RESUBMIT)
"""The requester's tools, in the order the model reads them."""
