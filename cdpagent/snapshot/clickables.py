"""The listener probe of inferred observations: which elements the page made clickable.

A ``div`` row or a ``span`` icon that a script listens to looks like any other
element from the page's own DOM; only the browser knows its listeners
(``DOMDebugger.getEventListeners``). Before an inferred collection the runtime
asks ``js/clickables.js`` for a bounded set of not yet probed candidates
(``CollectorBounds.listener_probe``: leaf-like visible elements, two per shape, not
the wrappers around one control whose verdict the pass would discard),
reads their listeners in pipelined batches (through a main-world handle of
each: the browser reports a world's own listeners only), and hands the verdicts back
(``mark``); the page side extends a verdict to the siblings of one class and
shape, so a list of 10,000 rows costs the probe of two. Each element is probed
once per document, so a still page costs one round trip.

:func:`verdict` is the sans-IO rule: a click-like listener makes a clickable,
a hover-like one (without a click-like one) a hover parent.
"""

from __future__ import annotations

from typing import Any, Final

from ..cdp.connection import Session
from ..cdp.world import PageFunction, call_function
from ..errors import PageFunctionError, ProtocolError

__all__ = [
    "CLICK_EVENTS",
    "HOVER_EVENTS",
    "KEY_EVENTS",
    "array_elements",
    "element_listeners",
    "probe_listeners",
    "verdict",
]

#: Listener types that make an element clickable.
CLICK_EVENTS: Final = frozenset(
    {"click", "mousedown", "mouseup", "pointerdown", "pointerup", "dblclick", "touchstart"}
)
#: Listener types that make an element a hover parent (its menu opens under the pointer).
HOVER_EVENTS: Final = frozenset({"mouseenter", "mouseover", "pointerenter", "pointerover"})
#: Listener types that make typing send key events (:mod:`cdpagent.act.text`).
KEY_EVENTS: Final = frozenset({"keydown", "keyup", "keypress"})
_GROUP: Final = "cdpagent-probe"


def verdict(listeners: list[dict[str, Any]]) -> str:
    """``"click"``, ``"hover"`` or ``""`` for an element with these CDP ``EventListener`` objects."""
    types = {str(item.get("type", "")) for item in listeners}
    if types & CLICK_EVENTS:
        return "click"
    if types & HOVER_EVENTS:
        return "hover"
    return ""


async def probe_listeners(session: Session, context: int, limit: int, mode: str | None, scan: int) -> int:
    """Probe up to ``limit`` candidates of the isolated world ``context``, found among the
    first ``scan`` elements of the body (tables and controls skipped whole); nothing when
    the inference ``mode``, :attr:`ObserveOptions.infer`, answers from declarations.
    Return how many were probed.

    Raises the driver's errors (``ProtocolError`` when the world is gone,
    ``SessionClosed``); a candidate removed meanwhile is skipped.
    """
    if limit <= 0:
        return 0
    try:
        handle = await call_function(
            session, PageFunction.PROBE, limit, mode, scan, context=context, group=_GROUP
        )
    except PageFunctionError:
        return 0
    if handle is None:
        return 0
    try:
        ids = await array_elements(session, handle)
        if not ids:
            return 0
        answers = await element_listeners(session, ids, _GROUP)
        verdicts = [verdict(a) for a in answers]
        if any(verdicts):
            await call_function(session, PageFunction.MARK, verdicts, context=context, handles=ids)
        return len(ids)
    finally:
        await session.send("Runtime.releaseObjectGroup", {"objectGroup": _GROUP})


async def array_elements(session: Session, handle: str) -> list[str]:
    """The object ids of the elements in the page array ``handle``, in order (in its object group).

    Raises the driver's errors (``ProtocolError`` when the array is gone).
    """
    props = await session.send("Runtime.getProperties", {"objectId": handle, "ownProperties": True})
    items = [
        (int(p["name"]), p["value"]["objectId"])
        for p in props.get("result", [])
        if str(p.get("name", "")).isdigit() and "objectId" in p.get("value", {})
    ]
    return [object_id for _, object_id in sorted(items)]


async def element_listeners(session: Session, ids: list[str], group: str) -> list[list[dict[str, Any]]]:
    """The listeners of each node ``ids`` names, pipelined; none for all when one was refused
    (a node removed meanwhile: the next observation probes again what is new).

    The browser reports only the listeners of the handle's own world, and page
    scripts listen in the main world: each node is resolved there first (a
    handle in object ``group``, released with it)."""
    try:
        nodes = await session.send_batch([("DOM.describeNode", {"objectId": i}) for i in ids])
        backend = [int(n["node"]["backendNodeId"]) for n in nodes]
        mains = await session.send_batch(
            [("DOM.resolveNode", {"backendNodeId": b, "objectGroup": group}) for b in backend]
        )
        handles = [str(m["object"]["objectId"]) for m in mains]
        results = await session.send_batch(
            [("DOMDebugger.getEventListeners", {"objectId": h}) for h in handles]
        )
    except (ProtocolError, KeyError, TypeError, ValueError):
        return [[] for _ in ids]
    return [list(r.get("listeners", [])) if isinstance(r, dict) else [] for r in results]
