"""Every stable failure code of the Page Agent API, and the exception that carries one.

The same code reaches a Python caller as :class:`PageApiError` and a JSON caller
(the command line, an agent tool) as the envelope of :meth:`PageApiError.envelope`::

    {"ok": false, "error": {"code": "PAGE_API_…", "message": "…"}}

``PAGE_API_*`` codes are those of the seed contract and SPEC PA-4. ``THREAD_NOTIFY_*``
and ``PAGE_API_UNKNOWN_TOPIC`` are the refusals a page receives from
``window.agotalk.post`` (SPEC PA-5); they never raise in Python.
"""

from __future__ import annotations

from typing import Any, Final

from ..errors import (
    CallTimeout,
    CDPAgentError,
    ConnectionClosed,
    PageApiError,
    ProtocolError,
    SessionClosed,
    TargetCrashed,
)

__all__ = [
    "DRIVER_FAILURES",
    "INVOKE_CODES",
    "PAGE_API_ALREADY_EXPOSED",
    "PAGE_API_ARGS_INVALID",
    "PAGE_API_CALL_FAILED",
    "PAGE_API_CONTRACT_INVALID",
    "PAGE_API_DIALOG_OPEN",
    "PAGE_API_METHOD_FAILED",
    "PAGE_API_METHOD_NOT_FOUND",
    "PAGE_API_NOT_EXPOSED",
    "PAGE_API_PAGE_CHANGED",
    "PAGE_API_RESULT_NOT_JSON",
    "PAGE_API_TAB_NOT_FOUND",
    "PAGE_API_TIMEOUT",
    "PAGE_API_UNKNOWN_TOPIC",
    "THREAD_NOTIFY_BAD_MESSAGE",
    "THREAD_NOTIFY_DELIVERY_FAILED",
    "THREAD_NOTIFY_NOT_ALLOWED",
    "THREAD_NOTIFY_QUEUE_FULL",
    "PageApiError",
    "driver_failure",
    "refusal",
]

PAGE_API_TAB_NOT_FOUND: Final = "PAGE_API_TAB_NOT_FOUND"
PAGE_API_NOT_EXPOSED: Final = "PAGE_API_NOT_EXPOSED"
PAGE_API_ALREADY_EXPOSED: Final = "PAGE_API_ALREADY_EXPOSED"
PAGE_API_CONTRACT_INVALID: Final = "PAGE_API_CONTRACT_INVALID"
PAGE_API_METHOD_NOT_FOUND: Final = "PAGE_API_METHOD_NOT_FOUND"
PAGE_API_ARGS_INVALID: Final = "PAGE_API_ARGS_INVALID"
PAGE_API_METHOD_FAILED: Final = "PAGE_API_METHOD_FAILED"
PAGE_API_RESULT_NOT_JSON: Final = "PAGE_API_RESULT_NOT_JSON"
PAGE_API_TIMEOUT: Final = "PAGE_API_TIMEOUT"
PAGE_API_PAGE_CHANGED: Final = "PAGE_API_PAGE_CHANGED"
PAGE_API_CALL_FAILED: Final = "PAGE_API_CALL_FAILED"
#: A JavaScript dialog (alert, confirm, prompt) is open in the tab: the page cannot run
#: the call until it is accepted or dismissed (``Tab.resolve_dialog``, or the
#: observation's ``accept_dialog`` / ``dismiss_dialog`` actions).
PAGE_API_DIALOG_OPEN: Final = "PAGE_API_DIALOG_OPEN"

#: A ``post()`` topic this runtime does not serve.
PAGE_API_UNKNOWN_TOPIC: Final = "PAGE_API_UNKNOWN_TOPIC"
#: ``thread_notify`` from a standalone tab, a non-local document, or a frame other than the tab's main frame.
THREAD_NOTIFY_NOT_ALLOWED: Final = "THREAD_NOTIFY_NOT_ALLOWED"
#: ``message`` missing, not a string, empty, or over 8192 UTF-8 bytes; or a malformed payload.
THREAD_NOTIFY_BAD_MESSAGE: Final = "THREAD_NOTIFY_BAD_MESSAGE"
#: The owning thread's bounded queue is full.
THREAD_NOTIFY_QUEUE_FULL: Final = "THREAD_NOTIFY_QUEUE_FULL"
#: The owning thread no longer accepts input (it was closed).
THREAD_NOTIFY_DELIVERY_FAILED: Final = "THREAD_NOTIFY_DELIVERY_FAILED"

#: The codes an invoke can fail with, in the order of the SPEC PA-4 table.
INVOKE_CODES: Final = (
    PAGE_API_TAB_NOT_FOUND,
    PAGE_API_NOT_EXPOSED,
    PAGE_API_ALREADY_EXPOSED,
    PAGE_API_CONTRACT_INVALID,
    PAGE_API_METHOD_NOT_FOUND,
    PAGE_API_ARGS_INVALID,
    PAGE_API_METHOD_FAILED,
    PAGE_API_RESULT_NOT_JSON,
    PAGE_API_TIMEOUT,
    PAGE_API_PAGE_CHANGED,
    PAGE_API_CALL_FAILED,
    PAGE_API_DIALOG_OPEN,
)


def refusal(code: str, message: str) -> dict[str, Any]:
    """Build the ``{"ok": False, "error": {"code": code, "message": message}}`` envelope."""
    return {"ok": False, "error": {"code": code, "message": message}}


#: How a driver failure during an invoke becomes its code, in one place (first match wins:
#: ``TargetCrashed`` is a ``SessionClosed``). ``what`` is the message's start; ``{tab}`` is the tab id.
#: A ``ProtocolError`` is first explained by the document change that usually causes it
#: (``PAGE_API_PAGE_CHANGED``) and only then reported as ``PAGE_API_CALL_FAILED``.
DRIVER_FAILURES: Final[tuple[tuple[type[CDPAgentError], str, str], ...]] = (
    (TargetCrashed, PAGE_API_CALL_FAILED, "the tab's renderer crashed"),
    (SessionClosed, PAGE_API_TAB_NOT_FOUND, "tab {tab} was closed"),
    (ConnectionClosed, PAGE_API_CALL_FAILED, "the browser connection was lost"),
    (CallTimeout, PAGE_API_TIMEOUT, "no result before the deadline"),
    (ProtocolError, PAGE_API_CALL_FAILED, "the browser refused the call"),
)


def driver_failure(error: CDPAgentError) -> tuple[str, str]:
    """The ``(code, message start)`` of :data:`DRIVER_FAILURES` for ``error``.

    Any other driver error is ``PAGE_API_CALL_FAILED``.
    """
    for kind, code, what in DRIVER_FAILURES:
        if isinstance(error, kind):
            return code, what
    return PAGE_API_CALL_FAILED, "the call failed"
