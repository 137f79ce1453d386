"""Trusted input: mouse clicks and keys delivered through CDP's ``Input`` domain.

Events sent this way are indistinguishable from a person's (``isTrusted`` is
true), so the page's own handlers run exactly as they would for a click or a
key press. Both the actions of the observation model (``cdpagent.snapshot.actions``)
and the test harness's simulated person (``cdpagent.harness``) deliver input
through these functions; coordinates are CSS pixels in the tab's viewport.
"""

from __future__ import annotations

from typing import Any

from .connection import Session

__all__ = ["insert_text", "mouse_click", "press_key"]


async def mouse_click(session: Session, x: float, y: float, clicks: int = 1) -> None:
    """Move to ``(x, y)`` and click there with the left button ``clicks`` times in a row.

    ``clicks=2`` is a double click: the page sees click, click, dblclick, as from a person.
    Raises the driver's errors (``SessionClosed``, ``ProtocolError``) when the tab is gone.
    """
    await session.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    for count in range(1, clicks + 1):
        # The browser counts a double click from clickCount, not from timing.
        common = {"x": x, "y": y, "button": "left", "clickCount": count}
        await session.send("Input.dispatchMouseEvent", {"type": "mousePressed", "buttons": 1, **common})
        await session.send("Input.dispatchMouseEvent", {"type": "mouseReleased", "buttons": 0, **common})


async def press_key(session: Session, key: str, code: str, vk: int, text: str | None = None) -> None:
    """Press and release one key (``key``/``code`` as in ``KeyboardEvent``, ``vk`` its virtual key code).

    ``text`` is what the key types (``"\\r"`` for Enter); without it the key types nothing.
    Raises the driver's errors when the tab is gone.
    """
    down: dict[str, Any] = {
        "type": "keyDown" if text else "rawKeyDown",
        "key": key,
        "code": code,
        "windowsVirtualKeyCode": vk,
        "nativeVirtualKeyCode": vk,
    }
    if text:
        down["text"] = text
        down["unmodifiedText"] = text
    await session.send("Input.dispatchKeyEvent", down)
    await session.send(
        "Input.dispatchKeyEvent",
        {"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk},
    )


async def insert_text(session: Session, text: str) -> None:
    """Type ``text`` at the caret of the focused element (one ``input`` event, as an IME commit does).

    Raises the driver's errors when the tab is gone.
    """
    await session.send("Input.insertText", {"text": text})
