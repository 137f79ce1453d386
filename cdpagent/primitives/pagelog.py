"""What a tab's page said and which of its requests failed: bounded ring buffers (SPEC BR-5).

Every tab keeps its last :data:`MAX_ENTRIES` console messages (``console.*``
calls and uncaught exceptions) and its last :data:`MAX_ENTRIES` failed requests
(a network error, or an HTTP status of 400 or more). Both are page data: texts and
URLs are cut to :data:`MAX_TEXT` characters, a URL's query and fragment are
dropped (they carry tokens), and no header, cookie or body is ever read.

A failure event carries no URL: it is found in the table of requests in flight, bounded
(:data:`MAX_PENDING`) so that requests which never finish do not pile up. A request pushed
out of that table keeps its URL in a second table of the same bound; one pushed out of
both (a flood of thousands) is logged with :data:`UNKNOWN_URL`, never an empty URL.
"""

from __future__ import annotations

import collections
from collections.abc import Callable
from typing import Any, Final, Literal
from urllib.parse import urlsplit, urlunsplit

import msgspec

from ..cdp.target import Command

__all__ = [
    "MAX_ENTRIES", "MAX_PENDING", "MAX_TEXT", "UNKNOWN_URL", "ConsoleMessage", "FailedRequest", "PageLog",
]

MAX_ENTRIES: Final = 200
MAX_TEXT: Final = 500
#: Requests in flight whose URL is kept; as many again that were pushed out keep theirs too.
MAX_PENDING: Final = 4 * MAX_ENTRIES
#: The URL of a failed request the log no longer knows (it was pushed out of both tables).
UNKNOWN_URL: Final = "(unknown: the request was dropped from a full request table)"

Level = Literal["debug", "info", "log", "warning", "error"]


class ConsoleMessage(msgspec.Struct, frozen=True):
    """One console message or uncaught exception (``level`` ``error``)."""

    level: Level
    text: str
    url: str = ""


class FailedRequest(msgspec.Struct, frozen=True, omit_defaults=True):
    """One request that failed: its method, URL (without query), status or network error."""

    method: str
    url: str
    resource: str = ""
    status: int | None = None
    error: str | None = None


#: Commands that make a tab report what :class:`PageLog` records (Runtime is enabled anyway).
COMMANDS: Final[list[Command]] = [
    ("Network.enable", {"maxTotalBufferSize": 0, "maxResourceBufferSize": 0, "maxPostDataSize": 0}),
]

_LEVELS: Final[dict[str, Level]] = {
    "debug": "debug", "info": "info", "log": "log", "warning": "warning", "error": "error",
    "assert": "error", "trace": "debug", "dir": "log", "table": "log",
}


def _cut(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def _bare(url: str) -> str:
    """``url`` without its query, fragment and credentials."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return _cut(url.split("?", 1)[0])
    host = parts.hostname or ""
    netloc = host + (f":{parts.port}" if parts.port else "") if parts.netloc else ""
    return _cut(urlunsplit((parts.scheme, netloc, parts.path, "", "")))


def _remote(value: dict[str, Any]) -> str:
    if "value" in value:
        return str(value["value"])
    return str(value.get("description") or value.get("unserializableValue") or value.get("type", ""))


class PageLog:
    """The console and failed-request ring buffers of one tab; fed by its session's events.

    ``changed()`` is called after each new entry (the tab wakes its waiters).
    """

    def __init__(self, changed: Callable[[], None] = lambda: None) -> None:
        self._changed = changed
        self.console: collections.deque[ConsoleMessage] = collections.deque(maxlen=MAX_ENTRIES)
        self.failed: collections.deque[FailedRequest] = collections.deque(maxlen=MAX_ENTRIES)
        self.dropped_console = 0
        self.dropped_failed = 0
        self._requests: dict[str, tuple[str, str, str]] = {}
        self._pushed_out: dict[str, tuple[str, str, str]] = {}

    def handlers(self) -> dict[str, Callable[[dict[str, Any]], None]]:
        """The CDP event handlers to register on the tab's session."""
        return {
            "Runtime.consoleAPICalled": self._on_console,
            "Runtime.exceptionThrown": self._on_exception,
            "Network.requestWillBeSent": self._on_request,
            "Network.responseReceived": self._on_response,
            "Network.loadingFinished": self._on_done,
            "Network.loadingFailed": self._on_failed,
        }

    def _add_console(self, message: ConsoleMessage) -> None:
        if len(self.console) == MAX_ENTRIES:
            self.dropped_console += 1
        self.console.append(message)
        self._changed()

    def _add_failed(self, entry: FailedRequest) -> None:
        if len(self.failed) == MAX_ENTRIES:
            self.dropped_failed += 1
        self.failed.append(entry)
        self._changed()

    def _on_console(self, params: dict[str, Any]) -> None:
        text = " ".join(_remote(a) for a in params.get("args", ())[:16])
        frames = (params.get("stackTrace") or {}).get("callFrames") or [{}]
        level = _LEVELS.get(str(params.get("type")), "log")
        self._add_console(ConsoleMessage(level, _cut(text), _bare(str(frames[0].get("url", "")))))

    def _on_exception(self, params: dict[str, Any]) -> None:
        details = params.get("exceptionDetails") or {}
        text = (details.get("exception") or {}).get("description") or details.get("text", "")
        self._add_console(ConsoleMessage("error", _cut(str(text)), _bare(str(details.get("url", "")))))

    def _on_request(self, params: dict[str, Any]) -> None:
        if len(self._requests) >= MAX_PENDING:  # requests that never finish do not pile up
            oldest = next(iter(self._requests))
            if len(self._pushed_out) >= MAX_PENDING:
                self._pushed_out.pop(next(iter(self._pushed_out)))
            self._pushed_out[oldest] = self._requests.pop(oldest)
        request = params.get("request") or {}
        self._requests[str(params.get("requestId"))] = (
            str(request.get("method", "GET")),
            _bare(str(request.get("url", ""))),
            str(params.get("type", "")),
        )

    def _take(self, request_id: str) -> tuple[str, str, str] | None:
        """The request's ``(method, url, resource)``, from either table, forgetting it."""
        known = self._requests.pop(request_id, None)
        return known if known is not None else self._pushed_out.pop(request_id, None)

    def _on_response(self, params: dict[str, Any]) -> None:
        status = int((params.get("response") or {}).get("status", 0))
        known = self._take(str(params.get("requestId")))
        if known is not None and status >= 400:
            method, url, resource = known
            resource = resource or str(params.get("type", ""))
            self._add_failed(FailedRequest(method, url, resource, status=status))

    def _on_done(self, params: dict[str, Any]) -> None:
        self._take(str(params.get("requestId")))

    def _on_failed(self, params: dict[str, Any]) -> None:
        known = self._take(str(params.get("requestId")))
        method, url, resource = known or ("GET", UNKNOWN_URL, str(params.get("type", "")))
        error = _cut(str(params.get("errorText", "failed")))
        if params.get("canceled"):
            error = "canceled"
        self._add_failed(FailedRequest(method, url, resource, error=error))
