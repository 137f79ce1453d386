"""The seam between the driver and the cores: what a tab and a browser offer them.

The Page Agent API (``cdpagent.runtime``) and the observation (``cdpagent.snapshot``)
are functions over a small target interface, the way chromedp's actions are
functions over a target: they import this module, never :mod:`cdpagent.browser`,
which composes them. :class:`Target` and :class:`Host` are structural
(``typing.Protocol``): :class:`cdpagent.browser.Tab` and
:class:`cdpagent.browser.Browser` satisfy them without naming them.

:class:`Extension` is how a core prepares every new tab before its first script
runs (DR-3): it registers event handlers and returns the :data:`Command` list the
driver sends, in one ordered batch, while the target is still paused.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final, Protocol, TypeVar

import msgspec
import trio

from ..errors import PageFunctionError
from .connection import Session
from .dialogs import JavaScriptDialog
from .documents import Document, DocumentTracker

__all__ = [
    "CALL_REPLY",
    "Command",
    "Extension",
    "FrameTarget",
    "Host",
    "PreparedFunction",
    "TabT",
    "Target",
    "call_function",
    "call_result",
    "call_value",
]

Command = tuple[str, dict[str, Any]]
"""A CDP command as ``(method, params)``."""


class FrameTarget:
    """A frame of a tab that another renderer process draws (another site), attached
    through its own session (OB-11): its frame tree and execution contexts, and the
    page scripts installed in it. Its main frame's id is ``target_id``."""

    def __init__(self, target_id: str, session: Session) -> None:
        self.target_id = target_id
        self.session = session
        self.documents = DocumentTracker()
        self.installed: set[str] = set()


class Target(Protocol):
    """One page target (a tab), as the cores use it.

    ``installed`` names the page scripts an extension has already installed in
    this tab; ``input_lock`` serialises everything that delivers input to it;
    ``dialog`` is the JavaScript dialog open in it now (:mod:`cdpagent.cdp.dialogs`).
    """

    id: str
    target_id: str
    session: Session
    documents: DocumentTracker
    frame_targets: dict[str, FrameTarget]
    """Out-of-process frames of this tab (and of those frames), by target id."""
    closed: bool
    crashed: bool
    installed: set[str]
    input_lock: trio.Lock
    dialog: JavaScriptDialog | None

    @property
    def browser(self) -> Host[Target]:
        """The browser this tab belongs to."""
        ...

    @property
    def opener(self) -> Target | None:
        """The tab whose page opened this one (a popup), if any."""
        ...

    @property
    def document(self) -> Document | None:
        """The main frame's current document."""
        ...

    async def wait_loaded(self, timeout: float = 30.0) -> Document:
        """Wait until the current main document fired ``load``; returns that document."""
        ...

    async def document_changed(self, serial: int, timeout: float = 30.0) -> Document:
        """Wait until the main document is no longer the one numbered ``serial``."""
        ...

    async def context_id(self, world: str = "", timeout: float = 30.0) -> int:
        """The execution context of ``world`` ("" = the page's own) in the current main document."""
        ...

    async def close(self) -> None:
        """Close the tab."""
        ...

    def take_notices(self) -> list[str]:
        """What the runtime did on its own since the last call, as warnings to report."""
        ...

    async def resolve_dialog(self, accept: bool, prompt_text: str | None = None) -> JavaScriptDialog:
        """Accept or dismiss the open JavaScript dialog; raises :class:`LookupError` when none is open."""
        ...

    async def wait_until(self, predicate: Callable[[], bool], timeout: float = 30.0) -> None:
        """Return once ``predicate()`` holds; re-checked on every change of the tab's state."""
        ...


TabT = TypeVar("TabT", bound=Target, covariant=True)
"""The concrete tab type of a :class:`Host` (:class:`cdpagent.browser.Tab` for a real browser)."""


class Host(Protocol[TabT]):
    """The browser, as the cores use it; its tabs are of type ``TabT``."""

    @property
    def extensions(self) -> Sequence[Extension]:
        """The extensions every new tab is set up with."""
        ...

    @property
    def tabs(self) -> Sequence[TabT]:
        """Open tabs that are set up."""
        ...

    def tab(self, tab_id: str) -> TabT | None:
        """The open tab with id ``tab_id``, or ``None``."""
        ...

    async def send(self, method: str, params: Any = None) -> Any:
        """Send a browser-level command and return its decoded result."""
        ...

    def start_soon(self, async_fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Run ``async_fn(*args)`` in the background, owned by the browser."""
        ...

    async def open(
        self,
        url_or_path: str | os.PathLike[str],
        *,
        timeout: float = 30.0,
        prepare: Callable[[TabT], None] | None = None,
    ) -> TabT:
        """Open a new tab (``prepare`` runs before the page loads) and wait for ``load``."""
        ...


class Extension(Protocol):
    """Something that prepares every new tab before its first script runs."""

    def setup_tab(self, tab: Target) -> Sequence[Command]:
        """Called once per new tab while its target is paused.

        Register event handlers on ``tab.session`` here, and return the commands
        (``Runtime.addBinding``, ``Page.addScriptToEvaluateOnNewDocument``, …)
        that must run before the tab's first script. The driver sends every
        extension's commands in one ordered batch and only then releases the
        target: a paused target may answer nothing until it is released, so
        setup cannot wait for replies one by one.
        """
        ...


class _Argument(msgspec.Struct):
    value: Any


class _CallParams(msgspec.Struct, omit_defaults=True):
    """``Runtime.callFunctionOn`` params (a Struct encodes faster than a dict)."""

    functionDeclaration: str
    arguments: list[_Argument]
    returnByValue: bool  # no default: omit_defaults would leave it out
    executionContextId: int | None = None
    objectId: str | None = None
    awaitPromise: bool = False


class _Thrown(msgspec.Struct):
    description: str | None = None
    value: Any = None


class _ExceptionDetails(msgspec.Struct):
    text: str = ""
    exception: _Thrown | None = None


class _Value(msgspec.Struct):
    value: Any = None


class _CallReply(msgspec.Struct):
    """The parts of a by-value ``Runtime.callFunctionOn`` reply a caller reads: nothing else
    of it is decoded (its remote object's type, class name, preview …)."""

    result: _Value = msgspec.field(default_factory=_Value)
    exceptionDetails: _ExceptionDetails | None = None


CALL_REPLY: Final = msgspec.json.Decoder(_CallReply)
"""The decoder of a by-value ``Runtime.callFunctionOn`` reply, for :func:`call_value`."""
_encode: Final = msgspec.json.Encoder().encode


class PreparedFunction:
    """``Runtime.callFunctionOn`` params of one page function, called often with the same
    leading arguments (the shim's entry point and key) and two of its own (a method and
    its arguments): encoded once but for those two and the context (a params Struct per
    call cost a third more instructions: building it, and encoding the function text again).
    """

    __slots__ = ("_template",)

    def __init__(self, function: str, *leading: Any, await_promise: bool = False) -> None:
        parts = [b'{"functionDeclaration":', _encode(function), b',"returnByValue":true']
        if await_promise:
            parts.append(b',"awaitPromise":true')
        parts.append(b',"arguments":[')
        for value in leading:
            parts += (b'{"value":', _encode(value), b"},")
        # The two trailing arguments and the context are formatted in: one bytes operation.
        head = b"".join(parts).replace(b"%", b"%%")
        self._template = head + b'{"value":%b},{"value":%b}],"executionContextId":%d}'

    def params(self, context: int, first: Any, second: Any) -> msgspec.Raw:
        """The params calling the function in execution context ``context`` with the leading
        arguments, then ``first`` and ``second`` (JSON values); send them with :data:`CALL_REPLY`
        and read the answer with :func:`call_value`. Raises ``TypeError`` for a value msgspec
        cannot encode."""
        return msgspec.Raw(self._template % (_encode(first), _encode(second), context))


async def call_function(
    session: Session,
    function: str,
    *args: Any,
    context: int | None = None,
    object_id: str | None = None,
    await_promise: bool = False,
    deadline: float | None = None,
) -> Any:
    """Call the page function ``function`` with ``args`` (JSON values) and return its JSON value.

    It runs in execution context ``context`` or with ``this`` bound to ``object_id``
    (``Runtime.callFunctionOn``, by value; ``await_promise`` waits for a promise it
    returns). The one decoder of such calls for the cores, and the fast one: the
    params are a Struct, and of the reply only the value and the exception are
    decoded. Raises :class:`~cdpagent.errors.PageFunctionError` when the function
    threw (the page's exception text, first line, at most 300 characters), and the
    driver's errors otherwise (``ProtocolError`` when the context is gone,
    ``CallTimeout`` at ``deadline``).
    """
    params = _CallParams(function, [_Argument(a) for a in args], True, context, object_id, await_promise)
    reply = await session.send_typed("Runtime.callFunctionOn", params, CALL_REPLY, deadline=deadline)
    return call_value(reply)


def call_value(reply: _CallReply) -> Any:
    """The JSON value of a reply decoded with :data:`CALL_REPLY`; raises
    :class:`~cdpagent.errors.PageFunctionError` when the function threw."""
    if reply.exceptionDetails is not None:
        raise PageFunctionError(_thrown_text(reply.exceptionDetails))
    return reply.result.value


def _thrown_text(details: _ExceptionDetails) -> str:
    """The first line of what the page threw (an Error's description, a thrown string
    itself), at most 300 characters; ``"exception"`` when it says nothing."""
    thrown = details.exception
    text = ""
    if thrown is not None:
        text = thrown.description or (thrown.value if isinstance(thrown.value, str) else "")
    text = text or details.text
    return text.splitlines()[0][:300] if text.strip() else "exception"


def call_result(reply: dict[str, Any]) -> Any:
    """The JSON value of a ``Runtime.callFunctionOn`` reply made with ``returnByValue``,
    already decoded into a dict (for callers that sent the call themselves).

    Raises :class:`~cdpagent.errors.PageFunctionError` as :func:`call_function` does.
    """
    details = reply.get("exceptionDetails")
    if details:
        raise PageFunctionError(_thrown_text(msgspec.convert(details, _ExceptionDetails)))
    return reply.get("result", {}).get("value")
