"""The WebMCP bridge (WM-1): tools a page registers with ``document.modelContext``.

Chromium implements W3C WebMCP behind a flag (:data:`FLAG`) and reports it over
CDP's experimental ``WebMCP`` domain: ``toolsAdded`` / ``toolsRemoved`` events,
``invokeTool(frameId, toolName, input)`` answered later by ``toolResponded``
with the same ``invocationId``, and ``cancelInvocation``. Pages register tools
imperatively (``registerTool({name, description, inputSchema, execute})``) or
declaratively (``<form toolname tooldescription>``, with a ``backendNodeId``).

:class:`WebMcp` is the driver extension: it enables the domain on every tab and
keeps each tab's tool table. Chromium sends no ``toolsRemoved`` when a document
is replaced, so the table is kept *per document*: every entry remembers the
loader id of its frame's document, and an entry whose frame holds another
document now is gone (:meth:`WebMcp.tools`). :func:`invoke_tool` makes one call
and waits for its response, bounded by the caller's deadline; it cancels the
invocation on timeout. Validating input against the tool's schema and turning
outcomes into receipts is the observation's job (``cdpagent.act.perform``).
"""

from __future__ import annotations

import math
from typing import Any, Final, Literal

import msgspec
import trio

from ..cdp.concurrency import collapse
from ..cdp.target import Command, Host, Target
from ..errors import CallTimeout, CDPAgentError
from .validation import schema_refusal

__all__ = [
    "FLAG",
    "PageTool",
    "ToolResponse",
    "WebMcp",
    "invoke_tool",
]

#: The command-line switch that turns WebMCP on in Chromium.
FLAG: Final = "--enable-features=WebMCP"
_REPLACED: Final = "the page was replaced before the tool answered"
_EARLY_MAX: Final = 64


class PageTool(msgspec.Struct, frozen=True):
    """One registered tool, as the page declared it (names, texts and schema are the page's)."""

    name: str
    description: str
    frame_id: str
    loader_id: str
    input_schema: dict[str, Any] | None = None
    read_only: bool = False
    untrusted_content: bool = False
    consequential: bool = False
    autosubmit: bool = False
    declarative: bool = False
    """A ``<form toolname>``: without ``autosubmit`` its answer comes once the form is submitted."""
    schema_refusal: str | None = None
    """Why ``input_schema`` cannot be applied, decided at registration (:mod:`cdpagent.webmcp.validation`);
    such a tool is listed but never called."""


class ToolResponse(msgspec.Struct, frozen=True):
    """How an invocation ended: ``output`` when ``Completed``, else ``error`` (the exception's message)."""

    status: Literal["Completed", "Canceled", "Error", "Timeout", "PageChanged", "Filled"]
    """``Filled``: a declarative form without ``autosubmit`` was filled in; it answers once submitted."""
    output: Any = None
    error: str = ""


def _tool(raw: dict[str, Any], loader_id: str) -> PageTool | None:
    name = raw.get("name")
    frame_id = raw.get("frameId")
    if not isinstance(name, str) or not name or not isinstance(frame_id, str):
        return None
    annotations = raw.get("annotations")
    notes: dict[str, Any] = annotations if isinstance(annotations, dict) else {}
    schema = raw.get("inputSchema")
    schema = schema if isinstance(schema, dict) else None
    return PageTool(
        name=name,
        description=str(raw.get("description") or ""),
        frame_id=frame_id,
        loader_id=loader_id,
        input_schema=schema,
        schema_refusal=schema_refusal(schema),
        read_only=notes.get("readOnly") is True,
        untrusted_content=notes.get("untrustedContent") is True,
        consequential=notes.get("consequential") is True,
        autosubmit=notes.get("autosubmit") is True,
        declarative="backendNodeId" in raw,
    )


def _error_text(params: dict[str, Any]) -> str:
    text = params.get("errorText") or ""
    exception = params.get("exception")
    if not text and isinstance(exception, dict):
        # A throwing tool gives an empty errorText; the message is in the exception.
        text = str(exception.get("description") or exception.get("className") or "")
    return str(text).splitlines()[0][:300] if text else "the tool failed"


class _TabTools:
    """One tab's tool table and its pending invocations."""

    def __init__(self) -> None:
        self.tools: dict[tuple[str, str], PageTool] = {}
        self.pending: dict[str, trio.MemorySendChannel[ToolResponse]] = {}
        #: Responses that arrived before the reply to their invokeTool (a synchronous tool
        #: answers at once); the oldest go first when nobody claims them.
        self.early: dict[str, ToolResponse] = {}


class WebMcp:
    """The WebMCP extension: pass it to :func:`cdpagent.launch` (``webmcp=True`` does)."""

    def __init__(self) -> None:
        self._tabs: dict[str, _TabTools] = {}

    @staticmethod
    def of(browser: Host[Target]) -> WebMcp | None:
        """The :class:`WebMcp` among ``browser``'s extensions, or ``None`` when WebMCP is off."""
        for extension in browser.extensions:
            if isinstance(extension, WebMcp):
                return extension
        return None

    def setup_tab(self, tab: Target) -> list[Command]:
        """Track the tab's tools from its first document on."""
        state = self._tabs.setdefault(tab.id, _TabTools())

        def loader_of(frame_id: str) -> str:
            frame = tab.documents.frames.get(frame_id)
            return frame.document.loader_id if frame is not None and frame.document is not None else ""

        def added(params: dict[str, Any]) -> None:
            for raw in params.get("tools") or []:
                if isinstance(raw, dict):
                    tool = _tool(raw, loader_of(str(raw.get("frameId"))))
                    if tool is not None:
                        state.tools[(tool.frame_id, tool.name)] = tool

        def removed(params: dict[str, Any]) -> None:
            for raw in params.get("tools") or []:
                if isinstance(raw, dict):
                    state.tools.pop((str(raw.get("frameId")), str(raw.get("name"))), None)

        def responded(params: dict[str, Any]) -> None:
            invocation = str(params.get("invocationId"))
            channel = state.pending.pop(invocation, None)
            status = params.get("status")
            if status == "Completed":
                response = ToolResponse("Completed", output=params.get("output"))
            elif status == "Canceled":
                response = ToolResponse("Canceled", error="the invocation was cancelled")
            else:
                response = ToolResponse("Error", error=_error_text(params))
            if channel is not None:
                channel.send_nowait(response)
                return
            state.early[invocation] = response
            while len(state.early) > _EARLY_MAX:
                del state.early[next(iter(state.early))]

        tab.session.on("WebMCP.toolsAdded", added)
        tab.session.on("WebMCP.toolsRemoved", removed)
        tab.session.on("WebMCP.toolResponded", responded)
        return [("WebMCP.enable", {})]

    def tools(self, tab: Target) -> list[PageTool]:
        """The tools registered by the documents ``tab`` holds now, in registration order.

        Tools of a document that was replaced (reload, navigation) are dropped here.
        """
        state = self._tabs.get(tab.id)
        if state is None:
            return []
        live: list[PageTool] = []
        for key, tool in list(state.tools.items()):
            frame = tab.documents.frames.get(tool.frame_id)
            if frame is None or frame.document is None or frame.document.loader_id != tool.loader_id:
                del state.tools[key]
                continue
            live.append(tool)
        return live

    async def call(
        self, tab: Target, tool: PageTool, arguments: dict[str, Any], deadline: float
    ) -> ToolResponse:
        """Invoke ``tool`` with ``arguments`` and wait, until ``deadline``, for its response.

        A tool whose document is replaced before it answers ends ``PageChanged``; one
        that has not answered by ``deadline`` is cancelled and ends ``Timeout``.
        Raises the driver's errors when the tab or the connection goes away.
        """
        state = self._tabs.setdefault(tab.id, _TabTools())
        send, receive = trio.open_memory_channel[ToolResponse](1)
        try:
            reply = await tab.session.send(
                "WebMCP.invokeTool",
                {"frameId": tool.frame_id, "toolName": tool.name, "input": arguments},
                deadline=deadline,
            )
        except CallTimeout:
            return ToolResponse("Timeout", error="the page did not accept the page tool's call in time")
        invocation = str(reply.get("invocationId", ""))
        if tool.declarative and not tool.autosubmit:
            # The form answers only once a person (or a declared action) submits it.
            return ToolResponse("Filled")
        early = state.early.pop(invocation, None)
        if early is not None:
            return early
        state.pending[invocation] = send
        outcome: ToolResponse | None = None
        try:
            with trio.move_on_at(deadline), collapse():
                async with trio.open_nursery() as nursery:

                    async def watch() -> None:
                        nonlocal outcome
                        await tab.wait_until(lambda: not self._current(tab, tool), timeout=math.inf)
                        outcome = ToolResponse("PageChanged", error=_REPLACED)
                        nursery.cancel_scope.cancel()

                    nursery.start_soon(watch)
                    response = await receive.receive()
                    outcome = outcome or response
                    nursery.cancel_scope.cancel()
        finally:
            state.pending.pop(invocation, None)
        if outcome is None:
            await self._cancel(tab, invocation)
            return ToolResponse("Timeout", error="the page tool did not answer in time; it was cancelled")
        return outcome

    @staticmethod
    def _current(tab: Target, tool: PageTool) -> bool:
        frame = tab.documents.frames.get(tool.frame_id)
        return frame is not None and frame.document is not None and frame.document.loader_id == tool.loader_id

    @staticmethod
    async def _cancel(tab: Target, invocation: str) -> None:
        with trio.CancelScope(shield=True), trio.move_on_after(5):
            try:
                await tab.session.send("WebMCP.cancelInvocation", {"invocationId": invocation})
            except CDPAgentError:
                pass


async def invoke_tool(
    tab: Target, tool: PageTool, arguments: dict[str, Any], *, timeout: float
) -> ToolResponse:
    """Invoke ``tool`` in ``tab`` (see :meth:`WebMcp.call`); :class:`LookupError` when WebMCP is off."""
    bridge = WebMcp.of(tab.browser)
    if bridge is None:
        raise LookupError("this browser was launched without WebMCP (launch(webmcp=True))")
    return await bridge.call(tab, tool, arguments, trio.current_time() + timeout)
