"""Pixels and paper: screenshots with sensitive fields masked, and PDFs (SPEC BR-3).

A screenshot is bounded before it is taken, never shrunk after: the region (the
viewport, the whole page up to :data:`MAX_PAGE_HEIGHT` CSS pixels, or one
action's or record's element) is captured at a scale that makes its longer edge at
most ``max_edge`` pixels, so bytes and time stay bounded on a page of any length.

Masking holds in pixels as it does in text, by the same rule (the prelude's
``isSensitive``): before the capture, ``js/capture.js`` covers every sensitive element
(password, hidden-value, one-time-code and card fields, anything under
``data-agent-sensitive``) of the document, its open shadow roots and its same-origin
frames with an opaque box drawn in a closed shadow root — the box of everything the
element paints, its overflowing text and its descendants included; after it, the
sensitive areas are measured again and the boxes go. From the mask to that second
measurement the page's own scripts are stopped (``Emulation.setScriptExecutionDisabled``),
so it cannot react to the mask. A page that removes or hides the
boxes, or whose sensitive areas moved, grew or appeared outside them meanwhile, gets
a ``CAPTURE_FAILED`` error, never an unmasked image. A frame of another site, drawn by
another renderer, is masked by the helper of its own world, the same way. Limits:
fields inside closed shadow roots are not covered (the page cannot mark them either),
and a CSS animation (no script) that takes a field out of its box and back between
the two measurements is not noticed.
"""

from __future__ import annotations

import base64
import contextlib
import math
import struct
from typing import Any, Final, Literal

import msgspec
import trio

from ..cdp.connection import Session
from ..cdp.target import Target
from ..cdp.world import WORLD, PageFunction, call_function, enter, install_commands
from ..errors import CDPAgentError, OperationError, PageFunctionError, ProtocolError, ToolCallError
from ..snapshot.frames import FRAME_TIMEOUT, frame_world
from ..snapshot.observe import observe
from ..snapshot.openai_tools import resolve_tool_call

__all__ = ["MAX_EDGE", "MAX_PAGE_HEIGHT", "Screenshot", "pdf", "screenshot"]

#: The longest edge of a screenshot by default, in pixels (what vision models take whole).
MAX_EDGE: Final = 1568
#: A full-page screenshot covers at most this many CSS pixels of the page's height.
MAX_PAGE_HEIGHT: Final = 16384
#: Documents larger than this are refused by :func:`pdf` (bytes).
MAX_PDF_BYTES: Final = 32 * 1024 * 1024

ImageFormat = Literal["png", "jpeg"]


class Screenshot(msgspec.Struct, frozen=True):
    """One captured image: its bytes, format and pixel size, and what it hides or leaves out."""

    data: bytes
    format: ImageFormat
    width: int
    height: int
    masked: int = 0
    """Sensitive elements covered before the capture."""
    truncated: bool = False
    """A full page longer than :data:`MAX_PAGE_HEIGHT`: only its top was captured."""

    @property
    def mime_type(self) -> str:
        """``image/png`` or ``image/jpeg``."""
        return f"image/{self.format}"


class _Box(msgspec.Struct, frozen=True):
    x: float
    y: float
    width: float
    height: float


async def _capture_world(tab: Target) -> int:
    """The isolated world's context of ``tab``'s document (``js/capture.js`` is one of its scripts)."""
    context, _ = await enter(tab)
    return context


async def _call(tab: Target, ctx: int, function: PageFunction, *args: Any) -> Any:
    return await _call_in(tab.session, ctx, function, *args)


async def _call_in(session: Session, ctx: int, function: PageFunction, *args: Any) -> Any:
    try:
        return await call_function(session, function, *args, context=ctx)
    except PageFunctionError as exc:
        raise OperationError("CAPTURE_FAILED", f"the capture helper failed: {exc.text[:200]}") from None


async def _worlds(tab: Target) -> list[tuple[Session, int]]:
    """The capture's world in the tab's document and in each of its out-of-process frames.

    A frame of another site is drawn by another renderer, where the tab's world cannot
    look: its fields are masked by the capture helper of its own world. Raises
    :class:`OperationError` ``CAPTURE_FAILED`` naming a frame whose world cannot be
    reached, since its fields could not be covered.
    """
    worlds = [(tab.session, await _capture_world(tab))]
    # A loaded machine may take a while to set a frame's world up: the screenshot's own
    # deadline bounds the wait (its TIMEOUT), never less than a frame collection gets.
    deadline = max(trio.current_effective_deadline(), trio.current_time() + FRAME_TIMEOUT)
    for frame_id in list(tab.frame_targets):
        try:
            where = await frame_world(tab, frame_id, WORLD, install_commands(), deadline)
        except (CDPAgentError, trio.TooSlowError):
            where = None
            if frame_id in tab.frame_targets:
                raise OperationError(
                    "CAPTURE_FAILED", f"the sensitive fields of frame {frame_id} cannot be masked"
                ) from None
        if where is not None:
            worlds.append(where)
    return worlds


async def _target_box(tab: Target, ctx: int, target: str) -> _Box:
    """The page box of ``target``: an action id (``toggle@t9``, a tool name) or a record id."""
    observation = await observe(tab)
    name, _, record = target.partition("@")
    locator: dict[str, Any]
    named = [*observation.actions, *observation.more]  # click_more's names are targets too
    try:
        _, found = resolve_tool_call(named, name, record or None)
        locator = msgspec.to_builtins(found)
    except ToolCallError:
        entry = next((e for e in named if target in (e.action, e.name) and not e.folded), None)
        if entry is not None:
            locator = msgspec.to_builtins(entry.locator(None))
        elif target in observation.record_ids or any(r.id == target for r in observation.records):
            locator = {"kind": "record", "record": target}
        else:
            raise OperationError(
                "TARGET_NOT_FOUND", f"no action or record {target!r} in the current observation"
            ) from None
    box = await _call(tab, ctx, PageFunction.RECT_OF, locator)
    if not box:
        raise OperationError("TARGET_NOT_FOUND", f"{target!r} is not visible on the page now")
    return msgspec.convert(box, _Box)


async def _page_scripts(worlds: list[tuple[Session, int]], *, run: bool) -> None:
    """Let the page's own scripts run, or stop them (timers, observers, events) in every world's target.

    Our isolated worlds keep running. A frame whose target refuses is left as it is: its
    fields are still measured again after the capture.
    """
    for session, _ in worlds:
        with contextlib.suppress(CDPAgentError):
            await session.send("Emulation.setScriptExecutionDisabled", {"value": not run})


def _image_size(data: bytes, fmt: ImageFormat) -> tuple[int, int]:
    """Width and height read from a PNG's IHDR or a JPEG's first SOF marker."""
    if fmt == "png":
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        length = int.from_bytes(data[i + 2 : i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2):
            height, width = struct.unpack(">HH", data[i + 5 : i + 9])
            return int(width), int(height)
        i += 2 + length
    return 0, 0


async def screenshot(
    tab: Target,
    *,
    full_page: bool = False,
    target: str | None = None,
    format: ImageFormat = "png",
    quality: int | None = None,
    max_edge: int = MAX_EDGE,
    timeout: float = 10.0,
) -> Screenshot:
    """A screenshot of ``tab``: the viewport, the whole page, or one ``target`` element.

    ``target`` is an action id or tool name (``toggle@t9``) or a record id of the
    current observation. ``quality`` (1-100) is for JPEG only. The image's longer
    edge is at most ``max_edge`` pixels. Sensitive fields are covered before the
    capture (module docstring). Raises :class:`OperationError` with ``INVALID_ARGUMENT``
    (bad format, quality, size or both ``full_page`` and ``target``),
    ``TARGET_NOT_FOUND``, ``CAPTURE_FAILED`` (the browser failed, or the page
    tampered with the masks) or ``TIMEOUT``; and the driver's ``SessionClosed``.
    """
    if format not in ("png", "jpeg"):
        raise OperationError("INVALID_ARGUMENT", f"format must be 'png' or 'jpeg', not {format!r}")
    if quality is not None and (format != "jpeg" or not 1 <= quality <= 100):
        raise OperationError("INVALID_ARGUMENT", "quality is a whole number 1-100, for jpeg only")
    if not 16 <= max_edge <= 8192:
        raise OperationError("INVALID_ARGUMENT", "max_edge must be between 16 and 8192 pixels")
    if full_page and target is not None:
        raise OperationError("INVALID_ARGUMENT", "give full_page or target, not both")
    if not (timeout > 0 and math.isfinite(timeout)):
        raise OperationError("INVALID_ARGUMENT", "timeout must be a positive number of seconds")
    try:
        with trio.fail_after(timeout):
            return await _screenshot(tab, full_page, target, format, quality, max_edge)
    except trio.TooSlowError:
        raise OperationError("TIMEOUT", f"the screenshot took longer than {timeout:g} s") from None


async def _screenshot(
    tab: Target,
    full_page: bool,
    target: str | None,
    fmt: ImageFormat,
    quality: int | None,
    max_edge: int,
) -> Screenshot:
    # A tab hidden behind another draws no frames: a capture waits for one, and after the
    # first few gets no answer at all. So the tab comes to the front first, as a person looks
    # at the tab they photograph.
    await tab.session.send("Page.bringToFront")
    ctx = await _capture_world(tab)
    metrics = await tab.session.send("Page.getLayoutMetrics")
    view = metrics["cssVisualViewport"]
    truncated = False
    if target is not None:
        box = await _target_box(tab, ctx, target)
        metrics = await tab.session.send("Page.getLayoutMetrics")
    elif full_page:
        content = metrics["cssContentSize"]
        height = float(content["height"])
        truncated = height > MAX_PAGE_HEIGHT
        box = _Box(0, 0, max(float(content["width"]), 1), max(min(height, MAX_PAGE_HEIGHT), 1))
    else:
        box = _Box(view["pageX"], view["pageY"], view["clientWidth"], view["clientHeight"])
    scale = min(1.0, max_edge / max(box.width, box.height))
    params: dict[str, Any] = {
        "format": fmt,
        "clip": {"x": box.x, "y": box.y, "width": box.width, "height": box.height, "scale": scale},
        "captureBeyondViewport": full_page or target is not None,
        "fromSurface": True,
    }
    if quality is not None:
        params["quality"] = quality
    worlds = await _worlds(tab)
    count = 0
    afters: list[Any] = []
    try:
        # No page script runs from the mask to the measurement after the capture: a page
        # cannot react to the mask (move a field, then move it back before it is measured).
        await _page_scripts(worlds, run=False)
        for session, world in worlds:
            count += int((await _call_in(session, world, PageFunction.MASK) or {}).get("count", 0))
        shot = await tab.session.send("Page.captureScreenshot", params)
    except ProtocolError as exc:
        raise OperationError("CAPTURE_FAILED", f"the browser could not capture the page: {exc}") from None
    finally:
        with trio.CancelScope(shield=True):
            for session, world in worlds:
                try:
                    afters.append(await _call_in(session, world, PageFunction.UNMASK))
                except (CDPAgentError, OperationError):
                    afters.append("removed")  # a frame gone meanwhile: its masks cannot be vouched for
            await _page_scripts(worlds, run=True)
    after = next((a for a in afters if a != "ok"), "ok")
    if after == "removed":
        raise OperationError("CAPTURE_FAILED", "the page removed the masks of its sensitive fields")
    if after != "ok":
        raise OperationError(
            "CAPTURE_FAILED", "a sensitive field moved, grew or appeared outside its mask during the capture"
        )
    data = base64.b64decode(shot["data"])
    width, height = _image_size(data, fmt)
    return Screenshot(data, fmt, width, height, count, truncated)


async def pdf(tab: Target, *, landscape: bool = False, timeout: float = 30.0) -> bytes:
    """The current page printed to PDF (headless Chromium only).

    Raises :class:`OperationError` ``CAPTURE_FAILED`` when the browser cannot print
    (a headed browser) or the document is over :data:`MAX_PDF_BYTES`, ``TIMEOUT``.
    """
    try:
        with trio.fail_after(timeout):
            answer = await tab.session.send(
                "Page.printToPDF", {"landscape": landscape, "printBackground": True}
            )
    except trio.TooSlowError:
        raise OperationError("TIMEOUT", f"printing took longer than {timeout:g} s") from None
    except ProtocolError as exc:
        raise OperationError("CAPTURE_FAILED", f"the browser could not print the page: {exc}") from None
    data = base64.b64decode(answer["data"])
    if len(data) > MAX_PDF_BYTES:
        raise OperationError("CAPTURE_FAILED", f"the PDF is over {MAX_PDF_BYTES} bytes")
    return data
