"""Stable error codes of the Agent Surface's own tool errors (SPEC SF-3).

A tool error is an MCP result with ``isError: true`` whose structured content is
``{"ok": false, "error": {"code", "message"}}``. Failures that already have a
code keep it: an action's receipt code (:mod:`cdpagent.snapshot.codes`), a page
method's ``PAGE_API_*`` code (:mod:`cdpagent.runtime.codes`), an observation's
``PAGE_CHANGED`` / ``COLLECT_FAILED``. The driver failures' codes (``TAB_CRASHED``,
``TAB_NOT_FOUND``, ``TIMEOUT``, ``BROWSER_UNAVAILABLE``, ``NAVIGATION_FAILED``,
``FILE_NOT_ALLOWED``) are those of :mod:`cdpagent.cdp.failures`, the same on every surface;
the codes defined below are the surface's own.
"""

from __future__ import annotations

from typing import Final

# The driver failures' codes are every surface's (cdpagent.cdp.failures); re-exported here.
from ..cdp.failures import (
    BROWSER_UNAVAILABLE,
    FILE_NOT_ALLOWED,
    NAVIGATION_FAILED,
    TAB_CRASHED,
    TAB_NOT_FOUND,
    TIMEOUT,
    URL_NOT_ALLOWED,
)

__all__ = [
    "BROWSER_UNAVAILABLE",
    "FILE_NOT_ALLOWED",
    "INVALID_ARGUMENT",
    "NAVIGATION_FAILED",
    "TAB_CRASHED",
    "TAB_LIMIT",
    "TAB_NOT_FOUND",
    "TIMEOUT",
    "URL_NOT_ALLOWED",
]

TAB_LIMIT: Final = "TAB_LIMIT"
"""The session already holds its most open tabs (``--max-tabs``); close one first. Nothing was opened."""
INVALID_ARGUMENT: Final = "INVALID_ARGUMENT"
"""A tool argument is missing, of the wrong type, or out of the server's limits."""
