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
=================  ==================  ===========================================

Results are those of the Python API, as JSON on the JSON surfaces: a tab id and
url, ``{"closed"}``, the pages, the document url, the observation (text, structured
observation and tools), the receipt, the method's JSON value (a domain refusal is
a value), the notifications. Failures carry the codes of :mod:`cdpagent.failures`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Final, TypeVar

import msgspec

from .errors import ToolCallError
from .snapshot.codes import INVALID_ARGUMENT

__all__ = [
    "ACT_INPUTS",
    "OPERATIONS",
    "ActArgs",
    "CloseArgs",
    "InvokeArgs",
    "ListArgs",
    "NavigateArgs",
    "NotificationsArgs",
    "ObserveArgs",
    "OpenArgs",
    "Operation",
    "OperationArgs",
    "act_inputs",
    "argument_names",
    "decode",
    "function_call",
    "operation",
]


class OperationArgs(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True
):
    """Arguments of one operation: unknown names are refused, absent ones take their default."""


_A = TypeVar("_A", bound=OperationArgs)

Seconds = Annotated[float, msgspec.Meta(gt=0, le=120, description="seconds to wait (default 30)")]


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

    options: dict[str, Any] | None = None


class ActArgs(OperationArgs, frozen=True):
    """``act``: perform one declared action. Only the input its kind takes may be given."""

    action: Annotated[str, msgspec.Meta(description="a tool name from the observation (or an action id)")]
    record: Annotated[str | None, msgspec.Meta(description="the record id, for row actions")] = None
    text: Annotated[str | None, msgspec.Meta(description="the text, for type actions")] = None
    option: Annotated[str | None, msgspec.Meta(description="the option, for select and choose actions")] = (
        None
    )
    checked: Annotated[bool | None, msgspec.Meta(description="true/false, for check actions")] = None
    input: Annotated[
        dict[str, Any] | None, msgspec.Meta(description="the JSON object a page tool (WebMCP) takes")
    ] = None
    key: Annotated[str | None, msgspec.Meta(description="a key or chord, for press actions")] = None
    to: Annotated[str | None, msgspec.Meta(description="down, up, end or start, for scroll actions")] = None
    value: Annotated[float | None, msgspec.Meta(description="a number, for set actions (sliders)")] = None
    files: Annotated[
        list[str] | None,
        msgspec.Meta(description="paths of files to attach, for upload actions (under an allowed directory)"),
    ] = None


#: The act arguments that are the input of an action (the rest name the action).
ACT_INPUTS: Final = ("text", "option", "checked", "input", "key", "to", "value", "files")


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


OPERATIONS: Final[tuple[Operation, ...]] = (
    Operation("open", "open_page", "Open a page in a new tab and wait until it has loaded.", OpenArgs,
              "{tabId, url}", on_tab=False),
    Operation("close", "close_page", "Close the tab.", CloseArgs, "{closed: tabId}", on_tab=True),
    Operation("list", "list_pages", "The open tabs.", ListArgs, "{pages: [{tabId, title, url}]}",
              on_tab=False),
    Operation("navigate", "navigate", "Load another page in the tab and wait until it has loaded.",
              NavigateArgs, "{tabId, url}", on_tab=True),
    Operation("observe", "observe", "The bounded observation of the page now.", ObserveArgs,
              "{text, observation, tools}", on_tab=True),
    Operation("act", "act", "Perform one declared action with trusted input.", ActArgs,
              "the receipt {result: {ok, action, changed, warnings} | {ok: false, error}}", on_tab=True),
    Operation("invoke", "invoke_page_method", "Call a method the page registered (Page Agent API).",
              InvokeArgs, "the method's JSON value (a domain refusal is a value)", on_tab=True),
    Operation("notifications", "notifications", "The pages' thread_notify deliveries since the last call.",
              NotificationsArgs, "{notifications: [{tabId, message, deliveryId, url}], more}", on_tab=False),
)  # fmt: skip

_BY_NAME: Final = {op.name: op for op in OPERATIONS}


def operation(name: str) -> Operation:
    """The operation named ``name``; raises :class:`KeyError` for an unknown name."""
    return _BY_NAME[name]


def argument_names(op: Operation) -> tuple[str, ...]:
    """The argument names of ``op``, in declaration order (``tabId`` not included)."""
    return op.args.__struct_fields__


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


def act_inputs(args: ActArgs) -> dict[str, Any]:
    """The input arguments ``args`` gives (those not ``None``), by name, for ``act(...)``."""
    return {name: getattr(args, name) for name in ACT_INPUTS if getattr(args, name) is not None}


def function_call(name: str, kind: str | None, arguments: Mapping[str, Any]) -> ActArgs:
    """The ``act`` arguments of a call of tool ``name`` (a page action of ``kind``) with ``arguments``.

    A page tool (kind ``tool``, WebMCP) takes its whole argument object as ``input``;
    any other action takes the act arguments but ``action``. Raises
    :class:`~cdpagent.errors.ToolCallError` (``INVALID_ARGUMENT``) like :func:`decode`.
    """
    if kind == "tool":
        return ActArgs(action=name, input=dict(arguments))
    if "action" in arguments:
        raise ToolCallError(INVALID_ARGUMENT, f"{name}: unknown argument 'action'")
    try:
        return decode(ActArgs, {**arguments, "action": name})
    except ToolCallError as error:
        raise ToolCallError(INVALID_ARGUMENT, error.message.replace("act:", f"{name}:", 1)) from None
