"""The slider's performer, ``set``: a range input, ARIA slider or spin button moved to a number
by keys, as a person with a keyboard does, else (a slider) by a drag of its thumb.

A spin button (the ARIA pattern: a number field stepped by ArrowUp/ArrowDown, Home/End for
its bounds, a date field's day, month and year segments) is walked with the up and down
keys, its value read back from ``aria-valuenow`` after every key; an empty one is given a
value by its first ArrowUp. It has no track to drag.

Keys: Home/End for the ends; else arrows, with PageUp/PageDown while far (more than ten
steps) as long as a page does not overshoot; how far each key moves the slider is
measured as it goes (:class:`KeyWalk`). A slider with no ARIA range and a number shown
beside it has its scale measured first, as a person finds it: Home, End, and the number
the page shows at each end (:func:`_measure_scale`). Without such a number its value is
a position, 0…100 % along its track.

The arithmetic — which key next, whether a value fits the range and step, where a drag
ends, how a slider's place is said — is plain functions of the slider's reply
(:class:`SliderAt`), tested without a browser.
"""

from __future__ import annotations

from typing import Final

import msgspec

from ..cdp.input import parse_chord, press_chord
from ..cdp.world import PageFunction
from ..errors import ActRefused
from ..snapshot import codes
from .step import Focused, Point, Step

__all__ = ["KeyWalk", "Rect", "SliderAt", "drag_end", "same", "set_value", "slider_state", "value_problem"]


class Rect(msgspec.Struct, frozen=True):
    """A box of the viewport, in CSS pixels."""

    left: float = 0.0
    top: float = 0.0
    width: float = 0.0
    height: float = 0.0


class SliderAt(msgspec.Struct, frozen=True):
    """``slider``: a range input's or ARIA slider's value and geometry now."""

    found: bool = False
    native: bool = False
    spin: bool = False
    """A spin button: stepped by ArrowUp/ArrowDown, no track."""
    empty: bool = False
    """A spin button with no value yet (``value`` is its minimum)."""
    said: str = ""
    """A spin button's value as the page words it (``aria-valuetext``: ``06 – June``)."""
    positional: bool = False
    """An ARIA-less slider whose scale is not known: ``value`` is where its thumb is (0…100 %)."""
    shown: bool = False
    """``value``, ``min`` and ``max`` are the numbers the page shows beside it (:func:`_measure_scale`)."""
    value: float = 0.0
    min: float = 0.0
    max: float = 100.0
    step: float | None = None
    vertical: bool = False
    thumb: Point = Point()
    track: Rect = Rect()
    tolerance: float = 0.0
    """How close counts as reached: one pixel of the track for a slider read from its thumb's position."""


class _Scale(msgspec.Struct, frozen=True):
    """``measureScale``: the number shown beside an ARIA-less slider at the start and at its ends."""

    found: bool = False
    ok: bool = False
    start: float = 0.0
    min: float = 0.0
    max: float = 0.0


_MAX_KEYS: Final = 200
"""Key presses one set action may spend (a slider of 1,000 steps is reached by PageUp first)."""
_UNBOUNDED: Final = 2.0**53 - 1
"""The bound a spin button without ``aria-valuemin``/``aria-valuemax`` is read with."""
_FAR_STEPS: Final = 10
"""Further than this many steps, a page key is tried before the arrows."""
_KEYS: Final = {
    name: parse_chord(name)
    for name in ("Home", "End", "PageUp", "PageDown", "ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown")
}
_NO_SCALE: Final = (
    "{id} shows no number beside it and declares no range: its value is taken as a position "
    "0…100 along its track"
)


def _number(value: float) -> str:
    return f"{value:g}"


def same(a: float, b: float, at: SliderAt) -> bool:
    """``a`` and ``b`` are the same place of slider ``at`` (within its tolerance, or rounding)."""
    return abs(a - b) <= max(1e-9 * max(abs(at.max - at.min), 1.0), at.tolerance)


def value_problem(at: SliderAt, value: float) -> str | None:
    """Why slider ``at`` cannot take ``value`` (outside its range, off its step), or None."""
    if value < at.min or value > at.max:
        return f"value {_number(value)} is outside {_number(at.min)}…{_number(at.max)}"
    if at.step:
        steps = (value - at.min) / at.step
        if abs(steps - round(steps)) > 1e-6:
            return f"value {_number(value)} is not a step of {_number(at.step)} from {_number(at.min)}"
    return None


def slider_state(at: SliderAt) -> str:
    """Where a slider is, in words: ``at 35 (0…50)``; a spin button's as the page words it
    too, its unstated bounds left out: ``at 6 (1…12): 06 – June``."""
    if at.spin:
        bounded = max(abs(at.min), abs(at.max)) < _UNBOUNDED
        bounds = f" ({_number(at.min)}…{_number(at.max)})" if bounded else ""
        said = f": {at.said}" if at.said and at.said != _number(at.value) else ""
        return f"at {_number(at.value)}{bounds}{said}"
    return f"at {_number(at.value)} ({_number(at.min)}…{_number(at.max)})"


def drag_end(at: SliderAt, target: float) -> tuple[float, float]:
    """Where on slider ``at``'s track its thumb goes for ``target`` (viewport CSS px)."""
    track = at.track
    share = (target - at.min) / (at.max - at.min) if at.max > at.min else 0.0
    if at.vertical:
        return track.left + track.width / 2, track.top + track.height * (1 - share)
    return track.left + track.width * share, track.top + track.height / 2


class KeyWalk:
    """Which key moves a slider towards a target next, learning how far its keys move it.

    An arrow moves one step (the slider's own, else as measured); a page key is tried
    while the target is more than :data:`_FAR_STEPS` steps away, and used again only while
    the gap is at least what it moved (never once it overshot). The walk ends when the
    slider is there, an arrow does not move it, or an arrow carries it past the target.
    """

    def __init__(self, unit: float | None) -> None:
        self.unit = unit
        """How far an arrow moves the slider (None: not known yet)."""
        self.page: float | None = None
        """How far a page key moves it, once measured; 0: a page overshoots, do not use it."""

    def key(self, now: SliderAt, target: float) -> str | None:
        """The key to press next (None: the slider is at ``target``)."""
        gap = target - now.value
        if same(now.value, target, now):
            return None
        far = self.unit is not None and self.unit > 0 and abs(gap) / self.unit > _FAR_STEPS
        if far and self.page != 0 and (self.page is None or abs(gap) >= self.page):
            return "PageUp" if gap > 0 else "PageDown"
        if now.spin:  # its left and right keys move to the next field (a date's segments)
            return "ArrowUp" if gap > 0 else "ArrowDown"
        return "ArrowRight" if gap > 0 else "ArrowLeft"

    def moved(self, key: str, was: SliderAt, now: SliderAt, target: float) -> bool:
        """Learn from ``key`` moving the slider from ``was`` to ``now``; False: stop walking."""
        moved = abs(now.value - was.value)
        crossed = (now.value - target) * (was.value - target) < 0
        if key.startswith("Page"):
            self.page = 0.0 if crossed else moved
            return True
        if self.unit is None or not now.step:
            self.unit = moved
        return not (moved == 0 or crossed)


async def set_value(step: Step) -> str | None:
    """The slider moved to ``value`` (by keys, else by a drag), and said where it got to."""
    target = step.args.value
    assert target is not None
    trip = step.trip
    await step.ready()
    now = await step.call(SliderAt, PageFunction.SLIDER)
    if not now.found:
        step.gone()
    if now.spin:
        return await _spin(step, now, target)
    focus = await step.call(Focused, PageFunction.FOCUS_FOR) if now.positional else None
    if focus is not None and focus.ok:
        now = await _measure_scale(step, now, target)
    if now.positional:
        trip.warnings.append(_NO_SCALE.format(id=step.id))
    problem = value_problem(now, target)
    if problem:
        why = f" ({_NO_SCALE.format(id='it')})" if now.positional else ""
        raise ActRefused(codes.INVALID_ARGUMENT, f"{step.entry.tool}: {problem}{why}")
    if same(now.value, target, now):
        trip.warnings.append(f"{step.id} was already at {_number(target)}")
        trip.state = slider_state(now)
        return None
    focus = focus or await step.call(Focused, PageFunction.FOCUS_FOR)
    trip.performed = True
    if focus.ok:
        now = await _set_by_keys(step, now, target)
    if not same(now.value, target, now):
        # The page ignores keys: drag its thumb there, as a person with a mouse does.
        now = await _set_by_drag(step, now, target)
    trip.state = slider_state(now)
    if not same(now.value, target, now):
        return f"{step.id} stopped at {_number(now.value)}, not {_number(target)}"
    return None


async def _spin(step: Step, now: SliderAt, target: float) -> str | None:
    """The spin button stepped to ``target`` by its keys (an empty one first given a value by
    ArrowUp), its value read back after each; said where it got to.

    Raises :class:`~cdpagent.errors.ActRefused`: ``INVALID_ARGUMENT`` when ``target`` is outside
    its range, ``ACTION_UNAVAILABLE`` when it does not take the focus."""
    trip = step.trip
    problem = value_problem(now, target)
    if problem:
        raise ActRefused(codes.INVALID_ARGUMENT, f"{step.entry.tool}: {problem}")
    if not now.empty and same(now.value, target, now):
        trip.warnings.append(f"{step.id} was already at {_number(target)}")
        trip.state = slider_state(now)
        return None
    await step.focus()
    trip.performed = True
    if now.empty:
        await press_chord(step.keyboard, _KEYS["ArrowUp"])
        now = await step.call(SliderAt, PageFunction.SLIDER)
    if not now.empty:
        now = await _set_by_keys(step, now, target)
    trip.state = slider_state(now)
    if now.empty or not same(now.value, target, now):
        where = "no value" if now.empty else _number(now.value)
        return f"{step.id} stopped at {where}, not {_number(target)}"
    return None


async def _set_by_keys(step: Step, now: SliderAt, target: float) -> SliderAt:
    """Home/End for the ends, else the keys :class:`KeyWalk` picks; stops when a key does not
    move the slider."""
    if target in (now.min, now.max):
        await press_chord(step.keyboard, _KEYS["Home" if target == now.min else "End"])
        return await step.call(SliderAt, PageFunction.SLIDER)
    walk = KeyWalk(now.step)
    for _ in range(_MAX_KEYS):
        key = walk.key(now, target)
        if key is None:
            break
        await press_chord(step.keyboard, _KEYS[key])
        was, now = now, await step.call(SliderAt, PageFunction.SLIDER)
        if not walk.moved(key, was, now, target):
            break
    return now


async def _measure_scale(step: Step, now: SliderAt, target: float) -> SliderAt:
    """An ARIA-less slider's own scale, found as a person finds it: Home, End, and the
    number the page shows beside it at each end (the handle has the focus). Moves the
    slider; when ``target`` is outside the scale found, moves it back to where it was
    before refusing. Without such a number the slider stays positional (0…100 % of its
    track, ``positional`` still true) and is dragged back to where it was.

    Raises :class:`~cdpagent.errors.ActRefused` (``INVALID_ARGUMENT``) with the page's range when
    ``target`` is outside it.
    """
    start = await step.call(_Scale, PageFunction.MEASURE_SCALE, "start")
    if not start.ok:
        return now
    step.trip.performed = True
    await press_chord(step.keyboard, _KEYS["Home"])
    await step.call(_Scale, PageFunction.MEASURE_SCALE, "min")
    await press_chord(step.keyboard, _KEYS["End"])
    scale = await step.call(_Scale, PageFunction.MEASURE_SCALE, "max")
    measured = await step.call(SliderAt, PageFunction.SLIDER)
    if not (scale.ok and measured.shown):
        return await _set_by_drag(step, measured, now.value)
    if not scale.min <= target <= scale.max:
        back = await _set_by_keys(step, measured, scale.start)
        step.trip.state = slider_state(back)
        raise ActRefused(
            codes.INVALID_ARGUMENT,
            f"{step.entry.tool}: value {_number(target)} is outside the slider's range "
            f"{_number(scale.min)}…{_number(scale.max)} (the numbers the page shows at its ends)",
        )
    return measured


async def _set_by_drag(step: Step, now: SliderAt, target: float) -> SliderAt:
    start = await step.point(now.thumb.x, now.thumb.y)
    finish = await step.point(*drag_end(now, target))
    await step.drag(start, finish)
    return await step.call(SliderAt, PageFunction.SLIDER)
