"""The Agent Surface (SPEC SF-3): cdpagent's tools for any MCP client.

:func:`open_server` yields an ``MCPServer`` (the official ``mcp`` SDK) whose
tools operate one browser through the same observation model, bounds and
omission rules as the Python API. There is one tool per operation of
:data:`cdpagent.ops.operations.OPERATIONS` (``open_page``, ``observe``, ``act``,
``navigate``, ``go_back``, ``screenshot`` …), generated from the table with a
small adapter each (:mod:`.handlers`; docs/surfaces/mcp.md lists them with
their arguments and codes). The opt-in ones (``pdf``; ``click_at`` and ``type_at`` for
vision) are served when :attr:`SurfaceConfig.capabilities` names them.

With ``page_tools`` the available declared actions of the page observed or
acted on last are listed as tools too (regenerated from the same snapshot
after every observe/act; ``notifications/tools/list_changed`` when the set
changes); calling one is ``act`` on that page.

The browser is launched (or attached with ``connect``) on the first tool call
that needs it and closed when the ``open_server`` block ends. Every tool
result is bounded: observations by their budgets (per-call budgets are clamped
to the maxima of :class:`ObserveBudget`), everything else by :func:`.bounds.cut_middle`; page data in
text content sits in ``<page_data>`` fences. A failure is a tool error
(``isError: true``) with ``{"ok": false, "error": {"code", "message"}}`` as
structured content, and the server keeps serving.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Final

import trio
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, InputRequiredResult
from mcp_types import Tool as MCPTool

from ..errors import ToolCallError
from ..ops.operations import OPT_INS, function_call
from ..snapshot import codes as act_codes
from ..version import VERSION
from . import codes
from .calllog import logged_call
from .confirm import Confirmation
from .handlers import OBSERVE_TIMEOUT, Call, ObserveBudget, act, call_operation, served, tool_of
from .results import error_result, guarded
from .schemas import announce_tool_list_changes, declared, without_nulls
from .surface import PAGE_DATA_NOTE, Surface, SurfaceConfig

__all__ = [
    "OBSERVE_TIMEOUT",
    "PAGE_DATA_NOTE",
    "ObserveBudget",
    "SurfaceConfig",
    "SurfaceServer",
    "error_result",
    "open_server",
]

INSTRUCTIONS: Final = (
    "cdpagent operates web pages through what each page declares. open_page, then observe: the "
    "observation lists the page's identity, regions, available and unavailable actions (with reasons), "
    "records and the ids of records not shown in full, state and feedback, and counts everything it "
    "left out. Act only with actions listed there (act, with record for row actions; a name "
    "click_more lists is acted on by that name). " + PAGE_DATA_NOTE
)


class SurfaceServer(MCPServer[Any]):
    """``MCPServer`` whose tool list ends with the current page's tools and whose errors carry codes."""

    def __init__(self, surface: Surface, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.surface = surface
        self.operations = {op.tool: op for op in served(surface.config)}
        self.static_names: set[str] = set(self.operations)
        self._tools = [tool_of(op) for op in self.operations.values()]

    async def list_tools(self) -> list[MCPTool]:
        page_tools = {t.name for t in self.surface.page_tools}
        return declared([*self._tools, *self.surface.page_tools], page_tools)

    def _tool_input_schema(self, name: str) -> dict[str, Any] | None:
        # What the 2026 transport validates Mcp-Param headers against: our schemas, not the SDK's.
        tool = next((t for t in self._tools if t.name == name), None)
        return None if tool is None else tool.input_schema

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        with logged_call(name) as log:
            return log(await self._call_tool(name, arguments, context))

    async def _call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        cleaned = without_nulls(arguments)  # strict clients send null for "the default"
        if isinstance(cleaned, str):
            return error_result(codes.INVALID_ARGUMENT, f"{name}: {cleaned}")
        arguments = cleaned
        page_tool = self.surface.page_tool(name) if name not in self.static_names else None
        if page_tool is not None:
            assert context is not None
            tab_id, action, kind = page_tool
            try:
                args = function_call(action, kind, arguments)  # a page tool's arguments are its input
            except ToolCallError as error:
                return error_result(error.code, error.message)
            call = Call(self.surface, context, tab_id, lambda: self.tools_changed(context), self.static_names)
            return await guarded(act(call, args))
        if name not in self.static_names:
            return error_result(
                act_codes.UNKNOWN_ACTION,
                f"no tool {name!r}; page tools follow the page observed last — observe it again",
            )
        assert context is not None
        return await call_operation(
            self.operations[name],
            self.surface,
            context,
            arguments,
            tools_changed=lambda: self.tools_changed(context),
            reserved=self.static_names,
        )

    async def tools_changed(self, context: Context[Any, Any]) -> None:
        """Tell the client the tool list changed (``notifications/tools/list_changed``)."""
        if Confirmation.modern(context):
            await context.notify_tools_changed()
        else:
            await context.session.send_tool_list_changed()


@asynccontextmanager
async def open_server(config: SurfaceConfig | None = None) -> AsyncIterator[SurfaceServer]:
    """An MCP server with cdpagent's tools; leaving the block closes its tabs and its browser.

    Serve it with ``server.run_stdio_async()``, over HTTP with :mod:`.http`, or hand it
    to ``mcp.Client`` in process. No browser starts until a tool needs one. Raises
    :class:`ValueError` for a capability that is not an opt-in operation's.
    """
    unknown = set((config or SurfaceConfig()).capabilities) - set(OPT_INS)
    if unknown:
        raise ValueError(f"unknown capabilities {sorted(unknown)}; the opt-ins are {', '.join(OPT_INS)}")
    async with trio.open_nursery() as nursery:
        surface = Surface(config or SurfaceConfig(), nursery)
        server = SurfaceServer(
            surface, name="cdpagent", version=VERSION, instructions=INSTRUCTIONS, log_level="WARNING"
        )
        announce_tool_list_changes(server, surface.config.page_tools)
        try:
            yield server
        finally:
            await surface.aclose()
