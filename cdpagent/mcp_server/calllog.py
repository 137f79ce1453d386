"""One ``cdpagent.mcp`` log line per tool call: the tool, how long it took, and its error code if any."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from ..cdp.logs import MCP as _LOG

__all__ = ["logged_call"]

_R = TypeVar("_R")


def _code_of(result: Any) -> str:
    structured = getattr(result, "structured_content", None)
    if not getattr(result, "is_error", False) or not isinstance(structured, dict):
        return ""
    error = structured.get("error") or (structured.get("result") or {}).get("error") or {}
    return str(error.get("code", "")) if isinstance(error, dict) else ""


@contextmanager
def logged_call(tool: str) -> Iterator[Callable[[_R], _R]]:
    """Time the call of ``tool``; pass its result through the yielded function to log it.

    A call that raises is logged with the exception's name and re-raised. Nothing is
    logged (and nothing is measured but a clock read) unless ``cdpagent.mcp`` is at INFO.
    """
    started = time.perf_counter()

    def log(result: _R) -> _R:
        if _LOG.isEnabledFor(logging.INFO):
            code = _code_of(result)
            outcome = f"error {code}" if code else ("error" if getattr(result, "is_error", False) else "ok")
            _LOG.info("%s: %s in %.0f ms", tool, outcome, (time.perf_counter() - started) * 1000)
        return result

    try:
        yield log
    except Exception as exc:
        elapsed = (time.perf_counter() - started) * 1000
        _LOG.info("%s: raised %s after %.0f ms", tool, type(exc).__name__, elapsed)
        raise
