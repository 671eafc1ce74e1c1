"""What a person reads about their leave, in their language: the card's lines (the balance, the type's rules) and the
refusals (over the balance, over a type's most days, half a day of a type taken in whole days, days that disagree with
the dates)."""

from __future__ import annotations

from tools.workflow.leave.types import LeaveType


def days_zh(days: float) -> str:
    return f"{days:g} 天"


def days_en(days: float) -> str:
    return f"{days:g} day" + ("" if days == 1 else "s")


def balance_line(leave_type: LeaveType, year: int, left: float, days: float, lang: str) -> str:
    """年假余额 5 天，本次 3 天，剩余 2 天 / Annual leave balance: 5 days, this request 3 days, 2 days left."""
    if lang == "en":
        return (f"{leave_type.name_en} balance ({year}): {days_en(left)}, this request {days_en(days)}, "
                f"{days_en(left - days)} left")
    return f"{leave_type.id}余额 {days_zh(left)}（{year} 年），本次 {days_zh(days)}，剩余 {days_zh(left - days)}"


def short_words(leave_type: LeaveType, year: int, left: float, days: float) -> dict[str, str]:
    """The refusal of a request over its balance, naming the balance."""
    return {
        "zh": f"{leave_type.id}余额不足：{year} 年还剩 {days_zh(left)}，这次要 {days_zh(days)}，没法提交。"
              f"可以少请几天，或换一种假期。",
        "en": f"Not enough {leave_type.name(lang='en')}: {days_en(left)} left for {year}, and this request needs "
              f"{days_en(days)}, so it cannot be filed. Ask for fewer days, or another type of leave.",
    }


def type_line(leave_type: LeaveType, defaulted: bool, lang: str) -> str:
    """What the type means for the person: paid or not, counted against a balance or not; a type they did not say is
    named as the default."""
    if lang == "en":
        pay = "paid" if leave_type.paid else "unpaid"
        counted = "counted against your balance" if leave_type.balance else "takes no balance"
        line = f"{leave_type.name_en}: {pay}, {counted}"
        return (f"You did not say which type of leave: filed as {leave_type.name('en')} ({pay}, {counted}); "
                "reject this card and say the type if it is another") if defaulted else line
    pay = "带薪" if leave_type.paid else "不带薪"
    counted = "计入额度" if leave_type.balance else "不占额度"
    line = f"{leave_type.id}：{pay}，{counted}"
    return (f"你没有说请哪种假：按{leave_type.id}提交（{pay}，{counted}）；如果是别的假期，请拒绝这张卡片并说明"
            if defaulted else line)


def document_line(leave_type: LeaveType, lang: str) -> str:
    """The document a request of this type and length needs: for the requester to give the approver."""
    over = leave_type.document_over or 0
    if lang == "en":
        when = f"over {days_en(over)}" if over else "always"
        return f"{leave_type.name_en} {when} needs {leave_type.document['en']}: please give it to your approver"
    when = f"超过 {days_zh(over)}" if over else ""
    return f"{leave_type.id}{when}需要提供{leave_type.document['zh']}，请交给审批人"


def too_long_words(leave_type: LeaveType, days: float) -> dict[str, str]:
    return {
        "zh": f"{leave_type.id}每次最多 {days_zh(leave_type.max_days)}，这次是 {days_zh(days)}，没法提交。可以分开申请，"
              f"或换一种假期。",
        "en": f"{leave_type.name_en} is at most {days_en(leave_type.max_days)} a request, and this one is "
              f"{days_en(days)}, so it cannot be filed. Split it, or use another type of leave.",
    }


def whole_days_words(leave_type: LeaveType, days: float) -> dict[str, str]:
    return {
        "zh": f"{leave_type.id}只能按整天请，这次是 {days_zh(days)}，没法提交。请按整天说天数或日期。",
        "en": f"{leave_type.name_en} is taken in whole days, and this request is {days_en(days)}, so it cannot be "
              "filed. Say whole days or dates.",
    }


def mismatch_words(days: float, counted_zh: str, counted_en: str) -> dict[str, str]:
    """A day count that disagrees with the dates: both, for the person to say which is right."""
    return {
        "zh": f"请假天数 {days_zh(days)}，和日期对不上：{counted_zh}。请说清楚天数或日期（按工作日算）。",
        "en": f"{days_en(days).capitalize()} of leave does not match the dates: {counted_en}. Say which is right: "
              "the days (in working days) or the dates.",
    }


REFUSALS = {
    "zh": {"leave_balance_short": "假期余额不够", "leave_too_long": "超过这种假期每次能请的天数",
           "leave_whole_days": "这种假期只能按整天请", "leave_days_mismatch": "请假天数和日期对不上",
           "end_before_start": "结束时间早于开始时间", "span_too_long": "请假时间超过一年",
           "balance_not_asked": "你问的不是假期，假期余额答不了",
           "balance_of_another": "我只能查到你自己的假期余额，看不到别人的"},
    "en": {"leave_balance_short": "the leave balance is not enough", "leave_too_long": "more days than that leave allows",
           "leave_whole_days": "that leave is taken in whole days", "leave_days_mismatch": "the days do not match the dates",
           "end_before_start": "the leave ends before it starts", "span_too_long": "the leave spans over a year",
           "balance_not_asked": "you did not ask about leave, which is all the leave balance tells",
           "balance_of_another": "I can see only your own leave balance, not anyone else's"},
}
"""Why a leave was not filed, or its balance not looked up, by refusal code, as the person reads it."""
