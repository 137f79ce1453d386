"""The agent operations, each declared once; every surface is an adapter of these entries.

Rule 1: an operation's arguments are one ``msgspec.Struct`` (:data:`OPERATIONS`),
decoded once with :func:`decode` (``msgspec.convert``: a wrong type or an unknown
argument is ``INVALID_ARGUMENT``, naming it). Every surface takes the same argument
names: the Python API (``Browser.open``, ``Tab.act`` …), the ``script`` steps, the
agent's tools and the MCP tools. A surface that serves several tabs adds ``tabId``
to the operations that address one (``on_tab``).

Rule 2: a tool call naming a page action is ``act``. Its arguments are the act
arguments without ``action`` (``record``, ``text`` …), except for a page tool
(WebMCP, kind ``tool``), whose whole argument object is its ``input``
(:func:`function_call`): the agent's tools and the MCP page tools declare the page
tool's own schema, so the model calls ``add_item{title, qty}``.

=================  ==================  ===========================================
operation          tool name           arguments (``tabId`` besides, where on_tab)
=================  ==================  ===========================================
``open``           ``open_page``       ``url``, ``timeout``
``close``          ``close_page``      —
``list``           ``list_pages``      —
``navigate``       ``navigate``        ``url``, ``timeout``
``observe``        ``observe``         ``options``
``act``            ``act``             ``action``, ``record``, ``text``, ``option``,
                                       ``checked``, ``input``, ``key``, ``to``, ``value``
``invoke``         ``invoke_page_method``  ``method``, ``args``, ``timeout``
``notifications``  ``notifications``   ``wait_ms``
``back``           ``go_back``         ``timeout``
``forward``        ``go_forward``      ``timeout``
``reload``         ``reload``          ``timeout``
``select``         ``select_page``     — (the ``tabId`` it makes current)
``screenshot``     ``screenshot``      ``full_page``, ``target``, ``format``, ``quality``,
                                       ``max_edge``
``pdf``            ``pdf``             ``landscape`` (opt-in ``pdf``)
``wait_for``       ``wait_for``        ``text``, ``gone``, ``action``, ``timeout``
``console``        ``console``         ``limit``
``network``        ``network``         ``limit``
``downloads``      ``downloads``       ``limit``
``click_at``       ``click_at``        ``x``, ``y`` (opt-in ``vision``)
``type_at``        ``type_at``         ``x``, ``y``, ``text`` (opt-in ``vision``)
=================  ==================  ===========================================

Rule 3: what a surface may offer. An operation with ``opt_in`` (``vision``, ``pdf``)
is offered only where that capability is enabled (the MCP server's ``--vision`` /
``--allow pdf``, a role's ``capabilities``). The agent offers an operation only when
its role enables the operation's ``capability`` (``None``: offered as before, the
page's actions and documented methods). ``read_only`` / ``destructive`` /
``open_world`` are the MCP tool annotations.

Rule 4: a surface with a current tab (``script``, the agent) addresses the current
tab and takes ``tabId`` only for ``select`` (:func:`surface_arguments`); MCP takes
``tabId`` everywhere, optional but for ``select``, defaulting to the session's current tab.

Results are those of the Python API, as JSON on the JSON surfaces: a tab id and
url, ``{"closed"}``, the pages, the document url, the observation (text, structured
observation and tools), the receipt, the method's JSON value (a domain refusal is
a value), the notifications. Failures carry the codes of :mod:`cdpagent.cdp.failures`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal, Protocol, TypeVar

import msgspec

from ..act.inputs import ACT_INPUTS, ActArgs, OperationArgs
from ..errors import ToolCallError
from ..snapshot.codes import INVALID_ARGUMENT
from ..snapshot.model import MORE_TOOL
from ..snapshot.openai_tools import more_call
from .opt_ins import OPT_INS, OptIn

__all__ = [
    "ACT_INPUTS",
    "CAPABILITIES",
    "OPERATIONS",
    "OPT_INS",
    "ActArgs",
    "BackArgs",
    "ClickAtArgs",
    "CloseArgs",
    "ConsoleArgs",
    "DownloadsArgs",
    "ForwardArgs",
    "InvokeArgs",
    "ListArgs",
    "NavigateArgs",
    "NetworkArgs",
    "NotificationsArgs",
    "ObserveArgs",
    "OpenArgs",
    "Operation",
    "OperationArgs",
    "PdfArgs",
    "ReloadArgs",
    "ScreenshotArgs",
    "ScreenshotFacts",
    "SelectArgs",
    "TypeAtArgs",
    "WaitForArgs",
    "argument_names",
    "argument_schema",
    "decode",
    "function_call",
    "moved",
    "operation",
    "screenshot_summary",
    "surface_arguments",
]




_A = TypeVar("_A", bound=OperationArgs)

Seconds = Annotated[float, msgspec.Meta(gt=0, le=120, description="seconds to wait (default 30)")]
NonEmpty = Annotated[str, msgspec.Meta(min_length=1)]
ShortSeconds = Annotated[float, msgspec.Meta(gt=0, le=120, description="seconds to wait (default 10)")]


class OpenArgs(OperationArgs, frozen=True):
    """``open``: open a page in a new tab and wait for its ``load``."""

    url: Annotated[str, msgspec.Meta(description="a file path, file: URL or loopback http(s) URL")]
    timeout: Seconds = 30.0


class CloseArgs(OperationArgs, frozen=True):
    """``close``: close the tab."""


class ListArgs(OperationArgs, frozen=True):
    """``list``: the open tabs."""


class NavigateArgs(OperationArgs, frozen=True):
    """``navigate``: load another page in the tab and wait for its ``load``."""

    url: Annotated[str, msgspec.Meta(description="a file path, file: URL or loopback http(s) URL")]
    timeout: Seconds = 30.0


class ObserveArgs(OperationArgs, frozen=True):
    """``observe``: the bounded observation now; ``options`` holds ``ObserveOptions`` fields by name."""

    options: Annotated[
        dict[str, Any] | None, msgspec.Meta(description="ObserveOptions fields by name (budgets, include)")
    ] = None


class InvokeArgs(OperationArgs, frozen=True):
    """``invoke``: call a method the page registered (Page Agent API)."""

    method: Annotated[str, msgspec.Meta(description="the name of a method the page registered")]
    args: Annotated[dict[str, Any] | None, msgspec.Meta(description="a JSON object (default {})")] = None
    timeout: Seconds = 30.0


class NotificationsArgs(OperationArgs, frozen=True):
    """``notifications``: the pages' ``thread_notify`` deliveries since the last call."""

    wait_ms: Annotated[
        int, msgspec.Meta(ge=0, le=30000, description="wait this long for one when none is queued")
    ] = 0


class BackArgs(OperationArgs, frozen=True):
    """``back``: one entry back in the tab's history; wait for its ``load``."""

    timeout: Seconds = 30.0


class ForwardArgs(OperationArgs, frozen=True):
    """``forward``: one entry forward in the tab's history; wait for its ``load``."""

    timeout: Seconds = 30.0


class ReloadArgs(OperationArgs, frozen=True):
    """``reload``: reload the page; wait for the new document's ``load``."""

    timeout: Seconds = 30.0


class SelectArgs(OperationArgs, frozen=True):
    """``select``: make the tab (``tabId``) the current one, e.g. a popup the page opened."""


class ScreenshotArgs(OperationArgs, frozen=True):
    """``screenshot``: a bounded image of the viewport, the page or one element, sensitive fields covered."""

    full_page: Annotated[bool, msgspec.Meta(description="the whole page (its first 16,384 CSS px)")] = False
    target: Annotated[
        NonEmpty | None, msgspec.Meta(description="an action id, tool name or record id to capture")
    ] = None
    format: Annotated[Literal["png", "jpeg"], msgspec.Meta(description="png or jpeg")] = "png"
    quality: Annotated[
        Annotated[int, msgspec.Meta(ge=1, le=100)] | None, msgspec.Meta(description="1-100, for jpeg only")
    ] = None
    max_edge: Annotated[
        int, msgspec.Meta(ge=16, le=8192, description="the longer edge in pixels at most (default 1568)")
    ] = 1568


class PdfArgs(OperationArgs, frozen=True):
    """``pdf``: the page printed to PDF (headless only)."""

    landscape: Annotated[bool, msgspec.Meta(description="landscape orientation")] = False


class WaitForArgs(OperationArgs, frozen=True):
    """``wait_for``: wait until the observation shows ``text``, lost ``gone``, offers ``action``."""

    text: Annotated[NonEmpty | None, msgspec.Meta(description="text to appear (case-insensitive)")] = None
    gone: Annotated[NonEmpty | None, msgspec.Meta(description="text to disappear (case-insensitive)")] = None
    action: Annotated[NonEmpty | None, msgspec.Meta(description="a tool name to become available")] = None
    timeout: ShortSeconds = 10.0


Limit = Annotated[int, msgspec.Meta(ge=0, le=200, description="the last this many entries (default 50)")]


class ConsoleArgs(OperationArgs, frozen=True):
    """``console``: the page's last console messages and uncaught exceptions."""

    limit: Limit = 50


class NetworkArgs(OperationArgs, frozen=True):
    """``network``: the page's last failed requests (network errors, HTTP status >= 400)."""

    limit: Limit = 50


class DownloadsArgs(OperationArgs, frozen=True):
    """``downloads``: the browser's last downloads (name, state, size, where the file went)."""

    limit: Annotated[int, msgspec.Meta(ge=0, le=100, description="the last this many (default 50)")] = 50


Coordinate = Annotated[
    float, msgspec.Meta(ge=0, le=100000, description="CSS pixels from the viewport's edge")
]


class ClickAtArgs(OperationArgs, frozen=True):
    """``click_at``: a trusted click at viewport coordinates (vision mode)."""

    x: Coordinate
    y: Coordinate


class TypeAtArgs(OperationArgs, frozen=True):
    """``type_at``: click at viewport coordinates, then type ``text`` there (vision mode)."""

    x: Coordinate
    y: Coordinate
    text: Annotated[str, msgspec.Meta(max_length=10000, description="the text to type")]


@dataclass(frozen=True)
class Operation:
    """One agent operation."""

    name: str
    tool: str
    """Its name on the tool surfaces (the MCP server, the agent)."""
    description: str
    args: type[OperationArgs]
    result: str
    """The shape of a successful result."""
    on_tab: bool
    """Whether it addresses one tab (``tabId`` on surfaces that serve several)."""
    read_only: bool = False
    """MCP ``readOnlyHint``: it changes nothing in the page or the browser."""
    destructive: bool = False
    """MCP ``destructiveHint``: it may do what cannot be undone (a page action, a page method)."""
    open_world: bool = False
    """MCP ``openWorldHint``: it reaches beyond the pages the server's URL policy allows."""
    opt_in: OptIn | None = None
    """The capability that must be enabled for any surface but Python to offer it (``vision``, ``pdf``)."""
    capability: str | None = None
    """The role capability that makes the agent offer it; ``None``: offered as before (see Rule 3)."""
    codes: tuple[str, ...] = ()
    """The stable codes of its failures (besides ``INVALID_ARGUMENT`` for its arguments)."""
    python: str = ""
    """Its Python API (``Tab.navigate``, ``Browser.open`` …); empty where Python needs none (``select``)."""


_TAB: Final = ("TAB_NOT_FOUND", "TAB_CRASHED", "PAGE_CHANGED", "DIALOG_OPEN")
_NAV: Final = ("NAVIGATION_FAILED", "URL_NOT_ALLOWED", *_TAB)

OPERATIONS: Final[tuple[Operation, ...]] = (
    Operation("open", "open_page", "Open a page in a new tab and wait until it has loaded.", OpenArgs,
              "{tabId, url}", on_tab=False, capability="tabs",
              codes=("NAVIGATION_FAILED", "URL_NOT_ALLOWED", "TAB_LIMIT"), python="Browser.open"),
    Operation("close", "close_page", "Close the tab.", CloseArgs, "{closed: tabId}", on_tab=True,
              capability="tabs", codes=("TAB_NOT_FOUND",), python="Tab.close"),
    Operation("list", "list_pages", "The open tabs, with the tabs their pages opened (popups).", ListArgs,
              "{pages: [{tabId, title, url, opener}]}", on_tab=False, read_only=True, capability="tabs",
              python="Browser.tabs"),
    Operation("navigate", "navigate", "Load another page in the tab and wait until it has loaded.",
              NavigateArgs, "{tabId, url, title, changed}", on_tab=True, capability="navigation", codes=_NAV,
              python="Tab.navigate"),
    Operation("observe", "observe", "The bounded observation of the page now.", ObserveArgs,
              "{text, observation, tools}", on_tab=True, read_only=True,
              codes=("COLLECT_FAILED", *_TAB), python="Tab.observe"),
    Operation("act", "act", "Perform one declared action with trusted input.", ActArgs,
              "the receipt {result: {ok, action, changed, warnings} | {ok: false, error}}", on_tab=True,
              destructive=True, codes=("UNKNOWN_ACTION", "ACTION_UNAVAILABLE", "HANDOFF_REQUIRED", *_TAB),
              python="Tab.act"),
    Operation("invoke", "invoke_page_method", "Call a method the page registered (Page Agent API).",
              InvokeArgs, "the method's JSON value (a domain refusal is a value)", on_tab=True,
              destructive=True,
              codes=("PAGE_API_METHOD_NOT_FOUND", "PAGE_API_TIMEOUT", "PAGE_API_TAB_NOT_FOUND"),
              python="Tab.invoke"),
    Operation("notifications", "notifications", "The pages' thread_notify deliveries since the last call.",
              NotificationsArgs, "{notifications: [{tabId, message, deliveryId, url}], more}", on_tab=False,
              read_only=True, capability="notifications", python="Thread.notifications"),
    Operation("back", "go_back", "Go back one entry in the tab's history and wait until it has loaded.",
              BackArgs, "{tabId, url, title, changed}", on_tab=True, capability="navigation", codes=_NAV,
              python="Tab.back"),
    Operation("forward", "go_forward",
              "Go forward one entry in the tab's history and wait until it has loaded.",
              ForwardArgs, "{tabId, url, title, changed}", on_tab=True, capability="navigation", codes=_NAV,
              python="Tab.forward"),
    Operation("reload", "reload", "Reload the page and wait until it has loaded.", ReloadArgs,
              "{tabId, url, title, changed}", on_tab=True, capability="navigation", codes=_NAV,
              python="Tab.reload"),
    Operation("select", "select_page", "Make the tab the current one (a popup the page opened, say).",
              SelectArgs, "{tabId, url, title}", on_tab=True, capability="tabs", codes=("TAB_NOT_FOUND",)),
    Operation("screenshot", "screenshot",
              "A screenshot of the viewport, the whole page or one element; sensitive fields are covered.",
              ScreenshotArgs, "an image {format, width, height, masked, truncated}", on_tab=True,
              read_only=True, capability="screenshot",
              codes=("TARGET_NOT_FOUND", "CAPTURE_FAILED", "TIMEOUT", *_TAB), python="Tab.screenshot"),
    Operation("pdf", "pdf", "The page printed to PDF (headless only).", PdfArgs,
              "{bytes, data (base64)}", on_tab=True, read_only=True, opt_in="pdf", capability="pdf",
              codes=("CAPTURE_FAILED", "TIMEOUT", *_TAB), python="Tab.pdf"),
    Operation("wait_for", "wait_for",
              "Wait until the page shows a text, no longer shows one, or offers an action.",
              WaitForArgs, "the observation once it holds {text, observation, tools}", on_tab=True,
              read_only=True, capability="wait", codes=("WAIT_TIMEOUT", *_TAB), python="Tab.wait_for"),
    Operation("console", "console", "The page's last console messages and uncaught exceptions.",
              ConsoleArgs, "{messages: [{level, text, url}]}", on_tab=True, read_only=True, capability="logs",
              codes=_TAB[:1], python="Tab.console"),
    Operation("network", "network", "The page's last failed requests (no headers, cookies or bodies).",
              NetworkArgs, "{requests: [{method, url, resource, status | error}]}", on_tab=True,
              read_only=True, capability="logs", codes=_TAB[:1], python="Tab.network"),
    Operation("downloads", "downloads", "The browser's last downloads: name, state, size and file.",
              DownloadsArgs, "{downloads: [{name, state, size, path, tab}]}", on_tab=False, read_only=True,
              capability="downloads", python="Browser.downloaded"),
    Operation("click_at", "click_at", "Click at viewport coordinates (for pages that declare nothing there).",
              ClickAtArgs, "the receipt {result: {ok, changed}}", on_tab=True, destructive=True,
              opt_in="vision", capability="vision", codes=_TAB, python="Tab.click_at"),
    Operation("type_at", "type_at", "Click at viewport coordinates, then type the text there.",
              TypeAtArgs, "the receipt {result: {ok, changed}}", on_tab=True, destructive=True,
              opt_in="vision", capability="vision", codes=_TAB, python="Tab.type_at"),
)  # fmt: skip

#: The role capabilities (``capabilities = [...]`` in a role file) and what each enables.
CAPABILITIES: Final = tuple(dict.fromkeys(op.capability for op in OPERATIONS if op.capability is not None))
#: The capabilities a surface other than Python must enable explicitly for an operation to exist at all.

_BY_NAME: Final = {op.name: op for op in OPERATIONS}


def operation(name: str) -> Operation:
    """The operation named ``name``; raises :class:`KeyError` for an unknown name."""
    return _BY_NAME[name]


def argument_names(op: Operation) -> tuple[str, ...]:
    """The argument names of ``op``, in declaration order (``tabId`` not included)."""
    return op.args.__struct_fields__


def argument_schema(args: type[OperationArgs]) -> dict[str, Any]:
    """The JSON schema of ``args`` as one closed object: its properties with their
    constraints and descriptions (from the ``msgspec.Meta`` of each field), ``required``
    naming those without a default. Pure; a new dict each call."""
    schema = msgspec.json.schema(args)
    body: dict[str, Any] = dict(schema["$defs"][schema["$ref"].rsplit("/", 1)[1]])
    for key in ("title", "description"):
        body.pop(key, None)
    body.setdefault("properties", {})
    body.setdefault("required", [])
    body["additionalProperties"] = False
    return body


def surface_arguments(op: Operation, *, current_tab: bool) -> tuple[str, ...]:
    """The argument names ``op`` takes on a surface: with ``tabId`` where it addresses a tab and
    the surface names tabs in every call (MCP, where it defaults to the current tab), or where it
    is ``select`` and the surface keeps a current tab (``script``, the agent: Rule 4)."""
    names = argument_names(op)
    if op.on_tab and (not current_tab or op.name == "select"):
        return ("tabId", *names)
    return names


def decode(args: type[_A], raw: Mapping[str, Any]) -> _A:
    """``raw`` as the argument Struct ``args``, decoded once.

    Raises :class:`~cdpagent.errors.ToolCallError` with ``INVALID_ARGUMENT`` naming
    the argument that is unknown, missing or of the wrong type.
    """
    try:
        return msgspec.convert(dict(raw), args)
    except msgspec.ValidationError as error:
        name = next((op.name for op in OPERATIONS if op.args is args), args.__name__)
        raise ToolCallError(INVALID_ARGUMENT, f"{name}: {_problem(error)}") from None


def _problem(error: msgspec.ValidationError) -> str:
    text = str(error)
    # msgspec says "Object contains unknown field `x`" / "... - at `$.record`"; keep it short.
    text = text.replace("Object contains unknown field", "unknown argument")
    text = text.replace("Object missing required field", "missing argument")
    message, at, path = text.partition(" - at `$.")
    return f"{path.rstrip('`')}: {message}" if at else message


def moved(verb: str, before: str, after: str) -> str:
    """The one "what changed" line of a navigation (``navigate``, ``back``, ``forward``, ``reload``),
    the same on every surface: ``went back: <before> → <after>``, URLs cut to 200 characters."""

    def short(url: str) -> str:
        return url if len(url) <= 200 else url[:199] + "…"

    if before == after:
        return f"{verb}: still {short(after)}"
    return f"{verb}: {short(before) or 'nothing'} → {short(after)}"


def screenshot_summary(tab_id: str, shot: ScreenshotFacts) -> str:
    """The one line every surface says about a screenshot of ``tab_id``: size, bytes, what it hides."""
    line = f"screenshot of {tab_id}: {shot.width}x{shot.height} {shot.format}, {len(shot.data)} bytes"
    if shot.masked:
        line += f", {shot.masked} sensitive field{'s' if shot.masked != 1 else ''} covered"
    if shot.truncated:
        line += ", the page cut at 16,384 CSS pixels"
    return line


class ScreenshotFacts(Protocol):
    """What :func:`screenshot_summary` reads of a :class:`cdpagent.Screenshot`."""

    @property
    def data(self) -> bytes: ...
    @property
    def format(self) -> str: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def masked(self) -> int: ...
    @property
    def truncated(self) -> bool: ...




def function_call(name: str, kind: str | None, arguments: Mapping[str, Any]) -> ActArgs:
    """The ``act`` arguments of a call of tool ``name`` (a page action of ``kind``) with ``arguments``.

    A page tool (kind ``tool``, WebMCP) takes its whole argument object as ``input``;
    :data:`~cdpagent.snapshot.model.MORE_TOOL` clicks the control its ``control`` names;
    any other action takes the act arguments but ``action``. Raises
    :class:`~cdpagent.errors.ToolCallError` (``INVALID_ARGUMENT``) like :func:`decode`.
    """
    if kind == "tool":
        return ActArgs(action=name, input=dict(arguments))
    if name == MORE_TOOL and kind is None:
        return ActArgs(action=more_call(arguments))
    if "action" in arguments:
        raise ToolCallError(INVALID_ARGUMENT, f"{name}: unknown argument 'action'")
    try:
        return decode(ActArgs, {**arguments, "action": name})
    except ToolCallError as error:
        raise ToolCallError(INVALID_ARGUMENT, error.message.replace("act:", f"{name}:", 1)) from None
