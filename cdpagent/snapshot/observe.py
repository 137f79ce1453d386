"""Observing a tab: install the collector, settle (OB-6), collect, budget, render.

The collector (``js/collect.js``) lives in the isolated world
``cdpagent-observe``: page scripts can neither see nor patch it, and it shares
only the DOM with the page. :class:`ObservationExtension` installs it on every
new tab before its first script; :func:`observe` installs it lazily on tabs
opened without the extension (``Page.addScriptToEvaluateOnNewDocument`` with
``runImmediately`` also covers the current document).

A snapshot never mixes two documents: the main document's serial is read before
settling and after collecting, and a change (or the isolated world dying under
the call) restarts the attempt on the new document, up to ``attempts`` times;
then :class:`ObservationError` with code ``PAGE_CHANGED`` is raised.
"""

from __future__ import annotations

import weakref
from importlib.resources import files
from typing import TYPE_CHECKING, Any

import msgspec
import trio

from ..errors import ObservationError, ProtocolError, SessionClosed
from .budget import build
from .model import Observation, Snapshot, decode_snapshot
from .options import ObserveOptions

if TYPE_CHECKING:
    from ..browser import Command, Tab

__all__ = [
    "WORLD",
    "ObservationError",
    "ObservationExtension",
    "ObserveResult",
    "SettleReport",
    "collect_snapshot",
    "install",
    "observe",
    "observe_page",
    "observe_step",
]

WORLD = "cdpagent-observe"
_SOURCE = files("cdpagent.js").joinpath("collect.js").read_text(encoding="utf-8")
_CALL_COLLECT = "function (o) { return globalThis.__cdpagentObserve.collect(o); }"
_CALL_SETTLE = "function (q, t) { return globalThis.__cdpagentObserve.settle(q, t); }"
_installed: weakref.WeakSet[Tab] = weakref.WeakSet()


class SettleReport(msgspec.Struct, frozen=True):
    """What the settle step (OB-6) saw: settled in time, or why not."""

    settled: bool
    waited_ms: float
    reason: str | None = None


class ObserveResult(msgspec.Struct, frozen=True):
    """The serialized form: ``{"observation", "text", "tools"}`` (CLI ``--json``, ``script``)."""

    observation: Observation
    text: str
    tools: list[dict[str, Any]]


class ObservationExtension:
    """Installs the collector in every new tab (pass to ``cdpagent.launch(extensions=…)``)."""

    def setup_tab(self, tab: Tab) -> list[Command]:
        _installed.add(tab)
        return _install_commands()


def _install_commands() -> list[Command]:
    return [
        (
            "Page.addScriptToEvaluateOnNewDocument",
            {"source": _SOURCE, "worldName": WORLD, "runImmediately": True},
        )
    ]


async def install(tab: Tab) -> None:
    """Make sure ``tab``'s current and future documents have the collector.

    Raises the driver's errors (``SessionClosed``, ``ProtocolError``) when the tab is gone.
    """
    if tab in _installed:
        return
    await tab.session.send_batch(_install_commands())
    _installed.add(tab)


def _value(result: dict[str, Any]) -> Any:
    details = result.get("exceptionDetails")
    if details:
        exc = details.get("exception") or {}
        text = exc.get("description") or details.get("text") or "exception"
        raise ObservationError("COLLECT_FAILED", str(text).splitlines()[0][:300])
    return result.get("result", {}).get("value")


class _DocumentChanged(Exception):
    pass


async def _attempt(
    tab: Tab, opts: ObserveOptions, timeout: float
) -> tuple[Snapshot, SettleReport | None]:
    doc = await tab.wait_loaded(timeout)
    serial = doc.serial
    ctx = await tab.context_id(WORLD, timeout)
    report = None
    try:
        if opts.settle:
            raw = _value(
                await tab.session.send(
                    "Runtime.callFunctionOn",
                    {
                        "functionDeclaration": _CALL_SETTLE,
                        "executionContextId": ctx,
                        "arguments": [
                            {"value": opts.settle_quiet_ms},
                            {"value": opts.settle_timeout_ms},
                        ],
                        "awaitPromise": True,
                        "returnByValue": True,
                    },
                )
            )
            report = msgspec.convert(raw, SettleReport)
        text = _value(
            await tab.session.send(
                "Runtime.callFunctionOn",
                {
                    "functionDeclaration": _CALL_COLLECT,
                    "executionContextId": ctx,
                    "arguments": [{"value": msgspec.json.encode(opts.collector_args()).decode()}],
                    "returnByValue": True,
                },
            )
        )
    except ProtocolError as exc:
        # The world died under the call: its document was replaced.
        raise _DocumentChanged(str(exc)) from exc
    now = tab.document
    if now is None or now.serial != serial:
        raise _DocumentChanged("the document changed while it was observed")
    if not isinstance(text, str):
        raise ObservationError("COLLECT_FAILED", "the collector returned no snapshot")
    return decode_snapshot(text), report


async def collect_snapshot(
    tab: Tab,
    options: ObserveOptions | None = None,
    *,
    timeout: float = 10.0,
    attempts: int = 3,
) -> tuple[Snapshot, SettleReport | None]:
    """Settle (unless ``options.settle`` is false) and collect one consistent snapshot.

    ``options.include`` names records that must be collected in full. Raises
    :class:`ObservationError` (``PAGE_CHANGED``, ``COLLECT_FAILED``),
    :class:`trio.TooSlowError` after ``timeout`` seconds per attempt, and the
    driver's ``SessionClosed`` when the tab closes.
    """
    opts = options or ObserveOptions()
    await install(tab)
    last = ""
    for _ in range(attempts):
        try:
            with trio.fail_after(timeout + opts.settle_timeout_ms / 1000):
                return await _attempt(tab, opts, timeout)
        except _DocumentChanged as exc:
            last = str(exc)
            if tab.closed:
                raise SessionClosed(f"tab {tab.id} was closed") from None
    raise ObservationError(
        "PAGE_CHANGED", f"the page kept navigating while it was observed ({last})"
    )


def _settle_warning(report: SettleReport | None) -> list[str]:
    if report is None or report.settled:
        return []
    return [
        f"the page did not settle within {report.waited_ms:.0f} ms ({report.reason}); "
        "this snapshot may describe a page that is still changing"
    ]


async def observe_page(
    tab: Tab, options: ObserveOptions | None = None, *, timeout: float = 10.0
) -> ObserveResult:
    """Observation, rendered text and tools of ``tab`` (the CLI's ``--json`` object).

    Raises what :func:`collect_snapshot` raises.
    """
    opts = options or ObserveOptions()
    snapshot, report = await collect_snapshot(tab, opts, timeout=timeout)
    obs, text, tools = build(
        snapshot,
        opts,
        warnings=_settle_warning(report),
        settle_ms=report.waited_ms if report else 0.0,
    )
    return ObserveResult(obs, text, tools)


async def observe(
    tab: Tab, options: ObserveOptions | None = None, *, timeout: float = 10.0
) -> Observation:
    """The bounded observation of ``tab`` now (``Tab.observe``); see :func:`observe_page`."""
    return (await observe_page(tab, options, timeout=timeout)).observation


async def observe_step(tab: Tab, step: dict[str, Any]) -> dict[str, Any]:
    """``cdpagent script``'s ``{"op": "observe", "options"?: {...}}`` step.

    Returns ``{"op": "observe", "observation", "text", "tools"}`` (the ``--json``
    object plus ``op``); ``options`` holds :class:`ObserveOptions` fields by name.
    Raises :class:`ValueError` for options that are not ObserveOptions fields or
    have the wrong type, and what :func:`observe_page` raises.
    """
    raw = step.get("options", {})
    try:
        options = msgspec.convert(raw, ObserveOptions)
    except msgspec.ValidationError as error:
        raise ValueError(f"observe: bad options: {error}") from None
    result = await observe_page(tab, options)
    return {"op": "observe", **msgspec.to_builtins(result)}
