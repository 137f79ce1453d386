"""A simulated person using a page through real input events — a test and demo harness.

Used by ``cdpagent script`` (``user_click``, ``user_type`` steps), the demo and the
tests to prove that human UI and page methods share one commit path. It finds an
element with a CSS selector through the DOM domain, scrolls it into view and
clicks its centre with trusted input (:mod:`cdpagent.cdp.input`); typing inserts text
after focusing the element by clicking it. It is never an agent tool: agents act
through what the page declares.
"""

from __future__ import annotations

from ..cdp.input import insert_text, mouse_click
from ..cdp.target import Target
from ..errors import UserInputError

__all__ = ["user_click", "user_type"]


async def _centre(tab: Target, selector: str) -> tuple[float, float]:
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


async def user_click(tab: Target, selector: str) -> None:
    """Click the centre of the first element matching ``selector`` with the left mouse button.

    Raises :class:`~cdpagent.errors.UserInputError` when there is no such element or
    it has no box, and the driver's errors when the tab goes away.
    """
    x, y = await _centre(tab, selector)
    await mouse_click(tab.session, x, y)


async def user_type(tab: Target, selector: str, text: str) -> None:
    """Click into the element matching ``selector`` and type ``text`` at the caret.

    Raises what :func:`user_click` raises.
    """
    await user_click(tab, selector)
    await insert_text(tab.session, text)
