"""Every exception cdpagent raises, in one place.

Driver errors derive from :class:`CDPAgentError`. A failed call carries enough to
tell *why* it failed: the browser refused it (:class:`ProtocolError`, with CDP's own
code and message), its session went away (:class:`SessionClosed` and its
:class:`TargetCrashed` refinement), or the whole connection did
(:class:`ConnectionClosed`). A Selenium Grid that cannot give or keep a
session raises a :class:`GridError` subclass naming the cause.

The two page contracts report failures in their own vocabularies, and each maps
driver errors to its stable codes in one table (``cdpagent.runtime.codes`` for the
Page Agent API, ``cdpagent.snapshot.codes`` for actions):

* :class:`PageApiError` carries a ``PAGE_API_*`` code (``Tab.invoke`` raises it;
  ``invoke_page_method`` returns its envelope instead);
* :class:`ToolCallError` is a tool call that names no action (acting turns it into
  a refusal receipt, never raises it);
* :class:`ObservationError` is an observation that could not be taken.

The surfaces add :class:`StepError` (a malformed ``script`` step) and
:class:`UserInputError` (the simulated person of the test harness found nothing to use).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "BrowserNotFound",
    "CDPAgentError",
    "CallTimeout",
    "ConnectionClosed",
    "GridCapabilitiesRefused",
    "GridError",
    "GridNoFreeSlot",
    "GridNotAHub",
    "GridUnreachable",
    "LaunchError",
    "NavigationError",
    "ObservationError",
    "OperationError",
    "PageApiError",
    "ProtocolError",
    "SessionClosed",
    "StepError",
    "SubscriptionOverflow",
    "TargetCrashed",
    "ToolCallError",
    "UserInputError",
]


class CDPAgentError(Exception):
    """Base class of every error raised by cdpagent."""


class ProtocolError(CDPAgentError):
    """The browser answered a command with a CDP error object.

    ``code`` and ``message`` are CDP's own (for example ``-32000`` and
    ``"Cannot find context with specified id"``); ``method`` names the command.
    """

    def __init__(self, method: str, code: int, message: str, data: str | None = None) -> None:
        self.method = method
        self.code = code
        self.message = message
        self.data = data
        detail = f" ({data})" if data else ""
        super().__init__(f"{method}: {message} [code {code}]{detail}")


class ConnectionClosed(CDPAgentError):
    """The connection to the browser is gone (browser exited, socket or pipe closed)."""


class SessionClosed(CDPAgentError):
    """The session a call was made on detached (its tab closed or navigated away)."""


class TargetCrashed(SessionClosed):
    """The target's renderer crashed while the call was pending."""


class CallTimeout(CDPAgentError):
    """A call given a ``deadline`` had no answer by then; it was forgotten (a late reply is dropped)."""


class ObservationError(CDPAgentError):
    """An observation could not be taken.

    ``code`` is ``PAGE_CHANGED`` (the document kept being replaced while being
    observed), ``TIMEOUT`` (the page did not answer in time) or ``COLLECT_FAILED``
    (the collector threw; the message says why).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class SubscriptionOverflow(CDPAgentError):
    """An event subscriber fell more than its buffer behind and was dropped."""


class LaunchError(CDPAgentError):
    """The browser could not be started, or exited before it was ready."""


class BrowserNotFound(LaunchError):
    """No browser executable was found; the message names ``CDPAGENT_CHROME``."""


class NavigationError(CDPAgentError):
    """A navigation failed (``Page.navigate`` reported an error, e.g. a missing file)."""


class OperationError(CDPAgentError):
    """A browser operation (a screenshot, a PDF, a wait, a download, storage state,
    history navigation) failed; ``code`` says why (``INVALID_ARGUMENT``,
    ``TARGET_NOT_FOUND``, ``CAPTURE_FAILED``, ``WAIT_TIMEOUT``, ``NAVIGATION_FAILED``,
    ``FILE_NOT_ALLOWED``, ``DOWNLOAD_FAILED``, ``STORAGE_STATE_INVALID``, ``TIMEOUT``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class PageApiError(Exception):
    """An ``invoke_page_method`` call failed with one of the ``PAGE_API_*`` codes.

    ``code`` is the stable code, ``message`` a bounded human-readable reason. The
    exception is a plain ``Exception`` (not a driver error): it reports what
    happened to a page call, whatever the cause underneath.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def envelope(self) -> dict[str, Any]:
        """Return the JSON failure envelope ``{"ok": False, "error": {"code", "message"}}``."""
        return {"ok": False, "error": {"code": self.code, "message": self.message}}


class ToolCallError(ValueError):
    """A tool call that names no action entry or lacks a required argument.

    ``code`` is ``UNKNOWN_ACTION`` or ``RECORD_REQUIRED`` (``cdpagent.snapshot.codes``).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class StepError(Exception):
    """A ``cdpagent script`` step is malformed (bad field types, unknown op); the script stops there."""


class UserInputError(CDPAgentError):
    """The simulated person of the test harness found no element, or one with no visible box."""


class GridError(CDPAgentError):
    """A Selenium Grid refused, lost or could not end a session (SC-1).

    ``hub`` is the hub's url; the subclass names the cause. Raised as this base
    class for a WebDriver error that fits none of them (the message carries the
    grid's own error code and message).
    """

    def __init__(self, hub: str, message: str) -> None:
        super().__init__(f"{hub}: {message}")
        self.hub = hub
        self.message = message


class GridUnreachable(GridError):
    """The hub did not answer: nothing listens there, the connection broke, or it timed out."""


class GridNotAHub(GridError):
    """Something answered that is not a Selenium Grid (an HTML page, non-JSON, no WebDriver shape)."""


class GridNoFreeSlot(GridError):
    """Every slot that offers the capabilities is busy, and none freed up in time."""


class GridCapabilitiesRefused(GridError):
    """No node offers the requested capabilities, or the node's driver refused them."""
