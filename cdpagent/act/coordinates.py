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
from ..errors import ActRefused
from ..snapshot import codes
from ..snapshot.model import ActionEntry, Snapshot
from ..snapshot.receipts import ActionRef, Receipt, error_receipt
from .dialog_answers import blocked
from .roundtrip import Trip, round_trip
from .step import same_document

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
        trip.performed = True
        await mouse_click(session, x, y)
        if self.text is not None:
            await insert_text(session, self.text)


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
