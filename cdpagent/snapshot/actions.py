"""Acting on declared actions (SPEC OB-5, OB-7) and answering with a receipt (OB-8).

:func:`act` is the whole round trip of one tool call:

1. settle and snapshot the page, with the target record collected in full;
2. map the tool name and ``record`` back to the original action id
   (``toggle`` + ``t9`` → ``toggle@t9``) and check it against that snapshot:
   declared, available (else its reason), arguments fit its kind;
3. refuse hand-off actions, ask the host about confirm actions;
4. in the isolated world, find the element again and re-check it *now*
   (connected, enabled, not inert or hidden, not behind a modal, hit-testable at
   its centre once scrolled into view — ``js/act.js``);
5. perform it with trusted input through CDP (``Input.dispatchMouseEvent`` at
   the centre for click and check; focus, select-all, ``Input.insertText`` and
   Enter for type — date, colour and range controls take no typing, so their
   value is set natively with ``input``/``change``; the option's native selection
   plus ``input``/``change`` for select) and verify the post-condition;
6. settle and snapshot again and diff the two (:mod:`.receipts`).

Every outcome is a :class:`~cdpagent.snapshot.receipts.Receipt`; refusals and
failures carry a stable code from :mod:`.codes`. Calls on one tab are
serialised by a per-tab lock, so two actions never interleave their input.
"""

from __future__ import annotations

import inspect
import time
import weakref
from collections.abc import Awaitable, Callable
from importlib.resources import files
from typing import TYPE_CHECKING, Any

import msgspec
import trio

from ..errors import CDPAgentError, ProtocolError, SessionClosed
from . import codes
from .folding import fold_actions
from .model import ActionEntry, ActionLocator, Snapshot
from .observe import WORLD, ObservationError, ObservationExtension, SettleReport, collect_snapshot, observe
from .observe import install as install_collector
from .options import ObserveOptions
from .receipts import ActionRef, Changes, Receipt, diff, error_receipt, ok_receipt
from .tools import ToolCallError, resolve_tool_call

if TYPE_CHECKING:
    from ..browser import Command, Tab

__all__ = [
    "ActTimings",
    "ActionExtension",
    "ConfirmCallback",
    "ConfirmRequest",
    "act",
    "act_step",
    "act_timed",
    "ask_on_terminal",
    "install",
    "seed_walkthrough",
]

_SOURCE = files("cdpagent.js").joinpath("act.js").read_text(encoding="utf-8")
_installed: weakref.WeakSet[Tab] = weakref.WeakSet()
_locks: weakref.WeakKeyDictionary[Tab, trio.Lock] = weakref.WeakKeyDictionary()
_NAVIGATION_EVENTS = (
    "Page.frameRequestedNavigation",
    "Page.frameStartedNavigating",
    "Page.frameStartedLoading",
)


class ConfirmRequest(msgspec.Struct, frozen=True):
    """What the host is asked before a ``data-agent-confirm`` action runs."""

    tab: str
    action: str
    description: str
    question: str


ConfirmCallback = Callable[[ConfirmRequest], bool | Awaitable[bool]]
"""Returns (or resolves to) True to let the action run; anything else denies it."""


class ActTimings(msgspec.Struct):
    """Where the time of one :func:`act` went, in milliseconds (both snapshots summed)."""

    settle_ms: float = 0.0
    collect_ms: float = 0.0
    """Inside the page: ``collect.js`` building the snapshots."""
    transfer_ms: float = 0.0
    """CDP round trips, JSON transfer and msgspec decoding of the snapshots."""
    action_ms: float = 0.0
    """Re-check, scroll, input and post-condition."""
    diff_ms: float = 0.0
    total_ms: float = 0.0


class ActionExtension:
    """Installs the collector and ``act.js`` in every new tab (``launch(extensions=[…])``)."""

    def setup_tab(self, tab: Tab) -> list[Command]:
        _installed.add(tab)
        return [*ObservationExtension().setup_tab(tab), *_install_commands()]


def _install_commands() -> list[Command]:
    return [
        (
            "Page.addScriptToEvaluateOnNewDocument",
            {"source": _SOURCE, "worldName": WORLD, "runImmediately": True},
        )
    ]


async def install(tab: Tab) -> None:
    """Make sure ``tab``'s current and future documents have the collector and ``act.js``.

    Raises the driver's errors when the tab is gone.
    """
    await install_collector(tab)
    if tab in _installed:
        return
    await tab.session.send_batch(_install_commands())
    _installed.add(tab)


def _lock(tab: Tab) -> trio.Lock:
    lock = _locks.get(tab)
    if lock is None:
        lock = _locks[tab] = trio.Lock()
    return lock


class _Refused(Exception):
    """Ends an action early with an error receipt."""

    def __init__(self, code: str, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason


class _WorldGone(Exception):
    pass


async def _call(tab: Tab, ctx: int, function: str, *args: Any) -> dict[str, Any]:
    params = ", ".join(f"a{i}" for i in range(len(args)))
    try:
        reply = await tab.session.send(
            "Runtime.callFunctionOn",
            {
                "functionDeclaration": (
                    f"function ({params}) {{ return globalThis.__cdpagentAct.{function}({params}); }}"
                ),
                "executionContextId": ctx,
                "arguments": [{"value": a} for a in args],
                "returnByValue": True,
            },
        )
    except ProtocolError as exc:
        # The isolated world died under the call: its document was replaced.
        raise _WorldGone(str(exc)) from exc
    details = reply.get("exceptionDetails")
    if details:
        text = (details.get("exception") or {}).get("description") or details.get("text")
        raise _Refused(codes.ACTION_FAILED, f"the acting helper failed: {str(text)[:200]}")
    value = reply.get("result", {}).get("value")
    return value if isinstance(value, dict) else {}


class _Run:
    """The mutable state of one act call (timings, warnings, what the page did)."""

    def __init__(self, tab: Tab, opts: ObserveOptions) -> None:
        self.tab = tab
        self.opts = opts
        self.timings = ActTimings()
        self.warnings: list[str] = []
        self.page_errors: list[str] = []
        self.navigation_started = False
        self.performed = False
        self.dialogs: list[str] = []

    async def snapshot(self, include: tuple[str, ...]) -> Snapshot:
        t0 = time.perf_counter()
        opts = msgspec.structs.replace(self.opts, include=include)
        snap, report = await collect_snapshot(self.tab, opts)
        wall = (time.perf_counter() - t0) * 1000
        settle = report.waited_ms if report else 0.0
        self.timings.settle_ms += settle
        self.timings.collect_ms += snap.collect_ms
        self.timings.transfer_ms += max(wall - settle - snap.collect_ms, 0.0)
        self._settle_warning(report)
        return snap

    def _settle_warning(self, report: SettleReport | None) -> None:
        if report is not None and not report.settled:
            self.warnings.append(
                f"the page did not settle within {report.waited_ms:.0f} ms ({report.reason}); "
                "the receipt may miss later changes"
            )

    def on_exception(self, params: dict[str, Any]) -> None:
        if not self.performed:
            return  # thrown before our input: not this action's doing
        details = params.get("exceptionDetails") or {}
        text = (details.get("exception") or {}).get("description") or details.get("text") or "error"
        self.page_errors.append(str(text).splitlines()[0][:200])

    def on_navigation(self, params: dict[str, Any]) -> None:
        doc = self.tab.document
        if doc is not None and params.get("frameId") == doc.frame_id:
            self.navigation_started = True


def _available(entries: list[ActionEntry]) -> list[str]:
    return [e.tool for e in entries if e.available]


def _check_arguments(entry: ActionEntry, text: str | None, option: str | None, checked: bool | None) -> None:
    given = {"text": text, "option": option, "checked": checked}
    wanted = {"type": "text", "select": "option", "check": "checked"}.get(entry.kind)
    extra = [k for k, v in given.items() if v is not None and k != wanted]
    if extra:
        raise _Refused(
            codes.INVALID_ARGUMENT,
            f"{entry.tool} is a {entry.kind} action and takes no {', '.join(extra)}",
        )
    if wanted is None:
        return
    value = given[wanted]
    expected = bool if wanted == "checked" else str
    if value is None or not isinstance(value, expected):
        kind = "a boolean" if expected is bool else "a string"
        raise _Refused(codes.INVALID_ARGUMENT, f"{entry.tool} needs {wanted} ({kind})")


def _resolve(entries: list[ActionEntry], name: str, record: str | None) -> tuple[ActionEntry, ActionLocator]:
    """Entry and locator of a tool call; raises :class:`_Refused` (unknown, record missing)."""
    try:
        return resolve_tool_call(entries, name, record)
    except ToolCallError as exc:
        raise _Refused(exc.code, exc.message) from None


def _check_available(snap: Snapshot, entry: ActionEntry, record: str | None) -> None:
    """Refuse (:class:`_Refused`) unless ``snap`` shows the action, on ``record``, available."""
    if not entry.folded:
        if record is not None:
            raise _Refused(codes.INVALID_ARGUMENT, f"{entry.tool} is not a row action: pass no record")
        if not entry.available:
            raise _Refused(
                codes.ACTION_UNAVAILABLE, f"{entry.tool} is not available now: {entry.reason}", entry.reason
            )
        return
    assert record is not None
    full = next((r for r in snap.records if r.id == record), None)
    if full is None or record not in snap.record_index.ids:
        raise _Refused(
            codes.UNKNOWN_RECORD,
            f"no record {record!r} in the active regions of this page; use an id from the citation records",
        )
    if entry.region_path and full.region != entry.region_path[-1]:
        raise _Refused(
            codes.UNKNOWN_RECORD, f"record {record!r} is not in the region of {entry.tool} ({entry.region})"
        )
    state = full.actions.get(entry.name)
    if state is None:
        raise _Refused(codes.UNKNOWN_RECORD, f"record {record!r} has no {entry.tool} action")
    if not state.available:
        raise _Refused(
            codes.ACTION_UNAVAILABLE,
            f"{entry.tool} is not available on {record!r} now: {state.reason}",
            state.reason,
        )


async def _confirmed(callback: ConfirmCallback | None, request: ConfirmRequest) -> bool:
    if callback is None:
        return False
    answer = callback(request)
    if inspect.isawaitable(answer):
        answer = await answer
    return answer is True


async def _mouse_click(tab: Tab, x: float, y: float) -> None:
    send = tab.session.send
    await send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    common = {"x": x, "y": y, "button": "left", "clickCount": 1}
    await send("Input.dispatchMouseEvent", {"type": "mousePressed", "buttons": 1, **common})
    await send("Input.dispatchMouseEvent", {"type": "mouseReleased", "buttons": 0, **common})


async def _key(tab: Tab, key: str, code: str, vk: int, text: str | None = None) -> None:
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
    await tab.session.send("Input.dispatchKeyEvent", down)
    await tab.session.send(
        "Input.dispatchKeyEvent",
        {"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk},
    )


async def _perform(
    run: _Run,
    ctx: int,
    serial: int,
    entry: ActionEntry,
    locator: ActionLocator,
    text: str | None,
    option: str | None,
    checked: bool | None,
) -> str | None:
    """Re-check, scroll, deliver the input; returns a failed expectation, if any."""
    tab = run.tab
    where = msgspec.to_builtins(locator)
    prep = await _call(tab, ctx, "prepare", where, entry.kind)
    if not prep.get("found"):
        raise _Refused(codes.ACTION_UNAVAILABLE, f"{locator.id} is no longer on the page", "gone")
    reason = prep.get("reason")
    if reason:
        raise _Refused(codes.ACTION_UNAVAILABLE, f"{locator.id} cannot be used now: {reason}", reason)
    doc = tab.document
    if doc is None or doc.serial != serial:
        raise _Refused(codes.PAGE_CHANGED, "the page was replaced before the action could run")
    x, y = float(prep["x"]), float(prep["y"])
    if entry.kind == "click":
        run.performed = True
        await _mouse_click(tab, x, y)
        return None
    if entry.kind == "check":
        if bool(prep.get("checked")) == checked:
            run.warnings.append(f"{locator.id} was already {'checked' if checked else 'unchecked'}")
            return None
        run.performed = True
        await _mouse_click(tab, x, y)
        now = await _call(tab, ctx, "state", where)
        if now.get("found") and now.get("checked") != checked:
            return f"{locator.id} is still {'checked' if now.get('checked') else 'unchecked'} after the click"
        return None
    if entry.kind == "select":
        assert option is not None
        chosen = await _call(tab, ctx, "choose", where, option)
        if not chosen.get("found"):
            raise _Refused(codes.ACTION_UNAVAILABLE, f"{locator.id} is no longer on the page", "gone")
        if chosen.get("reason"):
            # act.js lists no options of a sensitive select (OB-2).
            offered = " / ".join(str(o) for o in chosen.get("options") or []) or "(not listed)"
            raise _Refused(
                codes.UNKNOWN_OPTION,
                f"{chosen['reason']}: {option!r}; the options are: {offered}",
            )
        run.performed = True
        if not chosen.get("ok"):
            return f"{option!r} is not the selected option after choosing it"
        return None
    assert text is not None
    focus = await _call(tab, ctx, "focusForTyping", where)
    if not focus.get("ok"):
        raise _Refused(codes.ACTION_UNAVAILABLE, f"{locator.id}: {focus.get('reason')}", focus.get("reason"))
    run.performed = True
    if focus.get("picked"):
        value = await _call(tab, ctx, "pick", where, text)
    else:
        if text:
            await tab.session.send("Input.insertText", {"text": text})
        elif not focus.get("empty"):
            await _key(tab, "Delete", "Delete", 46)
        value = await _call(tab, ctx, "valueIs", where, text)
    if value.get("found") and not value.get("ok"):
        # Never echo the value: the field may be sensitive.
        return f"{locator.id} holds {value.get('length')} characters instead of the {len(text)} typed"
    if entry.submit:
        await _key(tab, "Enter", "Enter", 13, "\r")
    return None


async def _act(
    run: _Run,
    name: str,
    record: str | None,
    text: str | None,
    option: str | None,
    checked: bool | None,
    confirm: ConfirmCallback | None,
) -> Receipt:
    tab = run.tab
    if record is None and "@" in name:
        # An original action id ("toggle@t9") works as well as the tool name.
        name, record = name.split("@", 1)
    include = (record,) if record else ()
    ref = ActionRef(f"{name}@{record}" if record else name)
    before = await run.snapshot(include)
    doc = tab.document
    serial = doc.serial if doc else -1
    entries = fold_actions(before)
    available = _available(entries)
    try:
        entry, locator = _resolve(entries, name, record)
        ref = ActionRef(locator.id, entry.description)
        _check_available(before, entry, record)
        if entry.handoff:
            raise _Refused(
                codes.HANDOFF_REQUIRED,
                f"a person must do this: {entry.handoff}. Ask the user to do it; it was not performed.",
                entry.handoff,
            )
        _check_arguments(entry, text, option, checked)
        if entry.confirm:
            request = ConfirmRequest(tab.id, locator.id, entry.description, entry.confirm)
            if not await _confirmed(confirm, request):
                raise _Refused(
                    codes.CONFIRMATION_DENIED,
                    f"the user did not confirm {locator.id!r} ({entry.confirm}); it was not performed",
                )
        ctx = await tab.context_id(WORLD)
        t0 = time.perf_counter()
        expectation = await _perform(run, ctx, serial, entry, locator, text, option, checked)
        run.timings.action_ms = (time.perf_counter() - t0) * 1000
    except _Refused as exc:
        return error_receipt(ref, exc.code, exc.message, available, reason=exc.reason)
    except _WorldGone:
        if run.performed:
            expectation = None
            run.warnings.append("the page was replaced while the action was verified")
        else:
            return error_receipt(
                ref, codes.PAGE_CHANGED, "the page was replaced before the action could run", available
            )

    if run.navigation_started and tab.document is not None and tab.document.serial == serial:
        # The input started a navigation whose new document is not committed yet.
        with trio.move_on_after(5):
            await tab.document_changed(serial, timeout=5)
    after = await run.snapshot(include)
    doc = tab.document
    navigated = doc is not None and doc.serial != serial
    t0 = time.perf_counter()
    changes = diff(before, after, navigated=navigated, options=run.opts)
    run.timings.diff_ms = (time.perf_counter() - t0) * 1000
    return _finish(run, ref, changes, expectation, after)


def _finish(run: _Run, ref: ActionRef, changes: Changes, expectation: str | None, after: Snapshot) -> Receipt:
    warnings = list(run.warnings)
    warnings += [f"the page opened a JavaScript dialog, dismissed: {d}" for d in run.dialogs]
    available = _available(fold_actions(after))
    if expectation is not None:
        return error_receipt(
            ref, codes.EXPECTATION_FAILED, expectation, available, changed=changes, warnings=warnings
        )
    if run.page_errors:
        if not changes.observed:
            return error_receipt(
                ref,
                codes.ACTION_FAILED,
                f"the page's handler threw and nothing changed: {run.page_errors[0]}",
                available,
                changed=changes,
                warnings=warnings,
            )
        warnings += [f"the page reported an error during the action: {e}" for e in run.page_errors]
    return ok_receipt(ref, changes, warnings)


async def act_timed(
    tab: Tab,
    name: str,
    *,
    record: str | None = None,
    text: str | None = None,
    option: str | None = None,
    checked: bool | None = None,
    confirm: ConfirmCallback | None = None,
    options: ObserveOptions | None = None,
    timeout: float = 30.0,
) -> tuple[Receipt, ActTimings]:
    """:func:`act`, plus where its time went (for ``bench/act.py``)."""
    run = _Run(tab, options or ObserveOptions())
    started = time.perf_counter()
    ref = ActionRef(f"{name}@{record}" if record and "@" not in name else name)
    receipt: Receipt | None = None
    async with _lock(tab):
        await install(tab)
        unsubscribe = [
            tab.session.on("Runtime.exceptionThrown", run.on_exception),
            *(tab.session.on(e, run.on_navigation) for e in _NAVIGATION_EVENTS),
        ]
        try:
            async with trio.open_nursery() as nursery:

                def on_dialog(params: dict[str, Any]) -> None:
                    # A blocking alert/confirm would stall the input forever; dismiss it.
                    run.dialogs.append(str(params.get("message", ""))[:200])
                    nursery.start_soon(_dismiss, tab)

                unsubscribe.append(tab.session.on("Page.javascriptDialogOpening", on_dialog))
                with trio.move_on_after(timeout):
                    try:
                        receipt = await _act(run, name, record, text, option, checked, confirm)
                    except ObservationError as exc:
                        receipt = error_receipt(ref, codes.PAGE_CHANGED, exc.message, [])
                    except SessionClosed as exc:
                        receipt = error_receipt(ref, codes.PAGE_CHANGED, f"the tab is gone: {exc}", [])
                    except trio.TooSlowError:
                        receipt = None
                    except ProtocolError as exc:
                        # The browser refused an input or helper call (e.g. the page went away).
                        receipt = error_receipt(ref, codes.ACTION_FAILED, str(exc)[:300], [])
                nursery.cancel_scope.cancel()
        finally:
            for off in unsubscribe:
                off()
    if receipt is None:
        done = " It may have been performed; observe the page before retrying." if run.performed else ""
        message = f"the action did not finish within {timeout} s.{done}"
        receipt = error_receipt(ref, codes.TIMEOUT, message, [])
    run.timings.total_ms = (time.perf_counter() - started) * 1000
    return receipt, run.timings


async def _dismiss(tab: Tab) -> None:
    try:
        await tab.session.send("Page.handleJavaScriptDialog", {"accept": False})
    except CDPAgentError:
        pass


async def act(
    tab: Tab,
    name: str,
    *,
    record: str | None = None,
    text: str | None = None,
    option: str | None = None,
    checked: bool | None = None,
    confirm: ConfirmCallback | None = None,
    options: ObserveOptions | None = None,
    timeout: float = 30.0,
) -> Receipt:
    """Perform the action a tool call names and return its receipt (OB-7, OB-8).

    ``name`` is a tool name from the observation (``toggle``) or an original
    action id (``toggle@t9``); ``record`` picks the row of a folded action;
    ``text`` / ``option`` / ``checked`` are the input of type / select / check
    actions. ``confirm`` is asked before a ``data-agent-confirm`` action (no
    callback = denied). Calls on one tab are serialised.

    Never raises for page content or bad arguments: every refusal or failure is
    a receipt with ``ok: false`` and a code from :mod:`cdpagent.snapshot.codes`.
    Raises only what cancels the caller and the driver's ``ConnectionClosed``.
    """
    receipt, _ = await act_timed(
        tab,
        name,
        record=record,
        text=text,
        option=option,
        checked=checked,
        confirm=confirm,
        options=options,
        timeout=timeout,
    )
    return receipt


async def seed_walkthrough(tab: Tab) -> list[dict[str, Any]]:
    """The seed's two-request walkthrough on ``examples/todos`` opened in ``tab``.

    Observe; ``search`` for "周报"; observe again and find the record whose
    title is 周报 (t9, outside the first viewport); ``toggle`` it. Returns the
    two receipts as plain dicts. Raises ``LookupError`` when the search does not
    reveal the task (the page is not the todos example).
    """
    await observe(tab)
    searched = await act(tab, "search", text="周报")
    found = await observe(tab)
    target = next((r for r in found.records if r.fields.get("title") == "周报"), None)
    if target is None:
        raise LookupError("no record titled 周报 after searching")
    toggled = await act(tab, "toggle", record=target.id)
    return [searched.to_builtins(), toggled.to_builtins()]


_STEP_FIELDS = {"action": str, "record": str, "text": str, "option": str, "checked": bool}


async def act_step(
    tab: Tab, step: dict[str, Any], *, confirm: ConfirmCallback | None = None
) -> dict[str, Any]:
    """``cdpagent script``'s ``{"op": "act", "action", "record"?, "text"?, "option"?, "checked"?}``.

    Returns ``{"op": "act", "receipt": {"result": …}}``. A malformed step (no
    ``action``, a field of the wrong type, an unknown field) is a receipt with
    ``INVALID_ARGUMENT``, like any other bad tool call; never raises for it.
    """
    action = step.get("action")
    ref = ActionRef(action if isinstance(action, str) else "")
    problems = [
        f"{key!r} must be a {kind.__name__}"
        for key, kind in _STEP_FIELDS.items()
        if step.get(key) is not None and not isinstance(step[key], kind)
    ]
    problems += [f"unknown field {key!r}" for key in step if key not in _STEP_FIELDS and key != "op"]
    if not isinstance(action, str) or not action:
        problems.insert(0, "'action' (a tool name) is required")
    if problems:
        receipt = error_receipt(ref, codes.INVALID_ARGUMENT, "act: " + "; ".join(problems), [])
        return {"op": "act", "receipt": receipt.to_builtins()}
    assert isinstance(action, str)
    receipt = await act(
        tab,
        action,
        record=step.get("record"),
        text=step.get("text"),
        option=step.get("option"),
        checked=step.get("checked"),
        confirm=confirm,
    )
    return {"op": "act", "receipt": receipt.to_builtins()}


async def ask_on_terminal(request: ConfirmRequest) -> bool:
    """A :data:`ConfirmCallback` for the CLI: asks on the controlling terminal.

    Reads ``/dev/tty`` (stdin may carry the script); no terminal means no.
    """

    def ask() -> bool:
        try:
            with open("/dev/tty", "r+", encoding="utf-8") as tty:
                tty.write(f"cdpagent: {request.action} asks: {request.question} [y/N] ")
                tty.flush()
                return tty.readline().strip().lower() in ("y", "yes")
        except OSError:
            return False

    return await trio.to_thread.run_sync(ask)
