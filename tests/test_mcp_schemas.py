"""SF-3: what the MCP tools declare — strict input schemas a strict-mode converter takes as they are,
output schemas their structured content meets, and ``listChanged`` told truthfully."""

from __future__ import annotations

from typing import Any

import jsonschema
import trio
from mcp.client.client import Client
from mcp_support import EXAMPLES, call_ok, text_of
from scripted_model import check_request

from cdpagent.mcp_server.schemas import strict_input_schema, without_nulls
from cdpagent.mcp_server.server import SurfaceConfig, open_server


def strict_problems(schema: Any, path: str = "$") -> list[str]:
    """Why OpenAI's strict mode (and the Agents SDK's ``ensure_strict_json_schema``) would refuse ``schema``.

    The rules, written here from OpenAI's structured-outputs documentation: every object
    lists its properties, closes itself with ``additionalProperties: false`` and requires
    every property; a ``$ref`` stands alone; ``oneOf``/``allOf``/``not`` are not used; the
    root is an object.
    """
    problems: list[str] = []
    if not isinstance(schema, dict):
        return [f"{path}: not a schema object"]
    if path == "$" and schema.get("type") != "object":
        problems.append("$: the root is not an object")
    if "$ref" in schema and len(schema) > 1:
        problems.append(f"{path}: $ref beside {sorted(set(schema) - {'$ref'})}")
    for word in ("oneOf", "allOf", "not", "patternProperties"):
        if word in schema:
            problems.append(f"{path}: uses {word}")
    if schema.get("type") == "object":
        properties = schema.get("properties")
        if not isinstance(properties, dict):
            problems.append(f"{path}: an object without properties (free-form)")
            properties = {}
        if schema.get("additionalProperties") is not False:
            problems.append(f"{path}: additionalProperties is not false")
        if sorted(schema.get("required", [])) != sorted(properties):
            problems.append(f"{path}: required is not every property")
        for name, value in properties.items():
            problems += strict_problems(value, f"{path}.{name}")
    for word in ("anyOf",):
        for i, option in enumerate(schema.get(word, [])):
            problems += strict_problems(option, f"{path}.{word}[{i}]")
    if "items" in schema:
        problems += strict_problems(schema["items"], f"{path}[]")
    for name, value in schema.get("$defs", {}).items():
        problems += strict_problems(value, f"{path}.$defs.{name}")
    return problems


def test_sf3_the_checker_refuses_what_strict_mode_refuses() -> None:
    free = {"type": "object", "properties": {"args": {"type": "object", "additionalProperties": True}}}
    assert "$.args: an object without properties (free-form)" in strict_problems(free)
    assert "$: required is not every property" in strict_problems(free)
    ref = {"type": "object", "properties": {"o": {"$ref": "#/$defs/O", "default": None}},
           "required": ["o"], "additionalProperties": False}
    assert strict_problems(ref) == ["$.o: $ref beside ['default']"]


async def test_sf3_every_tool_schema_is_strict_and_a_valid_openai_tool(recorded_endpoint: str) -> None:
    config = SurfaceConfig(connect=recorded_endpoint, page_tools=True)
    async with open_server(config) as server, Client(server) as client:
        with trio.fail_after(30):
            opened = await call_ok(client, "open_page", {"url": str(EXAMPLES / "todos" / "index.html")})
            await call_ok(client, "observe", {"tabId": opened["tabId"]})
            tools = (await client.list_tools()).tools
    names = {t.name for t in tools}
    assert {"open_page", "list_pages", "observe", "invoke_page_method", "search", "toggle"} <= names
    for tool in tools:
        assert strict_problems(tool.input_schema) == [], tool.name
        assert tool.output_schema is not None, tool.name
        jsonschema.Draft202012Validator.check_schema(tool.output_schema)
    functions = [
        {"type": "function", "function": {"name": t.name, "description": t.description or "",
                                          "parameters": t.input_schema, "strict": True}}
        for t in tools
    ]
    check_request({"model": "m", "messages": [{"role": "user", "content": "hi"}], "tools": functions})


def test_sf3_the_sdk_schemas_as_they_were_are_not_strict_and_become_so() -> None:
    invoke = {
        "type": "object",
        "properties": {
            "tabId": {"type": "string"},
            "args": {"anyOf": [{"additionalProperties": True, "type": "object"}, {"type": "null"}],
                     "default": None},
            "timeout": {"default": 30, "type": "number", "maximum": 120},
        },
        "required": ["tabId"],
    }
    assert strict_problems(invoke)
    strict = strict_input_schema("invoke_page_method", invoke)
    assert strict_problems(strict) == []
    assert strict["properties"]["timeout"]["description"] == "default 30"
    assert without_nulls({"tabId": "tab1", "args": '{"a": null}', "timeout": None}) == {
        "tabId": "tab1", "args": {"a": None}
    }
    assert without_nulls({"args": "[1]"}) == "args must be a JSON object (or its text)"


async def test_sf3_structured_content_meets_the_output_schema_and_text_keeps_the_fence(
    recorded_endpoint: str,
) -> None:
    async with open_server(SurfaceConfig(connect=recorded_endpoint)) as server, Client(server) as client:
        with trio.fail_after(30):
            schemas = {t.name: t.output_schema or {} for t in (await client.list_tools()).tools}
            opened = await call_ok(client, "open_page", {"url": "example:editor", "timeout": None})
            tab = opened["tabId"]
            result = await client.call_tool(
                "invoke_page_method", {"tabId": tab, "method": "read_current", "args": "{}", "timeout": None}
            )
            assert not result.is_error, text_of(result)
            assert result.structured_content is not None
            assert result.structured_content["value"]["revision"] == 1
            assert "<page_data" in text_of(result)
            jsonschema.validate(result.structured_content, schemas["invoke_page_method"])
            pages = await call_ok(client, "list_pages", {})
            jsonschema.validate(pages, schemas["list_pages"])
            await call_ok(client, "close_page", {"tabId": tab})


async def test_sf3_list_changed_is_announced_truthfully_on_the_handshake_protocol() -> None:
    """A 2025 client reads ``tools.listChanged`` from ``initialize``; it said false with page tools on."""
    for page_tools in (True, False):
        config = SurfaceConfig(page_tools=page_tools)
        async with open_server(config) as server, Client(server, mode="legacy") as client:
            assert client.protocol_version < "2026"
            capabilities = client.server_capabilities
            assert capabilities is not None and capabilities.tools is not None
            assert bool(capabilities.tools.list_changed) is page_tools
