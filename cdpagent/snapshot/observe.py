"""Observing a tab: settle (OB-6), collect, budget, render.

The collector (``js/collect.js``) lives in the isolated world of
:mod:`cdpagent.cdp.world`, which every observation installs first (once per tab).

A snapshot never mixes two documents: the main document's serial is read before
settling and after collecting, and a change (or the isolated world dying under
the call) restarts the attempt on the new document, up to ``attempts`` times;
then :class:`ObservationError` with code ``PAGE_CHANGED`` is raised.
"""

from __future__ import annotations

import logging
import math
import weakref
from contextlib import suppress
from typing import Any, Final
from urllib.parse import urlsplit

import msgspec
import trio

from ..cdp.concurrency import collapse
from ..cdp.connection import Session
from ..cdp.dialogs import ACCEPT, DISMISS, JavaScriptDialog
from ..cdp.logs import OBSERVE as _LOG
from ..cdp.tabstate import Decision, decide, dialog_actions, state_of
from ..cdp.target import Target
from ..cdp.world import WORLD, PageFunction, call_function, enter
from ..errors import (
    CDPAgentError,
    ObservationError,
    PageFunctionError,
    ProtocolError,
    SessionClosed,
    TargetCrashed,
)
from ..webmcp.bridge import WebMcp
from .budget import build
from .clickables import probe_listeners
from .frames import collect_frames
from .inference import combine
from .model import (
    Feedback,
    Identity,
    InputSpec,
    Observation,
    PageAction,
    PageText,
    Snapshot,
    decode_snapshot,
)
from .options import COLLECTOR_BOUNDS, ObserveOptions
from .shadow import with_closed_roots
from .toolnames import registry_of
from .webmcp_actions import with_page_tools

__all__ = [
    "ObservationError",
    "ObserveResult",
    "SettleReport",
    "collect_snapshot",
    "dialog_snapshot",
    "observe",
    "observe_page",
    "settle_after_input",
]

_PAGE_TEXT_DECODER = msgspec.json.Decoder(PageText)


class SettleReport(msgspec.Struct, frozen=True):
    """What the settle step (OB-6) saw: settled in time, or why not."""

    settled: bool
    waited_ms: float
    reason: str | None = None
    """Why it did not settle; when it did, what it last waited for (None: it did not wait)."""


#: A settle this long is said in the observation's warnings, with what it waited for.
LONG_SETTLE_MS: Final = 1000


class ObserveResult(msgspec.Struct, frozen=True):
    """The serialized form: ``{"observation", "text", "tools"}`` (CLI ``--json``, ``script``)."""

    observation: Observation
    text: str
    tools: list[dict[str, Any]]


async def _call(
    session: Session,
    function: str,
    *args: Any,
    context: int,
    deadline: float | None = None,
    await_promise: bool = False,
) -> Any:
    """:func:`~cdpagent.cdp.world.call_function` in the isolated world ``context``; a collector
    that threw is :class:`ObservationError` (``COLLECT_FAILED``)."""
    try:
        return await call_function(
            session, function, *args, context=context, await_promise=await_promise, deadline=deadline
        )
    except PageFunctionError as exc:
        raise ObservationError("COLLECT_FAILED", exc.text) from None


class _DocumentChanged(Exception):
    pass


class _Same(msgspec.Struct, frozen=True):
    """The collector's answer when its snapshot text is the one of token ``same``."""

    same: int
    collect_ms: float = 0.0


_SAME_DECODER = msgspec.json.Decoder(_Same)
# The last declared snapshot of each isolated world, per session: the collector sends
# a snapshot of a still page once (see ``collect`` in js/collect.js), and record ids that
# did not change not again (as ``infer`` in js/infer.js does, whose snapshots are held apart).
_held: weakref.WeakKeyDictionary[Session, dict[int, Snapshot]] = weakref.WeakKeyDictionary()
_held_inferred: weakref.WeakKeyDictionary[Session, dict[int, Snapshot]] = weakref.WeakKeyDictionary()
_HELD_WORLDS: Final = 8


def _held_snapshot(held: dict[int, Snapshot], context: int, token: int) -> Snapshot:
    mine = held.get(context)
    if mine is None or mine.token != token:
        raise ObservationError("COLLECT_FAILED", "the collector named a snapshot this caller does not hold")
    return mine


def _declared(text: object, session: Session, context: int) -> Snapshot | None:
    """The declared snapshot from the collector's ``text``: decoded, or the held one when
    the collector says it is the same, with the held record ids when it left them out.
    Raises :class:`ObservationError` (``COLLECT_FAILED``)."""
    if not isinstance(text, str):
        return None
    held = _held.setdefault(session, {})
    if text.startswith('{"same":'):
        same = _SAME_DECODER.decode(text)
        return msgspec.structs.replace(_held_snapshot(held, context, same.same), collect_ms=same.collect_ms)
    return _holding(decode_snapshot(text), held, context)


def _holding(snapshot: Snapshot, held: dict[int, Snapshot], context: int) -> Snapshot:
    """``snapshot`` with the record ids it left out (``ids_from``) taken from the held one,
    and held in its place when it carries a token. Raises :class:`ObservationError`
    (``COLLECT_FAILED``) when it names a snapshot that is not held."""
    if snapshot.ids_from:
        ids = _held_snapshot(held, context, snapshot.ids_from).record_index.ids
        index = msgspec.structs.replace(snapshot.record_index, ids=ids)
        snapshot = msgspec.structs.replace(snapshot, record_index=index, ids_from=0)
    if snapshot.token:
        held.pop(context, None)
        held[context] = snapshot
        while len(held) > _HELD_WORLDS:
            del held[next(iter(held))]
    return snapshot


async def _collect_in(
    session: Session, opts: ObserveOptions, args: str, context: int, deadline: float | None
) -> Snapshot:
    """The snapshot of the document whose isolated world is ``context`` (declared, inferred
    or both, see :mod:`.inference`), collected with ``args`` (``opts``' collector arguments
    as JSON). Raises :class:`ObservationError` (``COLLECT_FAILED``) and the driver's errors
    (``ProtocolError`` when the world is gone, ``CallTimeout``).
    """
    mine = _held.get(session, {}).get(context)
    inferred_held = _held_inferred.setdefault(session, {})
    theirs = inferred_held.get(context)
    texts = await _call(
        session,
        PageFunction.COLLECT,
        args,
        opts.infer,
        mine.token if mine is not None else 0,
        opts.page_text is True,
        theirs.token if theirs is not None else 0,
        context=context,
        deadline=deadline,
    )
    if not isinstance(texts, list) or len(texts) != 3 or str not in map(type, texts):
        raise ObservationError("COLLECT_FAILED", "the collector returned no snapshot")
    declared = _declared(texts[0], session, context)
    if declared is not None and isinstance(texts[2], str):
        declared = msgspec.structs.replace(declared, page_text=_PAGE_TEXT_DECODER.decode(texts[2]))
    inferred = None
    if isinstance(texts[1], str):
        inferred = _holding(decode_snapshot(texts[1]), inferred_held, context)
    return combine(declared, inferred)


async def _attempt(
    tab: Target, opts: ObserveOptions, timeout: float, after_input: bool
) -> tuple[Snapshot, SettleReport | None]:
    args = msgspec.json.encode(opts.collector_args()).decode()  # the same for every frame
    ctx, doc = await enter(tab, timeout, loaded=True)
    serial = doc.serial
    report = None
    try:
        if opts.settle:
            report = await _settle(tab, ctx, opts, after_input)
        # clicks: which elements the page listens to (js/clickables.js, .clickables)
        bounds = COLLECTOR_BOUNDS
        await probe_listeners(tab.session, ctx, bounds.listener_probe, opts.infer, bounds.click_scan)
        snapshot = await _collect_in(tab.session, opts, args, ctx, None)
    except ProtocolError as exc:
        # The world died under the call: its document was replaced.
        raise _DocumentChanged(str(exc)) from exc

    async def collect_in(session: Session, context: int, deadline: float) -> Snapshot:
        return await _collect_in(session, opts, args, context, deadline)

    snapshot = await collect_frames(
        tab, snapshot, collect_in, COLLECTOR_BOUNDS.name_chars, trio.current_time() + timeout
    )
    snapshot = await with_closed_roots(tab.session, snapshot, trio.current_time() + timeout)
    now = tab.documents.main
    if now is None or now.serial != serial:
        raise _DocumentChanged("the document changed while it was observed")
    bridge = WebMcp.of(tab.browser)
    if bridge is not None:
        snapshot = with_page_tools(snapshot, bridge.tools(tab))
    return snapshot, report


async def _settle_in(session: Session, context: int, opts: ObserveOptions, after_input: bool) -> SettleReport:
    raw = await _call(
        session,
        PageFunction.SETTLE,
        opts.settle_quiet_ms,
        opts.settle_timeout_ms,
        after_input,
        COLLECTOR_BOUNDS.shadow_scan,
        context=context,
        await_promise=True,
    )
    return msgspec.convert(raw, SettleReport)


async def settle_after_input(session: Session, context: int, opts: ObserveOptions) -> SettleReport:
    """Resolve once the document of the isolated world ``context`` has been still for
    ``opts.settle_quiet_ms`` from now (sooner when nothing the page started is pending), at most
    ``opts.settle_timeout_ms``: what an input just sent set off is done. The settle an act's
    receipt waits for, for a performer that must see the page's answer before its next input.
    Raises ``ProtocolError`` when the world goes away."""
    return await _settle_in(session, context, opts, True)


async def _settle(tab: Target, context: int, opts: ObserveOptions, after_input: bool) -> SettleReport:
    """Settle the main document (its isolated world is ``context``) and, at the same time,
    every frame the tab's own renderer draws that has the world: a frame still changing
    holds the settle as the page would. Frames of other processes are not waited for
    (each is bounded when it is collected). A frame whose world goes away meanwhile
    counts as settled. Raises ``ProtocolError`` when the main document's world goes."""
    main = tab.documents.main_frame_id
    frames = [
        world.id
        for frame_id, frame in tab.documents.frames.items()
        if frame_id != main and (world := frame.contexts.get(WORLD)) is not None
    ]
    if not frames:
        return await _settle_in(tab.session, context, opts, after_input)
    reports: list[SettleReport] = []

    async def frame(frame_context: int) -> None:
        with suppress(ProtocolError):
            reports.append(await _settle_in(tab.session, frame_context, opts, after_input))

    async with trio.open_nursery() as nursery:
        for frame_context in frames:
            nursery.start_soon(frame, frame_context)
        top = await _settle_in(tab.session, context, opts, after_input)
    waited = max(r.waited_ms for r in (top, *reports))
    if not top.settled:
        return SettleReport(False, waited, top.reason)
    late = next((r for r in reports if not r.settled), None)
    if late is not None:
        return SettleReport(False, waited, f"{late.reason}, in a frame")
    longest = max((top, *reports), key=lambda r: r.waited_ms)
    return SettleReport(True, waited, longest.reason)


async def collect_snapshot(
    tab: Target,
    options: ObserveOptions | None = None,
    *,
    timeout: float = 10.0,
    attempts: int = 3,
    after_input: bool = False,
) -> tuple[Snapshot, SettleReport | None]:
    """Settle (unless ``options.settle`` is false) and collect one consistent snapshot.

    Settling ends as soon as the page has been still for ``settle_quiet_ms``; a
    page still for longer settles at once. ``after_input`` (acting does, after its
    input) starts the quiet window now instead, so what the input set off a few
    milliseconds later is waited for too. ``options.include`` names records that
    must be collected in full. Raises
    :class:`ObservationError` (``PAGE_CHANGED``, ``COLLECT_FAILED``),
    :class:`trio.TooSlowError` after ``timeout`` seconds per attempt, and the
    driver's ``SessionClosed`` when the tab closes.
    """
    opts = options or ObserveOptions()
    last = ""
    for _ in range(attempts):
        try:
            with trio.fail_after(timeout + opts.settle_timeout_ms / 1000):
                return await _attempt(tab, opts, timeout, after_input)
        except _DocumentChanged as exc:
            last = str(exc)
            if tab.closed:
                raise SessionClosed(f"tab {tab.id} was closed") from None
    raise ObservationError("PAGE_CHANGED", f"the page kept navigating while it was observed ({last})")


async def observe_page(
    tab: Target, options: ObserveOptions | None = None, *, timeout: float = 10.0
) -> ObserveResult:
    """Observation, rendered text and tools of ``tab`` (the CLI's ``--json`` object).

    While a JavaScript dialog blocks the page (one is open, or one opens during
    the collection) the observation is :func:`dialog_snapshot`'s: the dialog as
    a modal whose actions resolve it. Warnings include what the runtime did on its
    own since the last result (``Tab.take_notices``). Raises
    :class:`ObservationError` (``TIMEOUT`` when the page did not answer in time,
    ``PAGE_CHANGED``, ``COLLECT_FAILED``) and the driver's ``SessionClosed`` (and
    ``TargetCrashed``: a closed or crashed tab is refused before anything is sent,
    :mod:`cdpagent.cdp.tabstate`).
    """
    decision = decide("observe", state_of(tab))
    if decision is Decision.REFUSE_CLOSED:
        raise SessionClosed(f"tab {tab.id} is closed")
    if decision is Decision.REFUSE_CRASHED:
        raise TargetCrashed(f"the renderer of tab {tab.id} crashed; close it and open the page again")
    opts = options or ObserveOptions()
    collected: list[tuple[Snapshot, SettleReport | None, int]] = []

    async def collect(cancel: trio.CancelScope) -> None:
        try:
            snapshot, report = await collect_snapshot(tab, opts, timeout=timeout)
            main = tab.documents.main
            collected.append((snapshot, report, main.serial if main is not None else -1))
        except trio.TooSlowError:
            limit = timeout + opts.settle_timeout_ms / 1000
            raise ObservationError(
                "TIMEOUT",
                f"the page did not answer within {limit:g} s; it may still be busy "
                "(a long script, or a very large page painting for the first time)",
            ) from None
        cancel.cancel()

    if decision is Decision.SERVE:
        with collapse():
            async with trio.open_nursery() as nursery:
                nursery.start_soon(collect, nursery.cancel_scope)
                await tab.wait_until(lambda: tab.dialog is not None, math.inf)
                nursery.cancel_scope.cancel()
    dialog = tab.dialog
    names = None
    if collected:
        snapshot, report, serial = collected[0]
        names = registry_of(tab, serial)
    elif dialog is not None:
        snapshot, report = await dialog_snapshot(tab, dialog), None
    else:
        raise ObservationError("PAGE_CHANGED", "a dialog opened and closed again while the page was observed")
    warnings = tab.take_notices()
    if report is not None and not report.settled:
        warnings.insert(
            0,
            f"the page did not settle within {report.waited_ms:.0f} ms ({report.reason}); "
            "this snapshot may describe a page that is still changing",
        )
    elif report is not None and report.waited_ms >= LONG_SETTLE_MS and report.reason is not None:
        warnings.insert(0, f"the page took {report.waited_ms:.0f} ms to settle ({report.reason} until then)")
    obs, text, tools = build(
        snapshot, opts, warnings=warnings, settle_ms=report.waited_ms if report else 0.0, names=names
    )
    if _LOG.isEnabledFor(logging.INFO):
        _LOG.info(
            "%s: settled %.0f ms, collected %.0f ms; %d actions, %d records, %d chars",
            tab.id, obs.settle_ms, obs.collect_ms, len(obs.actions), len(obs.records), len(text),
        )
    return ObserveResult(obs, text, tools)


async def dialog_snapshot(tab: Target, dialog: JavaScriptDialog) -> Snapshot:
    """The snapshot of a page blocked by ``dialog``: the dialog as the modal, its message as
    page feedback, and only the actions that answer it (:func:`~cdpagent.cdp.tabstate.dialog_actions`:
    ``accept_dialog``, and ``dismiss_dialog`` unless it is an ``alert``). Nothing runs in the
    page: the title comes from the browser's target info.
    """
    title = ""
    with trio.move_on_after(2):
        try:
            info = await tab.browser.send("Target.getTargetInfo", {"targetId": tab.target_id})
            title = str(info.get("targetInfo", {}).get("title", ""))
        except CDPAgentError:
            pass
    document = tab.documents.main
    path = urlsplit(document.url).path if document is not None else ""
    answers = dialog_actions(dialog)
    ok = "Accept the dialog (OK)" if DISMISS in answers else "Close the alert (OK)"
    described = {
        ACCEPT: PageAction(name=ACCEPT, kind="click", effect="write", description=ok),
        DISMISS: PageAction(
            name=DISMISS, kind="click", effect="write", description="Dismiss the dialog (Cancel)", order=1
        ),
    }
    if dialog.type == "prompt":
        described[ACCEPT] = PageAction(
            name=ACCEPT,
            kind="type",
            effect="write",
            description="Answer the page's prompt with text and accept it (OK)",
            input=InputSpec(doc="The answer to the prompt.", value=dialog.default_prompt),
        )
    actions = [described[name] for name in answers]
    return Snapshot(
        identity=Identity(title=title, path=path),
        actions=actions,
        actions_total=len(actions),
        feedback=[Feedback(level="warning", message=dialog.message, source="dialog")],
        feedback_total=1,
        modal=dialog.label,
        warnings=[
            f"a {dialog.label} dialog is open and blocks the page: nothing else can be observed "
            f"or done until it is accepted ({ACCEPT}) or dismissed ({DISMISS})"
        ],
    )


async def observe(
    tab: Target, options: ObserveOptions | None = None, *, timeout: float = 10.0
) -> Observation:
    """The bounded observation of ``tab`` now (``Tab.observe``); see :func:`observe_page`."""
    return (await observe_page(tab, options, timeout=timeout)).observation
