"""What the MCP tools declare beyond their arguments: strict input schemas, output schemas, ``listChanged``.

* **Strict input schemas.** Clients that turn MCP tools into OpenAI function tools
  (the OpenAI Agents SDK, LangChain's adapter with ``strict``) need every object
  closed (``additionalProperties: false``), every property listed in
  ``required`` and no ``$ref`` beside other keywords; otherwise they fall back to
  non-strict calls. :func:`strict_input_schema` rewrites the SDK's schema that
  way: ``$defs`` are inlined, an optional argument becomes required but nullable
  (``null`` means "the default"; :func:`without_nulls` drops them again before
  the server validates), defaults move into the description. The one free-form
  value, ``invoke_page_method``'s ``args``, is declared as JSON text (an object
  is still accepted); :func:`without_nulls` decodes it.
* **Output schemas.** :data:`OUTPUT_SCHEMAS` describes the ``structuredContent`` of
  each tool's successful result (the text content keeps the fenced JSON for the
  model); a page tool's result is ``act``'s.
* **listChanged.** :func:`announce_tool_list_changes` makes the ``initialize``
  answer say ``tools.listChanged: true`` on every protocol version when the
  server sends ``notifications/tools/list_changed`` (``--page-tools``).
"""

from __future__ import annotations

import copy
from typing import Any, Final

import msgspec
from mcp.server.lowlevel import NotificationOptions
from mcp.server.mcpserver import MCPServer
from mcp_types import Tool as MCPTool

__all__ = [
    "ARGS_AS_TEXT",
    "OUTPUT_SCHEMAS",
    "announce_tool_list_changes",
    "declared",
    "strict_input_schema",
    "without_nulls",
]

_TRUNCATED: Final[dict[str, Any]] = {
    "type": "object",
    "description": "the value was longer than the bound: the text content has its head and tail",
    "properties": {"total_chars": {"type": "integer"}, "omitted_chars": {"type": "integer"}},
    "required": ["total_chars", "omitted_chars"],
}


def _value_or_truncated(name: str, value: dict[str, Any]) -> dict[str, Any]:
    """An object with ``name`` (the value) or, when it was too long, ``truncated`` instead."""
    return {
        "type": "object",
        "properties": {name: value, "truncated": _TRUNCATED},
        "anyOf": [{"required": [name]}, {"required": ["truncated"]}],
    }


_TAB_ID: Final = {"type": "string", "description": "the tab id, e.g. tab1"}

_MOVED: Final = {
    "type": "object",
    "properties": {
        "tabId": _TAB_ID,
        "url": {"type": "string"},
        "title": {"type": "string"},
        "changed": {"type": "string", "description": "what changed, in one line"},
    },
    "required": ["tabId", "url", "title", "changed"],
}
_OBSERVATION: Final = {
    "type": "object",
    "properties": {
        "observation": {"type": "object", "description": "the observation model (docs/observation.md)"},
        "tools": {"type": "array", "items": {"type": "object"}, "description": "OpenAI function tools"},
    },
    "required": ["observation", "tools"],
}
_RECEIPT: Final = _value_or_truncated("result", {"type": "object", "description": "the change receipt"})


def _list_of(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "object", "properties": properties, "required": required}}


#: ``structuredContent`` of each tool's successful result (error results carry ``{ok: false, error}``).
OUTPUT_SCHEMAS: Final[dict[str, dict[str, Any]]] = {
    "open_page": {
        "type": "object",
        "properties": {"tabId": _TAB_ID, "url": {"type": "string"}},
        "required": ["tabId", "url"],
    },
    "close_page": {"type": "object", "properties": {"closed": _TAB_ID}, "required": ["closed"]},
    "navigate": _MOVED,
    "go_back": _MOVED,
    "go_forward": _MOVED,
    "reload": _MOVED,
    "select_page": {
        "type": "object",
        "properties": {"tabId": _TAB_ID, "url": {"type": "string"}, "title": {"type": "string"}},
        "required": ["tabId", "url", "title"],
    },
    "screenshot": {
        "type": "object",
        "description": "the image is the result's image content; this says what it is",
        "properties": {
            "format": {"enum": ["png", "jpeg"]},
            "width": {"type": "integer", "minimum": 0},
            "height": {"type": "integer", "minimum": 0},
            "bytes": {"type": "integer", "minimum": 0},
            "masked": {"type": "integer", "minimum": 0, "description": "sensitive fields covered"},
            "truncated": {"type": "boolean", "description": "a full page cut at 16,384 CSS pixels"},
        },
        "required": ["format", "width", "height", "bytes", "masked", "truncated"],
    },
    "pdf": {
        "type": "object",
        "description": "the document is the result's embedded application/pdf resource",
        "properties": {"bytes": {"type": "integer", "minimum": 0}},
        "required": ["bytes"],
    },
    "wait_for": _OBSERVATION,
    "console": _value_or_truncated(
        "messages",
        _list_of(
            {
                "level": {"enum": ["debug", "info", "log", "warning", "error"]},
                "text": {"type": "string"},
                "url": {"type": "string"},
            },
            ["level", "text"],
        ),
    ),
    "network": _value_or_truncated(
        "requests",
        _list_of(
            {
                "method": {"type": "string"},
                "url": {"type": "string"},
                "resource": {"type": "string"},
                "status": {"type": "integer"},
                "error": {"type": "string"},
            },
            ["method", "url"],
        ),
    ),
    "downloads": _value_or_truncated(
        "downloads",
        _list_of(
            {
                "name": {"type": "string"},
                "state": {"type": "string"},
                "size": {"type": "integer", "minimum": 0},
                "path": {"type": ["string", "null"]},
                "tab": {"type": ["string", "null"]},
                "url": {"type": "string"},
            },
            ["name", "state", "size"],
        ),
    ),
    "click_at": _RECEIPT,
    "type_at": _RECEIPT,
    "list_pages": {
        "type": "object",
        "properties": {
            "pages": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "tabId": _TAB_ID,
                        "title": {"type": "string"},
                        "url": {"type": "string"},
                        "opener": {**_TAB_ID, "description": "the tab whose page opened this one (a popup)"},
                    },
                    "required": ["tabId", "title", "url"],
                },
            }
        },
        "required": ["pages"],
    },
    "observe": _OBSERVATION,
    "act": _RECEIPT,
    "invoke_page_method": _value_or_truncated("value", {"description": "the method's JSON value"}),
    "notifications": {
        "type": "object",
        "properties": {
            "notifications": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "tabId": _TAB_ID,
                        "message": {"type": "string"},
                        "deliveryId": {"type": "string"},
                        "url": {"type": "string"},
                    },
                    "required": ["tabId", "message", "deliveryId", "url"],
                },
            },
            "more": {"type": "integer", "minimum": 0},
        },
        "required": ["notifications", "more"],
    },
}

#: The arguments whose value is the page's data: passed through untouched (nulls kept).
_OPAQUE: Final = frozenset({"args"})

#: ``invoke_page_method``'s ``args`` as strict mode can take it: JSON text, or null for ``{}``.
ARGS_AS_TEXT: Final[dict[str, Any]] = {
    "anyOf": [{"type": "string"}, {"type": "null"}],
    "description": (
        'the method\'s arguments as a JSON object written as text, e.g. "{\\"expectedRevision\\": 3}" '
        "(a JSON object is accepted too); null for {}"
    ),
}

_DROPPED: Final = ("title", "default")


def _inline(schema: Any, defs: dict[str, Any]) -> Any:
    if isinstance(schema, list):
        return [_inline(item, defs) for item in schema]
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        merged = {**defs[ref.removeprefix("#/$defs/")], **{k: v for k, v in schema.items() if k != "$ref"}}
        return _inline(merged, defs)
    return {k: _inline(v, defs) for k, v in schema.items() if k != "$defs"}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    options = schema.get("anyOf")
    if isinstance(options, list) and any(o.get("type") == "null" for o in options):
        return schema
    described = {k: v for k, v in schema.items() if k != "description"}
    result: dict[str, Any] = {"anyOf": [described, {"type": "null"}]}
    if "description" in schema:
        result["description"] = schema["description"]
    return result


def _close(schema: Any) -> Any:
    if isinstance(schema, list):
        return [_close(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _close(v) for k, v in schema.items() if k not in _DROPPED}
    if "default" in schema and schema["default"] is not None:
        note = f"default {msgspec.json.encode(schema['default']).decode()}"
        if note not in str(out.get("description", "")):
            out["description"] = f"{out['description']} ({note})" if "description" in out else note
    if out.get("type") == "object":
        properties: dict[str, Any] = out.get("properties", {})
        required = set(out.get("required", ()))
        out["properties"] = {
            name: value if name in required else _nullable(value) for name, value in properties.items()
        }
        out["required"] = list(properties)
        out["additionalProperties"] = False
    return out


def strict_input_schema(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (the SDK's, for tool ``name``) in the form strict-mode converters accept.

    Pure: the argument is not changed. See the module documentation for the rules.
    """
    inlined = _inline(copy.deepcopy(schema), schema.get("$defs", {}))
    if name == "invoke_page_method" and "args" in inlined.get("properties", {}):
        inlined["properties"]["args"] = ARGS_AS_TEXT
    strict: dict[str, Any] = _close(inlined)
    return strict


def without_nulls(arguments: dict[str, Any]) -> dict[str, Any] | str:
    """The arguments as the server's validation expects them: nulls of strict clients dropped
    (recursively, but not inside page data), ``args`` given as JSON text decoded.

    Returns a message (str) when ``args`` is text that is not a JSON object.
    """

    def drop(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: (v if k in _OPAQUE else drop(v)) for k, v in value.items() if v is not None}
        return value

    cleaned: dict[str, Any] = drop(arguments)
    text = cleaned.get("args")
    if isinstance(text, str):
        try:
            decoded = msgspec.json.decode(text)
        except msgspec.DecodeError as error:
            return f"args is not JSON text: {error}"
        if not isinstance(decoded, dict):
            return "args must be a JSON object (or its text)"
        cleaned["args"] = decoded
    return cleaned


def declared(tools: list[MCPTool], page_tools: set[str]) -> list[MCPTool]:
    """``tools`` with strict input and output schemas; ``page_tools`` names those acting on the page."""
    out = []
    for tool in tools:
        if tool.name in page_tools:
            out.append(tool.model_copy(update={"output_schema": OUTPUT_SCHEMAS["act"]}))
            continue
        update: dict[str, Any] = {"input_schema": strict_input_schema(tool.name, tool.input_schema)}
        if tool.name in OUTPUT_SCHEMAS:
            update["output_schema"] = OUTPUT_SCHEMAS[tool.name]
        out.append(tool.model_copy(update=update))
    return out


def announce_tool_list_changes(server: MCPServer[Any], changes: bool) -> None:
    """Make ``initialize`` say ``tools.listChanged: changes`` on the handshake protocol versions.

    The SDK takes the flag only from options its ``run`` helpers do not pass; on the
    2026-07-28 protocol it derives it from the served ``subscriptions/listen`` already.
    """
    lowlevel = server._lowlevel_server
    original = lowlevel.get_capabilities

    def get_capabilities(
        notification_options: NotificationOptions | None = None, *args: Any, **kwargs: Any
    ) -> Any:
        options = notification_options or NotificationOptions()
        options.tools_changed = options.tools_changed or changes
        return original(options, *args, **kwargs)

    lowlevel.get_capabilities = get_capabilities  # type: ignore[method-assign]
