"""One declared action's element while it is acted on: found again, re-checked, pointed at.

A performer (:data:`cdpagent.act.perform.PERFORMERS`) works on a :class:`Step`: the
action's entry and locator, the act's arguments, and the isolated world of the
document the element is in (the main one or a frame's). The step asks the page's acting
helper (``js/act.js``, ``globalThis.__cdpagentAct``) about the element — every reply
decoded into a Struct — and turns a frame's point into a point of the page
(:func:`cdpagent.snapshot.frames.page_point`) once the document is known unchanged.

Every pointer input of a performer goes through the step (:meth:`Step.move`,
:meth:`Step.click`, :meth:`Step.drag`, :meth:`Step.wheel`), which first makes sure it
reaches the element's document (:meth:`Step.route`): the browser routes the pointer by
point, and a frame of another process is found there only once it has drawn.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Final, NoReturn, TypeVar

import msgspec

from ..cdp.connection import Session
from ..cdp.input import mouse_click, mouse_drag, mouse_move, mouse_wheel
from ..cdp.world import WORLD, PageFunction, call_function
from ..errors import ActRefused, PageFunctionError, ProtocolError, WorldGone
from ..snapshot import codes
from ..snapshot.frames import FramePoint, page_point
from ..snapshot.model import ActionEntry, ActionLocator
from ..snapshot.observe import settle_after_input
from ..snapshot.openai_tools import PRESS_FOCUSED
from ..snapshot.render import clean, fenced
from .inputs import ActArgs
from .roundtrip import Trip

__all__ = [
    "COVERED",
    "Done",
    "Focused",
    "Performer",
    "Point",
    "Prepared",
    "Step",
    "World",
    "call",
    "covering",
    "expect_input",
    "replaced",
    "route_pointer",
    "same_document",
]

World = tuple[Session, int]
"""A session and the context id of its isolated world (the main document's or a frame's)."""

COVERED: Final = "covered by another element"
"""The reason ``js/act.js`` gives for an element another one is drawn over."""

_ROUTED_MS: Final = 500
"""How long the mouse is moved over a frame of another process until the frame sees it."""
_MOVE_WAIT_MS: Final = 50
"""How long such a frame is given to see a move before the mouse moves there again."""


def covering(cover: str) -> str:
    """What covers a control, in a message: the covering element's words (page data, fenced),
    or "another element" when it has none."""
    return fenced(clean(cover, 120)) if cover else "another element"


class Point(msgspec.Struct, frozen=True):
    """A point of a document's viewport, in CSS pixels."""

    x: float = 0.0
    y: float = 0.0


class Prepared(msgspec.Struct, frozen=True):
    """``prepare``: the element found, why it cannot be used, or where to click it."""

    found: bool = False
    reason: str | None = None
    cover: str = ""  # what covers it (page data)
    hover: Point | None = None  # where hovering may show a hidden element (its parent)
    x: float = 0.0
    y: float = 0.0
    checked: bool | None = None
    reveal: bool = False  # an inferred in-place edit: double-click at x/y opens its field


class Focused(msgspec.Struct, frozen=True):
    """``focusFor`` / ``focusForTyping``: the element has the focus (``picked``: it takes its
    value natively; ``empty``: a field that holds nothing; ``drawn``: an input surface whose
    widget draws its text, such as a code editor's, selected with the keyboard)."""

    ok: bool = False
    reason: str | None = None
    picked: bool = False
    empty: bool = False
    drawn: bool = False


class Done(msgspec.Struct, frozen=True):
    """``watch`` / ``changed``: whether the page changed in between; ``shownAfterHover``:
    whether the hidden element is shown now."""

    found: bool = False
    ok: bool = False


_Reply = TypeVar("_Reply", bound=msgspec.Struct)


async def call(
    world: World, reply: type[_Reply], function: PageFunction, *args: Any, await_promise: bool = False
) -> _Reply:
    """``function`` of ``js/act.js`` in ``world`` (:func:`cdpagent.cdp.world.call_function`), its
    reply decoded as ``reply``; ``await_promise``: the function answers with a promise, and its
    value is awaited.

    Raises :class:`~cdpagent.errors.WorldGone` when the world died under the call, and :class:`ActRefused`
    ``ACTION_FAILED`` when the helper threw or answered out of shape.
    """
    session, ctx = world
    try:
        value = await call_function(session, function, *args, context=ctx, await_promise=await_promise)
    except ProtocolError as exc:
        raise WorldGone(str(exc)) from exc
    except PageFunctionError as exc:
        raise ActRefused(codes.ACTION_FAILED, f"the acting helper failed: {exc.text[:200]}") from None
    try:
        return msgspec.convert(value, reply)
    except msgspec.ValidationError as exc:
        raise ActRefused(codes.ACTION_FAILED, f"the acting helper answered out of shape: {exc}") from None


def same_document(trip: Trip) -> None:
    """Raise :class:`~cdpagent.errors.ActRefused` ``PAGE_CHANGED`` unless the main document is still the one
    ``trip`` started on: input meant for one page never reaches the next. Every delivery checks it
    right before its input."""
    doc = trip.tab.documents.main
    if doc is None or doc.serial != trip.serial:
        raise replaced()


def replaced() -> ActRefused:
    """The refusal of an act whose page was replaced before its input was delivered."""
    return ActRefused(codes.PAGE_CHANGED, "the page was replaced before the action could run")


class Step(msgspec.Struct):
    """One action being performed: where its element is and what it was given."""

    trip: Trip
    world: World
    """The isolated world of the element's document: frame ``frame_id``'s, or the main one's."""
    entry: ActionEntry
    locator: ActionLocator
    """Relative to the document of ``world``."""
    args: ActArgs
    frame_id: str | None
    where: Any
    """``locator`` as the page's acting helper takes it."""
    session: Session
    """The tab's session: where the mouse goes (a frame's too: the browser routes it by point,
    :meth:`route`)."""
    id: str
    """The action id (``toggle@t9``)."""
    routed: bool = False
    """A frame of another process has seen a pointer move of this step (:meth:`route`)."""

    @property
    def keyboard(self) -> Session:
        """Where keys and text go: the session of the element's document. Sent on the tab's
        session, they would go to the frame the browser last heard had the focus, which lags
        a focus the page just gave to a frame of another process."""
        return self.world[0]

    async def call(
        self, reply: type[_Reply], function: PageFunction, *args: Any, await_promise: bool = False
    ) -> _Reply:
        """:func:`call` of ``function`` on this step's element (its locator comes first)."""
        return await call(self.world, reply, function, self.where, *args, await_promise=await_promise)

    async def prepare(self, kind: str | None = None) -> Prepared:
        """``prepare`` of act.js; raises :class:`ActRefused` when the element is gone."""
        prep = await self.call(Prepared, PageFunction.PREPARE, kind or self.entry.kind)
        if not prep.found:
            self.gone()
        return prep

    def gone(self) -> NoReturn:
        """Raise the refusal of an element that is no longer on the page."""
        raise ActRefused(codes.ACTION_UNAVAILABLE, f"{self.id} is no longer on the page", "gone")

    def refuse(self, reason: str, cover: str = "") -> NoReturn:
        """Raise the refusal for ``reason``; a covering element is named (page data) with the way out."""
        if reason == COVERED:
            message = (
                f"{self.id} cannot be used now: it is covered by {covering(cover)}. Choose from what "
                f"covers it (observe the page to see its options) or close it: act {PRESS_FOCUSED} with "
                'key "Escape"'
            )
            raise ActRefused(codes.ACTION_UNAVAILABLE, message, reason)
        raise ActRefused(codes.ACTION_UNAVAILABLE, f"{self.id} cannot be used now: {reason}", reason)

    async def settled(self) -> None:
        """The page let settle after an input, as an act's receipt waits for it
        (:func:`~cdpagent.snapshot.observe.settle_after_input`). Raises
        :class:`~cdpagent.errors.WorldGone` when the document went away."""
        session, context = self.world
        try:
            await settle_after_input(session, context, self.trip.opts)
        except ProtocolError as exc:
            raise WorldGone(str(exc)) from exc

    async def point(self, x: float, y: float) -> FramePoint:
        """(x, y) of the element's document on the page, once the document is known unchanged.

        Raises :class:`ActRefused` when the frame is hidden, covered or gone, and
        ``PAGE_CHANGED`` when the main document was replaced.
        """
        at = FramePoint(x, y)
        if self.frame_id is not None:
            try:
                at = await page_point(self.trip.tab, self.frame_id, x, y, WORLD, self.trip.deadline)
            except (LookupError, ProtocolError):
                gone = f"the frame of {self.id} is gone"
                raise ActRefused(codes.ACTION_UNAVAILABLE, gone, "gone") from None
            if at.reason:
                raise ActRefused(
                    codes.ACTION_UNAVAILABLE, f"{self.id} cannot be used now: {at.reason}", at.reason
                )
        same_document(self.trip)
        return at

    async def ready(self, kind: str | None = None) -> tuple[Prepared, FramePoint]:
        """Re-checked, scrolled into view and hit-tested: the element and where to point at it."""
        prep = await self.prepare(kind)
        if prep.reason:
            self.refuse(prep.reason, prep.cover)
        return prep, await self.point(prep.x, prep.y)

    async def focus(self) -> Focused:
        """Give the element the focus (a key press goes there); refuses when it does not take it."""
        focus = await self.call(Focused, PageFunction.FOCUS_FOR)
        if not focus.ok:
            raise ActRefused(codes.ACTION_UNAVAILABLE, f"{self.id}: {focus.reason}", focus.reason)
        return focus

    async def route(self, at: FramePoint) -> bool:
        """Make pointer input at ``at`` reach the element's document; True when the mouse was
        moved to ``at`` for it.

        The tab's own document is found at once. A frame of another process gets the pointer
        through the browser, which routes it by hit-testing what the tab last drew: until the
        frame has drawn (its tab just brought to the front, the element just scrolled into
        view), input over it reaches the parent's <iframe> and is lost. So the mouse is moved to
        ``at`` until the frame has seen a move (``pointerMoved``, registered by ``expectInput``
        of act.js), again every :data:`_MOVE_WAIT_MS`, for at most :data:`_ROUTED_MS`; once a
        step. Past that the input goes anyway, and the act's receipt warns when the frame
        shows no sign of it.
        Raises :class:`~cdpagent.errors.WorldGone` when the frame's world died.
        """
        if self.world[0] is self.session or self.routed:
            return False
        await route_pointer(self.session, self.world, at.x, at.y)
        self.routed = True
        return True

    async def move(self, at: FramePoint) -> None:
        """The mouse moved to ``at`` (:meth:`route`d): the page sees it hovered there."""
        if not await self.route(at):
            await mouse_move(self.session, at.x, at.y)

    async def click(self, at: FramePoint, clicks: int = 1, *, moved: bool = False) -> None:
        """A left click at ``at`` (:meth:`route`d), ``clicks`` times in a row; the mouse is
        moved there first unless it was ``moved`` there."""
        moved = await self.route(at) or moved
        await mouse_click(self.session, at.x, at.y, clicks, moved=moved)

    async def drag(self, start: FramePoint, end: FramePoint) -> None:
        """A drag with the left button from ``start`` (:meth:`route`d) to ``end``."""
        await self.route(start)
        await mouse_drag(self.session, (start.x, start.y), (end.x, end.y))

    async def wheel(self, at: FramePoint, dy: float) -> None:
        """The wheel turned by ``dy`` CSS pixels (down is positive) over ``at`` (:meth:`route`d)."""
        await self.route(at)
        await mouse_wheel(self.session, at.x, at.y, dy)


async def expect_input(session: Session, world: World, deadline: float) -> None:
    """Ready a frame of another process (``world``) for input through the tab's ``session``:
    the browser routes input to such a frame only while its tab is shown (in a hidden tab
    its hit test finds the parent's <iframe>), so the tab comes to the front, as a person
    acting in it would bring it, and the frame starts listening for the input
    (``expectInput``: :func:`route_pointer` and ``inputLanded`` ask it). Raises
    :class:`~cdpagent.errors.WorldGone` when the frame's world died."""
    await session.send("Page.bringToFront", deadline=deadline)
    await call(world, Done, PageFunction.EXPECT_INPUT)


async def route_pointer(session: Session, world: World, x: float, y: float) -> None:
    """Move the mouse to ``(x, y)`` of the page until the frame of another process whose
    ``world`` is there has seen a move (see :meth:`Step.route`; ``expectInput`` of act.js
    called in it first), for at most :data:`_ROUTED_MS`. Raises
    :class:`~cdpagent.errors.WorldGone` when the frame's world died."""
    for _ in range(_ROUTED_MS // _MOVE_WAIT_MS):
        await mouse_move(session, x, y)
        if (await call(world, Done, PageFunction.POINTER_MOVED, _MOVE_WAIT_MS, await_promise=True)).ok:
            return


Performer = Callable[[Step], Awaitable[str | None]]
"""Re-checks, delivers the input and returns a failed expectation (or None); raises :class:`ActRefused`."""
