"""Browsers from a Selenium Grid 4 hub: :func:`connect_grid` (SC-1).

``async with connect_grid("http://hub:4444") as browser`` asks the hub for a
WebDriver session, attaches to the session's ``se:cdp`` endpoint (a
browser-level CDP websocket the hub proxies to the node) with :func:`connect`,
and yields an ordinary :class:`~cdpagent.Browser`.

Theory of operation:

1. ``GET /status`` first: it tells a grid from anything else, whether any node
   offers the capabilities at all, whether one of those slots is free, and the
   nodes' idle timeout. Asking for a session no node can ever take would sit in
   the grid's queue until it times out, so that is refused at once.
2. ``POST /session``; the answer's ``se:cdp`` is the CDP endpoint.
3. While the block runs, a keep-alive sends ``Browser.getVersion`` every third
   of the nodes' idle timeout: the grid counts only traffic coming back from the
   browser, so a connection that merely waits would lose its session. A ping
   without an answer in time means the node is gone; the connection is then
   marked lost, so every pending and later call fails at once instead of hanging.
4. Leaving the block (normally, on error, on cancellation) deletes the session,
   bounded in time. When the hub is gone by then, a block that ended normally
   raises :class:`~cdpagent.errors.GridUnreachable`; one that ended with an
   error keeps its own error.
"""

from __future__ import annotations

import math
import os
import weakref
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, Final

import trio

from ..browser.launch import connect
from ..browser.tabs import Browser
from ..cdp.target import Extension
from ..errors import (
    CallTimeout,
    ConnectionClosed,
    GridCapabilitiesRefused,
    GridError,
    GridNoFreeSlot,
    GridUnreachable,
)
from .webdriver import (
    GridSession,
    HubStatus,
    exchange,
    new_session_body,
    read_deleted,
    read_new_session,
    read_status,
)

__all__ = ["DEFAULT_CAPABILITIES", "Hub", "connect_grid", "session_of"]

#: What :func:`connect_grid` asks for unless told otherwise; the node's stereotype adds the rest.
DEFAULT_CAPABILITIES: Final[Mapping[str, Any]] = {"browserName": "chrome"}

# Keep-alive period when the hub does not tell the nodes' idle timeout.
_DEFAULT_KEEPALIVE: Final = 10.0
# A ping gets at least this long to come back before the node counts as gone:
# a loaded machine can hold a reply up for seconds, a dead node never sends one.
_MIN_PING_WAIT: Final = 10.0
# Bound on deleting a session when leaving the block.
_DELETE_TIMEOUT: Final = 10.0

_SESSIONS: weakref.WeakKeyDictionary[Browser, GridSession] = weakref.WeakKeyDictionary()


def session_of(browser: Browser) -> GridSession | None:
    """The grid session ``browser`` runs in (id, ``se:cdp`` url, capabilities), or ``None``."""
    return _SESSIONS.get(browser)


class Hub:
    """The WebDriver endpoints of one Selenium Grid hub at ``url`` (``http://host:port``)."""

    def __init__(self, url: str, *, timeout: float = 10.0) -> None:
        self.url = url.rstrip("/")
        self.timeout = timeout

    async def status(self) -> HubStatus:
        """The hub's ``/status``.

        Raises :class:`~cdpagent.errors.GridUnreachable` or
        :class:`~cdpagent.errors.GridNotAHub`.
        """
        answer = await exchange(self.url, "GET", "/status", None, timeout=self.timeout)
        return read_status(self.url, answer)

    async def new_session(self, capabilities: Mapping[str, Any], *, timeout: float) -> GridSession:
        """Create a session for ``capabilities``, waiting up to ``timeout`` s for the grid to start it.

        Raises what :func:`~cdpagent.remote.webdriver.read_new_session` raises, and
        :class:`~cdpagent.errors.GridNoFreeSlot` when the grid gives no answer
        in time (the request waited in its queue).
        """
        body = new_session_body(capabilities)
        with trio.move_on_after(timeout):
            answer = await exchange(self.url, "POST", "/session", body, timeout=math.inf)
            return read_new_session(self.url, answer)
        raise GridNoFreeSlot(self.url, f"the grid started no session within {timeout} s")

    async def delete_session(self, session_id: str) -> None:
        """``DELETE /session/<id>``; a session the grid no longer knows counts as deleted.

        Raises :class:`~cdpagent.errors.GridError` (or a subclass) when the hub
        cannot be reached or refuses.
        """
        answer = await exchange(self.url, "DELETE", f"/session/{session_id}", None, timeout=self.timeout)
        read_deleted(self.url, session_id, answer)


@asynccontextmanager
async def connect_grid(
    hub_url: str,
    *,
    capabilities: Mapping[str, Any] | None = None,
    allow_origins: Sequence[str] = (),
    extensions: Sequence[Extension] | None = None,
    keepalive: float | None = None,
    wait_for_slot: float = 0.0,
    trace: str | os.PathLike[str] | None = None,
    timeout: float = 60.0,
) -> AsyncIterator[Browser]:
    """A :class:`~cdpagent.Browser` from a new session of the Selenium Grid 4 hub at ``hub_url``.

    ``capabilities`` default to :data:`DEFAULT_CAPABILITIES`. ``keepalive`` is
    the ping period in seconds (default: a third of the nodes' idle timeout
    from ``/status``). With ``wait_for_slot`` = 0 a grid whose matching slots
    are all busy, or that has no node offering the capabilities, is refused at
    once; otherwise the request may wait that many seconds in the grid's queue
    (a request given up while queued may still start a session later, which the
    grid's idle timeout ends). ``timeout`` bounds starting the session and
    attaching to it. ``allow_origins``, ``extensions`` and ``trace`` are as for
    :func:`~cdpagent.launch`; pages load in the node's browser, so a ``file:``
    path must exist on the node.

    Raises :class:`~cdpagent.errors.GridUnreachable` (hub down),
    :class:`~cdpagent.errors.GridNotAHub` (something else answered, e.g. HTML),
    :class:`~cdpagent.errors.GridNoFreeSlot`,
    :class:`~cdpagent.errors.GridCapabilitiesRefused`, and what
    :func:`~cdpagent.connect` raises. Leaving the block deletes the session;
    see the module documentation for when the hub is gone by then.
    """
    hub = Hub(hub_url)
    wanted = dict(DEFAULT_CAPABILITIES if capabilities is None else capabilities)
    status = await hub.status()
    # A caller willing to wait may be waiting for nodes a scaling grid has yet to add.
    if wait_for_slot <= 0 and not status.offering(wanted):
        raise GridCapabilitiesRefused(hub.url, f"no node of this grid offers {_describe(wanted)}")
    if wait_for_slot <= 0 and not status.free_slots(wanted):
        raise GridNoFreeSlot(hub.url, f"every slot offering {_describe(wanted)} is busy")
    period = keepalive if keepalive is not None else _keepalive_for(status)
    session = await hub.new_session(wanted, timeout=timeout + max(wait_for_slot, 0.0))
    try:
        async with connect(
            session.cdp_url, allow_origins=allow_origins, extensions=extensions, trace=trace, timeout=timeout
        ) as browser, trio.open_nursery() as nursery:
            _SESSIONS[browser] = session
            nursery.start_soon(_keep_alive, browser, session.session_id, period)
            try:
                yield browser
            finally:
                nursery.cancel_scope.cancel()
    except BaseException:
        with trio.CancelScope(shield=True), trio.move_on_after(_DELETE_TIMEOUT):
            try:
                await hub.delete_session(session.session_id)
            except GridError:
                pass  # the block's own error says more; the grid's idle timeout ends the session
        raise
    with trio.CancelScope(shield=True), trio.move_on_after(_DELETE_TIMEOUT):
        try:
            await hub.delete_session(session.session_id)
        except GridUnreachable as exc:
            raise GridUnreachable(
                hub.url,
                f"could not delete session {session.session_id}; the hub is gone ({exc.message})",
            ) from None
        return
    raise GridUnreachable(hub.url, f"deleting session {session.session_id} took over {_DELETE_TIMEOUT} s")


def _keepalive_for(status: HubStatus) -> float:
    if status.session_timeout is None:
        return _DEFAULT_KEEPALIVE
    return max(0.5, status.session_timeout / 3)


def _describe(capabilities: Mapping[str, Any]) -> str:
    named = {k: v for k, v in capabilities.items() if k in ("browserName", "browserVersion", "platformName")}
    return ", ".join(f"{k}={v}" for k, v in named.items()) or "these capabilities"


async def _keep_alive(browser: Browser, session_id: str, period: float) -> None:
    """Ping the browser every ``period`` s; mark the connection lost when a ping goes unanswered."""
    wait = max(period, _MIN_PING_WAIT)
    session = browser.connection.browser_session
    while True:
        await trio.sleep(period)
        try:
            await session.send("Browser.getVersion", deadline=trio.current_time() + wait)
        except CallTimeout:
            browser.connection.lost(
                f"grid session {session_id} gave no answer for {wait:g} s; its node or hub is gone"
            )
            return
        except ConnectionClosed:
            return
