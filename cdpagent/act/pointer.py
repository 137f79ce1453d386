"""The pointer's performers: ``click`` (a press and release at the element's centre) and
``hover`` (the mouse moved there). A hidden item of a hover menu is shown first by
hovering its parent, level by level, as a person does."""

from __future__ import annotations

from typing import Final

import msgspec

from ..cdp.input import mouse_click, mouse_move, parse_chord, press_chord
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
_MOVE_WAIT_MS: Final = 50
"""How long a frame of another process is given to see a move before the mouse moves again."""


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
        await mouse_move(step.session, parent.x, parent.y)
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


async def move_into(step: Step, at: FramePoint) -> None:
    """Move the mouse to ``at``. In a frame of another process, until the frame has seen the
    move: the browser routes a pointer by what the tab last drew, so a frame just brought to
    the front gets it once it has drawn (before, the parent's <iframe> does); moved again
    every :data:`_MOVE_WAIT_MS`, for at most :data:`_REDRAW_MS` in all."""
    await mouse_move(step.session, at.x, at.y)
    if step.world[0] is step.session:
        return
    for _ in range(_REDRAW_MS // _MOVE_WAIT_MS):
        if (await step.call(Done, PageFunction.POINTER_MOVED, _MOVE_WAIT_MS, await_promise=True)).ok:
            return
        # Chromium drops a move to where the pointer already is: half a pixel off, then back.
        await mouse_move(step.session, at.x + 0.5, at.y)
        await mouse_move(step.session, at.x, at.y)


async def click(step: Step) -> str | None:
    """A left click at the element's centre. A tree item whose branch is collapsed is
    opened, as a person clicking a closed branch means: where the click only selected it,
    the tree's Right arrow (the item has the focus the click gave it) opens it.
    Raises :class:`~cdpagent.errors.ActRefused` when the element cannot be used."""
    prep, at = await shown(step)
    step.trip.performed = True
    await move_into(step, at)
    before = await step.call(
        _Pressable, PageFunction.PRESSABLE, prep.x, prep.y, _REDRAW_MS, await_promise=True
    )
    await mouse_click(step.session, at.x, at.y, moved=True)
    if before.closed and (await step.call(_Branch, PageFunction.BRANCH)).closed:
        await press_chord(step.keyboard, _OPEN_BRANCH)
    return None


async def hover(step: Step) -> str | None:
    """The mouse moved over the element; an inferred hover-menu item is then clicked."""
    _, at = await shown(step)
    step.trip.performed = True
    await move_into(step, at)
    now = await step.call(_Hovered, PageFunction.HOVERED)
    if now.click:
        # An inferred item of a hover menu: the hover opened its way; now choose it.
        await mouse_click(step.session, at.x, at.y)
        return None
    if now.found and not now.ok:
        return f"the mouse is over {step.id} but the page does not show it hovered"
    return None
