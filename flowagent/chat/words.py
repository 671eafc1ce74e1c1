"""Every line the terminal chat writes itself, in the person's language (Chinese or English)."""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "zh": {
        "thought": "思考", "action": "动作", "input": "动作输入", "observation": "观察", "answer": "回答",
        "question": "问题", "stopped": "已停止", "unparseable": "无法解析的回复",
        "same_result": "（与之前的结果相同）", "approval": "需要你确认", "note": "提示",
        "banner": "flowagent：{title}\n用户 [bold]{name}[/bold]（{user_id}）· 模型 {model} · 协议 {protocol}\n"
        "对话 {thread_id}（用 --thread {thread_id} 继续）· /help 查看命令",
        "resumed": "已恢复对话，共 {count} 条消息。", "waiting": "上次还有一个待你确认的操作。",
        "kept_pending": "这个待确认的操作会保留，下次继续时再问你。",
        "bye": "再见。继续这次对话：flowagent chat --user {user_id} --thread {thread_id}",
        "decide_first": "请先处理待确认的操作。", "thinking": "思考中…",
        "cancelled": "已取消。对话保留着，请说下一步要做什么。", "left_pending": "先放着，之后会再问你。",
        "decision": "批准 / 修改 / 拒绝 [a/e/r]：",
        "decision_hint": "输入 a（批准）、e（修改）或 r（拒绝）；输入 exit 退出，待确认的操作会保留。",
        "reject_reason": "拒绝理由（可不填）：", "edit_args": "参数（JSON）：",
        "not_json": "不是有效的 JSON（{error}）；参数没有改动。", "not_object": "参数必须是一个 JSON 对象。",
        "no_messages": "这次对话还没有消息。", "you": "你",
        "local_model": "没有配置模型服务：正在启动离线模型（llama.cpp）…", "starting_model": "正在启动本地模型…",
        "no_threads": "还没有以前的对话。", "threads": "以前的对话（最新的在前）；/threads ID 继续其中一个",
        "thread": "对话", "user": "用户", "last_activity": "最后活动", "current": "（当前）",
        "switched": "已切换到对话 {thread_id}。", "new_thread": "新对话：{thread_id}。",
    },
    "en": {
        "thought": "Thought", "action": "Action", "input": "Action Input", "observation": "Observation",
        "answer": "Final Answer", "question": "Question", "stopped": "stopped", "unparseable": "Unparseable reply",
        "same_result": "(same result as before)", "approval": "Approval needed", "note": "note",
        "banner": "flowagent: {title}\nuser [bold]{name}[/bold] ({user_id}) · model {model} · protocol {protocol}\n"
        "thread {thread_id} (resume with --thread {thread_id}) · /help for commands",
        "resumed": "Resumed thread with {count} messages.", "waiting": "An approval is waiting from last time.",
        "kept_pending": "The approval stays pending; it is shown again when you resume.",
        "bye": "Bye. Resume with: flowagent chat --user {user_id} --thread {thread_id}",
        "decide_first": "Decide the waiting approval first.", "thinking": "thinking…",
        "cancelled": "Cancelled. The conversation is kept; say what to do next.",
        "left_pending": "Left pending; it will be asked again.",
        "decision": "approve / edit / reject [a/e/r]: ",
        "decision_hint": "Type a (approve), e (edit) or r (reject); exit quits and keeps the approval pending.",
        "reject_reason": "reason (optional): ", "edit_args": "arguments (JSON): ",
        "not_json": "Not valid JSON ({error}); the arguments were not changed.",
        "not_object": "The arguments must be a JSON object.",
        "no_messages": "No messages in this conversation yet.", "you": "you",
        "local_model": "No model endpoint configured: starting the offline model (llama.cpp)…",
        "starting_model": "starting the local model…",
        "no_threads": "No earlier conversations.", "threads": "Threads (newest first); /threads ID resumes one",
        "thread": "thread", "user": "user", "last_activity": "last activity", "current": " (current)",
        "switched": "Switched to thread {thread_id}.", "new_thread": "New conversation: thread {thread_id}.",
    },
}


def say(lang: str, key: str, **values: object) -> str:
    """One of the chat's own lines, in `lang` ("zh" or "en")."""
    return WORDS["en" if lang == "en" else "zh"][key].format(**values)
