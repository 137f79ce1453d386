"""Closed shadow roots: counting what no script can see (SPEC OB-11).

The collector sees inside open shadow roots; a closed one hides its content
from every script, ours included. Only the browser's DOM agent sees them: one
``DOM.getDocument`` with ``pierce`` lists every shadow root with its type. That
costs a walk of the whole document, so it is asked only when the collector met
custom elements without an open root (the usual hosts of closed ones) and the
page has at most :data:`CLOSED_SCAN` elements; past that those elements are
counted as unchecked. Either way the observation says so (:class:`~.model.Unseen`).
A built-in element (``div``, ``section``…) may host a closed root too; those are
found only by the same walk, so on pages without custom elements they go unsaid.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from ..connection import Session
from .model import Snapshot

__all__ = ["CLOSED_SCAN", "with_closed_roots"]

CLOSED_SCAN: Final = 20_000
"""Pages with more elements are not walked for closed shadow roots."""


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
    """``snapshot`` with its closed shadow roots counted (or its unchecked hosts, on a large page).

    Leaves the DOM agent disabled again (it would report every later mutation).
    Raises the driver's errors (``CallTimeout`` after ``deadline``).
    """
    unseen = snapshot.unseen
    if not unseen.components:
        return snapshot
    if unseen.elements > CLOSED_SCAN:
        checked = msgspec.structs.replace(unseen, unchecked_components=unseen.components)
        return msgspec.structs.replace(snapshot, unseen=checked)
    try:
        tree = await session.send("DOM.getDocument", {"depth": -1, "pierce": True}, deadline=deadline)
    finally:
        await session.send("DOM.disable", deadline=deadline)
    closed = _closed(tree["root"])
    return msgspec.structs.replace(
        snapshot, unseen=msgspec.structs.replace(unseen, closed_shadow_roots=closed)
    )
