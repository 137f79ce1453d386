"""Acting on declared actions (SPEC OB-5, OB-7) and answering with a receipt (OB-8).

:func:`act` is the round trip (:func:`cdpagent.act.roundtrip.round_trip`) with the
delivery of a declared action, :class:`Declared`:

1. map the tool name and ``record`` back to the original action id
   (``toggle`` + ``t9`` → ``toggle@t9``) and check it against the snapshot before:
   declared, available (else its reason), arguments fit its kind
   (:func:`cdpagent.act.inputs.argument_refusal`);
2. refuse hand-off actions, ask the host about confirm actions;
3. find the element's document (the main one or a frame's, :mod:`cdpagent.snapshot.frames`)
   and hand the action to the performer of its kind (:data:`PERFORMERS`), which re-checks
   the element *now* in the page (connected, enabled, not inert or hidden, not behind a
   modal, hit-testable at its centre once scrolled into view — ``js/act.js``), delivers
   trusted input through CDP and verifies the post-condition.

The performers, one module per family of kinds: :mod:`.pointer` (click, hover),
:mod:`.keys` (press, scroll, and the built-in :data:`PRESS_FOCUSED`), :mod:`.text`
(type, dates), :mod:`.slider` (set), :mod:`.choices` (select, choose, check),
:mod:`.upload` (upload), :mod:`.webmcp_calls` (a page tool).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Final

import msgspec

from ..cdp.dialogs import JavaScriptDialog
from ..cdp.target import Target
from ..cdp.world import WORLD, PageFunction, enter, install_commands
from ..errors import ActRefused, WorldGone
from ..snapshot import codes
from ..snapshot.frames import frame_of, frame_world
from ..snapshot.kinds import KINDS, Kind
from ..snapshot.model import ActionEntry, ActionLocator, Snapshot, action_id, split_action_id
from ..snapshot.openai_tools import PRESS_FOCUSED, PRESS_FOCUSED_DESCRIPTION, ToolCallError, resolve_tool_call
from ..snapshot.options import ObserveOptions
from ..snapshot.receipts import ActionRef, Receipt
from ..snapshot.webmcp_actions import SCHEMA_REFUSED
from . import choices, keys, pointer, slider, text, upload, webmcp_calls
from .dialog_answers import answer_dialog
from .inputs import ActArgs, argument_refusal, performed_kind
from .roundtrip import NO_HOOKS, ActTimings, Hooks, Trip, round_trip
from .step import Done, Performer, Step, World, call, expect_input, replaced

__all__ = [
    "PERFORMERS",
    "PRESS_FOCUSED",
    "ActTimings",
    "ConfirmCallback",
    "ConfirmRequest",
    "Declared",
    "act",
]


class ConfirmRequest(msgspec.Struct, frozen=True):
    """What the host is asked before a ``data-agent-confirm`` action runs."""

    tab: str
    action: str
    description: str
    question: str


ConfirmCallback = Callable[[ConfirmRequest], bool | Awaitable[bool]]
"""Returns (or resolves to) True to let the action run; anything else denies it."""


PERFORMERS: Final[dict[Kind, Performer]] = {
    "click": pointer.click,
    "hover": pointer.hover,
    "type": text.type_text,
    "select": choices.select,
    "choose": choices.choose,
    "check": choices.check,
    "press": keys.press,
    "scroll": keys.scroll,
    "set": slider.set_value,
    "tool": webmcp_calls.call_page_tool,
    "upload": upload.upload,
}
"""The performer of each kind of :data:`cdpagent.snapshot.kinds.KINDS`, and of no other."""

if PERFORMERS.keys() != KINDS.keys():  # pragma: no cover - a kind added without its performer
    raise RuntimeError(f"PERFORMERS and KINDS disagree: {sorted(PERFORMERS.keys() ^ KINDS.keys())}")

#: How long the after-snapshot waits for a frame of another process to handle the input.
_LANDED_MS: Final = 2000

#: Unavailability a performer may still overcome: a hidden item of a hover menu shows
#: when its parent is hovered; a read-only field may open a picker when clicked; a disabled
#: text area still scrolls.
_TRIED_ANYWAY: Final = frozenset(
    {("click", "hidden"), ("hover", "hidden"), ("type", "read-only"), ("scroll", "disabled"),
     ("upload", "hidden")}
)  # fmt: skip


def _entry(
    trip: Trip, before: Snapshot, entries: list[ActionEntry], args: ActArgs
) -> tuple[ActionEntry, ActionLocator]:
    """The entry ``args`` name (the receipt names it from now on) and the locator of its action,
    once ``before`` shows it available (or unavailable for a reason in :data:`_TRIED_ANYWAY`) on
    ``args.record``, it needs no person, and ``args`` fit its kind.

    Raises :class:`~cdpagent.errors.ActRefused`: ``STALE_ACTION`` for a name an earlier
    observation showed for a control that is gone (:mod:`cdpagent.snapshot.toolnames`),
    ``UNKNOWN_ACTION`` for a name never shown, and the codes of the checks above.
    """
    record = args.record
    try:
        entry, locator = resolve_tool_call(entries, args.action, record)
    except ToolCallError as exc:
        if exc.code == codes.UNKNOWN_ACTION and trip.names is not None and trip.names.stale(args.action):
            raise ActRefused(
                codes.STALE_ACTION,
                f"{args.action} named a control that is no longer on the page; nothing was done. "
                "Observe again and use the current names",
            ) from None
        raise ActRefused(exc.code, exc.message) from None
    trip.ref = ActionRef(locator.id, entry.description)
    if not entry.folded:
        if record is not None:
            raise ActRefused(codes.INVALID_ARGUMENT, f"{entry.tool} is not a row action: pass no record")
        if not entry.available and (entry.kind, entry.reason) not in _TRIED_ANYWAY:
            refused = entry.kind == "tool" and (entry.reason or "").startswith(SCHEMA_REFUSED)
            code = codes.PAGE_TOOL_SCHEMA_INVALID if refused else codes.ACTION_UNAVAILABLE
            raise ActRefused(code, f"{entry.tool} is not available now: {entry.reason}", entry.reason)
    else:
        assert record is not None
        full = None
        for candidate in before.records:
            if candidate.id == record:
                full = candidate
                break
        if full is None or record not in before.record_index.ids:
            raise ActRefused(
                codes.UNKNOWN_RECORD,
                f"no record {record!r} in the active regions of this page; "
                "use an id from the citation records",
            )
        if entry.region_path and full.region != entry.region_path[-1]:
            raise ActRefused(
                codes.UNKNOWN_RECORD,
                f"record {record!r} is not in the region of {entry.tool} ({entry.region})",
            )
        state = full.actions.get(entry.name)
        if state is None:
            raise ActRefused(codes.UNKNOWN_RECORD, f"record {record!r} has no {entry.tool} action")
        if not state.available and (entry.kind, state.reason) not in _TRIED_ANYWAY:
            raise ActRefused(
                codes.ACTION_UNAVAILABLE,
                f"{entry.tool} is not available on {record!r} now: {state.reason}",
                state.reason,
            )
    if entry.handoff:
        raise ActRefused(
            codes.HANDOFF_REQUIRED,
            f"a person must do this: {entry.handoff}. Ask the user to do it; it was not performed.",
            entry.handoff,
        )
    problem = argument_refusal(entry.tool, entry.kind, args)
    if problem is not None:
        raise ActRefused(codes.INVALID_ARGUMENT, problem)
    return entry, locator


async def _confirmed(callback: ConfirmCallback | None, request: ConfirmRequest) -> bool:
    if callback is None:
        return False
    answer = callback(request)
    if inspect.isawaitable(answer):
        answer = await answer
    return answer is True


class Declared:
    """The delivery of a declared action (or of :data:`PRESS_FOCUSED`, or of a dialog's own
    action) named by ``args``."""

    call: Final = "act"

    def __init__(self, args: ActArgs, confirm: ConfirmCallback | None) -> None:
        name, record = (args.action, args.record) if args.record is not None else split_action_id(args.action)
        self.args = (
            args if record == args.record else msgspec.structs.replace(args, action=name, record=record)
        )
        self.confirm = confirm
        self.ref = ActionRef(action_id(name, record))
        self.include: tuple[str, ...] = (record,) if record else ()

    async def answer(self, tab: Target, dialog: JavaScriptDialog) -> Receipt:
        """The dialog's answer: the act names one of its actions."""
        return await answer_dialog(tab, dialog, self.args.action, self.args.text)

    async def deliver(self, trip: Trip, before: Snapshot, entries: list[ActionEntry]) -> None:
        """Resolve, check and perform the action (see the module).

        Raises :class:`~cdpagent.errors.ActRefused`.
        """
        args = self.args
        try:
            if args.action == PRESS_FOCUSED:  # a page action of that name was renamed (RESERVED_TOOL_NAMES)
                trip.ref = ActionRef(PRESS_FOCUSED, PRESS_FOCUSED_DESCRIPTION)
                await keys.press_focused(trip, args)
                return
            entry, locator = _entry(trip, before, entries, args)
            if entry.confirm:
                request = ConfirmRequest(trip.tab.id, locator.id, entry.description, entry.confirm)
                if not await _confirmed(self.confirm, request):
                    raise ActRefused(
                        codes.CONFIRMATION_DENIED,
                        f"the user did not confirm {locator.id!r} ({entry.confirm}); it was not performed",
                    )
            # The element's document: the main one, or a frame's (its locator is relative to it).
            tab = trip.tab
            frame_id, where = frame_of(before, locator)
            if frame_id is None:
                world: World | None = (tab.session, (await enter(tab))[0])
            else:
                world = await frame_world(tab, frame_id, WORLD, install_commands(), trip.deadline)
            if world is None:
                raise ActRefused(codes.ACTION_UNAVAILABLE, "the frame of this action is gone", "gone")
            step = Step(
                trip, world, entry, where, args, frame_id, msgspec.to_builtins(where), tab.session, where.id
            )
            # A frame of another process gets the input through the browser, apart from its
            # session (expect_input); every pointer input of the step waits until the frame
            # is found under the pointer (Step.route), and the after-snapshot waits until that
            # frame has handled the input.
            remote = world[0] is not tab.session
            if remote:
                await expect_input(tab.session, world, trip.deadline)
            trip.expectation = await PERFORMERS[performed_kind(entry.kind, args)](step)
            if remote and trip.performed:
                landed = await call(world, Done, PageFunction.INPUT_LANDED, _LANDED_MS, await_promise=True)
                if not landed.ok:
                    trip.warnings.append(
                        f"the frame of {where.id} (another process) showed no sign of the input "
                        f"within {_LANDED_MS} ms; the receipt may miss what it did"
                    )
        except WorldGone:
            if not trip.performed:
                raise replaced() from None
            trip.warnings.append("the page was replaced while the action was verified")


async def act(
    tab: Target,
    args: ActArgs,
    *,
    hooks: Hooks = NO_HOOKS,
    confirm: ConfirmCallback | None = None,
    options: ObserveOptions | None = None,
    timeout: float = 30.0,
    timings: ActTimings | None = None,
) -> Receipt:
    """Perform the action ``args`` name and return its receipt (OB-7, OB-8).

    ``args.action`` is a tool name from the observation (``toggle``) or an original
    action id (``toggle@t9``); ``args.record`` picks the row of a folded action; the
    other arguments are the input its kind takes (:data:`cdpagent.snapshot.kinds.KINDS`):
    ``text`` (type), ``option`` (select, choose), ``checked`` (check), ``key`` (press: a
    key or chord, ``Enter``, ``Shift+Tab``, ``Control+A``), ``to`` (scroll: ``down``,
    ``up``, ``end``, ``start``), ``value`` (set: a number within the slider's range and
    step), ``files`` (upload, or a click on a button that opens a file input: paths the
    upload policy of ``hooks`` allows), ``input`` (the JSON object of a page tool, checked
    against the tool's schema before the page sees it). ``action`` :data:`PRESS_FOCUSED`
    (``press_key``) presses ``key`` on whatever has the focus. ``confirm`` is asked before
    a ``data-agent-confirm`` action (no callback = denied). ``timings``, when given, is
    filled with where the time went. Calls on one tab are serialised.

    Never raises for page content or bad arguments: every refusal or failure is
    a receipt with ``ok: false`` and a code from :mod:`cdpagent.snapshot.codes`
    (driver failures map to codes through :data:`cdpagent.cdp.failures.FAILURES`).
    Raises only what cancels the caller and the driver's ``ConnectionClosed``.
    """
    delivery = Declared(args, confirm)
    return await round_trip(tab, delivery, hooks=hooks, options=options, timeout=timeout, timings=timings)
