"""Moving through a tab's session history: back and forward (SPEC BR-1).

Chromium keeps the history; this module asks for it (``Page.getNavigationHistory``),
goes to the entry before or after the current one (``Page.navigateToHistoryEntry``)
and waits until the main frame shows that entry's URL and has loaded. A
same-document entry (``#hash``, ``pushState``) keeps the document; any other gives
a new one (the back/forward cache is off, see :mod:`cdpagent.cdp.launcher`).
"""

from __future__ import annotations

import trio

from ..cdp.documents import Document
from ..cdp.target import Target
from ..errors import CallTimeout, OperationError

__all__ = ["go_back", "go_forward"]


async def go_back(tab: Target, *, timeout: float = 30.0) -> Document:
    """Go one entry back in ``tab``'s history; see :func:`go_forward`."""
    return await _go(tab, -1, timeout)


async def go_forward(tab: Target, *, timeout: float = 30.0) -> Document:
    """Go one entry forward in ``tab``'s history and return the main document once loaded.

    Raises :class:`OperationError` ``NAVIGATION_FAILED`` when there is no entry in
    that direction or the page has not loaded it within ``timeout``.
    """
    return await _go(tab, +1, timeout)


async def _go(tab: Target, step: int, timeout: float) -> Document:
    where = "back" if step < 0 else "forward"
    deadline = trio.current_time() + timeout
    try:
        history = await tab.session.send("Page.getNavigationHistory", deadline=deadline)
        index = int(history["currentIndex"]) + step
        entries = history["entries"]
        # The blank page a new tab starts on is not a page to go back to.
        if not 0 <= index < len(entries) or (index == 0 and entries[0].get("url") == "about:blank"):
            raise OperationError("NAVIGATION_FAILED", f"there is no page to go {where} to")
        entry = entries[index]
        before = tab.document
        before_url = before.url if before else None
        await tab.session.send("Page.navigateToHistoryEntry", {"entryId": entry["id"]}, deadline=deadline)
    except CallTimeout:
        message = f"going {where} did not start within {timeout:g} s"
        raise OperationError("NAVIGATION_FAILED", message) from None
    url = str(entry["url"])

    def arrived() -> bool:
        doc = tab.document
        moved = doc is not before or (doc is not None and doc.url != before_url)
        return doc is not None and moved and doc.url == url and doc.loaded

    try:
        await tab.wait_until(arrived, max(deadline - trio.current_time(), 0))
    except trio.TooSlowError:
        raise OperationError("NAVIGATION_FAILED", f"going {where} to {url} did not finish in time") from None
    doc = tab.document
    assert doc is not None
    return doc
