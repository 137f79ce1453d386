"""Closed shadow roots: counting what no script can see (SPEC OB-11).

The collector sees inside open shadow roots; a closed one hides its content
from every script, ours included. Only the browser's DOM agent sees them: one
``DOM.getDocument`` with ``pierce`` lists every shadow root with its type. That
costs a walk of the whole document, so it is asked only when the collector met
custom elements without an open root (the usual hosts of closed ones), which it
counts on documents of at most ``closed_scan`` elements
(:class:`~.options.CollectorBounds`). Limits, said in the README: a closed root
on a built-in element (``div``, ``section``…) of a page without such custom
elements, and closed roots of larger documents, go uncounted.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..cdp.connection import Session
from .model import Snapshot

__all__ = ["with_closed_roots"]


def _closed(node: dict[str, Any]) -> int:
    count = 0
    stack = [node]
    while stack:
        n = stack.pop()
        for root in n.get("shadowRoots", ()):
            count += root.get("shadowRootType") == "closed"
            stack.append(root)
        stack.extend(n.get("children", ()))
        if "contentDocument" in n:
            stack.append(n["contentDocument"])
    return count


async def with_closed_roots(session: Session, snapshot: Snapshot, deadline: float) -> Snapshot:
    """``snapshot`` with its closed shadow roots counted, when the collector met possible hosts.

    Leaves the DOM agent disabled again (it would report every later mutation).
    Raises the driver's errors (``CallTimeout`` after ``deadline``).
    """
    unseen = snapshot.unseen
    if not unseen.components:
        return snapshot
    try:
        tree = await session.send("DOM.getDocument", {"depth": -1, "pierce": True}, deadline=deadline)
    finally:
        await session.send("DOM.disable", deadline=deadline)
    closed = _closed(tree["root"])
    return msgspec.structs.replace(
        snapshot, unseen=msgspec.structs.replace(unseen, closed_shadow_roots=closed)
    )
