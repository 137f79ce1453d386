"""Waiting on the observation's terms, not on selectors (SPEC BR-5).

:func:`wait_for` observes the tab, checks the condition against what an agent
would see — a text shown in the observation's rendered text or anywhere in the page's
rendered text (what a person sees or scrolls to, declared page or not: the observation's
budget may have left it out), a text gone from both, an action offered in its tools — and,
until it holds, waits for the page to change (the observation's own settle step) before
it looks again, with a short pause between looks so that a busy page is not observed in
a tight loop. The page's text never leaves the page: it answers yes or no, sensitive
elements masked.
"""

from __future__ import annotations

import math
from typing import Final

import trio

from ..cdp.target import Target
from ..cdp.world import PageFunction, call_function, enter
from ..errors import ObservationError, OperationError, PageFunctionError, ProtocolError
from ..snapshot.observe import ObserveResult, observe_page
from ..snapshot.options import ObserveOptions

__all__ = ["wait_for"]

#: The pause between two looks at the page.
INTERVAL: Final = 0.1


async def _page_shows(tab: Target, text: str) -> bool:
    """Whether the page's rendered text holds ``text`` (case-insensitive); False when the page
    cannot answer (its world is being replaced: the next look asks again)."""
    try:
        context, _ = await enter(tab)
        return bool(await call_function(tab.session, PageFunction.TEXT_SHOWN, text.lower(), context=context))
    except (PageFunctionError, ProtocolError):
        return False


async def _holds(
    tab: Target, result: ObserveResult, text: str | None, gone: str | None, action: str | None
) -> bool:
    if action is not None and not any(t["function"]["name"] == action for t in result.tools):
        return False
    shown = result.text.casefold()
    if text is not None and text.casefold() not in shown and not await _page_shows(tab, text):
        return False
    return gone is None or (gone.casefold() not in shown and not await _page_shows(tab, gone))


async def wait_for(
    tab: Target,
    *,
    text: str | None = None,
    gone: str | None = None,
    action: str | None = None,
    timeout: float = 10.0,
    options: ObserveOptions | None = None,
) -> ObserveResult:
    """Wait until the observation shows ``text``, no longer shows ``gone`` and offers
    ``action`` (a tool name), each where given (case-insensitive); return that observation.
    Text a person sees that the observation leaves out (a declared page's undeclared words)
    counts as shown; then an observation taken after the text was seen is returned (it may
    still leave the text out, at most a second past ``timeout``).

    Raises :class:`OperationError` ``INVALID_ARGUMENT`` (no condition, empty text,
    bad timeout) or ``WAIT_TIMEOUT`` (the message says which condition still failed);
    :class:`ObservationError` when the page cannot be observed.
    """
    if text is None and gone is None and action is None:
        raise OperationError("INVALID_ARGUMENT", "wait_for needs text, gone or action")
    if any(v is not None and not v.strip() for v in (text, gone, action)):
        raise OperationError("INVALID_ARGUMENT", "wait_for's text, gone and action must not be empty")
    if not (timeout > 0 and math.isfinite(timeout)):
        raise OperationError("INVALID_ARGUMENT", "timeout must be a positive number of seconds")
    deadline = trio.current_time() + timeout
    result: ObserveResult | None = None
    while True:
        left = deadline - trio.current_time()
        if left <= 0:
            break
        try:
            result = await observe_page(tab, options, timeout=left)
        except ObservationError as exc:
            if exc.code != "TIMEOUT":
                raise
            break
        if await _holds(tab, result, text, gone, action):
            if text is not None and text.casefold() not in result.text.casefold():
                # The page showed the text only after this observation was taken (it was
                # looked for in the page since): the caller gets an observation taken later.
                result = await observe_page(tab, options, timeout=max(deadline - trio.current_time(), 1.0))
            return result
        await trio.sleep(min(INTERVAL, max(deadline - trio.current_time(), 0)))
    wanted = [f"text {text!r} shown" if text else "", f"{gone!r} gone" if gone else "",
              f"action {action!r} offered" if action else ""]
    missing = " and ".join(w for w in wanted if w)
    raise OperationError("WAIT_TIMEOUT", f"after {timeout:g} s the page still does not have {missing}")
