"""The Trio layer over :mod:`cdpagent.cdp.protocol`: one reader task, waiting callers, sessions.

A :class:`Connection` owns a :class:`~cdpagent.cdp.transport.Transport` and a
:class:`~cdpagent.cdp.protocol.ProtocolCore`. Its reader task never waits on a
consumer: replies wake their caller directly, and events go either to
synchronous handlers (registered with :meth:`Session.on`; they run inside the
reader and must not block) or to bounded per-subscriber channels
(:meth:`Session.subscribe`).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import msgspec
import outcome
import trio

from ..errors import CallTimeout, ConnectionClosed, SubscriptionOverflow
from .logs import CDP as _TRAFFIC
from .meter import CdpMeter
from .protocol import CallFailed, Event, ProtocolCore, Reply, SessionEnded
from .transport import Transport

__all__ = ["Command", "Connection", "Session", "Subscription"]

Command = tuple[str, dict[str, Any]]
"""A CDP command as ``(method, params)``."""
T = TypeVar("T")
Handler = Callable[[dict[str, Any]], object]

_decode_any = msgspec.json.Decoder()


class _Call:
    """One pending call: the outcome once known, and the task parked on it.

    The call is its own abort function for :func:`trio.lowlevel.wait_task_rescheduled`
    (a cancelled caller forgets it), so parking allocates no closure.
    """

    __slots__ = ("connection", "deadline", "id", "outcome", "task")

    def __init__(self, connection: Connection, call_id: int, deadline: float) -> None:
        self.connection = connection
        self.id = call_id
        #: A :func:`trio.current_time` value, ``math.inf`` for none.
        self.deadline = deadline
        self.outcome: outcome.Outcome[msgspec.Raw] | None = None
        self.task: trio.lowlevel.Task | None = None

    def __call__(self, _: Any) -> trio.lowlevel.Abort:
        self.connection._forget(self.id)
        return trio.lowlevel.Abort.SUCCEEDED


class Session:
    """Commands and events of one CDP session (a tab), or of the browser itself.

    Obtain sessions from :class:`Connection`; ``session_id`` is ``None`` for the
    browser-level session.
    """

    def __init__(self, connection: Connection, session_id: str | None) -> None:
        self.connection = connection
        self.session_id = session_id
        self._handlers: dict[str, list[Handler]] = {}
        self._subscribers: list[Subscription] = []

    async def send(self, method: str, params: Any = None, *, deadline: float | None = None) -> Any:
        """Run ``method`` with ``params`` and return its decoded result object.

        Raises :class:`~cdpagent.errors.ProtocolError` when the browser refuses,
        :class:`~cdpagent.errors.SessionClosed` / ``TargetCrashed`` when the
        session goes away first, :class:`~cdpagent.errors.ConnectionClosed`
        when the connection does, and :class:`~cdpagent.errors.CallTimeout` when
        ``deadline`` (a :func:`trio.current_time` value) passes first.
        Cancellation, like a deadline, forgets the call: a late reply is dropped.
        """
        raw = await self.connection.call(method, params, self.session_id, deadline)
        return _decode_any.decode(raw)

    async def send_batch(self, commands: Sequence[tuple[str, Any]]) -> list[Any]:
        """Send ``commands`` in order without waiting in between; return their decoded results.

        The browser handles a session's commands in the order they arrive, so a
        batch ending in ``Runtime.runIfWaitingForDebugger`` has set everything up
        before the target runs — even for targets that answer nothing until then.
        Raises what :meth:`send` raises, for the first command that failed.
        """
        raws = await self.connection.call_batch(commands, self.session_id)
        return [_decode_any.decode(raw) for raw in raws]

    async def send_typed(
        self,
        method: str,
        params: Any,
        decoder: msgspec.json.Decoder[T],
        *,
        deadline: float | None = None,
    ) -> T:
        """Like :meth:`send`, decoding the result with a prepared typed ``decoder``."""
        raw = await self.connection.call(method, params, self.session_id, deadline)
        return decoder.decode(raw)

    def on(self, method: str, handler: Handler) -> Callable[[], None]:
        """Call ``handler(params)`` for every ``method`` event; returns an unsubscribe function.

        Handlers run inside the reader task, in arrival order, before any later
        message is processed: they must be quick and must not await. An
        exception from a handler is a bug and ends the connection.
        """
        self._handlers.setdefault(method, []).append(handler)

        def remove() -> None:
            handlers = self._handlers.get(method, [])
            if handler in handlers:
                handlers.remove(handler)

        return remove

    @asynccontextmanager
    async def subscribe(
        self, methods: Iterable[str], buffer: float = 1024
    ) -> AsyncIterator[Subscription]:
        """Receive ``(method, params)`` for the given events while the block runs.

        The reader never waits for a subscriber: when one falls more than
        ``buffer`` events behind, it is dropped and its next receive raises
        :class:`~cdpagent.errors.SubscriptionOverflow` (``buffer`` may be
        ``math.inf`` to buffer without limit).
        """
        subscription = Subscription(frozenset(methods), buffer)
        self._subscribers.append(subscription)
        try:
            yield subscription
        finally:
            if subscription in self._subscribers:
                self._subscribers.remove(subscription)
            subscription._close()

    def _dispatch(self, method: str, raw: msgspec.Raw) -> None:
        handlers = self._handlers.get(method)
        if not handlers and not self._subscribers:
            return
        params: dict[str, Any] = _decode_any.decode(raw)
        if handlers:
            for handler in list(handlers):
                handler(params)
        for subscription in list(self._subscribers):
            if method in subscription.methods and not subscription._offer(method, params):
                self._subscribers.remove(subscription)

    def _close(self) -> None:
        for subscription in self._subscribers:
            subscription._close()
        self._subscribers.clear()


class Subscription:
    """Events of a :meth:`Session.subscribe` block, as ``(method, params)`` pairs.

    Iterate it with ``async for``, or call :meth:`receive`. Iteration ends when
    the session or connection closes.
    """

    def __init__(self, methods: frozenset[str], buffer: float) -> None:
        self.methods = methods
        self._send, self._receive = trio.open_memory_channel[tuple[str, Any]](buffer)
        self.overflowed = False

    async def receive(self) -> tuple[str, Any]:
        """The next event; raises :class:`trio.EndOfChannel` at the end and
        :class:`~cdpagent.errors.SubscriptionOverflow` when this subscriber fell behind."""
        try:
            return await self._receive.receive()
        except trio.EndOfChannel:
            if self.overflowed:
                raise SubscriptionOverflow("the subscriber fell behind and was dropped") from None
            raise

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> tuple[str, Any]:
        try:
            return await self.receive()
        except trio.EndOfChannel:
            raise StopAsyncIteration from None

    def _offer(self, method: str, params: dict[str, Any]) -> bool:
        try:
            self._send.send_nowait((method, params))
        except trio.WouldBlock:
            self.overflowed = True
            self._send.close()
            return False
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return False
        return True

    def _close(self) -> None:
        self._send.close()


class Connection:
    """A CDP connection: run :meth:`run` in a nursery, then use :meth:`session`."""

    def __init__(self, transport: Transport) -> None:
        self.transport = transport
        self.core = ProtocolCore()
        self._calls: dict[int, _Call] = {}
        self._sessions: dict[str | None, Session] = {}
        self.browser_session = self.session(None)
        # No earlier than the earliest deadline of a pending call: a call with a deadline
        # costs one comparison (a heap entry or a cancel scope per call cost far more),
        # and the watcher, woken at this time, finds the expired calls and the next
        # earliest by one walk over the pending calls.
        self._earliest = math.inf
        self._deadline_changed = trio.Event()
        self.closed = trio.Event()
        self.close_reason = ""
        #: Called (synchronously) once the connection is lost.
        self.closed_callbacks: list[Callable[[], None]] = []
        #: Counts the traffic while a trace is recorded (:mod:`cdpagent.trace.recorder`);
        #: None: nothing counted.
        self.meter: CdpMeter | None = None

    def session(self, session_id: str | None) -> Session:
        """The :class:`Session` object for ``session_id`` (created on first use)."""
        found = self._sessions.get(session_id)
        if found is None:
            found = self._sessions[session_id] = Session(self, session_id)
        return found

    @property
    def session_ids(self) -> frozenset[str | None]:
        """The sessions that have a :class:`Session` object now (for tests and stats)."""
        return frozenset(self._sessions)

    def forget_session(self, session_id: str) -> None:
        """Drop the session object of a detached session (its subscribers end).

        Done for every session the browser detaches (and those attached through
        it), once the detach event's handlers ran.
        """
        found = self._sessions.pop(session_id, None)
        if found is not None:
            found._close()

    async def call(
        self, method: str, params: Any, session_id: str | None, deadline: float | None = None
    ) -> msgspec.Raw:
        """Send one command and wait for its raw result; see :meth:`Session.send`."""
        if self.meter is not None or _TRAFFIC.isEnabledFor(logging.INFO):
            return await self._traced_call(method, params, session_id, deadline)
        # The hot path of every command, kept to one coroutine: _register and _wait inline.
        call_id, data = self.core.command(method, params, session_id)
        if deadline is None:
            call = self._calls[call_id] = _Call(self, call_id, math.inf)
        else:
            call = self._calls[call_id] = _Call(self, call_id, deadline)
            if deadline < self._earliest:
                self._earliest = deadline
                self._deadline_changed.set()
        try:
            await self.transport.send(data)
        except BaseException as exc:
            self._forget(call_id)
            self._lost_on_send(exc)
            raise
        if call.outcome is not None:
            return call.outcome.unwrap()
        call.task = trio.lowlevel.current_task()
        raw: msgspec.Raw = await trio.lowlevel.wait_task_rescheduled(call)
        return raw

    async def _traced_call(
        self, method: str, params: Any, session_id: str | None, deadline: float | None
    ) -> msgspec.Raw:
        """:meth:`call`, logged (method, session, sizes, latency, outcome) and counted by the meter."""
        call, data = self._register(method, params, session_id, deadline)
        started = time.perf_counter()
        where = session_id[:8] if session_id else "browser"
        try:
            await self.transport.send(data)
        except BaseException as exc:
            self._forget(call.id)
            self._lost_on_send(exc)
            raise
        try:
            raw = await self._wait(call)
        except BaseException as exc:
            elapsed = (time.perf_counter() - started) * 1000
            if self.meter is not None:
                self.meter.call(method, len(data), 0, elapsed, True)
            failed = type(exc).__name__
            _TRAFFIC.info("%s [%s] %d B → %s after %.1f ms", method, where, len(data), failed, elapsed)
            raise
        elapsed = (time.perf_counter() - started) * 1000
        if self.meter is not None:
            self.meter.call(method, len(data), len(raw), elapsed, False)
        _TRAFFIC.info("%s [%s] %d B → %d B in %.1f ms", method, where, len(data), len(raw), elapsed)
        return raw

    async def call_batch(
        self, commands: Sequence[tuple[str, Any]], session_id: str | None
    ) -> list[msgspec.Raw]:
        """Send every command, then wait for all replies; see :meth:`Session.send_batch`."""
        calls: list[_Call] = []
        sent: list[int] = []
        started = time.perf_counter()
        try:
            for method, params in commands:
                call, data = self._register(method, params, session_id)
                calls.append(call)
                sent.append(len(data))
                try:
                    await self.transport.send(data)
                except BaseException as exc:
                    self._lost_on_send(exc)
                    raise
            raws = [await self._wait(call) for call in calls]
            if self.meter is not None:
                # One latency for the batch: its replies are read together.
                elapsed = (time.perf_counter() - started) * 1000
                for (method, _), size, raw in zip(commands, sent, raws, strict=True):
                    self.meter.call(method, size, len(raw), elapsed, False)
            return raws
        finally:
            for call in calls:
                self._forget(call.id)

    def _register(
        self, method: str, params: Any, session_id: str | None, deadline: float | None = None
    ) -> tuple[_Call, bytes]:
        call_id, data = self.core.command(method, params, session_id)
        call = self._calls[call_id] = _Call(self, call_id, math.inf if deadline is None else deadline)
        if deadline is not None and deadline < self._earliest:
            self._earliest = deadline
            self._deadline_changed.set()
        return call, data

    async def _wait(self, call: _Call) -> msgspec.Raw:
        """The outcome of a sent call: at once if its reply came already, else park until it does."""
        if call.outcome is not None:
            return call.outcome.unwrap()
        call.task = trio.lowlevel.current_task()
        raw: msgspec.Raw = await trio.lowlevel.wait_task_rescheduled(call)
        return raw

    def _lost_on_send(self, exc: BaseException) -> None:
        """A transport that cannot send is gone whichever way found it first: the connection is
        lost *before* the caller sees the error, so nobody still counts a browser whose call
        already failed for it (the reader would learn it only at its next read)."""
        if isinstance(exc, ConnectionClosed):
            self.lost(str(exc))

    def _forget(self, call_id: int) -> None:
        self._calls.pop(call_id, None)
        self.core.cancel(call_id)

    async def _expire_deadlines(self) -> None:
        """Fail every call whose deadline passed with :class:`CallTimeout`.

        Sleeps until ``_earliest``; a finished call leaves it early, which costs one walk
        that finds nothing expired (once per deadline's length at most, for calls that
        all finish in time).
        """
        while True:
            self._deadline_changed = trio.Event()
            with trio.move_on_at(self._earliest):
                await self._deadline_changed.wait()
                continue
            now = trio.current_time()
            expired: list[int] = []
            earliest = math.inf
            for call in self._calls.values():
                if call.deadline <= now:
                    expired.append(call.id)
                elif call.deadline < earliest:
                    earliest = call.deadline
            self._earliest = earliest
            for call_id in expired:
                self.core.cancel(call_id)
                self._resolve(call_id, outcome.Error(CallTimeout("no answer before the deadline")))

    async def run(self) -> None:
        """Read messages until the connection closes, then fail every pending call.

        Also expires calls whose deadline passed.
        """
        reason = "the connection to the browser closed"
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._expire_deadlines)
            try:
                while True:
                    message = await self.transport.receive()
                    self.feed(message)
            except ConnectionClosed as exc:
                reason = str(exc)
            except msgspec.DecodeError as exc:
                reason = f"the browser sent a message that is not CDP: {exc}"
            finally:
                self.lost(reason)
                nursery.cancel_scope.cancel()

    def feed(self, message: bytes | bytearray) -> None:
        """Process one message from the browser (the reader calls this)."""
        for ev in self.core.receive(message):
            if type(ev) is Reply:
                self._resolve(ev.id, outcome.Value(ev.result))
            elif type(ev) is CallFailed:
                self._resolve(ev.id, outcome.Error(ev.error))
            elif type(ev) is SessionEnded:
                # After the detach event's handlers ran: nothing is kept for a session
                # that is gone (its handlers, and the tab or frame they hold).
                self.forget_session(ev.session_id)
            else:
                assert isinstance(ev, Event)
                if self.meter is not None:
                    self.meter.event(ev.method, len(ev.params))
                if _TRAFFIC.isEnabledFor(logging.DEBUG):
                    where = ev.session_id[:8] if ev.session_id else "browser"
                    _TRAFFIC.debug("event %s [%s] %d B", ev.method, where, len(ev.params))
                session = self._sessions.get(ev.session_id)
                if session is not None:
                    session._dispatch(ev.method, ev.params)

    def lost(self, reason: str) -> None:
        """Mark the connection lost: pending calls fail, sessions end, ``closed`` is set."""
        if self.closed.is_set():
            return
        self.close_reason = reason
        for failed in self.core.connection_lost(reason):
            self._resolve(failed.id, outcome.Error(failed.error))
        for session in self._sessions.values():
            session._close()
        self.closed.set()
        for callback in self.closed_callbacks:
            callback()

    def _resolve(self, call_id: int, result: outcome.Outcome[msgspec.Raw]) -> None:
        call = self._calls.pop(call_id, None)
        if call is None:
            return
        call.outcome = result
        if call.task is not None:
            trio.lowlevel.reschedule(call.task, result)

