"""Assembling one model request (SPEC CX-1).

A request is exactly: one system message — the framework rules
(``rules.md``), then the role's ``## This application`` section, then (when the
role documents page methods) the thread's tabs, then the page section rendered
from the current observation — the ``tools`` field built from the *same*
:class:`~cdpagent.snapshot.observe.ObserveResult` (plus ``invoke_page_method``
when the role documents methods), and the conversation in ``messages``.

The observation is only ever in the system message of the request being built:
it is never put in a user or tool message and never stored in the history, so
it appears once per request and is rebuilt for each.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any, Final

import msgspec

from ..ops.operations import OPERATIONS, Operation, argument_schema, surface_arguments
from ..snapshot.observe import ObserveResult
from ..snapshot.openai_tools import press_focused_tool
from ..snapshot.options import ObserveOptions
from .history import Message
from .roles import Role
from .tokens import TokenCounter, estimate_tokens, messages_tokens

__all__ = [
    "MAX_SYSTEM_AND_TOOLS_CHARS",
    "PAGE_METHOD_TOOL",
    "RULES",
    "Request",
    "assemble_request",
    "enabled_operations",
    "operation_tools",
    "page_method_tool",
    "page_options",
]

RULES: Final = files("cdpagent.agent").joinpath("rules.md").read_text(encoding="utf-8").strip()
"""The framework rules: fixed for every application, the first part of every system message."""

PAGE_METHOD_TOOL: Final = "invoke_page_method"
MAX_SYSTEM_AND_TOOLS_CHARS: Final = 16000
"""What the system message and the tools JSON of one request may take together, in characters."""


class Request(msgspec.Struct, frozen=True):
    """One assembled request: the system text, the tools and the conversation it carries."""

    system: str
    tools: list[dict[str, Any]]
    messages: list[Message]
    tokens: int
    """Estimated tokens of the whole request (system, tools JSON and messages)."""

    def body(self, model: str) -> dict[str, Any]:
        """The JSON body of ``POST /chat/completions`` for ``model`` (no ``tools`` key when empty)."""
        body: dict[str, Any] = {
            "model": model,
            "messages": [{"role": "system", "content": self.system}, *self.messages],
        }
        if self.tools:
            body["tools"] = self.tools
        return body

    def tool_names(self) -> list[str]:
        """The function names the model may call in its answer to this request."""
        return [t["function"]["name"] for t in self.tools]


def page_method_tool(role: Role, tab_ids: list[str]) -> dict[str, Any]:
    """The ``invoke_page_method`` declaration: ``tabId`` and ``method`` enumerated, ``args`` an object."""
    reads = ", ".join(m.name for m in role.methods if m.effect == "read") or "none"
    writes = ", ".join(m.name for m in role.methods if m.effect == "write") or "none"
    return {
        "type": "function",
        "function": {
            "name": PAGE_METHOD_TOOL,
            "description": (
                "Call a page method documented in the application section on a tab of this thread "
                f"(reads: {reads}; writes: {writes}). Returns the method's JSON result, or "
                '{"ok": false, "error": {"code": "PAGE_API_…"}} when the call could not be made.'
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "tabId": {"type": "string", "enum": list(tab_ids), "description": "The tab, from Tabs."},
                    "method": {
                        "type": "string",
                        "enum": [m.name for m in role.methods],
                        "description": "A documented method name.",
                    },
                    "args": {
                        "type": "object",
                        "description": "The method's arguments as documented (default {}).",
                    },
                },
                "required": ["tabId", "method"],
                "additionalProperties": False,
            },
        },
    }


def enabled_operations(role: Role) -> list[Operation]:
    """The operations ``role``'s capabilities enable, in table order (none by default)."""
    return [op for op in OPERATIONS if op.capability is not None and op.capability in role.capabilities]


def operation_tools(role: Role, tab_ids: list[str]) -> list[dict[str, Any]]:
    """The function tools of :func:`enabled_operations`: each named, described and with the
    arguments of its operation; ``select_page`` takes ``tabId``, enumerated from ``tab_ids``."""
    tools = []
    for op in enabled_operations(role):
        parameters = argument_schema(op.args)
        if "tabId" in surface_arguments(op, current_tab=True):
            tab = {"type": "string", "enum": list(tab_ids), "description": "The tab, from Tabs."}
            parameters["properties"] = {"tabId": tab, **parameters["properties"]}
            parameters["required"] = ["tabId", *parameters["required"]]
        tools.append(
            {"type": "function", "function": {"name": op.tool, "description": op.description,
                                              "parameters": parameters}}
        )  # fmt: skip
    return tools


def page_options(role: Role, tab_ids: list[str], base: ObserveOptions | None = None) -> ObserveOptions:
    """``base`` with ``max_total_chars`` lowered so that a request stays within
    :data:`MAX_SYSTEM_AND_TOOLS_CHARS`: the page section and its tools get what the
    rules, the role section, the tab list and ``invoke_page_method`` leave over.
    """
    opts = base or ObserveOptions()
    fixed = len(RULES) + len(role.section()) + 8
    if _lists_tabs(role):
        fixed += len(_tabs_section(tab_ids, tab_ids[0] if tab_ids else "")) + 1
    if role.methods:
        fixed += len(msgspec.json.encode([page_method_tool(role, tab_ids)]))
    if role.capabilities:
        fixed += len(msgspec.json.encode(operation_tools(role, tab_ids)))
    room = max(MAX_SYSTEM_AND_TOOLS_CHARS - fixed, 2000)
    return msgspec.structs.replace(opts, max_total_chars=min(opts.max_total_chars, room))


def _lists_tabs(role: Role) -> bool:
    """Whether the request names the thread's tabs: for page methods and for ``select_page``."""
    return bool(role.methods) or "tabs" in role.capabilities


def _tabs_section(tab_ids: list[str], current: str) -> str:
    lines = ["## Tabs of this thread (pass as tabId)"]
    lines += [f"- {t}{' (the page shown below)' if t == current else ''}" for t in tab_ids]
    return "\n".join(lines)


def assemble_request(
    role: Role,
    page: ObserveResult,
    messages: list[Message],
    *,
    tab_id: str,
    tab_ids: list[str] | None = None,
    counter: TokenCounter = estimate_tokens,
) -> Request:
    """The request for the page of ``tab_id`` observed as ``page``, carrying ``messages``.

    ``tab_ids`` are the tabs of the thread (default: just ``tab_id``); they are
    listed, and enumerated in ``invoke_page_method`` and ``select_page``, only when
    ``role`` documents methods or enables ``tabs``. An operation tool the role enables
    takes the place of a page action of the same name. Never raises.
    """
    tabs = tab_ids or [tab_id]
    parts = [RULES, role.section()]
    operations = operation_tools(role, tabs)
    taken = {t["function"]["name"] for t in operations}
    tools = [t for t in page.tools if t["function"]["name"] not in taken]
    if tools:
        tools.append(press_focused_tool())  # press Escape/Tab/Enter wherever the focus is
    if _lists_tabs(role):
        parts.append(_tabs_section(tabs, tab_id))
    if role.methods:
        tools.append(page_method_tool(role, tabs))
    tools += operations
    parts.append(page.text.strip())
    system = "\n".join(parts)
    tokens = (
        counter(system) + counter(msgspec.json.encode(tools).decode()) + messages_tokens(messages, counter)
    )
    return Request(system=system, tools=tools, messages=list(messages), tokens=tokens)
