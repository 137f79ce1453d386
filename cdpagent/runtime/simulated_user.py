"""A simulated person using a page through real input events — a test-harness tool.

Used by ``cdpagent script`` (``user_click``, ``user_type`` steps) and the tests to
prove that human UI and page methods share one commit path. It finds an element
with a CSS selector through the DOM domain, scrolls it into view and clicks its
centre with ``Input.dispatchMouseEvent``; typing inserts text with
``Input.insertText`` after focusing the element by clicking it. It is never an
agent tool: agents act through what the page declares.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import CDPAgentError

if TYPE_CHECKING:
    from ..browser import Tab

__all__ = ["UserInputError", "user_click", "user_type"]


class UserInputError(CDPAgentError):
    """The element is missing, or has no visible box to click."""


async def _centre(tab: Tab, selector: str) -> tuple[float, float]:
    root = await tab.session.send("DOM.getDocument", {"depth": 0})
    found = await tab.session.send(
        "DOM.querySelector", {"nodeId": root["root"]["nodeId"], "selector": selector}
    )
    node = found.get("nodeId", 0)
    if not node:
        raise UserInputError(f"no element matches {selector!r}")
    await tab.session.send("DOM.scrollIntoViewIfNeeded", {"nodeId": node})
    quads = (await tab.session.send("DOM.getContentQuads", {"nodeId": node})).get("quads") or []
    if not quads:
        raise UserInputError(f"{selector!r} has no visible box")
    quad = quads[0]
    xs, ys = quad[0::2], quad[1::2]
    return sum(xs) / 4, sum(ys) / 4


async def user_click(tab: Tab, selector: str) -> None:
    """Click the centre of the first element matching ``selector`` with the left mouse button.

    Raises :class:`UserInputError` when there is no such element or it has no box,
    and driver errors when the tab goes away.
    """
    x, y = await _centre(tab, selector)
    base = {"x": x, "y": y, "button": "left", "clickCount": 1}
    await tab.session.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    await tab.session.send("Input.dispatchMouseEvent", {"type": "mousePressed", **base})
    await tab.session.send("Input.dispatchMouseEvent", {"type": "mouseReleased", **base})


async def user_type(tab: Tab, selector: str, text: str) -> None:
    """Click into the element matching ``selector`` and type ``text`` at the caret.

    Raises what :func:`user_click` raises.
    """
    await user_click(tab, selector)
    await tab.session.send("Input.insertText", {"text": text})
