"""How a tool call ends: a result (bounded, page data fenced) or a tool error carrying a stable code.

A failure is a tool error (``isError: true``) with ``{"ok": false, "error": {"code",
"message"}}`` as structured content and ``CODE: message`` as text; :func:`guarded`
turns every known failure of a tool body into one, with the code of
:func:`cdpagent.cdp.failures.code_of` (the one translation), and lets a bug through.
Page-derived JSON is cut head and tail (:func:`json_result`) and sits in a
``<page_data>`` fence.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, TypeVar

import msgspec
from mcp_types import CallToolResult, ContentBlock, TextContent

from ..cdp.failures import code_of
from ..errors import MAX_MESSAGE_CHARS
from ..runtime.codes import refusal
from .bounds import MAX_RESULT_CHARS, cut_middle, fence

__all__ = [
    "error_result",
    "fenced_json",
    "fenced_text",
    "guarded",
    "json_result",
    "result",
]

_R = TypeVar("_R")


def result(
    text: str,
    structured: dict[str, Any],
    *,
    is_error: bool = False,
    before: list[ContentBlock] | None = None,
) -> CallToolResult:
    """A result whose content is ``before`` (an image, say) and then ``text``, with ``structured``."""
    content: list[ContentBlock] = [*(before or []), TextContent(type="text", text=text)]
    return CallToolResult(content=content, structured_content=structured, is_error=is_error)


def error_result(code: str, message: str) -> CallToolResult:
    """A tool error: ``isError``, the code and message in text and as ``{"ok": false, "error"}``."""
    message = cut_middle(message, MAX_MESSAGE_CHARS)[0]
    return result(f"{code}: {message}", refusal(code, message), is_error=True)


async def guarded(call: Awaitable[_R]) -> _R | CallToolResult:
    """Run one tool body; a known failure becomes a tool error with its code."""
    try:
        return await call
    except Exception as exc:
        failure = code_of(exc)
        if failure is None:
            raise
        return error_result(*failure)


def fenced_text(value: Any) -> str:
    """Page-derived ``value`` as JSON text, cut head and tail, in a ``<page_data>`` fence."""
    return fence(cut_middle(msgspec.json.encode(value).decode())[0])


def fenced_json(structured: dict[str, Any]) -> CallToolResult:
    """A result whose text is ``structured`` itself as fenced JSON (:func:`fenced_text`)."""
    return result(fenced_text(structured), structured)


def json_result(value: Any, structured: dict[str, Any], *, is_error: bool = False) -> CallToolResult:
    """Page-derived ``value`` as fenced, head-and-tail bounded JSON text, plus ``structured``.

    When the text had to be cut, ``structured`` becomes ``{"truncated": {...}}`` (with its
    ``ok`` / ``error`` kept), so structured content is bounded like the text.
    """
    text, omitted = cut_middle(msgspec.json.encode(value).decode(), MAX_RESULT_CHARS)
    if omitted:
        structured = {
            "truncated": {"total_chars": len(text) + omitted, "omitted_chars": omitted},
            **{k: v for k, v in structured.items() if k in ("ok", "error")},
        }
    return result(fence(text), structured, is_error=is_error)
