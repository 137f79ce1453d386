"""The keyboard's and the wheel's performers: ``press`` (a key or chord, with the element
focused), ``scroll`` (wheel turns inside the element) and the built-in
:data:`~cdpagent.snapshot.openai_tools.PRESS_FOCUSED` (a key on whatever has the focus).

What to turn the wheel by, and what to say of where a scroller got to, are plain
arithmetic on the scroller's position (:func:`wheel_delta`, :func:`at_limit`,
:func:`scroll_state`), tested without a browser.
"""

from __future__ import annotations

from typing import Final

import msgspec

from ..cdp.input import Chord, parse_chord, press_chord
from ..cdp.world import PageFunction
from ..errors import ActRefused
from ..snapshot import codes
from ..snapshot.kinds import SCROLL_TO
from ..snapshot.openai_tools import PRESS_FOCUSED
from .inputs import ACT_INPUTS, ActArgs
from .roundtrip import Trip
from .step import Step, same_document

__all__ = ["ScrollAt", "at_limit", "chord", "press", "press_focused", "scroll", "scroll_state", "wheel_delta"]

_PAGE: Final = 0.875
"""A page of scrolling: most of the scroller's height, keeping a line of context (as browsers do)."""
_TURNS_TO_LIMIT: Final = 4
"""Wheel turns a scroll to the end (or start) may take: content loaded on the way extends it."""


class ScrollAt(msgspec.Struct, frozen=True):
    """``scrollState``: the scroller's position, its furthest position and its height (CSS px)."""

    found: bool = False
    top: int = 0
    max: int = 0
    client: int = 0


def chord(tool: str, key: str | None) -> Chord:
    """The chord ``key`` names; raises :class:`~cdpagent.errors.ActRefused` ``INVALID_ARGUMENT`` (``tool``:
    whose argument it was) for a key that is not one."""
    try:
        return parse_chord(key or "")
    except ValueError as exc:
        raise ActRefused(codes.INVALID_ARGUMENT, f"{tool}: {exc}") from None


async def press(step: Step) -> str | None:
    """The key or chord, pressed with the element focused."""
    keys = chord(step.entry.tool, step.args.key)
    await step.ready()
    await step.focus()
    step.trip.performed = True
    await press_chord(step.keyboard, keys)
    return None


async def press_focused(trip: Trip, args: ActArgs) -> None:
    """The built-in :data:`PRESS_FOCUSED`: ``args.key`` pressed wherever the focus is (the page's
    body when nothing has it). Raises :class:`~cdpagent.errors.ActRefused` for other arguments or a
    bad key."""
    given = [f for f in ACT_INPUTS if f != "key" and getattr(args, f) is not None]
    if args.record is not None:
        given.insert(0, "record")
    if given:
        raise ActRefused(codes.INVALID_ARGUMENT, f"{PRESS_FOCUSED} takes only key, not {', '.join(given)}")
    keys = chord(PRESS_FOCUSED, args.key)
    same_document(trip)
    trip.performed = True
    await press_chord(trip.tab.session, keys)


def at_limit(to: str, at: ScrollAt) -> bool:
    """The scroller is already where ``to`` goes: at the end going down or to the end, at the start
    going up or to the start."""
    return at.top >= at.max if to in ("down", "end") else at.top <= 0


def wheel_delta(to: str, at: ScrollAt) -> float:
    """The next wheel turn (CSS px, negative: up): a page for ``down``/``up``; for ``end``/``start``
    the rest of the way plus the scroller's height (a smooth scroller may stop short)."""
    if to in ("down", "up"):
        delta = max(at.client * _PAGE, 40.0)
    else:
        delta = float(at.max - at.top if to == "end" else at.top) + at.client
    return delta if to in ("down", "end") else -delta


def scroll_state(at: ScrollAt) -> str:
    """Where a scroller is, in words: at the end, at the start, or how far along."""
    if at.top >= at.max:
        return f"at the end ({at.max} px scrolled)"
    if at.top <= 0:
        return f"at the start ({at.max} px to the end)"
    share = round(100 * at.top / at.max) if at.max else 100
    return f"{at.top} of {at.max} px scrolled ({share} %); {at.max - at.top} px to the end"


async def scroll(step: Step) -> str | None:
    """Wheel turns inside the element towards ``to`` (default: a page down)."""
    to = step.args.to or SCROLL_TO[0]
    if to not in SCROLL_TO:
        raise ActRefused(
            codes.INVALID_ARGUMENT, f"{step.entry.tool}: to must be one of {', '.join(SCROLL_TO)}"
        )
    _prep, at = await step.ready()
    start = await step.call(ScrollAt, PageFunction.SCROLL_STATE, False)
    if not start.found:
        step.gone()
    if at_limit(to, start):
        forward = to in ("down", "end")
        step.trip.warnings.append(f"{step.id} was already at the {'end' if forward else 'start'}")
        step.trip.state = scroll_state(start)
        return None
    now = start
    step.trip.performed = True
    for _ in range(1 if to in ("down", "up") else _TURNS_TO_LIMIT):
        await step.wheel(at, wheel_delta(to, now))
        was, now = now, await step.call(ScrollAt, PageFunction.SCROLL_STATE, True, await_promise=True)
        if not now.found or now.top == was.top or at_limit(to, now):
            break
    step.trip.state = scroll_state(now)
    if now.found and now.top == start.top:
        return f"the wheel did not scroll {step.id} (the page may prevent scrolling there)"
    return None
