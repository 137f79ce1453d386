"""Recording a trace while a browser runs: the :class:`Recorder` a browser holds and :func:`recorded`.

``launch(trace=PATH)`` / ``connect(..., trace=PATH)`` (and ``--trace PATH`` on every
command) open a :class:`Recorder` over PATH for the browser's block
(:func:`recording`): ``browser.tracer`` is the recorder, ``None`` when no trace is
kept. The format and its bounds are :mod:`cdpagent.trace.records`'s.

Theory of operation:

* Every ``Tab`` / ``Browser`` method that is an operation carries ``@recorded("name")``
  (one line each in :mod:`cdpagent.browser`). With no recorder the wrapper calls the
  method at once; with one it times the call, takes its result (or error code), a
  thumbnail of the tab afterwards, and writes one :class:`~cdpagent.trace.records.Step`.
* Operations that other operations run (``open`` navigates, a failed ``open`` closes)
  are part of the outer step, not steps of their own: a context variable says a step
  is being recorded, in this task and the tasks it starts.
* A thumbnail is a small masked JPEG from ``Tab.screenshot``; it is skipped while a
  JavaScript dialog blocks the tab, and a thumbnail that fails or takes longer than
  :data:`THUMBNAIL_TIMEOUT` leaves the step without one: it never fails the operation.
* The connection counts its CDP traffic into the recorder's
  :class:`~cdpagent.trace.records.CdpMeter` (``Connection.meter``): a step holds the traffic
  while it ran, the summary the totals per method.
* Lines are written synchronously: one line lands in the operating system's file
  cache (no ``fsync``), which is far cheaper than a thread hop per step.
"""

from __future__ import annotations

import base64
import contextvars
import functools
import inspect
import os
import time
from collections.abc import Callable, Coroutine, Iterator, Sequence
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING, Any, Concatenate, Final, ParamSpec, Protocol, TypeVar

import msgspec
import trio

from ..cdp.documents import Document
from ..cdp.failures import code_of
from ..cdp.logs import ROOT as _LOG
from ..cdp.meter import CdpMeter, CdpTotals, since
from ..primitives.capture import Screenshot
from ..snapshot.observe import ObserveResult
from ..snapshot.receipts import Receipt
from ..version import VERSION
from .records import (
    MAX_TEXT_CHARS,
    MAX_TRACE_BYTES,
    TRACE_VERSION,
    Header,
    ModelTurn,
    Step,
    StepError,
    Thumbnail,
    ToolCallNote,
    TraceWriter,
    clip,
)

if TYPE_CHECKING:
    from ..cdp.connection import Connection

__all__ = [
    "THUMBNAIL_EDGE",
    "THUMBNAIL_TIMEOUT",
    "Recorder",
    "model_turn",
    "recorded",
    "recorded_sync",
    "recording",
]

P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S")

#: The longer edge of a step's thumbnail, in pixels.
THUMBNAIL_EDGE: Final = 320
#: JPEG quality of a thumbnail (a 320 px page is 5-20 KB).
THUMBNAIL_QUALITY: Final = 55
#: A thumbnail that takes longer is left out.
THUMBNAIL_TIMEOUT: Final = 2.0

_Method = Callable[Concatenate[S, P], Coroutine[Any, Any, R]]

#: A step is being recorded in this task (nested operations are part of it).
_INSIDE: Final = contextvars.ContextVar("cdpagent_trace_step", default=False)


class _Browser(Protocol):
    """What :func:`recording` needs of a browser (:class:`cdpagent.Browser`, a layer above)."""

    tracer: Recorder | None

    @property
    def connection(self) -> Connection: ...


class _ToolCall(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def arguments(self) -> str: ...


class _Reply(Protocol):
    @property
    def content(self) -> str | None: ...
    @property
    def tool_calls(self) -> Sequence[_ToolCall]: ...


class Recorder:
    """Writes one browser's trace; obtain it from :func:`recording` (``browser.tracer``).

    ``thumbnails=False`` records no images. Raises what :class:`~cdpagent.trace.records.TraceWriter` raises.
    """

    def __init__(self, file: IO[bytes], *, max_bytes: int = MAX_TRACE_BYTES, thumbnails: bool = True) -> None:
        self.origin = time.perf_counter()
        self.meter = CdpMeter()
        self.thumbnails = thumbnails
        self.writer = TraceWriter(file, Header(TRACE_VERSION, VERSION, time.time(), max_bytes))
        self._index = 0
        #: Why recording stopped early (a write failed), or ``None``.
        self.failed: str | None = None

    def now(self) -> float:
        """Seconds since the trace started."""
        return round(time.perf_counter() - self.origin, 6)

    def next_index(self) -> int:
        """The number of the next step or model turn (in the order they started)."""
        self._index += 1
        return self._index

    def add(self, record: Step | ModelTurn) -> None:
        """Write ``record`` (bounded, see :class:`~cdpagent.trace.records.TraceWriter`).

        A write that fails (a full disk) never fails the operation: recording
        stops, :attr:`failed` says why and a warning is logged once.
        """
        if self.failed is None:
            try:
                self.writer.add(record, self.now())
            except OSError as error:
                self._stop(error)

    def close(self) -> None:
        """Write the summary; nothing is recorded afterwards."""
        if self.failed is None:
            try:
                self.writer.close(self.meter, self.now())
            except OSError as error:
                self._stop(error)

    def _stop(self, error: OSError) -> None:
        self.failed = str(error)
        _LOG.warning("the trace stopped recording: %s", error)


@contextmanager
def recording(
    browser: _Browser, path: str | os.PathLike[str] | None, *, max_bytes: int = MAX_TRACE_BYTES
) -> Iterator[None]:
    """Record ``browser``'s trace into ``path`` (replaced if it exists) while the block runs.

    Does nothing when ``path`` is ``None``. Sets ``browser.tracer`` and the
    connection's meter, and on leaving (also on error) writes the summary and
    closes the file. Raises :class:`OSError` when ``path`` cannot be written and
    :class:`ValueError` for a ``max_bytes`` under 512 KiB.
    """
    if path is None:
        yield
        return
    connection = browser.connection
    with open(path, "wb") as file:
        recorder = Recorder(file, max_bytes=max_bytes)
        browser.tracer = recorder
        connection.meter = recorder.meter
        try:
            yield
        finally:
            connection.meter = None
            browser.tracer = None
            recorder.close()


def _encode_hook(value: Any) -> Any:
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return repr(value)[:200]


def _builtins(value: Any) -> Any:
    return clip(msgspec.to_builtins(value, enc_hook=_encode_hook, str_keys=True))


def _shape(result: Any) -> tuple[Any, dict[str, Any]]:
    """What a step keeps of an operation's ``result``: the value, and the step's extra fields."""
    if isinstance(result, Receipt):
        extra: dict[str, Any] = {"receipt": _builtins(result), "ok": result.ok}
        if result.result.error is not None:
            extra["error"] = StepError(result.result.error.code, result.result.error.message[:2000])
        return None, extra
    if isinstance(result, ObserveResult):
        obs = result.observation
        text = result.text
        if len(text) > MAX_TEXT_CHARS:
            text = f"{text[:MAX_TEXT_CHARS]}…[cut {len(text) - MAX_TEXT_CHARS} chars]"
        counts = {"actions": len(obs.actions), "records": len(obs.records), "tools": len(result.tools)}
        return counts, {"text": text, "title": obs.identity.title[:2000]}
    if isinstance(result, Document):
        return {"url": result.url[:2000]}, {}
    if isinstance(result, Screenshot):
        return {
            "format": result.format, "width": result.width, "height": result.height,
            "bytes": len(result.data), "masked": result.masked, "truncated": result.truncated,
        }, {}  # fmt: skip
    if isinstance(result, (bytes, bytearray)):
        return {"bytes": len(result)}, {}
    if _is_tab(result):  # open
        doc = result.document
        return {"tabId": result.id, "url": doc.url[:2000] if doc else None}, {}
    return _builtins(result), {}


def _error(exc: BaseException) -> StepError:
    known = code_of(exc)
    if known is not None:
        return StepError(known[0], known[1][:2000])
    if isinstance(exc, trio.Cancelled):
        return StepError("CANCELLED", "the operation was cancelled")
    return StepError(type(exc).__name__, str(exc)[:2000])


async def _thumbnail(tab: Any) -> Thumbnail | None:
    if tab is None or tab.closed or tab.crashed or tab.dialog is not None:
        return None
    try:
        with trio.move_on_after(THUMBNAIL_TIMEOUT):
            shot = await tab.screenshot(
                format="jpeg", quality=THUMBNAIL_QUALITY, max_edge=THUMBNAIL_EDGE, timeout=THUMBNAIL_TIMEOUT
            )
            return Thumbnail(shot.format, shot.width, shot.height, base64.b64encode(shot.data).decode())
    except Exception:  # the step is recorded all the same; its image is optional
        return None
    return None


def _tracer(owner: Any) -> Recorder | None:
    tracer: Recorder | None = getattr(owner, "browser", owner).tracer
    return tracer


def _arguments(signature: inspect.Signature, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    try:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
    except TypeError:
        return {}
    given = dict(bound.arguments)
    given.pop("self", None)
    decoded = given.pop("args", None)
    if isinstance(decoded, msgspec.Struct):  # an operation's decoded arguments: kept by their names
        given = {**msgspec.structs.asdict(decoded), **given}
    given.pop("confirm", None)  # a callback, not data
    given.pop("prepare", None)
    return {name: value for name, value in _builtins(given).items() if value is not None}


def _is_tab(value: Any) -> bool:
    # cdpagent.browser is above this module: a tab is known by what it has.
    return hasattr(value, "browser") and hasattr(value, "documents")


def _step_tab(owner: Any, result: Any) -> Any:
    """The tab a step is about: the tab itself, or the one ``Browser.open`` returned."""
    if _is_tab(owner):
        return owner
    return result if _is_tab(result) else None


def recorded(name: str) -> Callable[[_Method[S, P, R]], _Method[S, P, R]]:
    """Decorate an async ``Tab`` or ``Browser`` method that is the operation ``name``: each call is a step.

    The method's behaviour, result and exceptions are unchanged; with no
    recorder (``browser.tracer`` is ``None``) it is called at once.
    """

    def decorate(method: _Method[S, P, R]) -> _Method[S, P, R]:
        signature = inspect.signature(method)

        @functools.wraps(method)
        async def run(owner: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
            tracer = _tracer(owner)
            if tracer is None or _INSIDE.get():
                return await method(owner, *args, **kwargs)
            token = _INSIDE.set(True)
            try:
                index = tracer.next_index()
                given = _arguments(signature, (owner, *args), kwargs)
                started, before = tracer.now(), tracer.meter.totals()
                tab = _step_tab(owner, None)
                try:
                    result = await method(owner, *args, **kwargs)
                except Exception as exc:
                    ended = tracer.now()
                    thumb = await _thumbnail(tab) if tracer.thumbnails else None
                    _write(tracer, index, name, tab, given, started, ended, before, None, exc, thumb)
                    raise
                except BaseException as exc:
                    _write(tracer, index, name, tab, given, started, tracer.now(), before, None, exc, None)
                    raise
                ended = tracer.now()
                tab = _step_tab(owner, result)
                thumb = None
                try:
                    thumb = await _thumbnail(tab) if tracer.thumbnails else None
                finally:
                    _write(tracer, index, name, tab, given, started, ended, before, result, None, thumb)
                return result
            finally:
                _INSIDE.reset(token)

        return run

    return decorate


def recorded_sync(name: str) -> Callable[[Callable[Concatenate[S, P], R]], Callable[Concatenate[S, P], R]]:
    """:func:`recorded` for a synchronous method (``console``, ``network``): a step without a thumbnail."""

    def decorate(method: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R]:
        signature = inspect.signature(method)

        @functools.wraps(method)
        def run(owner: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
            tracer = _tracer(owner)
            if tracer is None or _INSIDE.get():
                return method(owner, *args, **kwargs)
            index = tracer.next_index()
            given = _arguments(signature, (owner, *args), kwargs)
            started, before = tracer.now(), tracer.meter.totals()
            tab = _step_tab(owner, None)
            try:
                result = method(owner, *args, **kwargs)
            except BaseException as exc:
                _write(tracer, index, name, tab, given, started, tracer.now(), before, None, exc, None)
                raise
            _write(tracer, index, name, tab, given, started, tracer.now(), before, result, None, None)
            return result

        return run

    return decorate


def _write(
    tracer: Recorder,
    index: int,
    name: str,
    tab: Any,
    given: dict[str, Any],
    started: float,
    ended: float,
    before: CdpTotals,
    result: Any,
    exc: BaseException | None,
    thumb: Thumbnail | None,
) -> None:
    fields: dict[str, Any] = {"ok": exc is None}
    value = None
    if exc is not None:
        fields["error"] = _error(exc)
    else:
        value, extra = _shape(result)
        fields.update(extra)
    doc = tab.document if tab is not None else None
    tracer.add(
        Step(
            index, name, started, ended, tab=tab.id if tab is not None else None, args=given, result=value,
            url=doc.url[:2000] if doc is not None else None, thumbnail=thumb,
            cdp=since(before, tracer.meter.totals()), **fields,
        )
    )  # fmt: skip


def model_turn(
    tracer: Recorder | None, started: float, request_bytes: int, request_tokens: int, reply: _Reply
) -> None:
    """Record one model request of an agent run (``started``: its :func:`time.perf_counter`).

    Does nothing when ``tracer`` is ``None``. The reply's text and each tool
    call's arguments are bounded like every value of a trace.
    """
    if tracer is None:
        return
    calls = [ToolCallNote(call.name[:200], clip(call.arguments)) for call in reply.tool_calls[:100]]
    content = clip(reply.content) if reply.content else None
    begun = round(started - tracer.origin, 6)
    tracer.add(
        ModelTurn(tracer.next_index(), begun, tracer.now(), request_bytes, request_tokens, calls, content)
    )
