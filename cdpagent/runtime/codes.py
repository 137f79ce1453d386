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

from ..errors import MAX_MESSAGE_CHARS, PageApiError, cut_middle

__all__ = [
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
    "PAGE_API_TAB_CRASHED",
    "PAGE_API_TAB_NOT_FOUND",
    "PAGE_API_TIMEOUT",
    "PAGE_API_UNKNOWN_TOPIC",
    "THREAD_NOTIFY_BAD_MESSAGE",
    "THREAD_NOTIFY_DELIVERY_FAILED",
    "THREAD_NOTIFY_NOT_ALLOWED",
    "THREAD_NOTIFY_QUEUE_FULL",
    "PageApiError",
    "refusal",
]

#: No such tab, or it closed before or during the call.
PAGE_API_TAB_NOT_FOUND: Final = "PAGE_API_TAB_NOT_FOUND"
#: The document is not local (file: or an allowed origin), or registered no API once loaded.
PAGE_API_NOT_EXPOSED: Final = "PAGE_API_NOT_EXPOSED"
#: The page called ``agotalk.expose`` a second time (refused page-side).
PAGE_API_ALREADY_EXPOSED: Final = "PAGE_API_ALREADY_EXPOSED"
#: The page's ``agotalk.expose`` contract is malformed (refused page-side).
PAGE_API_CONTRACT_INVALID: Final = "PAGE_API_CONTRACT_INVALID"
#: The page registered no method of that name.
PAGE_API_METHOD_NOT_FOUND: Final = "PAGE_API_METHOD_NOT_FOUND"
#: ``args`` is not a strict JSON object (or the method name is not a string).
PAGE_API_ARGS_INVALID: Final = "PAGE_API_ARGS_INVALID"
#: The page's method threw or rejected.
PAGE_API_METHOD_FAILED: Final = "PAGE_API_METHOD_FAILED"
#: The method's result is not pure JSON or is over the size cap.
PAGE_API_RESULT_NOT_JSON: Final = "PAGE_API_RESULT_NOT_JSON"
#: No result before the deadline; the page may still complete the work.
PAGE_API_TIMEOUT: Final = "PAGE_API_TIMEOUT"
#: The document the call went to was replaced before its answer arrived.
PAGE_API_PAGE_CHANGED: Final = "PAGE_API_PAGE_CHANGED"
#: The tab's renderer crashed before or during the call; close the tab and open the page again.
PAGE_API_TAB_CRASHED: Final = "PAGE_API_TAB_CRASHED"
#: Lost connection, protocol failure or another runtime failure (see ``cdpagent.cdp.failures``).
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

#: The codes an invoke can fail with, in the order of the SPEC PA-4 table, then those cdpagent
#: adds to it (its list is open-ended): a blocking dialog, a crashed tab.
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
    PAGE_API_TAB_CRASHED,
)


def refusal(code: str, message: str) -> dict[str, Any]:
    """Build the ``{"ok": False, "error": {"code": code, "message": message}}`` envelope, the
    message cut to :data:`~cdpagent.errors.MAX_MESSAGE_CHARS` as every coded error's is."""
    return {"ok": False, "error": {"code": code, "message": cut_middle(message, MAX_MESSAGE_CHARS)[0]}}
