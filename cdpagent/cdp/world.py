"""The isolated world beside every document, and the one way to call a function in a page.

Theory of operation:

* The runtime's page scripts live in the isolated world :data:`WORLD`: page scripts can
  neither see nor patch them, and they share only the DOM with the page. The world holds
  :data:`~.pagescripts.WORLD_SCRIPTS` (the shared prelude first, then the collectors, the
  acting and the capture helpers) and the isolated half of ``js/quiet.js``; the other half
  runs in the page's own world, before the page's scripts. :func:`install_commands` is
  that whole list, once: ``Page.addScriptToEvaluateOnNewDocument`` with ``runImmediately``
  covers a target's current document, every later one and the child frames its renderer
  draws. :class:`WorldExtension` sends it for every new tab before its first script
  (DR-3); :func:`install` sends it to a tab opened without the extension, or to a frame
  drawn by another process, on first use.
* ``js/quiet.js`` is the post-action quiet window's evidence (OB-6, OB-8): its page half
  counts what the page started that is still pending (timers due soon, animation frames,
  idle callbacks, fetches, XMLHttpRequests, posted messages); its isolated half asks, with
  an event whose name (:data:`QUIET_EVENT`) is unguessable and one per process, so that a
  page cannot answer for it. A page that never answers is never quiet early.
* Every call into a page goes through :func:`call_function`; the functions the cores call
  are named, each once, by :class:`PageFunction` (as chromedp names its page functions in
  ``js.go``). A value comes back by value, and of the reply only the value and the
  exception are decoded; with ``group`` the result stays in the page as an object of that
  group and its object id comes back. :class:`PreparedFunction` is the same call with its
  params encoded once, for the Page Agent API's hot path (``Tab.invoke``), which sends it
  itself and reads the reply with :data:`CALL_REPLY` and :func:`call_value`.
"""

from __future__ import annotations

import enum
import secrets
from collections.abc import Callable, Sequence
from functools import cache, partial
from typing import Any, Final, Protocol

import msgspec

from ..errors import PageFunctionError
from .connection import Command, Session
from .documents import Document, DocumentTracker
from .pagescripts import configured, world_source

__all__ = [
    "CALL_REPLY",
    "QUIET_EVENT",
    "WORLD",
    "Installable",
    "PageFunction",
    "PreparedFunction",
    "WorldExtension",
    "WorldTab",
    "call_function",
    "call_value",
    "enter",
    "install",
    "install_commands",
]

#: The isolated world's name (``Page.addScriptToEvaluateOnNewDocument``'s ``worldName``).
WORLD: Final = "cdpagent-observe"
#: The name of ``js/quiet.js``'s question event for this process.
QUIET_EVENT: Final = "cdpagent-quiet-" + secrets.token_hex(8)


def _act(entry: str) -> str:
    return f"function (...a) {{ return globalThis.__cdpagentAct.{entry}(...a); }}"


def _capture(entry: str) -> str:
    return f"function (...a) {{ return globalThis.__cdpagentCapture.{entry}(...a); }}"


class PageFunction(enum.StrEnum):
    """Every function the runtime calls in the isolated world, named after the entry point of
    the page scripts it calls; a member is the declaration ``Runtime.callFunctionOn`` sends."""

    #: One round trip (OB-12): the declared snapshot, the inferred one, or both, as
    #: ``js/infer.js``'s ``plan`` decides, and the page text of a declared page that opts in;
    #: each JSON text in ASCII (``asciiJson`` in ``js/prelude.js``: Chromium sends it faster).
    #: ``h`` and ``i``: the tokens of the declared and inferred snapshots the caller holds.
    COLLECT = (
        "function (o, m, h, t, i) { const p = globalThis.__cdpagentInfer.plan(m); return ["
        "p === 'all' ? null : globalThis.__cdpagentObserve.collect(o, false, h), "
        "p === 'off' ? null : globalThis.__cdpagentInfer.infer(o, p, false, i), "
        "p === 'off' && t ? globalThis.__cdpagentInfer.text(o) : null]"
        ".map(globalThis.__cdpagentPrelude.asciiJson); }"
    )
    SETTLE = "function (q, t, f, s) { return globalThis.__cdpagentObserve.settle(q, t, f, s); }"
    #: On a frame's owner element (``this``).
    FRAME_OWNER = "function (max) { return globalThis.__cdpagentObserve.frameOwner(this, max); }"
    #: The listener probe's candidates (an array, kept by reference); nothing on a page
    #: answered from its declarations: null has no handle, sparing the round trips of one.
    PROBE = (
        "function (n, m, b) { return globalThis.__cdpagentInfer.plan(m) === 'off' ? null : "
        "globalThis.__cdpagentClickables.probe(n, b); }"
    )
    MARK = "function (v, ...els) { return globalThis.__cdpagentClickables.mark(v, ...els); }"
    #: Whether the page's rendered text (what a person sees or scrolls to) holds ``t`` (lower
    #: case), the text of sensitive elements masked: only a yes or a no comes back.
    TEXT_SHOWN = (
        "function (t) { const P = globalThis.__cdpagentPrelude; "
        "let s = document.body ? document.body.innerText : ''; "
        "if (P.anySensitiveNow()) for (const e of document.querySelectorAll(P.SENSITIVE)) { "
        "const x = e.innerText; if (x && x.trim()) s = s.split(x).join(P.MASK); } "
        "return s.toLowerCase().includes(t); }"
    )
    #: The focused element and every node above it up to the document, across shadow roots
    #: (an array, kept by reference): whose key listeners typing would wake.
    FOCUS_PATH = (
        "function () { let e = document.activeElement; "
        "while (e && e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement; "
        "const out = []; for (let n = e; n; n = n.parentNode || n.host) out.push(n); return out; }"
    )
    #: On a frame's owner element (``this``).
    OWNER_POINT = "function (x, y) { return globalThis.__cdpagentAct.ownerPoint(this, x, y); }"
    PREPARE = _act("prepare")
    FOCUS_FOR = _act("focusFor")
    FOCUS_FOR_TYPING = _act("focusForTyping")
    SHOWN_AFTER_HOVER = _act("shownAfterHover")
    HOVERED = _act("hovered")
    BRANCH = _act("branch")
    PRESSABLE = _act("pressable")
    STATE = _act("state")
    CHOOSE = _act("choose")
    RADIO = _act("radio")
    RADIO_IS = _act("radioIs")
    SCROLL_STATE = _act("scrollState")
    SLIDER = _act("slider")
    MEASURE_SCALE = _act("measureScale")
    PICK = _act("pick")
    VALUE_IS = _act("valueIs")
    WATCH = _act("watch")
    CHANGED = _act("changed")
    LEAVE_FIELD = _act("leaveField")
    AIM = _act("aim")
    PRESSED_ON = _act("pressedOn")
    EXPECT_INPUT = _act("expectInput")
    INPUT_LANDED = _act("inputLanded")
    POINTER_MOVED = _act("pointerMoved")
    DATE_FORMAT = _act("dateFormat")
    #: The file input an upload goes to (an element, kept by reference), or null.
    FILE_INPUT = _act("fileInput")
    #: On a file input element (``this``).
    FILE_INFO = "function () { return globalThis.__cdpagentAct.fileInfo(this); }"
    MASK = _capture("mask")
    UNMASK = _capture("unmask")
    RECT_OF = _capture("rectOf")


class Installable(Protocol):
    """What installing the world needs of a target (a tab, or a frame drawn by another process)."""

    session: Session
    installed: set[str]
    """The names of the page scripts already installed in the target."""


@cache
def install_commands() -> tuple[Command, ...]:
    """The commands that install the isolated world in a target (its current document and every
    new one): its scripts in install order as one script (:func:`~.pagescripts.world_source`), then
    ``js/quiet.js``'s page half and isolated half."""
    add = "Page.addScriptToEvaluateOnNewDocument"
    scripts = [(world_source(), WORLD), (_quiet("page"), ""), (_quiet("observe"), WORLD)]
    return tuple(
        (add, {"source": text, "runImmediately": True} | ({"worldName": world} if world else {}))
        for text, world in scripts
    )


def _quiet(role: str) -> str:
    return configured("quiet.js", {"role": role, "event": QUIET_EVENT})


async def install(target: Installable) -> None:
    """Make sure ``target``'s current and future documents have the isolated world (once per target).

    Raises the driver's errors (``SessionClosed``, ``ProtocolError``) when the target is gone.
    """
    if WORLD in target.installed:
        return
    await target.session.send_batch(install_commands())
    target.installed.add(WORLD)


class WorldTab(Installable, Protocol):
    """What entering the world needs of a tab (:class:`cdpagent.cdp.target.Target` has it)."""

    documents: DocumentTracker

    async def wait_until(self, predicate: Callable[[], bool], timeout: float = 30.0) -> None:
        """Return once ``predicate()`` holds; re-checked on every change of the tab's state."""
        ...


async def enter(tab: WorldTab, timeout: float = 30.0, *, loaded: bool = False) -> tuple[int, Document]:
    """The isolated world's execution context in ``tab``'s current main document, and that
    document, once both are there (the world is installed first, once per tab); with ``loaded``,
    once the document also fired ``load``.

    Raises :class:`trio.TooSlowError` after ``timeout`` seconds, and the driver's errors
    (``SessionClosed``, ``ConnectionClosed``, ``ProtocolError`` of the install).
    """
    await install(tab)
    documents = tab.documents
    await tab.wait_until(partial(documents.world_ready, WORLD, loaded), timeout)
    context = documents.context(WORLD)
    document = documents.main
    assert context is not None and document is not None
    return context.id, document


class WorldExtension:
    """Installs the isolated world in every new tab before its first script runs (one of
    :func:`cdpagent.standard_extensions`)."""

    def setup_tab(self, tab: Installable) -> Sequence[Command]:
        """The world's install commands; the tab counts the world as installed."""
        tab.installed.add(WORLD)
        return install_commands()


class _Argument(msgspec.Struct):
    value: Any


class _Handle(msgspec.Struct):
    objectId: str


class _CallParams(msgspec.Struct, omit_defaults=True):
    """``Runtime.callFunctionOn`` params (a Struct encodes faster than a dict)."""

    functionDeclaration: str
    arguments: list[_Argument | _Handle]
    returnByValue: bool  # no default: omit_defaults would leave it out
    executionContextId: int | None = None
    objectId: str | None = None
    awaitPromise: bool = False
    objectGroup: str | None = None


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


class _Object(msgspec.Struct):
    objectId: str | None = None


class _ObjectReply(msgspec.Struct):
    """A by-reference reply: the object id of the result (none for a primitive) and the exception."""

    result: _Object = msgspec.field(default_factory=_Object)
    exceptionDetails: _ExceptionDetails | None = None


CALL_REPLY: Final = msgspec.json.Decoder(_CallReply)
"""The decoder of a by-value ``Runtime.callFunctionOn`` reply, for :func:`call_value`."""
_OBJECT_REPLY: Final = msgspec.json.Decoder(_ObjectReply)
_encode: Final = msgspec.json.Encoder().encode


class PreparedFunction:
    """``Runtime.callFunctionOn`` params of one page function of two arguments (for the shim:
    a method and its arguments), called often: encoded once but for those two and the context
    (a params Struct per call cost a third more instructions: building it, and encoding the
    function text again).
    """

    __slots__ = ("_template",)

    def __init__(self, function: str, *, await_promise: bool = False) -> None:
        parts = [b'{"functionDeclaration":', _encode(function), b',"returnByValue":true']
        if await_promise:
            parts.append(b',"awaitPromise":true')
        # The two arguments and the context are formatted in: one bytes operation.
        head = b"".join(parts).replace(b"%", b"%%")
        self._template = head + b',"arguments":[{"value":%b},{"value":%b}],"executionContextId":%d}'

    def params(self, context: int, first: Any, second: Any) -> msgspec.Raw:
        """The params calling the function in execution context ``context`` with ``first`` and
        ``second`` (JSON values); send them with :data:`CALL_REPLY` and read the answer with
        :func:`call_value`. Raises ``TypeError`` for a value msgspec cannot encode."""
        return msgspec.Raw(self._template % (_encode(first), _encode(second), context))


async def call_function(
    session: Session,
    function: str,
    *args: Any,
    context: int | None = None,
    object_id: str | None = None,
    handles: Sequence[str] = (),
    group: str | None = None,
    await_promise: bool = False,
    deadline: float | None = None,
) -> Any:
    """Call the page function ``function`` (a :class:`PageFunction`, or any function text) with
    ``args`` (JSON values), then the page objects ``handles`` (object ids), and return its JSON value.

    It runs in execution context ``context`` or with ``this`` bound to ``object_id``
    (``Runtime.callFunctionOn``; ``await_promise`` waits for a promise it returns). With
    ``group`` the result is not sent back but kept in the page, in that object group (release
    it with ``Runtime.releaseObjectGroup``), and its object id is returned (``None`` when the
    result is no object). The one caller of page functions, and the fast one: the params are
    a Struct, and of the reply only the value (or object id) and the exception are decoded.
    Raises :class:`~cdpagent.errors.PageFunctionError` when the function threw (the page's
    exception text, first line, at most 300 characters), and the driver's errors otherwise
    (``ProtocolError`` when the context is gone, ``CallTimeout`` at ``deadline``).
    """
    arguments: list[_Argument | _Handle] = [_Argument(a) for a in args]
    if handles:
        arguments += [_Handle(h) for h in handles]
    params = _CallParams(function, arguments, group is None, context, object_id, await_promise, group)
    if group is None:
        reply = await session.send_typed("Runtime.callFunctionOn", params, CALL_REPLY, deadline=deadline)
        return reply.result.value if reply.exceptionDetails is None else call_value(reply)
    kept = await session.send_typed("Runtime.callFunctionOn", params, _OBJECT_REPLY, deadline=deadline)
    if kept.exceptionDetails is not None:
        raise PageFunctionError(_thrown_text(kept.exceptionDetails))
    return kept.result.objectId


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
