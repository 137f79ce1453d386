"""The typing performer, ``type``: focus, select all, typed text, Enter where the action submits,
else the field left as a person moving on leaves it (its change and blur fire) unless it
offers suggestions.

An inferred in-place edit is double-clicked first (its field appears); a read-only field
is clicked, which may open its picker (``PICKER_REQUIRED`` then says to choose from it);
a date, time, month or week input is typed segment by segment from ISO text, in the
order the browser's locale shows the segments (:func:`date_keys`, plain arithmetic
tested without a browser); other picked controls (colour, range) take their value
natively. The field's value is never echoed: it may be sensitive.
"""

from __future__ import annotations

import re
from contextlib import suppress
from typing import Final

import msgspec

from ..cdp.input import (
    insert_text,
    parse_chord,
    press_chord,
    press_key,
    type_keys,
    type_like_a_person,
)
from ..cdp.world import PageFunction, call_function
from ..errors import ActRefused, PageFunctionError, ProtocolError
from ..snapshot import codes
from ..snapshot.clickables import KEY_EVENTS, array_elements, element_listeners
from ..snapshot.frames import FramePoint
from .step import Done, Focused, Prepared, Step, call

__all__ = ["DateFormat", "date_keys", "type_text"]

_TYPED_DATES: Final = frozenset({"date", "time", "datetime-local", "month", "week"})
#: Up to this many characters are typed key by key where the page listens for keys; beyond,
#: all but the last are inserted at once (as a paste) and the last is typed.
_KEYED_CHARS: Final = 200
_GROUP: Final = "cdpagent-typing"
_NEXT_SEGMENT: Final = "ArrowRight"
_NEXT: Final = parse_chord(_NEXT_SEGMENT)
_SELECT_ALL: Final = parse_chord("Control+A")


class _Value(msgspec.Struct, frozen=True):
    """``valueIs`` / ``pick``: whether the field holds the text (only its length, never its value)."""

    found: bool = False
    ok: bool = False
    length: int = 0


class DateFormat(msgspec.Struct, frozen=True):
    """``dateFormat``: how the browser's locale shows a date/time input's segments.

    ``date``: the order of ``year``, ``month`` and ``day``; ``month``: of ``year`` and
    ``month`` (a month input); ``time``: of ``hour``, ``minute`` and (on a 12-hour clock)
    ``dayPeriod``.
    """

    found: bool = False
    type: str = ""
    """The input's type: ``date``, ``time``, ``datetime-local``, ``month`` or ``week``."""
    date: tuple[str, ...] = ("year", "month", "day")
    month: tuple[str, ...] = ("year", "month")
    time: tuple[str, ...] = ("hour", "minute")
    twelve: bool = False
    """The locale's clock has 12 hours (a day period follows)."""


_ISO: Final = {
    "date": re.compile(r"(\d{4,6})-(\d{2})-(\d{2})", re.ASCII),
    "time": re.compile(r"(\d{2}):(\d{2})", re.ASCII),
    "datetime-local": re.compile(r"(\d{4,6})-(\d{2})-(\d{2})T(\d{2}):(\d{2})", re.ASCII),
    "month": re.compile(r"(\d{4,6})-(\d{2})", re.ASCII),
    "week": re.compile(r"(\d{4,6})-W(\d{2})", re.ASCII),
}


def _time_groups(hour: str, minute: str, form: DateFormat) -> list[str]:
    h = int(hour)
    shown = (h + 11) % 12 + 1 if form.twelve else h
    parts = {"hour": f"{shown:02d}", "minute": minute, "dayPeriod": "A" if h < 12 else "P"}
    return [parts.get(t, "") for t in form.time]


def date_keys(iso: str, form: DateFormat) -> list[str] | None:
    """What a person types into a ``form.type`` input to enter ``iso``: digit groups in the
    locale's segment order, with :data:`_NEXT_SEGMENT` where the browser does not move to the
    next segment by itself; None when ``iso`` is no ISO value of that type.

    The browser moves on once a segment cannot take another digit (a month, a day, an
    hour); a year can, and a month input's month (shown by name in some locales) takes no
    digit count: after those a person presses ArrowRight.
    """
    pattern = _ISO.get(form.type)
    m = pattern.fullmatch(iso) if pattern is not None else None
    if m is None:
        return None
    groups: list[str]
    if form.type == "week":
        groups = [m[2], m[1]]
    elif form.type == "time":
        groups = _time_groups(m[1], m[2], form)
    elif form.type == "month":
        groups = [{"year": m[1], "month": m[2]}.get(t, "") for t in form.month]
    else:
        groups = [{"year": m[1], "month": m[2], "day": m[3]}.get(t, "") for t in form.date]
        if form.type == "datetime-local":
            groups += _time_groups(m[4], m[5], form)
    keys: list[str] = []
    for i, group in enumerate(groups):
        keys.append(group)
        if i < len(groups) - 1 and (len(group) >= 4 or form.type == "month"):
            keys.append(_NEXT_SEGMENT)
    return keys


async def type_text(step: Step) -> str | None:
    """``text`` typed into the field, replacing its value; Enter after it where the action
    submits, else the field is left (blurred, :func:`_leave`) unless it offers suggestions."""
    text = step.args.text
    assert text is not None
    trip = step.trip
    prep, at = await _type_target(step)
    if prep.reveal:
        trip.performed = True
        await step.click(at, clicks=2)
        opened = await step.prepare()
        if not opened.found or opened.reason or opened.reveal:
            return f"double-clicking {step.id} opened no text field to type into"
    focus = await step.call(Focused, PageFunction.FOCUS_FOR_TYPING)
    if not focus.ok:
        raise ActRefused(codes.ACTION_UNAVAILABLE, f"{step.id}: {focus.reason}", focus.reason)
    kind = step.entry.input.input_type if step.entry.input else ""
    if focus.picked and kind in _TYPED_DATES:
        value = await _type_date(step, text)
    elif focus.picked:
        trip.performed = True
        value = await step.call(_Value, PageFunction.PICK, text)
    else:
        trip.performed = True
        doing = f"{step.id} was being typed into"
        await call(step.world, Done, PageFunction.WATCH)
        if focus.drawn:
            await trip.unless_replaced(lambda: press_chord(step.keyboard, _SELECT_ALL), doing)
        keyed = bool(text) and await _listens_for_keys(step)
        if text:
            await trip.unless_replaced(lambda: _type(step, text, keyed), doing)
        elif not focus.empty:
            await trip.unless_replaced(lambda: press_key(step.keyboard, "Delete", "Delete", 46), doing)
        value = await step.call(_Value, PageFunction.VALUE_IS, text)
        if keyed and value.found and not value.ok:
            # The page handles keys itself (a spin button that refuses them): insert instead.
            trip.warnings.append(f"{step.id} did not take the text key by key; it was inserted at once")
            await step.call(Focused, PageFunction.FOCUS_FOR_TYPING)
            await trip.unless_replaced(lambda: insert_text(step.keyboard, text), doing)
            value = await step.call(_Value, PageFunction.VALUE_IS, text)
    if value.found and not value.ok:
        # Never echo the value: the field may be sensitive.
        return f"{step.id} holds {value.length} characters instead of the {len(text)} typed"
    if step.entry.submit:
        await press_key(step.keyboard, "Enter", "Enter", 13, "\r")
    elif not focus.picked:
        await _leave(step)
    return None


class _Changed(msgspec.Struct, frozen=True):
    """``changed``: whether the page changed since ``watch``; ``listed``: a list of choices was
    added or shown meanwhile (suggestions the typing opened)."""

    found: bool = False
    ok: bool = False
    listed: bool = False


async def _leave(step: Step) -> None:
    """Leave the field typed into, as a person moving on does: its ``change`` and ``blur`` fire,
    so a page that applies a field when it loses focus (\"Press Enter to apply\") has the value
    when the act ends. A field that offers suggestions, or whose typing opened a list of
    choices, keeps the focus: the next act picks from its list."""
    opened = await call(step.world, _Changed, PageFunction.CHANGED)
    if not opened.listed:
        await step.call(Done, PageFunction.LEAVE_FIELD)


async def _type(step: Step, text: str, keyed: bool) -> None:
    """Put ``text`` into the focused field: key by key where the page listens for keys (so its
    suggestions open), else as one insertion (one ``input`` event, as an input method commits)."""
    if not keyed:
        await insert_text(step.keyboard, text)
        return
    if len(text) > _KEYED_CHARS:
        await insert_text(step.keyboard, text[:-1])
        text = text[-1]
    await type_like_a_person(step.keyboard, text)


async def _listens_for_keys(step: Step) -> bool:
    """Whether the focused element, a node above it or the window has a key listener.

    False when the browser cannot say (the world or an element went away meanwhile): the
    text is then inserted, as before key listeners were asked about.
    """
    session, context = step.world
    try:
        handle = await call_function(session, PageFunction.FOCUS_PATH, context=context, group=_GROUP)
        if handle is None:
            return False
        ids = await array_elements(session, handle)
        listeners = await element_listeners(session, ids, _GROUP) if ids else []
        window = await session.send("Runtime.evaluate", {"expression": "window", "objectGroup": _GROUP})
        object_id = window.get("result", {}).get("objectId")
        if object_id:
            on_window = await session.send("DOMDebugger.getEventListeners", {"objectId": object_id})
            listeners.append(list(on_window.get("listeners", [])))
    except (PageFunctionError, ProtocolError):
        return False
    finally:
        with suppress(ProtocolError):
            await session.send("Runtime.releaseObjectGroup", {"objectGroup": _GROUP})
    return any(str(item.get("type", "")) in KEY_EVENTS for found in listeners for item in found)


async def _type_target(step: Step) -> tuple[Prepared, FramePoint]:
    """The field to type into; a read-only one is clicked, which opens its picker if it has one.

    Raises :class:`~cdpagent.errors.ActRefused`: ``PICKER_REQUIRED`` when the click changed the page (a
    picker opened) and the field is still read-only, ``ACTION_UNAVAILABLE`` (read-only) when it did not.
    """
    prep = await step.prepare()
    if prep.reason != "read-only":
        if prep.reason:
            step.refuse(prep.reason, prep.cover)
        return prep, await step.point(prep.x, prep.y)
    at = await step.point(prep.x, prep.y)
    await call(step.world, Done, PageFunction.WATCH)
    step.trip.performed = True
    await step.click(at)
    opened = await call(step.world, Done, PageFunction.CHANGED)
    prep = await step.prepare()
    if prep.reason and not opened.ok:
        step.refuse(prep.reason)
    if prep.reason:
        raise ActRefused(
            codes.PICKER_REQUIRED,
            f"{step.id} is read-only and takes no typing; clicking it opened what it offers: "
            "observe the page and choose the value from the picker that opened",
            prep.reason,
        )
    return prep, await step.point(prep.x, prep.y)


async def _type_date(step: Step, text: str) -> _Value:
    """Type an ISO date/time into its segments in the locale's order, as a person does."""
    form = await step.call(DateFormat, PageFunction.DATE_FORMAT)
    if not form.found:
        step.gone()
    keys = date_keys(text, form)
    if keys is None:
        raise ActRefused(
            codes.INVALID_ARGUMENT, f"{step.entry.tool}: {text[:40]} is not an ISO {form.type} value"
        )
    step.trip.performed = True
    for group in keys:
        if group == _NEXT_SEGMENT:
            await press_chord(step.keyboard, _NEXT)
        else:
            await type_keys(step.keyboard, group)
    value = await step.call(_Value, PageFunction.VALUE_IS, text)
    if value.found and not value.ok:
        step.trip.warnings.append(f"typing into {step.id} did not give {text!r}; its value was set directly")
        value = await step.call(_Value, PageFunction.PICK, text)
    return value
