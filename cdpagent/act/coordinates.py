"""Vision mode: trusted input at viewport coordinates, answered with a change receipt (SPEC BR-3).

For pages that expose nothing to act on (a canvas, an SVG drawing), an agent that
sees a screenshot can point: :func:`click_at` clicks at ``(x, y)`` and
:func:`type_at` clicks there and types, in CSS pixels of the main frame's viewport
(the screenshot's pixels divided by its scale). Each answers as ``act`` does: a
snapshot before and after the input, diffed into a
:class:`~cdpagent.snapshot.receipts.Receipt` (so the model learns what its click
changed), serialised with every other input to the tab. A point outside the
viewport is refused with ``INVALID_ARGUMENT`` before anything is sent.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import Any, Final

import trio

from ..cdp.input import insert_text, mouse_click
from ..cdp.target import Target
from ..errors import CDPAgentError
from ..snapshot import codes
from ..snapshot.folding import fold_actions
from ..snapshot.observe import collect_snapshot, install
from ..snapshot.options import ObserveOptions
from ..snapshot.receipts import ActionRef, Receipt, diff, error_receipt, failure_receipt, ok_receipt

__all__ = ["click_at", "type_at"]

_NAVIGATION_EVENTS: Final = ("Page.frameRequestedNavigation", "Page.frameStartedNavigating")
#: How long a navigation the click started may take to commit before the second snapshot.
_COMMIT_WAIT: Final = 5.0


async def click_at(tab: Target, x: float, y: float, *, timeout: float = 10.0) -> Receipt:
    """Click the left button at viewport CSS pixel ``(x, y)`` and return the change receipt.

    Refusals are receipts: ``INVALID_ARGUMENT`` for a point outside the viewport (or
    not a number), ``DIALOG_OPEN`` while a JavaScript dialog blocks the page,
    ``TIMEOUT`` past ``timeout`` seconds, and the driver failures' codes
    (:data:`cdpagent.cdp.failures.FAILURES`). Raises only the driver's ``ConnectionClosed``.
    """
    ref = ActionRef(f"click_at({x:g}, {y:g})", "a click at a point of the viewport")

    async def deliver() -> None:
        await mouse_click(tab.session, x, y)

    return await _input_at(tab, x, y, ref, deliver, timeout)


async def type_at(tab: Target, x: float, y: float, text: str, *, timeout: float = 10.0) -> Receipt:
    """Click at viewport CSS pixel ``(x, y)``, then type ``text`` where that put the focus.

    The text is inserted as typed input (``Input.insertText``: the page sees ``input``
    events) after what the field holds; refusals and codes as :func:`click_at`.
    """
    ref = ActionRef(f"type_at({x:g}, {y:g})", "typing at a point of the viewport")

    async def deliver() -> None:
        await mouse_click(tab.session, x, y)
        await insert_text(tab.session, text)

    return await _input_at(tab, x, y, ref, deliver, timeout)


async def _viewport(tab: Target) -> tuple[float, float]:
    """The main frame's layout viewport in CSS pixels (width, height)."""
    metrics = await tab.session.send("Page.getLayoutMetrics")
    view = metrics.get("cssLayoutViewport") or metrics.get("layoutViewport") or {}
    return float(view.get("clientWidth", 0)), float(view.get("clientHeight", 0))


async def _input_at(
    tab: Target, x: float, y: float, ref: ActionRef, deliver: Callable[[], Awaitable[None]], timeout: float
) -> Receipt:
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in (x, y)):
        return error_receipt(ref, codes.INVALID_ARGUMENT, "x and y must be finite numbers (CSS pixels)", [])
    receipt: Receipt | None = None
    performed = False
    with trio.move_on_after(timeout):
        async with tab.input_lock:
            if tab.dialog is not None:
                blocked = "a JavaScript dialog blocks the page; accept or dismiss it first"
                return error_receipt(ref, codes.DIALOG_OPEN, blocked, [])
            try:
                width, height = await _viewport(tab)
                if not (0 <= x < width and 0 <= y < height):
                    return error_receipt(
                        ref,
                        codes.INVALID_ARGUMENT,
                        f"({x:g}, {y:g}) is outside the viewport "
                        f"(0 ≤ x < {width:g}, 0 ≤ y < {height:g} CSS px)",
                        [],
                    )
                await install(tab)
                opts = ObserveOptions()
                before, _ = await collect_snapshot(tab, opts)
                doc = tab.document
                serial = doc.serial if doc else -1
                started: list[bool] = []

                def on_navigation(params: dict[str, Any]) -> None:
                    now = tab.document
                    if now is not None and params.get("frameId") == now.frame_id:
                        started.append(True)

                offs = [tab.session.on(e, on_navigation) for e in _NAVIGATION_EVENTS]
                try:
                    performed = True
                    await deliver()
                finally:
                    for off in offs:
                        off()
                now = tab.document
                if started and now is not None and now.serial == serial:
                    with trio.move_on_after(_COMMIT_WAIT):
                        await tab.document_changed(serial, timeout=_COMMIT_WAIT)
                after, _ = await collect_snapshot(tab, opts, after_input=True)
                now = tab.document
                changes = diff(
                    before,
                    after,
                    navigated=now is not None and now.serial != serial,
                    options=opts,
                    before_entries=fold_actions(before),
                    after_entries=fold_actions(after),
                )
                receipt = ok_receipt(ref, changes, tab.take_notices())
            except CDPAgentError as exc:
                receipt = failure_receipt(ref, exc)
            except trio.TooSlowError:
                receipt = None
    if receipt is None:
        done = " It may have been performed; observe the page before retrying." if performed else ""
        return error_receipt(ref, codes.TIMEOUT, f"the input did not finish within {timeout:g} s.{done}", [])
    return receipt
