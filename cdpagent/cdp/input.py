"""Trusted input: mouse clicks, moves, wheel turns, drags and keys delivered through CDP's ``Input`` domain.

Events sent this way are indistinguishable from a person's (``isTrusted`` is
true), so the page's own handlers run exactly as they would for a click or a
key press. Both the actions of the observation model (``cdpagent.act.perform``)
and the test harness's simulated person (``cdpagent.ops.harness``) deliver input
through these functions; coordinates are CSS pixels in the tab's viewport.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from .connection import Session

__all__ = [
    "KEY_NAMES",
    "Chord",
    "Key",
    "insert_text",
    "mouse_click",
    "mouse_drag",
    "mouse_move",
    "mouse_wheel",
    "parse_chord",
    "press_chord",
    "press_key",
    "type_keys",
    "type_like_a_person",
    "typing_events",
]


async def mouse_click(session: Session, x: float, y: float, clicks: int = 1, *, moved: bool = False) -> None:
    """Move to ``(x, y)`` (unless the mouse was ``moved`` there) and click there with the left
    button ``clicks`` times in a row.

    ``clicks=2`` is a double click: the page sees click, click, dblclick, as from a person.
    Raises the driver's errors (``SessionClosed``, ``ProtocolError``) when the tab is gone.
    """
    if not moved:
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


# -- key chords ---------------------------------------------------------------------

#: Named keys a chord may use: ``key`` → (``code``, virtual key code, text it types).
_NAMED_KEYS: Final[dict[str, tuple[str, int, str]]] = {
    "Enter": ("Enter", 13, "\r"),
    "Escape": ("Escape", 27, ""),
    "Tab": ("Tab", 9, ""),
    "Backspace": ("Backspace", 8, ""),
    "Delete": ("Delete", 46, ""),
    "Space": ("Space", 32, " "),
    "ArrowUp": ("ArrowUp", 38, ""),
    "ArrowDown": ("ArrowDown", 40, ""),
    "ArrowLeft": ("ArrowLeft", 37, ""),
    "ArrowRight": ("ArrowRight", 39, ""),
    "PageUp": ("PageUp", 33, ""),
    "PageDown": ("PageDown", 34, ""),
    "Home": ("Home", 36, ""),
    "End": ("End", 35, ""),
    "Insert": ("Insert", 45, ""),
    **{f"F{n}": (f"F{n}", 111 + n, "") for n in range(1, 13)},
}
#: Modifier name → (CDP modifier bit, ``key``/``code``, virtual key code).
_MODIFIERS: Final[dict[str, tuple[int, str, str, int]]] = {
    "Alt": (1, "Alt", "AltLeft", 18),
    "Control": (2, "Control", "ControlLeft", 17),
    "Meta": (4, "Meta", "MetaLeft", 91),
    "Shift": (8, "Shift", "ShiftLeft", 16),
}
_ALIASES: Final = {"Ctrl": "Control", "Cmd": "Meta", "Esc": "Escape", "Return": "Enter", " ": "Space"}
KEY_NAMES: Final = (*_NAMED_KEYS, "a single character (a, 7, /…)")
"""What :func:`parse_chord` accepts after the modifiers, for error messages and docs."""


class Key(msgspec.Struct, frozen=True):
    """One key as ``Input.dispatchKeyEvent`` wants it: ``key``, ``code``, virtual key code, typed text."""

    key: str
    code: str
    vk: int
    text: str = ""


class Chord(msgspec.Struct, frozen=True):
    """A key pressed while ``modifiers`` are held (``Shift+Tab``, ``Control+A``)."""

    key: Key
    modifiers: tuple[str, ...] = ()

    @property
    def mask(self) -> int:
        """The CDP ``modifiers`` bit mask (Alt 1, Control 2, Meta 4, Shift 8)."""
        return sum(_MODIFIERS[m][0] for m in self.modifiers)


def _key_of(name: str, shift: bool) -> Key:
    if name in _NAMED_KEYS:
        code, vk, text = _NAMED_KEYS[name]
        return Key(" " if name == "Space" else name, code, vk, text)
    if len(name) != 1 or not name.isprintable():
        raise ValueError(f"unknown key {name!r}; use one of {', '.join(KEY_NAMES)}")
    if name.isascii() and name.isalpha():
        upper = name.upper()
        char = upper if shift else name.lower()
        return Key(char, f"Key{upper}", ord(upper), char)
    if name.isdigit():
        return Key(name, f"Digit{name}", ord(name), name)
    # Punctuation and other characters: typed as themselves, no physical key code.
    return Key(name, "", 0, name)


def parse_chord(chord: str) -> Chord:
    """``"Shift+Tab"`` → the Tab key with Shift held; ``"Enter"``, ``"Control+A"``, ``"a"``.

    Modifiers (``Alt``, ``Control``/``Ctrl``, ``Meta``/``Cmd``, ``Shift``) come
    first, joined by ``+``; the last part is one named key (:data:`KEY_NAMES`) or
    one character. Raises :class:`ValueError` whose message names what is accepted.
    """
    if chord == "+":
        parts = ["+"]
    elif chord.endswith("++"):
        parts = [*chord[:-2].split("+"), "+"]
    else:
        parts = chord.split("+")
    parts = [_ALIASES.get(p, p) for p in parts]
    if not chord or any(not p for p in parts):
        raise ValueError(f"not a key or chord: {chord!r} (for example Enter, Shift+Tab, Control+A)")
    *mods, last = parts
    for m in mods:
        if m not in _MODIFIERS:
            raise ValueError(f"unknown modifier {m!r} in {chord!r}; use {', '.join(_MODIFIERS)}")
    if len(set(mods)) != len(mods):
        raise ValueError(f"a modifier is repeated in {chord!r}")
    return Chord(_key_of(last, "Shift" in mods), tuple(mods))


_KEY_EVENT: Final = "Input.dispatchKeyEvent"


def _chord_events(chord: Chord) -> list[tuple[str, dict[str, Any]]]:
    """The key events of pressing ``chord``: modifiers down, the key down and up, modifiers up."""
    events: list[tuple[str, dict[str, Any]]] = []
    held = 0
    for m in chord.modifiers:
        bit, key, code, vk = _MODIFIERS[m]
        held |= bit
        events.append(
            (
                _KEY_EVENT,
                {
                    "type": "rawKeyDown",
                    "key": key,
                    "code": code,
                    "windowsVirtualKeyCode": vk,
                    "modifiers": held,
                },
            )
        )
    k = chord.key
    text = k.text if not held & ~8 else ""
    common: dict[str, Any] = {"key": k.key, "code": k.code, "windowsVirtualKeyCode": k.vk, "modifiers": held}
    if k.vk:
        common["nativeVirtualKeyCode"] = k.vk
    down = {"type": "keyDown" if text else "rawKeyDown", **common}
    if text:
        down["text"] = text
        down["unmodifiedText"] = text
    events += [(_KEY_EVENT, down), (_KEY_EVENT, {"type": "keyUp", **common})]
    for m in reversed(chord.modifiers):
        bit, key, code, vk = _MODIFIERS[m]
        held &= ~bit
        events.append(
            (
                _KEY_EVENT,
                {"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": vk, "modifiers": held},
            )
        )
    return events


async def press_chord(session: Session, chord: Chord) -> None:
    """Press ``chord`` as a person does: modifiers down, the key down and up, modifiers up.

    A key pressed with Control, Alt or Meta types nothing (so ``Control+A`` selects
    all instead of typing "a"). Raises the driver's errors when the tab is gone.
    """
    for method, params in _chord_events(chord):
        await session.send(method, params)


def typing_events(text: str) -> list[tuple[str, dict[str, Any]]]:
    """The input events of a person typing ``text``: a key press per character (``keydown``,
    ``keypress``, ``input``, ``keyup``), Enter for a line break, and a character no key types
    (beyond ASCII) composed as an input method does (``compositionstart`` … ``compositionend``,
    ``input``). Plain arithmetic on the text, tested without a browser."""
    events: list[tuple[str, dict[str, Any]]] = []
    for char in text:
        if char == "\n":
            events += _chord_events(Chord(_key_of("Enter", False)))
        elif char.isascii() and char.isprintable():
            events += _chord_events(Chord(_key_of(char, char.isupper())))
        else:
            # An input method's key reports 229 ("Process") around its composition.
            process = {"key": "Process", "code": "", "windowsVirtualKeyCode": 229}
            events.append((_KEY_EVENT, {"type": "rawKeyDown", **process}))
            events.append(("Input.imeSetComposition", {"text": char, "selectionStart": 1, "selectionEnd": 1}))
            events.append(("Input.insertText", {"text": char}))
            events.append((_KEY_EVENT, {"type": "keyUp", **process}))
    return events


async def type_like_a_person(session: Session, text: str) -> None:
    """Type ``text`` as :func:`typing_events` says, pipelined: one round trip for the whole text
    (the browser handles a session's commands in order). Raises the driver's errors."""
    await session.send_batch(typing_events(text))


async def type_keys(session: Session, text: str) -> None:
    """Type ``text`` one key press per character (for fields that take no text insertion,
    such as the segments of a date input). Raises the driver's errors when the tab is gone."""
    for char in text:
        await press_chord(session, Chord(_key_of(char, char.isupper())))


# -- the mouse beyond a click -------------------------------------------------------


async def mouse_move(session: Session, x: float, y: float) -> None:
    """Move the mouse to ``(x, y)``: the page sees pointerover/enter, mouseover/enter, move.

    Raises the driver's errors when the tab is gone.
    """
    await session.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})


async def mouse_wheel(session: Session, x: float, y: float, dy: float, dx: float = 0.0) -> None:
    """Turn the wheel over ``(x, y)`` by ``dy`` (down is positive) and ``dx`` CSS pixels.

    The page gets a trusted ``wheel`` event and the browser scrolls the scrollable
    element under the point, which then fires ``scroll``. Raises the driver's errors.
    """
    await session.send(
        "Input.dispatchMouseEvent",
        {"type": "mouseWheel", "x": x, "y": y, "deltaX": dx, "deltaY": dy},
    )


async def mouse_drag(
    session: Session, start: tuple[float, float], end: tuple[float, float], steps: int = 5
) -> None:
    """Press the left button at ``start``, move to ``end`` in ``steps`` moves, release there.

    Raises the driver's errors when the tab is gone.
    """
    (x0, y0), (x1, y1) = start, end
    await mouse_move(session, x0, y0)
    common = {"button": "left", "clickCount": 1}
    await session.send(
        "Input.dispatchMouseEvent", {"type": "mousePressed", "x": x0, "y": y0, "buttons": 1, **common}
    )
    for i in range(1, steps + 1):
        x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
        await session.send(
            "Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y, "buttons": 1, "button": "left"}
        )
    await session.send(
        "Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x1, "y": y1, "buttons": 0, **common}
    )
