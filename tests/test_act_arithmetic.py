"""The performers' arithmetic on plain values, without a browser (OB-7): which key moves a
slider next and when a value fits it, where a drag ends, how far a wheel turns, and the
keys a person types into a date or time input in the locale's segment order.

What Chromium decides (that the keys reach the page's handlers, the locale's order) stays
in ``tests/test_actions_kinds.py`` against real Chromium."""

from __future__ import annotations

import pytest

from cdpagent.act.keys import ScrollAt, at_limit, scroll_state, wheel_delta
from cdpagent.act.slider import KeyWalk, Rect, SliderAt, drag_end, same, slider_state, value_problem
from cdpagent.act.text import DateFormat, date_keys

# -- sliders ---------------------------------------------------------------------------


def _walk(start: SliderAt, target: float, page: float, arrow: float | None = None) -> list[str]:
    """The keys :class:`KeyWalk` presses on a simulated slider whose page keys move ``page``
    and arrows ``arrow`` (default: its step), clamped to its range."""
    now, walk, pressed = start, KeyWalk(start.step), []
    by = {"PageUp": page, "PageDown": -page}
    unit = arrow if arrow is not None else start.step or 1.0
    by |= {"ArrowRight": unit, "ArrowLeft": -unit, "ArrowUp": unit, "ArrowDown": -unit}
    for _ in range(200):
        key = walk.key(now, target)
        if key is None:
            break
        pressed.append(key)
        was = now
        now = SliderAt(found=True, spin=now.spin, value=min(max(now.value + by[key], now.min), now.max),
                       min=now.min, max=now.max, step=now.step)  # fmt: skip
        if not walk.moved(key, was, now, target):
            break
    assert same(now.value, target, now) or not pressed, (now, pressed)
    return pressed


def test_ob7_a_slider_far_away_is_paged_then_stepped_and_a_page_that_overshoots_is_not_used_again() -> None:
    start = SliderAt(found=True, value=0, min=0, max=100, step=1)
    assert _walk(start, 42, page=10) == ["PageUp"] * 4 + ["ArrowRight"] * 2
    # A page past the target: back by arrows, and no page key after that.
    assert _walk(start, 20, page=25) == ["PageUp"] + ["ArrowLeft"] * 5
    # A slider whose step is unknown learns it from the first arrow (jQuery UI's handle).
    unknown = SliderAt(found=True, value=100, min=0, max=100)
    assert _walk(unknown, 42, page=20, arrow=1) == ["ArrowLeft", "PageDown", "PageDown"] + ["ArrowLeft"] * 17


def test_ob7_a_spin_button_is_walked_up_and_down_and_said_as_the_page_words_it() -> None:
    """Issue 34: a spin button's left and right keys move to the next field (a date's
    segments), so its walk uses up and down; its state shows its aria-valuetext, and leaves
    out the bounds it does not declare."""
    month = SliderAt(found=True, spin=True, value=5, min=1, max=12, said="06 – June")
    assert _walk(month, 7, page=3) == ["ArrowUp"] * 2
    assert _walk(month, 2, page=3) == ["ArrowDown"] * 3
    assert slider_state(SliderAt(found=True, spin=True, value=6, min=1, max=12, said="06 – June")) == (
        "at 6 (1…12): 06 – June"
    )
    unbounded = SliderAt(found=True, spin=True, value=3, min=-(2.0**53 - 1), max=2.0**53 - 1, said="3")
    assert slider_state(unbounded) == "at 3"


def test_ob7_a_key_that_does_not_move_the_slider_ends_the_walk() -> None:
    walk = KeyWalk(1.0)
    at = SliderAt(found=True, value=5, min=0, max=10, step=1)
    assert walk.key(at, 7) == "ArrowRight"
    assert walk.moved("ArrowRight", at, at, 7) is False
    assert walk.key(SliderAt(found=True, value=7, min=0, max=10, step=1), 7) is None


def test_ob7_a_value_must_be_in_the_range_and_on_a_step() -> None:
    volume = SliderAt(found=True, value=10, min=0, max=50, step=5)
    assert value_problem(volume, 35) is None
    assert value_problem(volume, 3) == "value 3 is not a step of 5 from 0"
    assert value_problem(volume, 60) == "value 60 is outside 0…50"
    assert value_problem(SliderAt(found=True, min=-10, max=10, step=0.1), 0.3) is None
    assert slider_state(volume) == "at 10 (0…50)"
    # A slider read from its thumb's place counts a pixel of its track as reached.
    thumb = SliderAt(found=True, value=40.4, min=0, max=100, tolerance=0.5)
    assert same(40.4, 40, thumb) and not same(41, 40, thumb)


def test_ob7_a_drag_ends_where_the_value_is_along_the_track() -> None:
    track = Rect(left=100, top=50, width=200, height=20)
    assert drag_end(SliderAt(min=0, max=100, track=track), 25) == (150, 60)
    upright = Rect(left=10, top=100, width=20, height=200)
    assert drag_end(SliderAt(min=0, max=10, vertical=True, track=upright), 10) == (20, 100)
    assert drag_end(SliderAt(min=5, max=5, track=track), 5) == (100, 60)  # no range: its start


# -- scrolling -------------------------------------------------------------------------


def test_ob7_a_wheel_turns_a_page_or_the_rest_of_the_way() -> None:
    box = ScrollAt(found=True, top=100, max=400, client=200)
    assert wheel_delta("down", box) == 175 and wheel_delta("up", box) == -175
    assert wheel_delta("down", ScrollAt(found=True, top=0, max=400, client=20)) == 40
    assert wheel_delta("end", box) == 500 and wheel_delta("start", box) == -300
    assert at_limit("end", ScrollAt(found=True, top=400, max=400)) and not at_limit("up", box)
    assert at_limit("start", ScrollAt(found=True, top=0, max=400))
    assert scroll_state(ScrollAt(found=True, top=400, max=400)) == "at the end (400 px scrolled)"
    assert scroll_state(ScrollAt(found=True, top=0, max=400)) == "at the start (400 px to the end)"
    assert scroll_state(box) == "100 of 400 px scrolled (25 %); 300 px to the end"


# -- dates and times -------------------------------------------------------------------

US = {"date": ("month", "day", "year"), "month": ("month", "year"), "time": ("hour", "minute", "dayPeriod")}
ISO_ORDER = {"date": ("year", "month", "day"), "month": ("year", "month"), "time": ("hour", "minute")}


@pytest.mark.parametrize(
    ("kind", "iso", "order", "twelve", "keys"),
    [
        ("date", "2026-12-01", US, True, ["12", "01", "2026"]),
        ("date", "2026-12-01", ISO_ORDER, False, ["2026", "ArrowRight", "12", "01"]),
        ("month", "2026-12", US, True, ["12", "ArrowRight", "2026"]),
        ("week", "2026-W49", US, True, ["49", "2026"]),
        ("time", "13:45", US, True, ["01", "45", "P"]),
        ("time", "00:05", US, True, ["12", "05", "A"]),
        ("time", "13:45", ISO_ORDER, False, ["13", "45"]),
        ("datetime-local", "2026-12-01T13:45", US, True, ["12", "01", "2026", "ArrowRight", "01", "45", "P"]),
        ("date", "120000-01-31", ISO_ORDER, False, ["120000", "ArrowRight", "01", "31"]),
    ],
)
def test_ob7_iso_text_becomes_the_keys_a_person_types_in_the_locales_order(
    kind: str, iso: str, order: dict[str, tuple[str, ...]], twelve: bool, keys: list[str]
) -> None:
    form = DateFormat(found=True, type=kind, date=order["date"], month=order["month"], time=order["time"],
                      twelve=twelve)  # fmt: skip
    assert date_keys(iso, form) == keys


def test_ob7_text_that_is_no_iso_value_of_the_input_types_nothing() -> None:
    for kind, text in (("date", "12/01/2026"), ("time", "1:45 PM"), ("month", "2026-12-01"),
                       ("week", "2026-49"), ("date", "２０２６-12-01"), ("color", "#fff")):  # fmt: skip
        assert date_keys(text, DateFormat(found=True, type=kind)) is None, (kind, text)
