"""The performers of choices: ``select`` (an option of a list, selected natively, with the
``input`` and ``change`` a person's choice fires), ``choose`` (the radio of a group, clicked
by its label) and ``check`` (a checkbox or switch clicked when its state differs). Each
verifies the state it set."""

from __future__ import annotations

import msgspec

from ..cdp.world import PageFunction
from ..errors import ActRefused
from ..snapshot import codes
from .step import COVERED, Done, Step, call, covering

__all__ = ["check", "choose", "select"]


class _Chosen(msgspec.Struct, frozen=True):
    """``choose``: whether the option is selected now, or why it could not be."""

    found: bool = False
    ok: bool = False
    reason: str | None = None
    options: list[str] = []


class _Checked(msgspec.Struct, frozen=True):
    """``state`` / ``radioIs``: whether a check control (a group's radio) is checked now."""

    found: bool = False
    checked: bool | None = None


class _Landed(msgspec.Struct, frozen=True):
    """``aim`` / ``pressedOn``: whether the click's press reached the control, else what it reached."""

    found: bool = False
    ok: bool = False
    cover: str = ""


class _Radio(msgspec.Struct, frozen=True):
    """``radio``: where to click the option of a choose group, or why it cannot be."""

    found: bool = False
    ok: bool = False
    reason: str | None = None
    cover: str = ""
    options: list[str] = []
    x: float = 0.0
    y: float = 0.0
    checked: bool = False


def _option_refusal(step: Step, option: str, found: bool, reason: str | None, options: list[str]) -> None:
    """Raise the refusal of a select or choose whose element is gone or whose option is not
    offered (``UNKNOWN_OPTION`` with the options; act.js lists none of a sensitive control, OB-2)."""
    if not found:
        step.gone()
    if reason:
        offered = " / ".join(options) or "(not listed)"
        raise ActRefused(codes.UNKNOWN_OPTION, f"{reason}: {option!r}; the options are: {offered}")


async def check(step: Step) -> str | None:
    """A click on the control when its checked state is not ``checked`` already. When the click
    left the control as it was, the page is let settle (what the click started is done), and
    the control is clicked once more when the press reached something else (the page drew a
    list over it between the hit test and the press) or the click changed the page but not
    the control (it closed a list or menu open elsewhere, which took the click), as a person
    does. Raises :class:`~cdpagent.errors.ActRefused` when the control cannot be used, also
    when it is covered at the second click."""
    checked = step.args.checked
    prep, at = await step.ready()
    if bool(prep.checked) == checked:
        step.trip.warnings.append(f"{step.id} was already {'checked' if checked else 'unchecked'}")
        return None
    step.trip.performed = True
    await call(step.world, Done, PageFunction.WATCH)
    await step.call(_Landed, PageFunction.AIM)
    await step.click(at)
    now = await step.call(_Checked, PageFunction.STATE)
    if now.found and now.checked != checked:
        await step.settled()
        now = await step.call(_Checked, PageFunction.STATE)
        landed = await call(step.world, _Landed, PageFunction.PRESSED_ON)
        missed = landed.found and not landed.ok
        changed = (await call(step.world, Done, PageFunction.CHANGED)).ok
        if now.found and now.checked != checked and (changed or missed):
            prep, at = await step.ready()
            if bool(prep.checked) != checked:
                if missed:
                    step.trip.warnings.append(
                        f"the first click on {step.id} reached {covering(landed.cover)}, drawn over it "
                        "as it was pressed; it was clicked again"
                    )
                await step.click(at)
                await step.settled()
                now = await step.call(_Checked, PageFunction.STATE)
    if now.found and now.checked != checked:
        return f"{step.id} is still {'checked' if now.checked else 'unchecked'} after the click"
    return None


async def select(step: Step) -> str | None:
    """The option selected natively, with the events a person's choice fires."""
    option = step.args.option
    assert option is not None
    await step.ready()
    chosen = await step.call(_Chosen, PageFunction.CHOOSE, option)
    _option_refusal(step, option, chosen.found, chosen.reason, chosen.options)
    step.trip.performed = True
    if not chosen.ok:
        return f"{option!r} is not the selected option after choosing it"
    return None


async def choose(step: Step) -> str | None:
    """A click on the radio of the group whose label (or value) is ``option``."""
    option = step.args.option
    assert option is not None
    await step.ready()
    target = await step.call(_Radio, PageFunction.RADIO, option)
    if target.reason == COVERED:
        step.refuse(target.reason, target.cover)
    _option_refusal(step, option, target.found, target.reason, target.options)
    if target.checked:
        step.trip.warnings.append(f"{option!r} was already chosen in {step.id}")
        return None
    at = await step.point(target.x, target.y)
    step.trip.performed = True
    await step.click(at)
    now = await step.call(_Checked, PageFunction.RADIO_IS, option)
    if now.found and not now.checked:
        return f"{option!r} is not the chosen option of {step.id} after clicking it"
    return None
