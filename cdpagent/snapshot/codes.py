"""Stable error codes of action receipts (SPEC OB-7, OB-8).

A receipt with ``ok: false`` carries exactly one of these in ``error.code``.
They are part of the protocol: the model (and tests) branch on them, so they
never change spelling. The message next to a code is for reading, not parsing.
"""

from __future__ import annotations

from typing import Final

from ..errors import CDPAgentError, ConnectionClosed, ObservationError, ProtocolError, SessionClosed

__all__ = [
    "ACTION_FAILED",
    "ACTION_UNAVAILABLE",
    "CODES",
    "CONFIRMATION_DENIED",
    "CONFIRMATION_REQUIRED",
    "DIALOG_OPEN",
    "DRIVER_FAILURES",
    "EXPECTATION_FAILED",
    "HANDOFF_REQUIRED",
    "INVALID_ARGUMENT",
    "PAGE_CHANGED",
    "PICKER_REQUIRED",
    "RECORD_REQUIRED",
    "TIMEOUT",
    "UNKNOWN_ACTION",
    "UNKNOWN_OPTION",
    "UNKNOWN_RECORD",
    "driver_failure",
]

UNKNOWN_ACTION: Final = "UNKNOWN_ACTION"
"""No action of that name is declared on the page now."""
RECORD_REQUIRED: Final = "RECORD_REQUIRED"
"""A row action was called without ``record``."""
UNKNOWN_RECORD: Final = "UNKNOWN_RECORD"
"""``record`` names no active record that has this action."""
ACTION_UNAVAILABLE: Final = "ACTION_UNAVAILABLE"
"""The action exists but cannot run now; ``error.reason`` says why (disabled, behind a dialog…)."""
INVALID_ARGUMENT: Final = "INVALID_ARGUMENT"
"""An argument is missing, of the wrong type, or does not belong to this kind of action."""
UNKNOWN_OPTION: Final = "UNKNOWN_OPTION"
"""A select action was given an option the control does not offer."""
CONFIRMATION_DENIED: Final = "CONFIRMATION_DENIED"
"""The action needs the user's confirmation and the host did not give it."""
CONFIRMATION_REQUIRED: Final = "CONFIRMATION_REQUIRED"
"""The action needs the user's confirmation and the host has no way to ask (an MCP client without
elicitation); nothing was performed."""
HANDOFF_REQUIRED: Final = "HANDOFF_REQUIRED"
"""The action is declared as a person's job; the runtime never performs it."""
EXPECTATION_FAILED: Final = "EXPECTATION_FAILED"
"""The input was delivered but its post-condition does not hold (value, checked, option)."""
ACTION_FAILED: Final = "ACTION_FAILED"
"""The page's own handler threw and nothing observable changed."""
PAGE_CHANGED: Final = "PAGE_CHANGED"
"""The document was replaced before the input could be delivered; nothing was performed."""
TIMEOUT: Final = "TIMEOUT"
"""The action, or one of its snapshots, did not finish before the deadline."""
PICKER_REQUIRED: Final = "PICKER_REQUIRED"
"""A read-only field takes no typing; clicking it opened its picker: choose the value from that."""
DIALOG_OPEN: Final = "DIALOG_OPEN"
"""A JavaScript dialog blocks the page; only ``accept_dialog`` / ``dismiss_dialog`` can run."""

CODES: Final = frozenset(
    {
        UNKNOWN_ACTION,
        RECORD_REQUIRED,
        UNKNOWN_RECORD,
        ACTION_UNAVAILABLE,
        INVALID_ARGUMENT,
        UNKNOWN_OPTION,
        CONFIRMATION_DENIED,
        CONFIRMATION_REQUIRED,
        HANDOFF_REQUIRED,
        EXPECTATION_FAILED,
        ACTION_FAILED,
        PAGE_CHANGED,
        TIMEOUT,
        DIALOG_OPEN,
        PICKER_REQUIRED,
    }
)


#: How a driver failure during an action becomes a refusal receipt, in one place (first
#: match wins). ``None`` means the failure is not the page's doing and is raised to the
#: caller: a lost browser connection ends every tab, not one action. A deadline is
#: ``TIMEOUT``, decided by :func:`~cdpagent.snapshot.actions.act` itself.
DRIVER_FAILURES: Final[tuple[tuple[type[CDPAgentError], str | None, str], ...]] = (
    (ConnectionClosed, None, "the browser connection was lost"),
    (ObservationError, PAGE_CHANGED, "the page could not be observed"),
    (SessionClosed, PAGE_CHANGED, "the tab is gone"),
    (ProtocolError, ACTION_FAILED, "the browser refused an input or helper call"),
)


def driver_failure(error: CDPAgentError) -> tuple[str | None, str]:
    """``(code, message)`` for ``error`` by :data:`DRIVER_FAILURES`; ``code`` is ``None`` to re-raise.

    A driver error the table does not name is ``ACTION_FAILED``.
    """
    detail = error.message if isinstance(error, ObservationError) else str(error)
    for kind, code, what in DRIVER_FAILURES:
        if isinstance(error, kind):
            return code, f"{what}: {detail[:300]}"
    return ACTION_FAILED, detail[:300]
