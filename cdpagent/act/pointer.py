"""The pointer's performers: ``click`` (a press and release at the element's centre) and
``hover`` (the mouse moved there). A hidden item of a hover menu is shown first by
hovering its parent, level by level, as a person does."""

from __future__ import annotations

from typing import Final

import msgspec

from ..cdp.input import parse_chord, press_chord
from ..cdp.world import PageFunction
from ..snapshot.frames import FramePoint
from .step import Done, Prepared, Step

__all__ = ["click", "hover", "shown"]

_OPEN_BRANCH: Final = parse_chord("ArrowRight")
"""The tree pattern's key that opens a focused item's collapsed branch."""

_HOVER_LEVELS: Final = 4
"""How deep a hover menu is opened level by level to show a hidden item."""
_MENU_DELAY_MS: Final = 1000
"""How long a hovered menu may take to open (jQuery UI's menu waits 300 ms)."""
_REDRAW_MS: Final = 500
"""How long a press waits for what the hover redrew to be under the pointer again."""


class _Hovered(msgspec.Struct, frozen=True):
    """``hovered``: whether the mouse is over it, and whether it is a hover-menu item to click."""

    found: bool = False
    ok: bool = False
    click: bool = False


async def shown(step: Step) -> tuple[Prepared, FramePoint]:
    """The element re-checked, and where to point at it on the page; a hidden item of a hover
    menu is shown first by hovering its parent, as a person does. Raises
    :class:`~cdpagent.errors.ActRefused` when it cannot be used."""
    prep = await step.prepare()
    # A submenu of a submenu: each hover shows the next level, the nearest shown ancestor.
    for _ in range(_HOVER_LEVELS):
        if prep.reason != "hidden" or prep.hover is None:
            break
        parent = await step.point(prep.hover.x, prep.hover.y)
        step.trip.performed = True
        await step.move(parent)
        await step.call(Done, PageFunction.SHOWN_AFTER_HOVER, _MENU_DELAY_MS, await_promise=True)
        prep = await step.prepare()
    if prep.reason:
        step.refuse(prep.reason, prep.cover)
    return prep, await step.point(prep.x, prep.y)


class _Branch(msgspec.Struct, frozen=True):
    """``branch``: whether the element is a tree item whose branch is collapsed."""

    found: bool = False
    closed: bool = False


class _Pressable(msgspec.Struct, frozen=True):
    """``pressable``: the element is under the pointer (``under``), and ``branch``'s ``closed``."""

    found: bool = False
    closed: bool = False
    under: bool = False


async def click(step: Step) -> str | None:
    """A left click at the element's centre. A tree item whose branch is collapsed is
    opened, as a person clicking a closed branch means: where the click only selected it,
    the tree's Right arrow (the item has the focus the click gave it) opens it.
    Raises :class:`~cdpagent.errors.ActRefused` when the element cannot be used."""
    prep, at = await shown(step)
    step.trip.performed = True
    await step.move(at)
    before = await step.call(
        _Pressable, PageFunction.PRESSABLE, prep.x, prep.y, _REDRAW_MS, await_promise=True
    )
    await step.click(at, moved=True)
    if before.closed and (await step.call(_Branch, PageFunction.BRANCH)).closed:
        await press_chord(step.keyboard, _OPEN_BRANCH)
    return None


async def hover(step: Step) -> str | None:
    """The mouse moved over the element; an inferred hover-menu item is then clicked."""
    _, at = await shown(step)
    step.trip.performed = True
    await step.move(at)
    now = await step.call(_Hovered, PageFunction.HOVERED)
    if now.click:
        # An inferred item of a hover menu: the hover opened its way; now choose it.
        await step.click(at)
        return None
    if now.found and not now.ok:
        return f"the mouse is over {step.id} but the page does not show it hovered"
    return None
