"""The tool registry: the seed's six tools, OpenAI schemas, the text tool list, and strict argument models."""

from __future__ import annotations

import pytest

from tools import REGISTRY, DomainError, Effect

SEED_TOOLS = ["getAllWorkFlow", "getAllUser", "runWorkFlow", "queryTodoTask", "handleTodoTask", "sendEmail"]
REQUESTER_TOOLS = ["queryMyRequests", "withdrawRequest", "returnTask", "resubmitRequest"]
"""The requester's side (issue 33), after the seed's."""
LEAVE_TOOLS = ["getLeaveBalance"]
"""The leave balance (issue 33), last."""
APPROVER_TOOLS = ["transferTask", "setDeputy", "queryMyDeputies"]
"""Transfer and deputies (issue 34)."""
CC_URGE_TOOLS = ["urgeTask", "queryCcRequests"]
"""CC and urge (issue 34)."""
BATCH_VIEW_TOOLS = ["decideTasks", "viewTask"]
"""Batch decisions and the approver's view of a task (issue 34), last."""
TOOLS = [*SEED_TOOLS, *REQUESTER_TOOLS, *LEAVE_TOOLS, *APPROVER_TOOLS, *CC_URGE_TOOLS, *BATCH_VIEW_TOOLS]
APPROVED = ["runWorkFlow", "handleTodoTask", "sendEmail", "withdrawRequest", "returnTask", "resubmitRequest",
            "transferTask", "setDeputy", "urgeTask", "decideTasks"]
PARAMS = {
    "getAllWorkFlow": set(),
    "getAllUser": set(),
    "runWorkFlow": {"processKey", "userId", "reason", "days", "nextUserId", "fields", "cc"},
    "queryTodoTask": {"userId"},
    "handleTodoTask": {"taskId", "result", "isOK"},
    "sendEmail": {"userId", "taskId", "emailContent"},
    "queryMyRequests": {"userId"},
    "withdrawRequest": {"requestId"},
    "returnTask": {"taskId", "comment"},
    "resubmitRequest": {"requestId", "days", "reason", "fields", "note"},
    "getLeaveBalance": {"userId"},
    "transferTask": {"taskId", "nextUserId", "comment"},
    "setDeputy": {"userId", "deputyUserId", "startDate", "endDate"},
    "queryMyDeputies": {"userId"},
    "urgeTask": {"requestId"},
    "queryCcRequests": {"userId"},
    "decideTasks": {"userId", "isOK", "processKey", "maxDays", "requester", "leaveOut", "comment", "decisions"},
    "viewTask": {"taskId"},
}


def test_registry_holds_the_seed_tools_with_their_effects():
    assert REGISTRY.names == TOOLS
    writes = {spec.name for spec in REGISTRY if spec.effect is Effect.WRITE}
    assert writes == set(APPROVED)
    assert REGISTRY.approval_required() == APPROVED  # every write waits for a person


def test_openai_schemas_forbid_additional_properties_and_hide_the_actor():
    schemas = {s["function"]["name"]: s for s in REGISTRY.openai_schemas()}
    assert list(schemas) == TOOLS
    for name, schema in schemas.items():
        assert schema["type"] == "function"
        params = schema["function"]["parameters"]
        assert params["type"] == "object"
        assert params["additionalProperties"] is False, name
        # Parameters that must equal the signed-in user are filled in by code: the model never sees them.
        # the review card's own (a batch's per-task decisions) are the person's edits, never the model's
        assert set(params["properties"]) == PARAMS[name] - REGISTRY.get(name).hidden_params()
        for pname, prop in params["properties"].items():
            assert prop.get("description"), f"{name}.{pname} has no description"
            assert "title" not in prop
    # Values only the person can give may be left out by the model: the graph then asks the person.
    assert schemas["runWorkFlow"]["function"]["parameters"]["required"] == ["processKey"]
    assert schemas["handleTodoTask"]["function"]["parameters"]["required"] == ["taskId"]  # isOK: the person says it
    assert "required" not in schemas["sendEmail"]["function"]["parameters"]
    assert "required" not in schemas["queryTodoTask"]["function"]["parameters"]
    assert "decisions" not in schemas["decideTasks"]["function"]["parameters"]["properties"]


def test_callers_keep_the_seed_signatures():
    assert set(REGISTRY.get("runWorkFlow").args_model.model_fields) == PARAMS["runWorkFlow"]
    # days and reason stay where the seed had them; they are the leave form's, so a process without them leaves them out
    assert REGISTRY.get("runWorkFlow").required_params() == ["processKey", "userId", "nextUserId"]


def test_descriptions_say_where_parameters_come_from():
    props = {s["function"]["name"]: s["function"]["parameters"]["properties"] for s in REGISTRY.openai_schemas()}
    assert "queryTodoTask" in props["handleTodoTask"]["taskId"]["description"] or "queryTodoTask" in (
        REGISTRY.get("handleTodoTask").model_description
    )
    assert "李四" in props["runWorkFlow"]["nextUserId"]["description"]  # a name is as good as an id
    assert "process_qingjia" in props["runWorkFlow"]["processKey"]["description"]
    assert "可以通过queryTodoTask工具获取" in REGISTRY.get("handleTodoTask").description


def test_text_list_is_one_line_per_tool_with_optional_parameters_marked():
    lines = REGISTRY.text_list().splitlines()
    assert [line.split("(")[0] for line in lines] == [f"- {name}" for name in TOOLS]
    assert lines[0].startswith("- getAllWorkFlow(): ")
    assert lines[2].startswith("- runWorkFlow(processKey, reason?, days?, nextUserId?, fields?, cc?): ")
    assert lines[3].startswith("- queryTodoTask(userId?): ")
    assert "userId" not in lines[2].split(":")[0]


def test_extra_fields_refused():
    # runWorkFlow takes a key that is no parameter of its own as a form field; the form's check refuses it there
    # (tests/graph/test_hostile_args.py::test_a_start_with_a_key_the_form_does_not_have_is_refused_naming_the_form).
    cases = {
        "getAllUser": {"userId": "user_1"},
        "handleTodoTask": {"taskId": "task_1", "isOK": True, "priority": "high"},  # "comment" is its result (args.py)
        "sendEmail": {"userId": "user_2", "emailContent": "你好，明天开会。", "cc": "user_3"},
    }
    for name, args in cases.items():
        with pytest.raises(DomainError) as info:
            REGISTRY.get(name).parse(args)
        assert info.value.code == "invalid_arguments"
        if REGISTRY.get(name).args_model.model_fields:
            assert "is not a parameter of" in info.value.message, info.value.message
        else:
            assert f"{name} takes no parameters: call it with {{}}" in info.value.message, info.value.message


def test_raw_arguments_as_json_text_and_bad_shapes():
    spec = REGISTRY.get("handleTodoTask")
    assert spec.parse('{"taskId": "task_1", "isOK": false}').model_dump() == {
        "taskId": "task_1", "result": "", "isOK": False,
    }
    assert REGISTRY.get("getAllUser").parse(None).model_dump() == {}
    assert REGISTRY.get("getAllUser").parse("").model_dump() == {}
    for raw, code in (('{"taskId": ', "invalid_json"), ("[1, 2]", "invalid_arguments"), (42, "invalid_arguments")):
        with pytest.raises(DomainError) as info:
            spec.parse(raw)
        assert info.value.code == code


def test_unknown_tool_names_the_available_tools():
    with pytest.raises(DomainError) as info:
        REGISTRY.get("approveLeave")
    assert info.value.code == "unknown_tool"
    assert all(name in info.value.message for name in SEED_TOOLS)


def test_approval_follows_the_specs_unless_the_run_names_its_own_tools():
    assert REGISTRY.approval_tools(None) == tuple(APPROVED)
    assert REGISTRY.approval_tools(("sendEmail",)) == ("sendEmail",)  # a run may ask for fewer
    assert REGISTRY.approval_tools(("runWorkFlow", "sendEmail")) == ("runWorkFlow", "sendEmail")
    assert REGISTRY.approval_tools(()) == ()
