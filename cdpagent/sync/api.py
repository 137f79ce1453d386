"""The blocking API: :class:`Browser` and :class:`Tab` whose methods return their results.

Each method is the async API's method of the same name run on the browser's own Trio
loop (:class:`~cdpagent.sync.portal.Portal`): same arguments, same results, same
exceptions, same docstring. Tabs come back as this module's :class:`Tab`, one object per
tab.
"""

from __future__ import annotations

import functools
import os
import weakref
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractAsyncContextManager, AbstractContextManager, contextmanager
from typing import Any, Concatenate, ParamSpec, TypeVar

from ..browser import tabs as _tabs
from ..browser.launch import connect as _async_connect
from ..browser.launch import launch as _async_launch
from ..primitives.downloads import Download
from ..primitives.storage import StorageState
from .portal import Portal

__all__ = ["Browser", "Tab", "connect", "launch"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _blocking(
    method: Callable[Concatenate[_tabs.Tab, _P], Awaitable[_R]],
) -> Callable[Concatenate[Tab, _P], _R]:
    """``method`` of the async :class:`cdpagent.Tab`, as a blocking method of :class:`Tab`."""

    @functools.wraps(method)
    def run(self: Tab, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        return self._portal.call(method, self._tab, *args, **kwargs)

    return run


def _reading(method: Callable[Concatenate[_tabs.Tab, _P], _R]) -> Callable[Concatenate[Tab, _P], _R]:
    """A plain method of the async :class:`cdpagent.Tab`, read on the loop's thread."""

    @functools.wraps(method)
    def run(self: Tab, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        return self._portal.call_sync(functools.partial(method, self._tab, *args, **kwargs))

    return run


class Tab:
    """One page, blocking: :class:`cdpagent.Tab`'s operations. Obtain it from :meth:`Browser.open`."""

    def __init__(self, tab: _tabs.Tab, portal: Portal) -> None:
        self._tab = tab
        self._portal = portal

    @property
    def id(self) -> str:
        """The tab's short id (``"tab1"``), stable for the life of the tab."""
        return self._tab.id

    @property
    def url(self) -> str:
        """The URL of the tab's document now (``""`` before the first one)."""
        return self._portal.call_sync(lambda: self._tab.document.url if self._tab.document else "")

    @property
    def aio(self) -> _tabs.Tab:
        """The async tab underneath (its methods must run on the browser's loop)."""
        return self._tab

    def __repr__(self) -> str:
        return f"<sync Tab {self.id}>"

    invoke = _blocking(_tabs.Tab.invoke)
    observe = _blocking(_tabs.Tab.observe)
    view = _blocking(_tabs.Tab.view)
    act = _blocking(_tabs.Tab.act)
    click_at = _blocking(_tabs.Tab.click_at)
    type_at = _blocking(_tabs.Tab.type_at)
    navigate = _blocking(_tabs.Tab.navigate)
    reload = _blocking(_tabs.Tab.reload)
    back = _blocking(_tabs.Tab.back)
    forward = _blocking(_tabs.Tab.forward)
    screenshot = _blocking(_tabs.Tab.screenshot)
    pdf = _blocking(_tabs.Tab.pdf)
    wait_for = _blocking(_tabs.Tab.wait_for)
    close = _blocking(_tabs.Tab.close)
    console = _reading(_tabs.Tab.console)
    network = _reading(_tabs.Tab.network)


class Browser:
    """A connected browser, blocking: :class:`cdpagent.Browser`. Create it with :func:`launch`
    or :func:`connect`."""

    def __init__(self, browser: _tabs.Browser, portal: Portal) -> None:
        self._browser = browser
        self._portal = portal
        self._wrapped: weakref.WeakKeyDictionary[_tabs.Tab, Tab] = weakref.WeakKeyDictionary()

    def _own(self, tab: _tabs.Tab) -> Tab:
        found = self._wrapped.get(tab)
        if found is None:
            found = self._wrapped[tab] = Tab(tab, self._portal)
        return found

    @property
    def aio(self) -> _tabs.Browser:
        """The async browser underneath (its methods must run on the browser's loop)."""
        return self._browser

    def open(self, url_or_path: str | os.PathLike[str] = "about:blank", *, timeout: float = 30.0) -> Tab:
        """Open a new tab, navigate it and wait for ``load``; see :meth:`cdpagent.Browser.open`.

        Raises :class:`cdpagent.NavigationError` when the page cannot be loaded.
        """
        return self._own(self._portal.call(self._browser.open, url_or_path, timeout=timeout))

    @property
    def tabs(self) -> list[Tab]:
        """Open tabs that are set up, in the order they were attached."""
        return [self._own(t) for t in self._portal.call_sync(lambda: self._browser.tabs)]

    def tab(self, tab_id: str) -> Tab | None:
        """The open tab with id ``tab_id``, or ``None``."""
        found = self._portal.call_sync(self._browser.tab, tab_id)
        return None if found is None else self._own(found)

    def send(self, method: str, params: Any = None) -> Any:
        """Send a browser-level command (for example ``Browser.getVersion``)."""
        return self._portal.call(self._browser.send, method, params)

    def downloaded(self, limit: int = 50) -> list[Download]:
        """The last ``limit`` downloads of this browser's pages, oldest first; see
        :meth:`cdpagent.Browser.downloaded`."""
        return self._portal.call_sync(self._browser.downloaded, limit)

    def storage_state(self, path: str | os.PathLike[str] | None = None) -> StorageState:
        """The cookies and local storage of the open tabs' origins; see
        :meth:`cdpagent.Browser.storage_state`."""
        return self._portal.call(self._browser.storage_state, path)


def _blocking_block(
    opener: Callable[_P, AbstractAsyncContextManager[_tabs.Browser]],
) -> Callable[_P, AbstractContextManager[Browser]]:
    """``opener`` (:func:`cdpagent.launch`, :func:`cdpagent.connect`) as a blocking ``with``
    block, on a Trio loop of its own that ends with the block."""

    @contextmanager
    def block(*args: _P.args, **kwargs: _P.kwargs) -> Iterator[Browser]:
        portal = Portal()
        try:
            browser, leave = portal.enter(opener(*args, **kwargs))
            try:
                yield Browser(browser, portal)
            finally:
                leave()
        finally:
            portal.close()

    functools.update_wrapper(block, opener)
    return block


#: :func:`cdpagent.launch`, blocking: ``with cdpagent.sync.launch() as browser: ...``.
launch = _blocking_block(_async_launch)
#: :func:`cdpagent.connect`, blocking: ``with cdpagent.sync.connect(url) as browser: ...``.
connect = _blocking_block(_async_connect)
