"""Vision mode: trusted input at viewport coordinates, answered with a change receipt (SPEC BR-3).

For pages that expose nothing to act on (a canvas, an SVG drawing), an agent that
sees a screenshot can point: :func:`click_at` clicks at ``(x, y)`` and
:func:`type_at` clicks there and types, in CSS pixels of the main frame's viewport
(the screenshot's pixels divided by its scale). Each is the round trip of every act
(:func:`cdpagent.act.roundtrip.round_trip`) with its own delivery, :class:`AtPoint`: a
snapshot before and after the input, diffed into a
:class:`~cdpagent.snapshot.receipts.Receipt` (so the model learns what its click
changed), serialised with every other input to the tab. A point outside the
viewport is refused with ``INVALID_ARGUMENT`` before any input is sent.
"""

from __future__ import annotations

import math
from typing import Final

from ..cdp.dialogs import JavaScriptDialog
from ..cdp.input import insert_text, mouse_click
from ..cdp.tabstate import INPUT_AT
from ..cdp.target import Target
from ..cdp.world import WORLD, enter, install_commands
from ..errors import ActRefused, WorldGone
from ..snapshot import codes
from ..snapshot.frames import frame_world
from ..snapshot.model import ActionEntry, Snapshot
from ..snapshot.receipts import ActionRef, Receipt, error_receipt
from .dialog_answers import blocked
from .roundtrip import Trip, round_trip
from .step import World, expect_input, route_pointer, same_document

__all__ = ["AtPoint", "click_at", "type_at"]


class AtPoint:
    """The delivery of a click at viewport CSS pixel ``(x, y)``, then ``text`` typed (None: none)."""

    call: Final = INPUT_AT
    include: tuple[str, ...] = ()

    def __init__(self, x: float, y: float, text: str | None) -> None:
        self.x, self.y, self.text = x, y, text
        what = (
            "typing at a point of the viewport" if text is not None else "a click at a point of the viewport"
        )
        self.ref = ActionRef(f"{'type_at' if text is not None else 'click_at'}({x:g}, {y:g})", what)

    async def answer(self, tab: Target, dialog: JavaScriptDialog) -> Receipt:
        """ActRefused: input at a point answers no dialog (the tab's table refuses it first)."""
        return blocked(self.ref, dialog)

    async def deliver(self, trip: Trip, before: Snapshot, entries: list[ActionEntry]) -> None:
        """The click (and the text) once the point is inside the viewport; raises
        :class:`~cdpagent.errors.ActRefused` ``INVALID_ARGUMENT`` when it is not."""
        session = trip.tab.session
        metrics = await session.send("Page.getLayoutMetrics")
        view = metrics.get("cssLayoutViewport") or metrics.get("layoutViewport") or {}
        width, height = float(view.get("clientWidth", 0)), float(view.get("clientHeight", 0))
        x, y = self.x, self.y
        if not (0 <= x < width and 0 <= y < height):
            raise ActRefused(
                codes.INVALID_ARGUMENT,
                f"({x:g}, {y:g}) is outside the viewport (0 ≤ x < {width:g}, 0 ≤ y < {height:g} CSS px)",
            )
        same_document(trip)
        tab = trip.tab
        frame = await _remote_world_at(tab, x, y, trip.deadline)
        trip.performed = True
        if frame is not None:
            # A frame of another process under the point gets the pointer through the browser,
            # which routes it by what the tab last drew (in a hidden tab a frame loaded
            # meanwhile was never drawn, and every click was lost): readied and routed to as
            # an act's input is.
            try:
                await expect_input(session, frame, trip.deadline)
                await route_pointer(session, frame, x, y)
            except WorldGone:
                frame = None
        await mouse_click(session, x, y, moved=frame is not None)
        if self.text is not None:
            # Text goes to the frame's own session: the browser may not know yet that the
            # click moved the focus into it.
            await insert_text(frame[0] if frame is not None else session, self.text)


async def _remote_world_at(tab: Target, x: float, y: float, deadline: float) -> World | None:
    """The isolated world of the frame of another process whose <iframe> is at viewport point
    ``(x, y)`` of the main document, or None (the main document's own element, a frame of the
    same process; a frame nested in a same-process frame is not looked for)."""
    if not tab.frame_targets:
        return None
    context = (await enter(tab))[0]
    ask = {"expression": f"document.elementFromPoint({x!r}, {y!r})", "contextId": context}
    found = (await tab.session.send("Runtime.evaluate", ask, deadline=deadline)).get("result", {})
    object_id = found.get("objectId")
    if object_id is None:
        return None
    try:
        node = await tab.session.send("DOM.describeNode", {"objectId": object_id}, deadline=deadline)
    finally:
        await tab.session.send("Runtime.releaseObject", {"objectId": object_id}, deadline=deadline)
    frame_id = node.get("node", {}).get("frameId")
    if frame_id is None or frame_id not in tab.frame_targets:
        return None
    return await frame_world(tab, frame_id, WORLD, install_commands(), deadline)


def _finite(x: float, y: float) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in (x, y))


async def _at(tab: Target, delivery: AtPoint, timeout: float) -> Receipt:
    if not _finite(delivery.x, delivery.y):
        return error_receipt(
            delivery.ref, codes.INVALID_ARGUMENT, "x and y must be finite numbers (CSS pixels)", []
        )
    return await round_trip(tab, delivery, timeout=timeout)


async def click_at(tab: Target, x: float, y: float, *, timeout: float = 10.0) -> Receipt:
    """Click the left button at viewport CSS pixel ``(x, y)`` and return the change receipt.

    Refusals are receipts: ``INVALID_ARGUMENT`` for a point outside the viewport (or
    not a number), ``DIALOG_OPEN`` while a JavaScript dialog blocks the page,
    ``TIMEOUT`` past ``timeout`` seconds, and the driver failures' codes
    (:data:`cdpagent.cdp.failures.FAILURES`). Raises only the driver's ``ConnectionClosed``.
    """
    return await _at(tab, AtPoint(x, y, None), timeout)


async def type_at(tab: Target, x: float, y: float, text: str, *, timeout: float = 10.0) -> Receipt:
    """Click at viewport CSS pixel ``(x, y)``, then type ``text`` where that put the focus.

    The text is inserted as typed input (``Input.insertText``: the page sees ``input``
    events) after what the field holds; refusals and codes as :func:`click_at`.
    """
    return await _at(tab, AtPoint(x, y, text), timeout)
