"""The MCP tools, generated from the operations table: one small adapter per operation.

Each tool's name, description, input schema and annotations come from its
:class:`cdpagent.ops.operations.Operation` (:func:`tool_of`); what only this surface says —
how the result reads, an argument it declares with its own limits (``observe``'s
clamped budgets) — is in the operation's :class:`Adapter` in :data:`ADAPTERS`. A call
is decoded once by :func:`cdpagent.ops.operations.decode` (``tabId`` first, for the
operations that address a tab) and run by the adapter (:func:`call_operation`);
every known failure becomes a coded tool error (:mod:`.results`).

Opt-in operations (``pdf``, ``vision``: ``click_at`` / ``type_at``) are served only
when :attr:`.surface.SurfaceConfig.capabilities` names them (:func:`served`).

Navigation (``navigate``, ``go_back``, ``go_forward``, ``reload``) keeps the URL policy
of ``open_page``: the URL asked for is checked first, and the URL the tab holds once
the page has loaded is checked again (a redirect, or a history entry, may lead
elsewhere); a tab that ended where it may not is blanked (``about:blank``) and the
call is ``URL_NOT_ALLOWED`` / ``FILE_NOT_ALLOWED``. Each answers with the tab's new
identity and one line saying what changed.
"""

from __future__ import annotations

import base64
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Final, Protocol, cast
from urllib.parse import urlsplit

import msgspec
import trio
from mcp.server.mcpserver import Context
from mcp_types import (
    BlobResourceContents,
    CallToolResult,
    EmbeddedResource,
    ImageContent,
    InputRequiredResult,
    TextContent,
    ToolAnnotations,
)
from mcp_types import Tool as MCPTool

from ..browser.tabs import Tab
from ..errors import CDPAgentError, OperationError, ToolCallError
from ..ops import current_tab
from ..ops.operations import (
    OPERATIONS,
    ActArgs,
    BackArgs,
    ClickAtArgs,
    ConsoleArgs,
    DownloadsArgs,
    ForwardArgs,
    InvokeArgs,
    NavigateArgs,
    NetworkArgs,
    NotificationsArgs,
    ObserveArgs,
    OpenArgs,
    Operation,
    PdfArgs,
    ReloadArgs,
    ScreenshotArgs,
    SelectArgs,
    TypeAtArgs,
    WaitForArgs,
    decode,
    screenshot_summary,
)
from ..runtime.codes import PAGE_API_TAB_NOT_FOUND, PageApiError
from ..snapshot.observe import ObserveResult, observe_page
from ..snapshot.options import ObserveOptions
from ..snapshot.receipts import Receipt
from . import codes
from .bounds import cut_middle, fit_structure
from .confirm import Confirmation
from .limits import session_of
from .results import error_result, fenced_json, fenced_text, guarded, json_result, result
from .surface import PAGE_DATA_NOTE, Surface, SurfaceConfig

__all__ = [
    "ADAPTERS",
    "OBSERVE_TIMEOUT",
    "Adapter",
    "Call",
    "ObserveBudget",
    "call_operation",
    "served",
    "tool_of",
]

OBSERVE_TIMEOUT: Final = 30.0
"""Seconds one observation attempt may take (a 10,000-row page on a busy machine needs more than 10)."""
_TITLE_TIMEOUT: Final = 5.0

ToolResult = CallToolResult | InputRequiredResult


class ObserveBudget(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Per-call budgets of ``observe`` (its ``options``); the schema's maxima are the server's hard limits.

    Whatever they are, the rendered text plus tools stays under ``max_total_chars``
    (12,000): the budgets shrink until it holds (OB-3).
    """

    max_records: Annotated[int, msgspec.Meta(ge=0, le=50, description="records with full fields")] = 20
    max_actions: Annotated[int, msgspec.Meta(ge=1, le=80, description="folded action entries")] = 40
    max_scopes: Annotated[int, msgspec.Meta(ge=1, le=48, description="regions listed")] = 24
    max_feedback: Annotated[int, msgspec.Meta(ge=0, le=16, description="feedback items")] = 8
    include: Annotated[
        list[str], msgspec.Meta(max_length=20, description="record ids to show in full (at most 20)")
    ] = []
    settle_timeout_ms: Annotated[
        int, msgspec.Meta(ge=0, le=5000, description="how long to wait for the page to settle")
    ] = 1500

    def options(self) -> ObserveOptions:
        """These budgets as the observation's options."""
        return ObserveOptions(
            max_records=self.max_records,
            max_actions=self.max_actions,
            max_scopes=self.max_scopes,
            max_feedback=self.max_feedback,
            include=tuple(self.include),
            settle_timeout_ms=self.settle_timeout_ms,
        )


class Call:
    """One tool call as its adapter sees it: the surface, the MCP context, the tab it names.

    ``current`` says that the call named no tab and ``tab_id`` is the session's current one.
    """

    def __init__(
        self,
        surface: Surface,
        context: Context[Any, Any],
        tab_id: str,
        tools_changed: Callable[[], Awaitable[None]],
        reserved: set[str],
        *,
        current: bool = False,
    ) -> None:
        self.surface = surface
        self.context = context
        self.tab_id = tab_id
        self.current = current
        self._tools_changed = tools_changed
        self._reserved = reserved

    async def tab(self, *, shown: bool = True) -> Tab:
        """The tab named by ``tabId``; with ``shown`` refused unless the URL policy allows what it shows.

        Raises :class:`~cdpagent.errors.OperationError` (``TAB_NOT_FOUND``, ``TAB_CRASHED``; a
        closed current tab's message names the tabs that remain) and
        :class:`cdpagent.errors.TabRefused`.
        """
        try:
            tab = await self.surface.tab(self.tab_id)
        except OperationError as error:
            if not self.current or error.code != codes.TAB_NOT_FOUND:
                raise
            _, thread = await self.surface.browser()
            left = ", ".join(t.id for t in thread.tabs) or "none"
            gone = f"the current page {self.tab_id} was closed; open: {left} (select_page one, or open_page)"
            raise OperationError(codes.TAB_NOT_FOUND, gone) from None
        if shown:
            self.surface.guard.check_shown(tab)
        return tab

    async def page_tools_after(self, tab: Tab, observed: ObserveResult) -> None:
        """Make ``observed``'s actions the page tools (with ``page_tools``), telling the client."""
        if self.surface.config.page_tools and self.surface.set_page_tools(tab, observed, self._reserved):
            await self._tools_changed()

    async def refresh_page_tools(self, tab: Tab) -> None:
        """Observe ``tab`` again for the page tools (with ``page_tools`` only)."""
        if self.surface.config.page_tools and not tab.closed:
            await self.page_tools_after(tab, await observe_page(tab, timeout=OBSERVE_TIMEOUT))

    async def forget_page_tools(self, tab_id: str) -> None:
        """The page of ``tab_id`` is gone (closed, navigated): drop its page tools, telling the client."""
        if self.surface.clear_page_tools(tab_id):
            await self._tools_changed()


Run = Callable[[Call, Any], Awaitable[ToolResult]]


@dataclass(frozen=True)
class Adapter:
    """What the MCP surface adds to one operation: how it runs and how its tool reads."""

    run: Run
    note: str = ""
    """Appended to the operation's description: the result's shape, how to use it."""
    properties: Mapping[str, type] = field(default_factory=dict)
    """Arguments this surface declares with a type of its own (decoded into it by the adapter)."""
    page_data: bool = True
    """Whether the result carries page data (the description then says how to treat it)."""


# -- the adapters -------------------------------------------------------------------------


async def _open(call: Call, args: OpenArgs) -> ToolResult:
    surface = call.surface
    target = surface.check_url(args.url)
    _, thread = await surface.browser()
    tab = await surface.guard.open(thread, target, session_of(call.context), args.timeout)
    return fenced_json({"tabId": tab.id, "url": tab.document.url if tab.document else target})


async def _close(call: Call, args: object) -> ToolResult:
    tab = await call.tab(shown=False)
    await tab.close()
    await call.forget_page_tools(tab.id)
    return result(f"closed {tab.id}", {"closed": tab.id})


async def _title(tab: Tab) -> str:
    """The tab's title as the browser reports it ("" when it does not answer in time)."""
    with trio.move_on_after(_TITLE_TIMEOUT):
        try:
            info = await tab.browser.send("Target.getTargetInfo", {"targetId": tab.target_id})
        except CDPAgentError:
            return ""
        return cut_middle(str(info.get("targetInfo", {}).get("title", "")), 200)[0]
    return ""


async def _list(call: Call, args: object) -> ToolResult:
    browser, thread = await call.surface.browser()
    targets = (await browser.send("Target.getTargets"))["targetInfos"]
    info = {t["targetId"]: t for t in targets}
    pages = []
    for tab in thread.tabs:
        page = {
            "tabId": tab.id,
            "title": cut_middle(info.get(tab.target_id, {}).get("title", ""), 200)[0],
            "url": cut_middle(info.get(tab.target_id, {}).get("url", ""), 500)[0],
        }
        if tab.opener is not None:
            page["opener"] = tab.opener.id  # a popup: opened by that tab's page
        pages.append(page)
    return result(fenced_text(pages), {"pages": pages})


async def _moved(call: Call, tab: Tab, verb: str, go: Callable[[], Awaitable[Any]]) -> ToolResult:
    """Run the navigation ``go`` on ``tab``; answer with its new identity and what changed.

    The URL the tab holds afterwards is checked against the URL policy; when it may not
    be shown the tab is blanked and :class:`~cdpagent.errors.TabRefused` raised
    (:func:`cdpagent.ops.current_tab.arrived`).
    """
    before = tab.document.url if tab.document is not None else ""
    document = await go()
    await call.forget_page_tools(tab.id)
    went = await current_tab.arrived(call.surface.guard.policy, tab, verb, before, document.url)
    title = await _title(tab)
    return fenced_json({"tabId": tab.id, "url": document.url, "title": title, "changed": went["changed"]})


async def _navigate(call: Call, args: NavigateArgs) -> ToolResult:
    target = call.surface.check_url(args.url)
    tab = await call.tab(shown=False)  # leaving a page the policy refuses is allowed
    return await _moved(call, tab, "navigated", lambda: tab.navigate(target, timeout=args.timeout))


async def _back(call: Call, args: BackArgs) -> ToolResult:
    tab = await call.tab(shown=False)
    return await _moved(call, tab, "went back", lambda: tab.back(timeout=args.timeout))


async def _forward(call: Call, args: ForwardArgs) -> ToolResult:
    tab = await call.tab(shown=False)
    return await _moved(call, tab, "went forward", lambda: tab.forward(timeout=args.timeout))


async def _reload(call: Call, args: ReloadArgs) -> ToolResult:
    tab = await call.tab(shown=False)
    return await _moved(call, tab, "reloaded", lambda: tab.reload(timeout=args.timeout))


async def _select(call: Call, args: SelectArgs) -> ToolResult:
    tab = await call.tab()
    call.surface.guard.sessions.select(session_of(call.context), tab.id)
    await tab.browser.send("Target.activateTarget", {"targetId": tab.target_id})
    await call.refresh_page_tools(tab)  # the page tools follow the selected page
    url = tab.document.url if tab.document is not None else ""
    return fenced_json({"tabId": tab.id, "url": url, "title": await _title(tab)})


def _observed(observed: ObserveResult) -> CallToolResult:
    structured = {"observation": msgspec.to_builtins(observed.observation), "tools": observed.tools}
    return result(observed.text, fit_structure(structured))  # every part bounded, like the text


async def _observe(call: Call, args: ObserveArgs) -> ToolResult:
    try:
        budget = msgspec.convert(args.options or {}, ObserveBudget)
    except msgspec.ValidationError as error:
        raise ToolCallError(codes.INVALID_ARGUMENT, f"observe: options: {error}") from None
    tab = await call.tab()
    observed = await tab.view(budget.options(), timeout=OBSERVE_TIMEOUT)
    await call.page_tools_after(tab, observed)
    return _observed(observed)


async def _wait_for(call: Call, args: WaitForArgs) -> ToolResult:
    tab = await call.tab()
    observed = await tab.wait_for(text=args.text, gone=args.gone, action=args.action, timeout=args.timeout)
    call.surface.guard.check_shown(tab)  # it may have navigated meanwhile
    await call.page_tools_after(tab, observed)
    return _observed(observed)


def _receipt(receipt: Receipt) -> CallToolResult:
    body = receipt.to_builtins()
    return json_result(body, body, is_error=not receipt.ok)


async def act(call: Call, args: ActArgs) -> ToolResult:
    """``act`` on the call's tab (a page tool's call too): the receipt, or the pending confirmation."""
    tab = await call.tab()
    confirmation = Confirmation.for_call(call.context, accept_all=call.surface.config.yes)
    receipt = await tab.perform(args, confirm=confirmation.ask, unattended=call.surface.config.yes)
    receipt = confirmation.settle(receipt)
    if confirmation.pending is not None:
        return confirmation.pending
    await call.refresh_page_tools(tab)
    return _receipt(receipt)


async def _invoke(call: Call, args: InvokeArgs) -> ToolResult:
    tab = await call.surface.find(call.tab_id)
    if tab is None:
        raise PageApiError(PAGE_API_TAB_NOT_FOUND, f"no open tab {call.tab_id[:60]!r}")
    call.surface.guard.check_shown(tab)
    value = await tab.invoke(args.method, args.args, timeout=args.timeout)
    return json_result(value, {"value": value})


async def _notifications(call: Call, args: NotificationsArgs) -> ToolResult:
    batch, more = await call.surface.notifications(args.wait_ms)
    items = [
        {"tabId": n.tab_id, "message": n.message, "deliveryId": n.delivery_id, "url": n.url} for n in batch
    ]
    return fenced_json({"notifications": items, "more": more})


async def _screenshot(call: Call, args: ScreenshotArgs) -> ToolResult:
    tab = await call.tab()
    shot = await tab.screenshot(
        full_page=args.full_page,
        target=args.target,
        format=args.format,
        quality=args.quality,
        max_edge=args.max_edge,
    )
    image = ImageContent(type="image", data=base64.b64encode(shot.data).decode(), mime_type=shot.mime_type)
    structured = {
        "format": shot.format, "width": shot.width, "height": shot.height, "bytes": len(shot.data),
        "masked": shot.masked, "truncated": shot.truncated,
    }  # fmt: skip
    return result(screenshot_summary(tab.id, shot), structured, before=[image])


async def _pdf(call: Call, args: PdfArgs) -> ToolResult:
    tab = await call.tab()
    data = await tab.pdf(landscape=args.landscape)
    blob = BlobResourceContents(
        uri=f"cdpagent://{tab.id}/page.pdf", mime_type="application/pdf", blob=base64.b64encode(data).decode()
    )
    document = EmbeddedResource(type="resource", resource=blob)
    return result(f"the page of {tab.id} as PDF: {len(data)} bytes", {"bytes": len(data)}, before=[document])


async def _console(call: Call, args: ConsoleArgs) -> ToolResult:
    messages = msgspec.to_builtins((await call.tab()).console(args.limit))
    return json_result(messages, {"messages": messages})


async def _network(call: Call, args: NetworkArgs) -> ToolResult:
    requests = msgspec.to_builtins((await call.tab()).network(args.limit))
    return json_result(requests, {"requests": requests})


async def _downloads(call: Call, args: DownloadsArgs) -> ToolResult:
    browser, _ = await call.surface.browser()
    items = [
        {"name": d.name, "state": d.state, "size": d.size, "path": d.path, "tab": d.tab, "url": _bare(d.url)}
        for d in browser.downloaded(args.limit)
    ]
    return json_result(items, {"downloads": items})


def _bare(url: str) -> str:
    """``url`` without credentials, query or fragment (they may carry tokens)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    return parts._replace(
        netloc=f"{host}:{parts.port}" if parts.port else host, query="", fragment=""
    ).geturl()


class _Coordinates(Protocol):
    """Trusted input at viewport coordinates (``Tab.click_at`` / ``Tab.type_at``)."""

    async def click_at(self, x: float, y: float) -> Receipt: ...

    async def type_at(self, x: float, y: float, text: str) -> Receipt: ...


async def _click_at(call: Call, args: ClickAtArgs) -> ToolResult:
    tab = await call.tab()
    receipt = await cast(_Coordinates, tab).click_at(args.x, args.y)
    await call.refresh_page_tools(tab)
    return _receipt(receipt)


async def _type_at(call: Call, args: TypeAtArgs) -> ToolResult:
    tab = await call.tab()
    receipt = await cast(_Coordinates, tab).type_at(args.x, args.y, args.text)
    await call.refresh_page_tools(tab)
    return _receipt(receipt)


_IDENTITY = "Returns {tabId, url, title, changed}: the tab's new identity and what changed. Observe again."

#: The adapter of every operation, by operation name.
ADAPTERS: Final[dict[str, Adapter]] = {
    "open": Adapter(_open, "Returns {tabId, url}. Pages of file: URLs (and origins the server allows) also "
                    "get the Page Agent API (invoke_page_method). Observe the page before acting on it."),
    "close": Adapter(_close, page_data=False),
    "list": Adapter(_list, "[{tabId, title, url, opener}]; opener names the tab whose page opened a popup."),
    "navigate": Adapter(_navigate, "Same URL rules as open_page, checked again where the page ended. "
                        + _IDENTITY),
    "observe": Adapter(
        _observe,
        "It settles first. Text content is the page section an agent reads (identity, regions, actions "
        "with availability and reasons, records, citation ids, state, feedback, and counts of everything "
        "left out); structured content is {observation, tools} with the actions as OpenAI function tools. "
        "Bounded: text plus tools stay under 12,000 characters whatever the page size. Page data sits in "
        "<page_data> fences.",
        properties={"options": ObserveBudget},
    ),
    "act": Adapter(
        act,
        'Returns the change receipt {"result": {ok, action, changed, warnings} | {ok: false, error: '
        "{code, message, available}}}. Only actions listed by observe exist. A confirm action asks the "
        "user first (through the client); a hand-off action is never performed. action \"press_key\" "
        "with key presses a key (Escape, Tab, Enter…) on whatever has the focus.",
    ),
    "invoke": Adapter(
        _invoke,
        'Returns the method\'s JSON value ({"value": …} as structured content; a domain refusal such as '
        "STALE_STATE is an ordinary value), or a tool error with {ok: false, error: {code, message}} and a "
        "PAGE_API_* code.",
    ),
    "notifications": Adapter(_notifications, "At most 20, oldest first (\"more\" counts the rest): "
                             "[{tabId, message, deliveryId, url}]; a page asking for attention."),
    "back": Adapter(_back, _IDENTITY),
    "forward": Adapter(_forward, _IDENTITY),
    "reload": Adapter(_reload, _IDENTITY),
    "select": Adapter(_select, "Brings it to the front; with page tools, they follow it. Returns "
                      "{tabId, url, title}."),
    "screenshot": Adapter(_screenshot, "Image content (PNG or JPEG, longer edge at most max_edge) and "
                          "{format, width, height, bytes, masked, truncated}."),
    "pdf": Adapter(_pdf, "An embedded application/pdf resource and {bytes}."),
    "wait_for": Adapter(_wait_for, "Returns the observation once it holds, like observe; WAIT_TIMEOUT "
                        "says which condition still failed."),
    "console": Adapter(_console, "[{level, text, url}], oldest first."),
    "network": Adapter(_network, "[{method, url, resource, status | error}], oldest first; URLs without "
                       "query, and no headers."),
    "downloads": Adapter(_downloads, "[{name, state, size, path, tab, url}], oldest first."),
    "click_at": Adapter(_click_at, "Returns a change receipt like act. Use only where observe offers no "
                        "action (canvas, SVG)."),
    "type_at": Adapter(_type_at, "Returns a change receipt like act. Use only where observe offers no "
                       "action (canvas, SVG)."),
}  # fmt: skip

_TAB_ID: Final[dict[str, Any]] = {
    "type": "string",
    "minLength": 1,
    "description": "a tab id from open_page or list_pages, e.g. tab1; default: the page this session "
    "opened or selected last",
}


def served(config: SurfaceConfig) -> list[Operation]:
    """The operations the server serves: every one but the opt-ins ``config`` does not enable."""
    return [op for op in OPERATIONS if op.opt_in is None or op.opt_in in config.capabilities]


def _input_schema(op: Operation, adapter: Adapter) -> dict[str, Any]:
    types: list[Any] = [op.args, *adapter.properties.values()]
    (root, *others), defs = msgspec.json.schema_components(types, ref_template="#/$defs/{name}")
    schema = dict(defs[root["$ref"].rsplit("/", 1)[1]])
    properties = dict(schema.get("properties", {}))
    for (name, _), ref in zip(adapter.properties.items(), others, strict=True):
        described = properties.get(name, {}).get("description")
        properties[name] = {
            "anyOf": [ref, {"type": "null"}],
            **({"description": described} if described else {}),
        }
    if op.on_tab:
        properties = {"tabId": _TAB_ID, **properties}
    schema["properties"] = properties
    schema.pop("title", None)
    schema.pop("description", None)
    return {**schema, "$defs": defs} if defs else schema


def tool_of(op: Operation) -> MCPTool:
    """The MCP tool of ``op``: name, description, input schema and annotations from its entry."""
    adapter = ADAPTERS[op.name]
    description = " ".join(part for part in (op.description, adapter.note) if part)
    if adapter.page_data:
        description += "\n\n" + PAGE_DATA_NOTE
    annotations = ToolAnnotations(
        read_only_hint=op.read_only, destructive_hint=op.destructive, open_world_hint=op.open_world
    )
    return MCPTool(
        name=op.tool,
        description=description,
        input_schema=_input_schema(op, adapter),
        annotations=annotations,
    )


async def call_operation(
    op: Operation,
    surface: Surface,
    context: Context[Any, Any],
    arguments: Mapping[str, Any],
    *,
    tools_changed: Callable[[], Awaitable[None]],
    reserved: set[str],
) -> ToolResult:
    """Decode ``arguments`` once for ``op`` and run its adapter; every known failure is a coded tool error."""
    given = dict(arguments)
    tab_id = given.pop("tabId", None) if op.on_tab else None
    current = op.on_tab and tab_id is None
    try:
        if current:
            tab_id = surface.guard.sessions.current(session_of(context))
            if tab_id is None:
                raise ToolCallError(
                    codes.INVALID_ARGUMENT, f"{op.tool}: no current page yet: open_page one, or pass tabId"
                )
        elif op.on_tab and (not isinstance(tab_id, str) or not tab_id):
            wrong = f"{op.tool}: tabId must be a tab id string, e.g. tab1"
            raise ToolCallError(codes.INVALID_ARGUMENT, wrong)
        args = decode(op.args, given)
    except ToolCallError as error:
        return error_result(error.code, error.message.replace(f"{op.name}:", f"{op.tool}:", 1))
    call = Call(surface, context, tab_id or "", tools_changed, reserved, current=current)
    answer = await guarded(ADAPTERS[op.name].run(call, args))
    if current and isinstance(answer, CallToolResult) and not answer.is_error:
        # Which page a call without tabId ran on, said where the model reads it.
        answer.content.append(TextContent(type="text", text=f"(on {tab_id}, the current page)"))
    return answer
