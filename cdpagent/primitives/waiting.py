"""Waiting on the observation's terms, not on selectors (SPEC BR-5).

:func:`wait_for` observes the tab, checks the condition against what an agent
would see — a text shown in the observation's rendered text, a text gone from it,
an action offered in its tools — and, until it holds, waits for the page to
change (the observation's own settle step) before it looks again, with a short
pause between looks so that a busy page is not observed in a tight loop.
"""

from __future__ import annotations

import math
from typing import Final

import trio

from ..cdp.target import Target
from ..errors import ObservationError, OperationError
from ..snapshot.observe import ObserveResult, observe_page
from ..snapshot.options import ObserveOptions

__all__ = ["wait_for"]

#: The pause between two looks at the page.
INTERVAL: Final = 0.1


def _holds(result: ObserveResult, text: str | None, gone: str | None, action: str | None) -> bool:
    shown = result.text.casefold()
    if text is not None and text.casefold() not in shown:
        return False
    if gone is not None and gone.casefold() in shown:
        return False
    return action is None or any(t["function"]["name"] == action for t in result.tools)


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
        if _holds(result, text, gone, action):
            return result
        await trio.sleep(min(INTERVAL, max(deadline - trio.current_time(), 0)))
    wanted = [f"text {text!r} shown" if text else "", f"{gone!r} gone" if gone else "",
              f"action {action!r} offered" if action else ""]
    missing = " and ".join(w for w in wanted if w)
    raise OperationError("WAIT_TIMEOUT", f"after {timeout:g} s the page still does not have {missing}")
