"""The tool registry: the seed's six tools, OpenAI schemas, the text tool list, and strict argument models."""

from __future__ import annotations

import pytest

from tools import REGISTRY, DomainError, Effect

SEED_TOOLS = ["getAllWorkFlow", "getAllUser", "runWorkFlow", "queryTodoTask", "handleTodoTask", "sendEmail"]
PARAMS = {
    "getAllWorkFlow": set(),
    "getAllUser": set(),
    "runWorkFlow": {"processKey", "userId", "reason", "days", "nextUserId"},
    "queryTodoTask": {"userId"},
    "handleTodoTask": {"taskId", "result", "isOK"},
    "sendEmail": {"userId", "taskId", "emailContent"},
}


def test_registry_holds_the_seed_tools_with_their_effects():
    assert REGISTRY.names == SEED_TOOLS
    writes = {spec.name for spec in REGISTRY if spec.effect is Effect.WRITE}
    assert writes == {"runWorkFlow", "handleTodoTask", "sendEmail"}
    assert REGISTRY.approval_required() == ["handleTodoTask", "sendEmail"]


def test_openai_schemas_forbid_additional_properties():
    schemas = {s["function"]["name"]: s for s in REGISTRY.openai_schemas()}
    assert list(schemas) == SEED_TOOLS
    for name, schema in schemas.items():
        assert schema["type"] == "function"
        params = schema["function"]["parameters"]
        assert params["type"] == "object"
        assert params["additionalProperties"] is False, name
        assert set(params["properties"]) == PARAMS[name]
        for pname, prop in params["properties"].items():
            assert prop.get("description"), f"{name}.{pname} has no description"
            assert "title" not in prop
    run = schemas["runWorkFlow"]["function"]["parameters"]
    assert set(run["required"]) == PARAMS["runWorkFlow"]
    assert set(schemas["handleTodoTask"]["function"]["parameters"]["required"]) == {"taskId", "isOK"}
    assert set(schemas["sendEmail"]["function"]["parameters"]["required"]) == {"emailContent"}


def test_descriptions_say_where_parameters_come_from():
    props = {s["function"]["name"]: s["function"]["parameters"]["properties"] for s in REGISTRY.openai_schemas()}
    assert "queryTodoTask" in props["handleTodoTask"]["taskId"]["description"]
    assert "queryTodoTask" in props["sendEmail"]["taskId"]["description"]
    assert "getAllUser" in props["runWorkFlow"]["nextUserId"]["description"]
    assert "getAllWorkFlow" in props["runWorkFlow"]["processKey"]["description"]
    assert "可以通过queryTodoTask工具获取" in REGISTRY.get("handleTodoTask").description


def test_text_list_includes_every_tool_and_parameter_sources():
    text = REGISTRY.text_list()
    for name in SEED_TOOLS:
        assert f"- {name}:" in text
    lines = text.splitlines()
    [task_line] = [line for line in lines if line.strip().startswith("- taskId (str, required)")]
    assert "queryTodoTask" in task_line
    [approver_line] = [line for line in lines if line.strip().startswith("- nextUserId")]
    assert "getAllUser" in approver_line and "required" in approver_line
    assert "(no parameters: use {})" in text


def test_extra_fields_refused():
    cases = {
        "getAllUser": {"userId": "user_1"},
        "handleTodoTask": {"taskId": "task_1", "isOK": True, "comment": "ok"},
        "sendEmail": {"userId": "user_2", "emailContent": "你好，明天开会。", "cc": "user_3"},
        "runWorkFlow": {"processKey": "process_qingjia", "userId": "user_1", "reason": "r", "days": 1,
                        "nextUserId": "user_2", "approver": "user_3"},
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
