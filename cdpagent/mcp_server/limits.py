"""Which tabs the surface opens and keeps (SPEC SF-3).

:class:`TabGuard` applies the URL policy (:mod:`cdpagent.primitives.urlpolicy`) to what ``open_page``
asks for, to where the tab ended after redirects, and to the tab before every
observe, act or page method call; and it keeps the tabs of each session:

* a session owns the tabs it opened with ``open_page``; one session may hold at
  most ``max_tabs`` open tabs (``--max-tabs``, default :data:`DEFAULT_MAX_TABS`):
  one more is ``TAB_LIMIT``, and nothing is opened;
* when a session ends its tabs are closed: over HTTP when the client ends it
  (``DELETE`` with its ``Mcp-Session-Id``, seen by :class:`.http.SessionEnds`) or when
  it has been idle longer than the SDK's session idle timeout (the SDK drops the
  session then; its tabs go at the next ``open_page``); over stdio the one
  session ends with the process, which closes the browser;
* a client of the stateless protocol era (2026-07-28) has no session: its
  requests carry no ``Mcp-Session-Id``, so all such tabs are one pool, owned by
  :data:`LOCAL` and capped the same way, closed with the server.

:class:`SessionTabs` is the bookkeeping, without IO.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import trio

from ..errors import CDPAgentError, TabRefused
from . import codes
from .defaults import DEFAULT_MAX_TABS

if TYPE_CHECKING:  # the browser is imported when a tab is opened (`cdpagent --help` needs none)
    from ..browser.tabs import Tab
    from ..primitives.urlpolicy import UrlPolicy
    from ..runtime.threads import Thread

__all__ = [
    "DEFAULT_MAX_TABS",
    "LOCAL",
    "SessionTabs",
    "TabGuard",
    "session_of",
]

#: The owner of tabs opened over stdio, in process or by stateless clients (one pool for the server's life).
LOCAL: Final = "local"


def session_of(context: Any) -> str:
    """The MCP session a tool call belongs to: its ``Mcp-Session-Id`` over HTTP, else :data:`LOCAL`."""
    request = getattr(getattr(context, "request_context", None), "request", None)
    headers = getattr(request, "headers", None)
    value = headers.get("mcp-session-id") if headers is not None else None
    return str(value)[:200] if value else LOCAL


class SessionTabs:
    """Which session owns which tab, which is its current tab, and when it was last heard from."""

    def __init__(self, max_tabs: int = DEFAULT_MAX_TABS, idle_timeout: float | None = None):
        # The SDK's own idle timeout by default (imported here: the MCP SDK is slow to import,
        # and `cdpagent --help` builds this package's parser).
        from mcp.server.streamable_http_manager import DEFAULT_SESSION_IDLE_TIMEOUT

        self.max_tabs = max_tabs
        self.idle_timeout = DEFAULT_SESSION_IDLE_TIMEOUT if idle_timeout is None else idle_timeout
        self._tabs: dict[str, set[str]] = {}
        self._seen: dict[str, float] = {}
        self._current: dict[str, str] = {}
        self._latest: str | None = None

    def refusal(self, owner: str, open_tabs: set[str]) -> str | None:
        """Why ``owner`` may not open one more tab now (``open_tabs``: the tabs still open), or ``None``."""
        mine = self._tabs.get(owner, set()) & open_tabs
        self._tabs[owner] = mine
        if len(mine) >= self.max_tabs:
            return (
                f"this session already has {len(mine)} open tabs, the most it may hold "
                f"(--max-tabs {self.max_tabs}); close_page one first"
            )
        return None

    def opened(self, owner: str, tab_id: str, now: float) -> None:
        """Record that ``owner`` opened ``tab_id`` at ``now``; it becomes ``owner``'s current tab."""
        self._tabs.setdefault(owner, set()).add(tab_id)
        self._seen[owner] = now
        self.select(owner, tab_id)

    def select(self, owner: str, tab_id: str) -> None:
        """Make ``tab_id`` ``owner``'s current tab (``select_page``)."""
        self._current[owner] = self._latest = tab_id

    def current(self, owner: str) -> str | None:
        """The tab ``owner`` opened or selected last (it may have closed since), or ``None``.

        A session that has opened or selected none has the server's latest: a client that
        opens a session per call (the MCP Inspector's command line) still finds its page.
        """
        return self._current.get(owner, self._latest)

    def seen(self, owner: str, now: float) -> None:
        """Record that ``owner`` made a call at ``now``."""
        self._seen[owner] = now

    def ended(self, owner: str) -> set[str]:
        """Forget ``owner``; returns the tabs it owned (to close)."""
        self._seen.pop(owner, None)
        self._current.pop(owner, None)
        owned = self._tabs.pop(owner, set())
        if self._latest in owned:
            self._latest = None
        return owned

    def idle(self, now: float) -> list[str]:
        """The sessions (HTTP ones only) not heard from for longer than the idle timeout."""
        return [o for o, t in self._seen.items() if o != LOCAL and now - t > self.idle_timeout]


class TabGuard:
    """The surface's tab rules in one place: the URL policy and the per-session tabs.

    ``nursery`` runs the closing of an ended session's tabs.
    """

    def __init__(self, policy: UrlPolicy, max_tabs: int, nursery: trio.Nursery) -> None:
        self.policy = policy
        self.sessions = SessionTabs(max_tabs)
        self._nursery = nursery
        self._thread: Thread[Tab] | None = None

    def check_url(self, url: str) -> str:
        """The URL to load for ``url`` (a path becomes a ``file:`` URL); raises :class:`TabRefused`."""
        from ..browser.tabs import to_url

        full = to_url(url)
        self.policy.check(full)
        return full

    def check_shown(self, tab: Tab) -> None:
        """Refuse (:class:`TabRefused`) a tab that a redirect, link or script took to a URL the
        policy does not allow: it is neither observed nor operated."""
        url = tab.document.url if tab.document is not None else "about:blank"
        refused = self.policy.refusal(url)
        if refused is not None:
            code, message = refused
            raise TabRefused(code, f"the tab went where it may not: {message}")

    async def open(self, thread: Thread[Tab], url: str, owner: str, timeout: float) -> Tab:
        """Open ``url`` in a new tab of ``thread`` owned by session ``owner``.

        Raises :class:`TabRefused` — ``URL_NOT_ALLOWED`` / ``FILE_NOT_ALLOWED`` for what was
        asked or where it ended after redirects (the tab is closed again), ``TAB_LIMIT`` — and
        what :meth:`Thread.open` raises.
        """
        self._thread = thread
        target = self.check_url(url)
        now = trio.current_time()
        for idle in self.sessions.idle(now):
            self.end_session(idle)
        refused = self.sessions.refusal(owner, {t.id for t in thread.tabs})
        if refused is not None:
            raise TabRefused(codes.TAB_LIMIT, refused)
        tab = await thread.open(target, timeout=timeout)
        self.sessions.opened(owner, tab.id, now)
        try:
            self.check_shown(tab)
        except TabRefused:
            await tab.close()
            raise
        return tab

    def end_session(self, owner: str) -> None:
        """Session ``owner`` ended: close its tabs (in the background)."""
        ids = self.sessions.ended(owner)
        thread = self._thread
        if not ids or thread is None:
            return
        self._nursery.start_soon(_close_tabs, [t for t in thread.tabs if t.id in ids])


async def _close_tabs(tabs: list[Tab]) -> None:
    for tab in tabs:
        with trio.move_on_after(10):
            try:
                await tab.close()
            except CDPAgentError:
                pass  # already gone with its page or the browser
