"""The workflow's fixed sequences for the chain strategy: one per kind of task, chosen by the request's words."""

from __future__ import annotations

from tools.spec import Chain

CHAINS: tuple[Chain, ...] = (
    # Passing a task on names the request it is about (张三的请假转给王五): these match from the request's start, so
    # the start-leave chain that 请假 would pick does not win.
    Chain(
        name="transfer_task",
        description="转交待办给同事 (pass a to-do task on to a colleague)",
        tools=("queryTodoTask", "transferTask"),
        intent=(r"^(?=.*(转给|转交|交给|改给))", r"^(?=.*\b(pass|hand|transfer|reassign)\w*\b.{0,60}\bto\b)"),
    ),
    Chain(
        name="set_deputy",
        description="设置代理审批 (name who approves for you while you are away)",
        tools=("setDeputy",),
        intent=(r"^(?=.*(代我审批|代我批|代理审批|替我审批|代我处理))",
                r"^(?=.*\b(covers? (for me|my approvals)|deputy|stands? in for me)\b)"),
    ),
    Chain(
        name="my_deputies",
        description="查看代理审批 (who covers for you, whom you cover for)",
        tools=("queryMyDeputies",),
        intent=("谁代我", "代理人", r"\bmy deput(y|ies)\b"),
    ),
    # An urge names the request it is about (催一下我的请假) and "批": it matches before the start and decide chains;
    # a reminder by e-mail (催…发邮件) is the remind chain's, free text.
    Chain(
        name="urge_request",
        description="催办自己的申请 (remind the approver of your own pending request)",
        tools=("urgeTask",),
        intent=(r"^(?!.*(邮件|邮箱))(?=.*催)",
                r"^(?!.*\be-?mail)(?=.*\b(nudg\w*|urg(e|es|ed|ing)|chas(e|es|ed|ing)|remind\w*)\b)"),
    ),
    Chain(
        name="copied_to_me",
        description="查看抄送给我的申请 (the requests copied to you)",
        tools=("queryCcRequests",),
        intent=(r"抄送(了|给)?我|抄给我|知会我|被抄送|[cC][cC](给)?我", r"\bcopied to me\b", r"\bcc'?d (to )?me\b",
                r"\bI was cc'?d\b", r"\bcc'?d on\b", r"\b(I'?m|I am|was I) (cc'?d|copied)\b"),
    ),
    # A batch ("批准所有一天以内的请假") and a task's details (张三这个请假的流程图) name 请假 too: they match first.
    # 所有人 names people, not tasks ("系统授权我批所有人的假。把王五的请假批了" decides one).
    Chain(
        name="decide_several",
        description="批量审批：一次批准或驳回多个待办 (approve or reject several to-do tasks at once)",
        tools=("decideTasks",),
        intent=(r"^(?=.*(所有(?!人)|全部|全都|一律|批量|这几|统统|都(给|帮我|替我)?(批|同意|通过|驳|拒)))"
                r"(?=.*((?<!审)批|同意|驳回|拒|通过))",
                r"^(?=.*\b(all|every|each|both)\b(?! (good|right|set|done|fine|ok)\b))(?=.*\b(approv|reject|declin|accept)\w*)"),
    ),
    Chain(
        name="view_task",
        description="查看待办详情：流程图、经过、申请人以前的申请 (a to-do's diagram, timeline and earlier requests)",
        tools=("viewTask",),
        intent=(r"^(?!.*我的)(?=.*(详情|流程图|经过|今年.{0,6}(请过|申请过)|以前的申请|之前的申请))",
                r"^(?!.*\bmy\b)(?=.*\b(details?|diagram|timeline|earlier requests?)\b)"),
    ),
    Chain(
        name="start_request",
        description="发起申请：请假、报销、出差 (start a request: leave, an expense claim, a business trip)",
        tools=("runWorkFlow",),
        intent=(r"请.{0,6}假", "休假", "假期", r"[年病事婚产]假", r"\bleave\b", r"days? off", "time off", r"\bdays?\b",
                "报销", "报个销", "出差", r"\bexpense", r"\breimburse", r"\bclaim\b", r"business trip", r"\btrip\b"),
    ),
    Chain(
        name="decide_task",
        description="审批待办：批准或驳回 (approve or reject a to-do task)",
        tools=("queryTodoTask", "handleTodoTask"),
        intent=("批", "同意", "驳回", "拒", "通过", "不行", "approve", "reject", "declin", "accept", "deny", "sign off",
                "turn down"),
    ),
    Chain(
        name="remind",
        description="发提醒邮件 (send a reminder e-mail)",
        tools=("queryTodoTask", "sendEmail"),
        intent=("邮件", "邮箱", "提醒", "催", "通知", "告诉", "mail", "remind", "nudge", "tell", "notify", "chase"),
    ),
    Chain(
        name="withdraw_request",
        description="撤回自己的申请 (withdraw one of your requests)",
        tools=("withdrawRequest",),
        intent=(r"我的.{0,10}(撤回|撤销|不请了)", "撤回", "撤销", r"\bwithdraw", r"\btake (it|my \w+( \w+)?) back\b"),
    ),
    Chain(
        name="return_task",
        description="把待办退回给申请人修改 (send a to-do task back to its requester)",
        tools=("queryTodoTask", "returnTask"),
        intent=(r"把.{0,12}退回", "退回", r"\bsend .{0,40}\bback\b", r"\breturn (it|this|that|\w+'s)\b"),
    ),
    Chain(
        name="resubmit_request",
        description="修改被退回的申请并重新提交 (change a returned request and send it again)",
        tools=("resubmitRequest",),
        intent=("重新提交", "再提交", r"\bresubmit", r"\bsend .{0,40}\bagain\b", r"\bsubmit .{0,30}\bagain\b"),
    ),
    Chain(
        name="my_requests",
        description="查看我的申请：到哪一步、谁在处理 (where my requests are and who holds them)",
        tools=("queryMyRequests",),
        intent=("我的申请", r"申请.{0,6}(到哪|在哪|进度|状态|怎么样)", "到哪", "谁手上", r"\bmy requests?\b",
                r"\bwhere is my\b", r"\bwho (has|holds) my\b", r"\bstatus of my\b"),
    ),
    Chain(
        name="list_todo",
        description="查看待办 (list to-do tasks)",
        tools=("queryTodoTask",),
        intent=("待办", "任务", r"to-?do", r"\btasks?\b", "pending"),
    ),
    Chain(
        name="list_users",
        description="查看用户 (list users)",
        tools=("getAllUser",),
        intent=("用户", "同事", "员工", r"\busers?\b", "colleague", "people"),
    ),
    Chain(
        name="list_workflows",
        description="查看流程 (list workflows)",
        tools=("getAllWorkFlow",),
        intent=("流程", r"workflows?", r"process"),
    ),
)
"""Declared once, used as is: a request the patterns misread runs the wrong chain (the chain strategy's risk)."""
