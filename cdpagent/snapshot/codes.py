"""Stable error codes of action receipts (SPEC OB-7, OB-8).

A receipt with ``ok: false`` carries exactly one of these in ``error.code``.
They are part of the protocol: the model (and tests) branch on them, so they
never change spelling. The message next to a code is for reading, not parsing.
"""

from __future__ import annotations

from typing import Final

from ..cdp.failures import (
    CALL_FAILED,
    DIALOG_OPEN,
    PAGE_CHANGED,
    TAB_CRASHED,
    TAB_NOT_FOUND,
    TIMEOUT,
)

__all__ = [
    "ACTION_FAILED",
    "ACTION_UNAVAILABLE",
    "CALL_FAILED",
    "CODES",
    "COLLECT_FAILED",
    "CONFIRMATION_DENIED",
    "CONFIRMATION_REQUIRED",
    "DIALOG_OPEN",
    "EXPECTATION_FAILED",
    "HANDOFF_REQUIRED",
    "INVALID_ARGUMENT",
    "PAGE_CHANGED",
    "PAGE_TOOL_SCHEMA_INVALID",
    "PICKER_REQUIRED",
    "RECORD_REQUIRED",
    "STALE_ACTION",
    "TAB_CRASHED",
    "TAB_NOT_FOUND",
    "TIMEOUT",
    "UNKNOWN_ACTION",
    "UNKNOWN_OPTION",
    "UNKNOWN_RECORD",
]

UNKNOWN_ACTION: Final = "UNKNOWN_ACTION"
"""No action of that name is declared on the page now."""
RECORD_REQUIRED: Final = "RECORD_REQUIRED"
"""A row action was called without ``record``."""
STALE_ACTION: Final = "STALE_ACTION"
"""The tool name was shown for a control that is no longer on the page (or is now another
control); nothing was performed: observe again and use the current names."""
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
COLLECT_FAILED: Final = "COLLECT_FAILED"
"""The observation's collector threw in the page (an ``ObservationError``); the message says why."""
# PAGE_CHANGED, TIMEOUT, DIALOG_OPEN, TAB_CRASHED, TAB_NOT_FOUND and CALL_FAILED are the
# driver failures' codes, shared by every surface (cdpagent.cdp.failures).
PAGE_TOOL_SCHEMA_INVALID: Final = "PAGE_TOOL_SCHEMA_INVALID"
"""A page tool's input schema was refused when the page registered it (invalid, a ``$ref`` outside
the schema or to nothing, a pattern that cannot run in linear time); the tool is never called."""
PICKER_REQUIRED: Final = "PICKER_REQUIRED"
"""A read-only field takes no typing; clicking it opened its picker: choose the value from that."""

CODES: Final = frozenset(
    {
        UNKNOWN_ACTION,
        RECORD_REQUIRED,
        STALE_ACTION,
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
        TAB_CRASHED,
        TAB_NOT_FOUND,
        CALL_FAILED,
        PAGE_TOOL_SCHEMA_INVALID,
        PICKER_REQUIRED,
    }
)
