"""``cdpagent script``: run JSON-lines steps against one tab, one JSON result line per step (SF-2).

Each input line is a JSON object with an ``op``. This module serves the Page Agent
API steps, and the observation's ``observe`` and ``act`` steps (:data:`STEPS`):

===================================================  ==========================================
step                                                 result line
===================================================  ==========================================
``{"op": "invoke", "method", "args"?, "timeout"?}``  ``{"op": "invoke", "result": value}`` or
                                                     ``{"op": "invoke", "ok": false, "error": …}``
``{"op": "open", "url", "timeout"?}``                ``{"op": "open", "tabId", "url"}`` (the steps
                                                     go on in the new tab)
``{"op": "close"}``                                  ``{"op": "close", "closed": tabId}``
``{"op": "list"}``                                   ``{"op": "list", "pages": [{tabId, url, opener?}],
                                                     "current"}``
``{"op": "select", "tabId"}``                        ``{"op": "select", "tabId", "url"}`` (the steps go
                                                     on in that tab, e.g. a popup)
``{"op": "navigate", "url", "timeout"?}``            ``{"op": "navigate", "tabId", "url", "changed"}``
``{"op": "back" | "forward" | "reload", "timeout"?}``  ``{"op": …, "tabId", "url", "changed"}``
``{"op": "screenshot", "full_page"?, "target"?,      ``{"op": "screenshot", "format", "width", "height",
"format"?, "quality"?, "max_edge"?}``                 "bytes", "masked", "truncated", "summary",
                                                     "data"}`` (``data``: the image, base64)
``{"op": "pdf", "landscape"?}``                      ``{"op": "pdf", "bytes", "data"}``
``{"op": "wait_for", "text"?, "gone"?, "action"?,    ``{"op": "wait_for", "tabId", "holds"}``
"timeout"?}``
``{"op": "console" | "network", "limit"?}``          ``{"op": "console", "messages"}`` /
                                                     ``{"op": "network", "requests"}``
``{"op": "downloads", "limit"?}``                    ``{"op": "downloads", "downloads": […]}``
``{"op": "click_at", "x", "y"}``,                    ``{"op": …, "receipt": {"result": …}}``
``{"op": "type_at", "x", "y", "text"}``
``{"op": "wait", "ms"}``                             ``{"op": "wait", "ms": …}``
``{"op": "user_click", "selector"}``                 ``{"op": "user_click", "selector": …}``
``{"op": "user_type", "selector", "text"}``          ``{"op": "user_type", "selector": …}``
``{"op": "notifications", "wait_ms"?}``              ``{"op": "notifications", "notifications": […]}``
``{"op": "observe", "options"?}``                    ``{"op": "observe", "observation", "text", "tools"}``
``{"op": "act", "action", "record"?, "text"?, …}``   ``{"op": "act", "receipt": {"result": …}}``
===================================================  ==========================================

Every operation of :mod:`cdpagent.ops.operations` is a step of the same name taking the same
arguments (the operation steps run through :mod:`cdpagent.ops.current_tab`, as the agent's tools
do; a script runs every step it is given, opt-in ones included: whoever wrote it chose
them). A step's arguments are decoded once by the operation's Struct: an unknown or
mistyped argument is ``SCRIPT_STEP_INVALID`` naming it.

``user_click`` and ``user_type`` are a simulated person using the page through real
input events (a test-harness step, never an agent tool). ``notifications`` waits up
to ``wait_ms`` for a first ``thread_notify`` delivery when none is queued, then
returns all queued ones.
"""

from __future__ import annotations

import base64
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Final, TypeVar

import msgspec
import trio

from ..act.perform import ConfirmCallback
from ..browser.tabs import Tab
from ..cdp.failures import code_of
from ..errors import CDPAgentError, PageApiError, StepError, ToolCallError
from ..primitives.urlpolicy import UrlPolicy
from ..runtime.codes import PAGE_API_ARGS_INVALID, refusal
from ..runtime.invoke import DEFAULT_TIMEOUT
from ..runtime.threads import Thread
from ..snapshot import codes
from ..snapshot.options import ObserveOptions
from ..snapshot.receipts import ActionRef, error_receipt
from . import current_tab
from .harness import user_click, user_type
from .operations import (
    ActArgs,
    InvokeArgs,
    OperationArgs,
    decode,
    operation,
    surface_arguments,
)

__all__ = [
    "SCRIPT_STEP_FAILED",
    "SCRIPT_STEP_INVALID",
    "STEPS",
    "ScriptContext",
    "act_step",
    "describe_failure",
    "observe_step",
    "run_step",
    "run_steps",
]

#: The code of a result line for a step that could not be run as written.
SCRIPT_STEP_INVALID: Final = "SCRIPT_STEP_INVALID"
#: The code of a result line for a step the browser could not carry out.
SCRIPT_STEP_FAILED: Final = "SCRIPT_STEP_FAILED"


class ScriptContext(msgspec.Struct):
    """What a step handler works on: the tab, its owning thread (``None`` when
    standalone) and who answers confirmations of ``act`` steps (``None``: deny)."""

    tab: Tab
    thread: Thread[Tab] | None
    confirm: ConfirmCallback | None = None
    policy: UrlPolicy | None = None
    unattended: bool = False
    """``--yes``: dialogs the page raises during an act step are answered at once."""
    """The steps are the user's own, so they may go anywhere (see :mod:`cdpagent.ops.current_tab`)."""


_A = TypeVar("_A", bound=OperationArgs)

Step = Callable[[ScriptContext, dict[str, Any]], Awaitable[dict[str, Any]]]


def _field(step: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    if name not in step:
        if default is ...:
            raise StepError(f"{step.get('op')} needs {name!r}")
        return default
    value = step[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind in (int, float, (int, float))):
        raise StepError(f"{step.get('op')}: {name!r} has the wrong type")
    return value


def _arguments(step: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in step.items() if k != "op"}


async def _invoke(ctx: ScriptContext, step: dict[str, Any]) -> dict[str, Any]:
    timeout = _field(step, "timeout", (int, float), DEFAULT_TIMEOUT)
    try:
        args = decode(InvokeArgs, {**_arguments(step), "timeout": float(timeout)})
        result = await ctx.tab.invoke(args.method, args.args, timeout=args.timeout)
    except ToolCallError as error:
        # An invoke's arguments are the Page Agent API's to judge (PA-4): an ordinary result.
        return {"op": "invoke", **refusal(PAGE_API_ARGS_INVALID, error.message)}
    except PageApiError as error:
        return {"op": "invoke", **error.envelope()}
    return {"op": "invoke", "result": result}


def _decoded(args: type[_A], step: dict[str, Any]) -> _A:
    """The step's arguments as the operation's Struct; raises :class:`StepError` when they do not fit."""
    try:
        return decode(args, _arguments(step))
    except ToolCallError as error:
        raise StepError(error.message) from None


async def _wait(ctx: ScriptContext, step: dict[str, Any]) -> dict[str, Any]:
    ms = _field(step, "ms", (int, float))
    if not 0 <= ms <= 600_000:
        raise StepError("wait: 'ms' must be between 0 and 600000")
    await trio.sleep(ms / 1000)
    return {"op": "wait", "ms": ms}


async def _user_click(ctx: ScriptContext, step: dict[str, Any]) -> dict[str, Any]:
    selector = _field(step, "selector", str)
    await user_click(ctx.tab, selector)
    return {"op": "user_click", "selector": selector}


async def _user_type(ctx: ScriptContext, step: dict[str, Any]) -> dict[str, Any]:
    selector = _field(step, "selector", str)
    await user_type(ctx.tab, selector, _field(step, "text", str))
    return {"op": "user_type", "selector": selector}


async def observe_step(tab: Tab, step: dict[str, Any]) -> dict[str, Any]:
    """The ``{"op": "observe", "options"?: {...}}`` step.

    Returns ``{"op": "observe", "observation", "text", "tools"}`` (the ``--json``
    object plus ``op``); ``options`` holds :class:`ObserveOptions` fields by name.
    Raises :class:`StepError` for options that are not ObserveOptions fields or
    have the wrong type, and what :func:`~cdpagent.snapshot.observe.observe_page` raises.
    """
    raw = step.get("options", {})
    try:
        options = msgspec.convert(raw, ObserveOptions)
    except msgspec.ValidationError as error:
        raise StepError(f"observe: bad options: {error}") from None
    result = await tab.view(options)
    return {"op": "observe", **msgspec.to_builtins(result)}


async def act_step(
    tab: Tab, step: dict[str, Any], *, confirm: ConfirmCallback | None = None, unattended: bool = False
) -> dict[str, Any]:
    """The ``{"op": "act", "action", "record"?, "text"?, "option"?, "checked"?, "input"?, …}`` step.

    The fields are the ``act`` operation's arguments (:class:`cdpagent.ops.operations.ActArgs`).
    Returns ``{"op": "act", "receipt": {"result": …}}``. A malformed step (no
    ``action``, a field of the wrong type, an unknown field) is a receipt with
    ``INVALID_ARGUMENT``, like any other bad tool call; never raises for it. ``unattended``
    answers a dialog the act raises at once (:meth:`cdpagent.Tab.act`).
    """
    try:
        args = decode(ActArgs, _arguments(step))
        if not args.action:
            raise ToolCallError(codes.INVALID_ARGUMENT, "act: 'action' (a tool name) is required")
    except ToolCallError as error:
        action = step.get("action")
        ref = ActionRef(action if isinstance(action, str) else "")
        receipt = error_receipt(ref, codes.INVALID_ARGUMENT, error.message, [])
        return {"op": "act", "receipt": receipt.to_builtins()}
    receipt = await tab.perform(args, confirm=confirm, unattended=unattended)
    return {"op": "act", "receipt": receipt.to_builtins()}


async def _observe(ctx: ScriptContext, step: dict[str, Any]) -> dict[str, Any]:
    return await observe_step(ctx.tab, step)


async def _act(ctx: ScriptContext, step: dict[str, Any]) -> dict[str, Any]:
    return await act_step(ctx.tab, step, confirm=ctx.confirm, unattended=ctx.unattended)


def _operation_step(name: str) -> Step:
    """The step of operation ``name``, run by :func:`cdpagent.ops.current_tab.run` on the current tab."""
    op = operation(name)

    async def step(ctx: ScriptContext, raw: dict[str, Any]) -> dict[str, Any]:
        given = _arguments(raw)
        tab_id = given.pop("tabId", None) if "tabId" in surface_arguments(op, current_tab=True) else None
        if tab_id is not None and not isinstance(tab_id, str):
            raise StepError(f"{name}: 'tabId' must be a tab id string")
        if "tabId" in surface_arguments(op, current_tab=True) and tab_id is None:
            raise StepError(f"{name} needs 'tabId'")
        outcome = await current_tab.run(ctx, name, _decoded(op.args, {"op": name, **given}), tab_id)
        line = {"op": name, **outcome.value}
        data = outcome.image.data if outcome.image is not None else outcome.document
        if data is not None:
            line["data"] = base64.b64encode(data).decode()
        return line

    return step


#: Step handlers by ``op``: every operation's, and the harness's own (``wait``, ``user_*``).
STEPS: dict[str, Step] = {
    **{name: _operation_step(name) for name in sorted(current_tab.SERVED)},
    "observe": _observe,
    "act": _act,
    "invoke": _invoke,
    "wait": _wait,
    "user_click": _user_click,
    "user_type": _user_type,
}

_decode_step = msgspec.json.Decoder()


def describe_failure(error: BaseException) -> str:
    """One line saying why a command or a step failed, whatever the exception.

    A group holding one exception is described as that exception; a deadline says
    it was one; anything else is ``message`` or, without one, the exception's name.
    """
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    if isinstance(error, trio.TooSlowError):
        return "timed out: the browser or the page did not answer in time"
    text = " ".join(str(error).split())
    if isinstance(error, CDPAgentError | PageApiError):
        return text or type(error).__name__
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


async def run_step(ctx: ScriptContext, line: str) -> tuple[dict[str, Any], bool]:
    """Run one step line; returns its result line and whether the script may go on.

    A malformed line gives a ``SCRIPT_STEP_INVALID`` result and stops the script; a
    step the browser could not carry out gives ``SCRIPT_STEP_FAILED`` and stops it too.
    ``PAGE_API_*`` failures of an ``invoke`` are ordinary results.
    """
    try:
        step = _decode_step.decode(line)
    except msgspec.DecodeError as error:
        return {"op": None, **refusal(SCRIPT_STEP_INVALID, f"not JSON: {error}")}, False
    op = step.get("op") if isinstance(step, dict) else None
    handler = STEPS.get(op) if isinstance(op, str) else None
    if handler is None:
        known = ", ".join(sorted(STEPS))
        return {
            "op": op if isinstance(op, str) else None,
            **refusal(SCRIPT_STEP_INVALID, f"unknown op; known: {known}"),
        }, False
    try:
        return await handler(ctx, step), True
    except StepError as error:
        return {"op": op, **refusal(SCRIPT_STEP_INVALID, str(error))}, False
    except (CDPAgentError, PageApiError, trio.TooSlowError, OSError) as error:
        # The step's own code and message (cdpagent.cdp.failures.code_of), in the failed step's line.
        found = code_of(error)
        said = f"{found[0]}: {found[1]}" if found is not None else describe_failure(error)
        return {"op": op, **refusal(SCRIPT_STEP_FAILED, said)}, False


async def run_steps(ctx: ScriptContext, lines: Iterable[str], emit: Callable[[dict[str, Any]], None]) -> bool:
    """Run every non-blank line as a step, passing each result to ``emit``.

    Returns ``True`` when every step ran and no ``invoke`` failed with a ``PAGE_API_*`` code.
    """
    clean = True
    for line in lines:
        if not line.strip():
            continue
        result, go_on = await run_step(ctx, line)
        emit(result)
        if result.get("ok") is False:
            clean = False
        if not go_on:
            return False
    return clean
