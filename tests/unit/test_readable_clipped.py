"""A started request's line keeps its summary whole, or cuts it after a whole word and says so with "…" (the
forty-eighth round's writer saw "Reason: sort out the installation at the customer )")."""

from __future__ import annotations

from tools.workflow.readable import clipped, started


def test_a_long_summary_is_cut_after_a_whole_word_and_marked():
    summary = ("Destination: Chengdu; First day: 12 Jan 2027; Last day: 15 Jan 2027; "
               "Reason: walk the new warehouse with the landlord and sign off the fit-out snag list")
    line = started({"requestId": "req_3", "process": "Business trip", "summary": summary, "taskId": "task_3",
                    "heldBy": "Li Si", "assigneeName": "Li Si", "status": "pending"}, "en")
    shown = line[line.index("(") + 1:line.index(")")]
    assert shown.endswith("…") and summary.startswith(shown[:-1]) and summary[len(shown) - 1] == " "


def test_a_short_text_is_not_cut():
    assert clipped("Destination: Xi'an", 120) == "Destination: Xi'an"
