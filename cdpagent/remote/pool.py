"""A pool of browsers that tabs and threads are spread over (SC-2).

``async with Pool(["launch", "grid+http://hub:4444", "ws://host:9222/…"]) as pool``
keeps one browser per source running and hands out *leases*: a tab
(``async with pool.tab(page) as tab``) or a thread (``async with pool.thread()
as thread``). Each browser takes at most ``per_browser`` leases at a time.

Theory of operation:

* A source is anything that opens a browser as an async context manager
  (``lambda: cdpagent.launch()``, ``lambda: cdpagent.connect_grid(url)``), or a
  string naming one (:func:`source`). Every source has one *member* task in the
  pool's nursery that opens it, publishes the browser, and waits for its
  connection to close.
* A lease goes to the live browser with the fewest leases; ties go to the one
  that was handed work least recently, so work spreads over every browser. When
  every browser is full, a lease waits until one is released.
* A browser whose connection closes (crash, killed node, expired grid session,
  hub gone) is withdrawn at once, so new work goes elsewhere; the tabs leased on
  it fail with the stable codes (``PAGE_API_CALL_FAILED`` for a lost
  connection). Its member closes it (deleting a grid session, reaping a
  process) and opens the source again, retrying with a growing delay while that
  fails. Its old leases no longer count once it is replaced.
* Leaving the pool's block cancels every member: each browser is closed the way
  its source closes it (local browsers are stopped, grid sessions deleted,
  attached browsers detached).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from types import TracebackType
from typing import Final

import trio

from ..browser.launch import connect, launch
from ..browser.tabs import Browser, Tab
from ..cdp.concurrency import collapse
from ..errors import CDPAgentError
from ..runtime.threads import Thread
from .grid import connect_grid

__all__ = ["GRID_SCHEME", "BrowserSource", "Pool", "source"]

BrowserSource = Callable[[], AbstractAsyncContextManager[Browser]]
"""Opens one browser; leaving its block closes or detaches it."""

#: Prefix of a source string naming a Selenium Grid hub: ``grid+http://hub:4444``.
GRID_SCHEME: Final = "grid+"

# Bounds of the delay between attempts to reopen a source that keeps failing.
_FIRST_RETRY: Final = 1.0
_LAST_RETRY: Final = 30.0
# Bound on closing one tab when its lease ends.
_CLOSE_TIMEOUT: Final = 10.0


def source(spec: str, *, allow_origins: Sequence[str] = ()) -> BrowserSource:
    """The browser source a string names.

    ``"launch"`` starts a local headless browser (:func:`~cdpagent.launch`);
    ``ws://…`` and ``http://host:port`` attach to a running one
    (:func:`~cdpagent.connect`); ``grid+http://hub:4444`` takes a session from a
    Selenium Grid hub (:func:`~cdpagent.connect_grid`). ``allow_origins`` is
    passed to each. Raises :class:`ValueError` for any other string.
    """
    origins = tuple(allow_origins)
    if spec == "launch":
        return lambda: launch(allow_origins=origins)
    if spec.startswith(GRID_SCHEME + "http://"):
        hub = spec[len(GRID_SCHEME) :]
        return lambda: connect_grid(hub, allow_origins=origins)
    if spec.startswith(("ws://", "wss://", "http://")):
        return lambda: connect(spec, allow_origins=origins)
    raise ValueError(f"a browser source is 'launch', ws://…, http://host:port or grid+http://…, not {spec!r}")


class _Member:
    """One source and the browser currently open from it."""

    def __init__(self, index: int, opener: BrowserSource) -> None:
        self.index = index
        self.opener = opener
        self.browser: Browser | None = None
        self.leases = 0
        self.last_handed = 0
        self.error: BaseException | None = None
        self.tried = trio.Event()

    def live(self) -> Browser | None:
        browser = self.browser
        if browser is None or browser.connection.closed.is_set():
            return None
        return browser


class Pool:
    """Browsers from ``sources`` (see :func:`source`), each leased to at most ``per_browser`` users.

    Use it as ``async with Pool(sources) as pool``. Entering waits until every
    source was tried once and raises the first source's error when none of them
    opened. ``allow_origins`` applies to string sources.
    """

    def __init__(
        self,
        sources: Sequence[BrowserSource | str],
        *,
        per_browser: int = 4,
        allow_origins: Sequence[str] = (),
    ) -> None:
        if not sources:
            raise ValueError("a pool needs at least one browser source")
        if per_browser < 1:
            raise ValueError("per_browser must be at least 1")
        self.per_browser = per_browser
        self._members = [
            _Member(i, source(s, allow_origins=allow_origins) if isinstance(s, str) else s)
            for i, s in enumerate(sources)
        ]
        #: How many times a browser was opened again after its predecessor went away.
        self.replacements = 0
        self._handed = 0
        self._changed = trio.Event()
        self._running: AbstractAsyncContextManager[Pool] | None = None

    @property
    def browsers(self) -> list[Browser]:
        """The browsers that are connected now, in source order."""
        return [b for m in self._members if (b := m.live()) is not None]

    def leases(self, browser: object) -> int:
        """How many leases ``browser`` holds now (0 for a browser not in the pool)."""
        return next((m.leases for m in self._members if m.browser is browser), 0)

    async def wait_until(self, predicate: Callable[[], bool], timeout: float = 30.0) -> None:
        """Return once ``predicate()`` holds; re-checked whenever a browser comes, goes or a lease ends.

        Raises :class:`trio.TooSlowError` after ``timeout`` seconds.
        """
        with trio.fail_after(timeout):
            while not predicate():
                await self._changed.wait()

    async def __aenter__(self) -> Pool:
        self._running = self._run()
        return await self._running.__aenter__()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        assert self._running is not None, "the pool was not entered"
        return await self._running.__aexit__(exc_type, exc, tb)

    @asynccontextmanager
    async def _run(self) -> AsyncIterator[Pool]:
        with collapse():
            async with trio.open_nursery() as nursery:
                for member in self._members:
                    nursery.start_soon(self._keep, member)
                for member in self._members:
                    await member.tried.wait()
                if not self.browsers:
                    nursery.cancel_scope.cancel()
                    error = next(m.error for m in self._members if m.error is not None)
                    raise error
                try:
                    yield self
                finally:
                    nursery.cancel_scope.cancel()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    async def _keep(self, member: _Member) -> None:
        """Keep one browser open from ``member``'s source, reopening it whenever it goes away."""
        delay = _FIRST_RETRY
        opened_before = False
        while True:
            try:
                async with member.opener() as browser:
                    if opened_before:
                        self.replacements += 1
                    opened_before = True
                    member.browser, member.leases, member.error = browser, 0, None
                    member.tried.set()
                    self._notify()
                    delay = _FIRST_RETRY
                    await browser.connection.closed.wait()
                    # Withdraw it before closing, which may take a while (a grid
                    # session delete), so new work goes elsewhere meanwhile.
                    member.browser = None
                    self._notify()
            except (CDPAgentError, OSError) as exc:
                member.error = exc
            member.browser = None
            member.tried.set()
            self._notify()
            await trio.sleep(delay)
            delay = min(delay * 2, _LAST_RETRY)

    async def _acquire(self, timeout: float) -> tuple[_Member, Browser]:
        with trio.fail_after(timeout):
            while True:
                open_ = [(m, b) for m in self._members if (b := m.live()) is not None]
                room = [(m, b) for m, b in open_ if m.leases < self.per_browser]
                if room:
                    member, browser = min(room, key=lambda mb: (mb[0].leases, mb[0].last_handed))
                    member.leases += 1
                    self._handed += 1
                    member.last_handed = self._handed
                    return member, browser
                await self._changed.wait()

    def _release(self, member: _Member, browser: Browser) -> None:
        if member.browser is browser:
            member.leases -= 1
            self._notify()

    @asynccontextmanager
    async def tab(
        self, url_or_path: str | os.PathLike[str] = "about:blank", *, timeout: float = 30.0
    ) -> AsyncIterator[Tab]:
        """Lease a new tab showing ``url_or_path`` on the least busy browser; it is closed afterwards.

        Waits for a browser with room; raises :class:`trio.TooSlowError` when
        none has room within ``timeout`` seconds, and what
        :meth:`~cdpagent.Browser.open` raises.
        """
        member, browser = await self._acquire(timeout)
        try:
            tab = await browser.open(url_or_path, timeout=timeout)
            try:
                yield tab
            finally:
                with trio.CancelScope(shield=True):
                    await _close_quietly(browser, [tab])
        finally:
            self._release(member, browser)

    @asynccontextmanager
    async def thread(self, *, timeout: float = 30.0) -> AsyncIterator[Thread[Tab]]:
        """Lease a :class:`~cdpagent.Thread` on the least busy browser; it and its tabs close afterwards.

        Raises :class:`trio.TooSlowError` when no browser has room within
        ``timeout`` seconds, and :class:`LookupError` when the browser has no
        Page Agent API extension.
        """
        member, browser = await self._acquire(timeout)
        try:
            thread = Thread(browser)
            try:
                yield thread
            finally:
                thread.close()
                with trio.CancelScope(shield=True):
                    await _close_quietly(browser, thread.tabs)
        finally:
            self._release(member, browser)


async def _close_quietly(browser: Browser, tabs: Sequence[Tab]) -> None:
    """Close ``tabs``; a browser that is gone has closed them already."""
    for tab in tabs:
        if browser.connection.closed.is_set():
            return
        with trio.move_on_after(_CLOSE_TIMEOUT), suppress(CDPAgentError):
            await tab.close()
