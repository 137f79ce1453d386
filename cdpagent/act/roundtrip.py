"""The round trip of one act, written once: every act is this sequence with its own delivery.

:func:`round_trip` is the whole sequence; a :class:`Delivery` is what one kind of act
sends to the page in the middle of it (a declared action's performer,
:mod:`cdpagent.act.perform`; a click at a point of the viewport,
:mod:`cdpagent.act.coordinates`):

1. under the tab's input lock (two acts never interleave their input), the tab acting and
   the page watched: exceptions its handlers throw, navigations the input starts, and a
   dialog that opens, which stays open (the tab's table): the act stops waiting for the page
   (a dialog blocks it) and its receipt says what the page asks (``asks``), answered later
   with the dialog's actions; under the unattended policy (:attr:`Hooks.unattended`, the
   command line's ``--yes``) the tab answers it at once and the receipt says so;
2. the tab's admission, from its table (:func:`cdpagent.cdp.tabstate.refusal`): a closed
   or crashed tab is refused before anything is sent; while a JavaScript dialog is open
   the act answers it where the table lets it (:meth:`Delivery.answer`), and is refused
   with ``DIALOG_OPEN`` and the dialog's actions otherwise;
3. within the timeout, the snapshot before, with the act's records in full
   (:attr:`Delivery.include`);
4. the delivery: refuses (:class:`ActRefused`, a receipt with its code) or sends its input;
5. a navigation the input started waited for until it commits a document, or ends
   without one (a download, a 204), at most :data:`COMMIT_WAIT` seconds;
6. the snapshot after, diffed with the first (:func:`cdpagent.snapshot.receipts.diff`):
   the receipt, failed when the delivery's expectation failed or the page's handler
   threw and nothing changed;
7. past the timeout, a ``TIMEOUT`` receipt that says whether the input may have been
   delivered; then the downloads the act started, waited for (:class:`Hooks`).

Every outcome is a :class:`~cdpagent.snapshot.receipts.Receipt`; the driver's failures
become receipts with the codes of :data:`cdpagent.cdp.failures.FAILURES`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Any, Final, Protocol

import msgspec
import trio

from ..cdp.dialogs import JavaScriptDialog
from ..cdp.tabstate import Call, Decision, dialog_actions, on_dialog_opening, refusal
from ..cdp.target import Target
from ..errors import ActRefused, CDPAgentError
from ..primitives.downloads import Downloads
from ..primitives.uploads import UploadPolicy
from ..snapshot import codes
from ..snapshot.folding import fold_actions
from ..snapshot.model import ActionEntry, Snapshot
from ..snapshot.observe import collect_snapshot
from ..snapshot.options import ObserveOptions
from ..snapshot.receipts import (
    ActionRef,
    Changes,
    PageQuestion,
    Receipt,
    ValueChange,
    diff,
    error_receipt,
    failure_receipt,
    ok_receipt,
)
from ..snapshot.toolnames import NameRegistry, registry_of
from .dialog_answers import blocked

__all__ = ["COMMIT_WAIT", "NO_HOOKS", "ActTimings", "Delivery", "Hooks", "Trip", "round_trip"]

#: How long a navigation the input started may take to commit before the second snapshot.
COMMIT_WAIT: Final = 5.0

_NAVIGATION_EVENTS: Final = (
    "Page.frameRequestedNavigation",
    "Page.frameStartedNavigating",
    "Page.frameStartedLoading",
)


class ActTimings(msgspec.Struct):
    """Where the time of one act went, in milliseconds (both snapshots summed).

    Pass one to :func:`round_trip` (``cdpagent.act.perform.act(..., timings=…)``) to
    have it filled in (``bench/act.py`` does).
    """

    settle_ms: float = 0.0
    collect_ms: float = 0.0
    """Inside the page: ``collect.js`` building the snapshots."""
    transfer_ms: float = 0.0
    """CDP round trips, JSON transfer and msgspec decoding of the snapshots."""
    action_ms: float = 0.0
    """Re-check, scroll, input and post-condition."""
    diff_ms: float = 0.0
    total_ms: float = 0.0
    quiet_ms: float = 0.0
    """Of ``settle_ms``, the post-action quiet window: the settle after the input."""


class Hooks(msgspec.Struct, frozen=True):
    """The browser's policies an act consults besides the page.

    ``uploads`` decides which files a page may be given (the upload performer asks it
    before the page sees a path); ``downloads``, when the browser manages them, holds
    the receipt of an act that started a download until it ends, so the receipt says
    where it went.
    """

    uploads: UploadPolicy = UploadPolicy(())
    downloads: Downloads | None = None
    unattended: bool = False
    """The unattended policy (the command line's ``--yes``): a JavaScript dialog the act raises
    is answered at once (a ``beforeunload`` accepted, any other dismissed) and the receipt says
    so, instead of staying open for the agent to answer."""


NO_HOOKS: Final = Hooks()
"""No directory allows uploads; downloads are not managed."""


class Trip:
    """One round trip under way: the tab, its deadline, what the page did meanwhile, and what
    the delivery found out for the receipt."""

    def __init__(
        self,
        tab: Target,
        ref: ActionRef,
        hooks: Hooks,
        opts: ObserveOptions,
        timings: ActTimings,
        deadline: float,
    ) -> None:
        self.tab = tab
        self.ref = ref
        """What the receipt names: the delivery names it better once it knows (the entry's description)."""
        self.hooks = hooks
        self.opts = opts
        self.timings = timings
        self.deadline = deadline
        self.serial = -1
        """The serial of the main document the act started on."""
        self.performed = False
        """Input may have reached the page (a timeout then says so; errors it throws are its doing)."""
        self.expectation: str | None = None
        """What the input should have done and did not (``EXPECTATION_FAILED``)."""
        self.warnings: list[str] = []
        self.state: str | None = None
        """Where a scroll, set or upload left its control."""
        self.output: str | None = None
        """A page tool's output, fenced (WebMCP)."""
        self.page_errors: list[str] = []
        self.dialogs: list[str] = []
        """Messages of the dialogs the tab answered on its own during the act (unattended)."""
        self.asked: JavaScriptDialog | None = None
        """The dialog the page raised during the act and that stays open for the agent."""
        self.navigation_started = False
        self.navigation_over = trio.Event()
        self.names: NameRegistry | None = None
        """The tool names of the document the act started on (:mod:`cdpagent.snapshot.toolnames`)."""

    async def snapshot(self, include: tuple[str, ...], *, after_input: bool = False) -> Snapshot:
        """The page now, with ``include``'s records in full; its times join the timings and a
        page that did not settle is warned about."""
        t0 = time.perf_counter()
        opts = msgspec.structs.replace(self.opts, include=include)
        snap, report = await collect_snapshot(self.tab, opts, after_input=after_input)
        wall = (time.perf_counter() - t0) * 1000
        settle = report.waited_ms if report else 0.0
        self.timings.settle_ms += settle
        if after_input:
            self.timings.quiet_ms += settle
        self.timings.collect_ms += snap.collect_ms
        self.timings.transfer_ms += max(wall - settle - snap.collect_ms, 0.0)
        if report is not None and not report.settled:
            self.warnings.append(
                f"the page did not settle within {report.waited_ms:.0f} ms ({report.reason}); "
                "the receipt may miss later changes"
            )
        return snap

    def handlers(self) -> dict[str, Callable[[dict[str, Any]], object]]:
        """The handlers that watch what the page does during the act, by event (one for each of
        :data:`~cdpagent.cdp.target.ACT_EVENTS`)."""
        tab = self.tab

        def on_exception(params: dict[str, Any]) -> None:
            if not self.performed:
                return  # thrown before our input: not this action's doing
            details = params.get("exceptionDetails") or {}
            text = (details.get("exception") or {}).get("description") or details.get("text") or "error"
            self.page_errors.append(str(text).splitlines()[0][:200])

        def on_navigation(params: dict[str, Any]) -> None:
            doc = tab.documents.main
            if doc is not None and params.get("frameId") == doc.frame_id:
                self.navigation_started = True

        def on_stopped_loading(params: dict[str, Any]) -> None:
            # Before a new document commits, the main frame stops loading only when its navigation
            # ended without one: a download, a 204, a navigation the page cancelled.
            doc = tab.documents.main
            if self.navigation_started and doc is not None and params.get("frameId") == doc.frame_id:
                self.navigation_over.set()

        def on_dialog(params: dict[str, Any]) -> tuple[JavaScriptDialog, Decision]:
            # The act decides (the tab carries it out): kept open, the round trip stops waiting
            # on a page the dialog blocks; answered at once (unattended), the receipt says so.
            dialog, decision = on_dialog_opening(params, acting=True, unattended=self.hooks.unattended)
            if decision is Decision.KEEP_OPEN:
                if self.asked is None:
                    self.asked = dialog
            elif decision is Decision.DISMISS:
                self.dialogs.append(dialog.message[:200])
            return dialog, decision

        return {
            "Runtime.exceptionThrown": on_exception,
            **dict.fromkeys(_NAVIGATION_EVENTS, on_navigation),
            "Page.frameStoppedLoading": on_stopped_loading,
            "Page.javascriptDialogOpening": on_dialog,
        }

    async def committed_or_over(self) -> None:
        """Return once the navigation the input started committed a new document, or ended without
        one (the frame stopped loading), or after :data:`COMMIT_WAIT` seconds."""
        with trio.move_on_after(COMMIT_WAIT):
            async with trio.open_nursery() as nursery:

                async def committed() -> None:
                    with suppress(trio.TooSlowError):
                        await self.tab.document_changed(self.serial, timeout=COMMIT_WAIT)
                    nursery.cancel_scope.cancel()

                async def over() -> None:
                    await self.navigation_over.wait()
                    nursery.cancel_scope.cancel()

                nursery.start_soon(committed)
                nursery.start_soon(over)

    async def unless_replaced(self, send: Callable[[], Awaitable[None]], doing: str) -> None:
        """Send input with ``send()`` unless the main document is replaced first.

        A renderer that swaps documents (a page reloading on focus) may never answer an
        input command sent into the swap; waiting for it would hang the act until its
        deadline. Raises :class:`ActRefused` ``PAGE_CHANGED`` when the document went first
        (``doing``: what the input was, for the message).
        """
        tab = self.tab
        with trio.CancelScope() as replaced:
            async with trio.open_nursery() as nursery:

                async def watch() -> None:
                    with trio.move_on_at(self.deadline):
                        await tab.document_changed(self.serial, math.inf)
                        replaced.cancel()

                nursery.start_soon(watch)
                await send()
                nursery.cancel_scope.cancel()
        if replaced.cancelled_caught:
            raise ActRefused(codes.PAGE_CHANGED, f"the page was replaced while {doing}")


class Delivery(Protocol):
    """What one kind of act sends to the page in the middle of the round trip."""

    @property
    def call(self) -> Call:
        """What the tab's table (:mod:`cdpagent.cdp.tabstate`) calls this act: ``act`` (a declared
        action, which may answer a dialog) or :data:`~cdpagent.cdp.tabstate.INPUT_AT` (a point)."""
        ...

    @property
    def ref(self) -> ActionRef:
        """What the receipt names before the delivery knows better."""
        ...

    @property
    def include(self) -> tuple[str, ...]:
        """Record ids both snapshots collect in full (the act's row)."""
        ...

    async def answer(self, tab: Target, dialog: JavaScriptDialog) -> Receipt:
        """The receipt of this act answering ``dialog``, which the tab's table lets it answer."""
        ...

    async def deliver(self, trip: Trip, before: Snapshot, entries: list[ActionEntry]) -> None:
        """Send the input, given the snapshot before and its folded entries.

        Leaves what the receipt says on ``trip`` (``ref``, ``expectation``, ``state``,
        ``warnings``…); raises :class:`ActRefused` for a refusal.
        """
        ...


async def round_trip(
    tab: Target,
    delivery: Delivery,
    *,
    hooks: Hooks = NO_HOOKS,
    options: ObserveOptions | None = None,
    timeout: float = 30.0,
    timings: ActTimings | None = None,
) -> Receipt:
    """Carry ``delivery`` out on ``tab`` and answer with its change receipt (see the module).

    Never raises for page content, refusals or the driver's failures on the tab: each is
    a receipt with ``ok: false`` and its code. Raises only what cancels the caller and
    the driver's ``ConnectionClosed``.
    """
    ref = delivery.ref
    trip = Trip(
        tab, ref, hooks, options or ObserveOptions(), timings or ActTimings(), trio.current_time() + timeout
    )
    started = time.perf_counter()
    downloads = hooks.downloads
    mark = downloads.started if downloads is not None else 0
    async with tab.input_lock:
        receipt = await _locked(trip, delivery, timeout)
    if receipt is None:
        done = " It may have been performed; observe the page before retrying." if trip.performed else ""
        message = f"the action did not finish within {timeout:g} s.{done}"
        receipt = error_receipt(ref, codes.TIMEOUT, message, [])
    trip.timings.total_ms = (time.perf_counter() - started) * 1000
    if downloads is None:
        return receipt
    return await downloads.finish_receipt(receipt, tab.id, mark, tab.take_notices, trip.deadline)


async def _locked(trip: Trip, delivery: Delivery, timeout: float) -> Receipt | None:
    """The round trip under the tab's input lock, the tab acting and the page watched; None past
    ``timeout``. The tab's table (:mod:`cdpagent.cdp.tabstate`) admits the act first: a closed or
    crashed tab refuses it, and while a dialog is open it answers the dialog or is refused."""
    tab, ref = trip.tab, trip.ref
    tab.acting = trip.handlers()
    try:
        refused = refusal(tab, delivery.call, ref.id)
        dialog = tab.dialog
        if refused is not None:
            if dialog is not None and refused.code == codes.DIALOG_OPEN:
                return blocked(ref, dialog)
            return error_receipt(ref, refused.code, f"{refused.message}: tab {tab.id}", [])
        if dialog is not None:  # the table lets this act answer it
            return await delivery.answer(tab, dialog)
        with trio.move_on_after(timeout):
            return await _until_asked(trip, delivery)
        return None
    finally:
        tab.acting = None


async def _until_asked(trip: Trip, delivery: Delivery) -> Receipt | None:
    """The receipt of :func:`_steps`, or, as soon as the page raises a dialog that stays open
    (which blocks the page: the input and the snapshot after it would wait for its answer),
    the receipt that says what the page asks. None when a step timed out."""
    tab = trip.tab
    done: list[Receipt | None] = []
    async with trio.open_nursery() as nursery:

        async def steps() -> None:
            try:
                done.append(await _steps(trip, delivery))
            except CDPAgentError as exc:
                done.append(failure_receipt(trip.ref, exc))
            except trio.TooSlowError:
                done.append(None)
            nursery.cancel_scope.cancel()

        async def asked() -> None:
            await tab.wait_until(lambda: trip.asked is not None, math.inf)
            nursery.cancel_scope.cancel()

        nursery.start_soon(steps)
        nursery.start_soon(asked)
    if done:
        return done[0]
    assert trip.asked is not None
    return _asked_receipt(trip, trip.asked)


def _asked_receipt(trip: Trip, dialog: JavaScriptDialog) -> Receipt:
    """The receipt of an act whose page now asks ``dialog``'s question, open until answered:
    ``ok`` when the act's input went out first, else ``DIALOG_OPEN`` (nothing was done)."""
    answers = dialog_actions(dialog)
    question = PageQuestion(
        type=dialog.type,
        message=dialog.message,
        answers=answers,
        default=dialog.default_prompt if dialog.type == "prompt" else None,
    )
    warnings = [
        *trip.warnings,
        f"the page asks ({dialog.type}) and waits: answer with {' or '.join(answers)}",
        *trip.tab.take_notices(),
    ]
    changed = Changes(observed=True, modal=ValueChange(None, dialog.label))
    if not trip.performed:
        # Opened before the input (a timer): the act was not done, and must not look done.
        message = f"a {dialog.label} dialog opened before the input was delivered; nothing was done"
        refused = error_receipt(trip.ref, codes.DIALOG_OPEN, message, answers, warnings=warnings)
        return Receipt(msgspec.structs.replace(refused.result, asks=question))
    return ok_receipt(trip.ref, changed, warnings, asks=question)


async def _steps(trip: Trip, delivery: Delivery) -> Receipt:
    """Snapshot, deliver, wait for the commit, snapshot, diff: the receipt."""
    tab = trip.tab
    include = delivery.include
    before = await trip.snapshot(include)
    doc = tab.documents.main
    trip.serial = doc.serial if doc else -1
    trip.names = registry_of(tab, trip.serial)
    before_entries = fold_actions(before, trip.names)
    trip.names.acting()
    try:
        t0 = time.perf_counter()
        await delivery.deliver(trip, before, before_entries)
        trip.timings.action_ms = (time.perf_counter() - t0) * 1000
    except ActRefused as exc:
        available = [e.tool for e in before_entries if e.available]
        return error_receipt(trip.ref, exc.code, exc.message, available, reason=exc.reason)
    current = tab.documents.main
    if trip.navigation_started and current is not None and current.serial == trip.serial:
        # The input started a navigation whose new document is not committed yet.
        await trip.committed_or_over()
    after = await trip.snapshot(include, after_input=trip.performed)
    warnings = list(trip.warnings)
    for message in trip.dialogs:
        warnings.append(f"the page opened a JavaScript dialog, dismissed (unattended): {message}")
    warnings += tab.take_notices()
    doc = tab.documents.main
    names = registry_of(tab, doc.serial if doc else -1)
    after_entries = fold_actions(after, names)
    available = []
    for entry in after_entries:
        if entry.available:
            available.append(entry.tool)
    names.shown(available)  # the receipt names them to the model
    doc = tab.documents.main
    t0 = time.perf_counter()
    changes = diff(
        before,
        after,
        navigated=doc is not None and doc.serial != trip.serial,
        options=trip.opts,
        before_entries=before_entries,
        after_entries=after_entries,
    )
    trip.timings.diff_ms = (time.perf_counter() - t0) * 1000
    if trip.expectation is not None:
        return error_receipt(
            trip.ref,
            codes.EXPECTATION_FAILED,
            trip.expectation,
            available,
            changed=changes,
            warnings=warnings,
        )
    if trip.page_errors:
        if not changes.observed:
            return error_receipt(
                trip.ref,
                codes.ACTION_FAILED,
                f"the page's handler threw and nothing changed: {trip.page_errors[0]}",
                available,
                changed=changes,
                warnings=warnings,
            )
        for error in trip.page_errors:
            warnings.append(f"the page reported an error during the action: {error}")
    return ok_receipt(trip.ref, changes, warnings, output=trip.output, state=trip.state)
