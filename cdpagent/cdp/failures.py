"""How a driver failure becomes a stable code: one table, read by every surface.

Rule 1: a failure that is not the page's doing — the tab crashed or closed, the
page was replaced under the call, a JavaScript dialog blocks it, the deadline
passed, the browser went away — has **one** code, whichever surface met it
(``Tab.act``'s receipt, a ``script`` result line, the agent's tool result, an MCP
tool error). :data:`FAILURES` names each such event, the driver exception it is
raised as (when it is one), that code, and the message's start.

Rule 2: a surface translates a code only where its own contract requires it, and
this table says where. There is one such contract: the Page Agent API's
``PAGE_API_*`` codes (the seed contract, SPEC PA-4), so ``Tab.invoke`` and
``invoke_page_method`` report the ``invoke`` column instead, on every surface that
invokes. Everything else — act, observe, navigate, open, close — reports ``code``.

Rule 3: a page's own domain refusal (a method answering
``{"ok": false, "error": {"code": "STALE_STATE"}}``) is no failure at all: the call
succeeded and its value is that object, on every surface.

Rule 4: the translation is one function, applied where a failure is caught (the way
httpcore's ``map_exceptions`` wraps every backend call): :func:`code_of` turns any
exception into its ``(code, message)`` — a :class:`~cdpagent.errors.CodedError` keeps
its own, a driver error gets its row's — or ``None`` for what is no failure of ours (a
bug, a cancellation). The surfaces only format what it returns: a receipt, a
``script`` line, a tool error, the agent's tool result, a trace step, an episode's
record, a :class:`~cdpagent.errors.PageApiError`.

========================  =====================  ==========================  =========================
event                     raised as              code                        invoke (PAGE_API, PA-4)
========================  =====================  ==========================  =========================
crash                     ``TargetCrashed``      ``TAB_CRASHED``             ``PAGE_API_TAB_CRASHED``
closed tab                ``SessionClosed``      ``TAB_NOT_FOUND``           ``PAGE_API_TAB_NOT_FOUND``
navigation during a call  (document replaced)    ``PAGE_CHANGED``            ``PAGE_API_PAGE_CHANGED``
open dialog               (the tab's state)      ``DIALOG_OPEN``             ``PAGE_API_DIALOG_OPEN``
timeout                   ``CallTimeout``,       ``TIMEOUT``                 ``PAGE_API_TIMEOUT``
                          ``trio.TooSlowError``
closed connection         ``ConnectionClosed``   ``BROWSER_UNAVAILABLE``     ``PAGE_API_CALL_FAILED``
no browser                ``LaunchError``        ``BROWSER_UNAVAILABLE``     ``PAGE_API_CALL_FAILED``
navigation failed         ``NavigationError``    ``NAVIGATION_FAILED``       ``PAGE_API_CALL_FAILED``
protocol refusal          ``ProtocolError``      ``CALL_FAILED``             ``PAGE_API_CALL_FAILED``
other driver failure      any other              ``CALL_FAILED``             ``PAGE_API_CALL_FAILED``
                          ``CDPAgentError``
========================  =====================  ==========================  =========================

An action never turns a closed connection into a receipt (it ends every tab, not
one action): ``Tab.act`` raises ``ConnectionClosed`` and the surface above reports
``BROWSER_UNAVAILABLE``. A :class:`~cdpagent.errors.CodedError` keeps its own code.
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

import trio

from ..errors import (
    CallTimeout,
    CDPAgentError,
    CodedError,
    ConnectionClosed,
    LaunchError,
    NavigationError,
    ProtocolError,
    SessionClosed,
    TargetCrashed,
)

__all__ = [
    "BROWSER_UNAVAILABLE",
    "CALL_FAILED",
    "DIALOG_OPEN",
    "FAILURES",
    "FILE_NOT_ALLOWED",
    "NAVIGATION_FAILED",
    "PAGE_CHANGED",
    "TAB_CRASHED",
    "TAB_NOT_FOUND",
    "TIMEOUT",
    "URL_NOT_ALLOWED",
    "Contract",
    "Failure",
    "code_of",
    "failure",
]

TAB_CRASHED: Final = "TAB_CRASHED"
"""The tab's renderer crashed; close it and open the page again."""
TAB_NOT_FOUND: Final = "TAB_NOT_FOUND"
"""No open tab has that id (never opened here, or closed), or it closed during the call."""
PAGE_CHANGED: Final = "PAGE_CHANGED"
"""The document was replaced (navigated, reloaded) under the call; nothing was performed on the new one."""
DIALOG_OPEN: Final = "DIALOG_OPEN"
"""A JavaScript dialog blocks the page; only ``accept_dialog`` / ``dismiss_dialog`` can run."""
TIMEOUT: Final = "TIMEOUT"
"""The call did not finish before its deadline."""
BROWSER_UNAVAILABLE: Final = "BROWSER_UNAVAILABLE"
"""The browser could not be launched or reached, or it went away."""
NAVIGATION_FAILED: Final = "NAVIGATION_FAILED"
"""The browser could not load the page (a missing file, a refused connection)."""
CALL_FAILED: Final = "CALL_FAILED"
"""The browser refused a command the runtime sent (a CDP error), or another call into the browser
failed; the message carries the reason."""
FILE_NOT_ALLOWED: Final = "FILE_NOT_ALLOWED"
"""A file outside the allowed directories: an upload's path that is not a regular file under one of
``launch(allow_dirs=…)`` / ``--allow-dir`` (default: none, every upload refused), or an MCP
``file:`` URL outside the server's (default: the current directory and the bundled examples).
Nothing was read or attached."""
URL_NOT_ALLOWED: Final = "URL_NOT_ALLOWED"
"""A URL the URL policy refuses (:mod:`cdpagent.primitives.urlpolicy`): tabs a model drives show
``file:`` pages under the allowed directories, loopback URLs and the allowed origins only; a tab that a
redirect, link or script took elsewhere is refused the same way (observe, act, methods)."""


class Failure(NamedTuple):
    """One row of :data:`FAILURES`."""

    event: str
    """What happened, in words (``"crash"``)."""
    code: str
    """The code every surface reports."""
    invoke: str
    """The ``PAGE_API_*`` code of the Page Agent API contract (PA-4) for the same event."""
    message: str
    """How the message of such a failure starts."""
    raised_as: tuple[type[BaseException], ...] = ()
    """The driver exceptions that mean this event (none: a core detects it and says so itself)."""


#: The whole failure → code policy (see the module docstring); first match wins
#: (``TargetCrashed`` is a ``SessionClosed``, every driver error a ``CDPAgentError``).
FAILURES: Final[tuple[Failure, ...]] = (
    Failure("crash", TAB_CRASHED, "PAGE_API_TAB_CRASHED", "the tab's renderer crashed", (TargetCrashed,)),
    Failure("closed tab", TAB_NOT_FOUND, "PAGE_API_TAB_NOT_FOUND", "the tab was closed", (SessionClosed,)),
    Failure("navigation during a call", PAGE_CHANGED, "PAGE_API_PAGE_CHANGED", "the page was replaced"),
    Failure("open dialog", DIALOG_OPEN, "PAGE_API_DIALOG_OPEN", "a JavaScript dialog blocks the page"),
    Failure(
        "timeout",
        TIMEOUT,
        "PAGE_API_TIMEOUT",
        "no answer before the deadline",
        (CallTimeout, trio.TooSlowError),
    ),
    Failure(
        "closed connection",
        BROWSER_UNAVAILABLE,
        "PAGE_API_CALL_FAILED",
        "the browser connection was lost",
        (ConnectionClosed,),
    ),
    Failure(
        "no browser",
        BROWSER_UNAVAILABLE,
        "PAGE_API_CALL_FAILED",
        "the browser could not be started",
        (LaunchError,),
    ),
    Failure(
        "navigation failed",
        NAVIGATION_FAILED,
        "PAGE_API_CALL_FAILED",
        "the page could not be loaded",
        (NavigationError,),
    ),
    Failure(
        "protocol refusal",
        CALL_FAILED,
        "PAGE_API_CALL_FAILED",
        "the browser refused the call",
        (ProtocolError,),
    ),
    Failure("other driver failure", CALL_FAILED, "PAGE_API_CALL_FAILED", "the call failed", (CDPAgentError,)),
)

_BY_EVENT: Final = {row.event: row for row in FAILURES}


def failure(event: str) -> Failure:
    """The row of ``event`` (``"crash"``, ``"open dialog"``…); raises :class:`KeyError` for another word."""
    return _BY_EVENT[event]


Contract = Literal["code", "invoke"]
"""Which column a caller reports: ``code`` (every surface) or ``invoke`` (the Page Agent API, PA-4)."""


def code_of(error: BaseException, contract: Contract = "code") -> tuple[str, str] | None:
    """``(code, message)`` a surface reports for ``error``, or ``None`` when it is no failure of
    ours (a bug, a cancellation): the one translation, applied where a failure is caught.

    A :class:`~cdpagent.errors.CodedError` keeps its code and message; a driver error gets
    the code of its row (the ``invoke`` column with ``contract="invoke"``) and
    ``"<message start>: <error>"``, the error's text on one line, at most 300 characters.
    """
    if isinstance(error, CodedError):
        return error.code, error.message
    for row in FAILURES:
        if row.raised_as and isinstance(error, row.raised_as):
            detail = " ".join(str(error).split())[:300]
            code = row.invoke if contract == "invoke" else row.code
            return code, f"{row.message}: {detail}" if detail else row.message
    return None
