"""Every exception cdpagent raises, in one place.

Two families, one base (:class:`CDPAgentError`):

* **driver errors** say why a call to the browser failed: it refused the call
  (:class:`ProtocolError`, with CDP's own code and message), the session went
  away (:class:`SessionClosed`, refined by :class:`TargetCrashed`), the whole
  connection did (:class:`ConnectionClosed`), or the deadline passed
  (:class:`CallTimeout`); an HTTP exchange with a DevTools port or a grid hub gave
  no usable answer (:class:`HttpFailure`, which the caller turns into its own error).
  They carry no stable code of their own: one table,
  :data:`cdpagent.cdp.failures.FAILURES`, gives each the code every surface reports.
* **coded errors** (:class:`CodedError`) carry a stable ``code`` and a ``message``
  bounded here, once for every surface (:data:`MAX_MESSAGE_CHARS`, cut head and tail by
  :func:`cut_middle`), and :meth:`CodedError.envelope` is their JSON form
  ``{"ok": false, "error": {"code", "message"}}`` on every surface:

  ===========================  ===========================================================
  class                        codes
  ===========================  ===========================================================
  :class:`PageApiError`        ``PAGE_API_*`` (``Tab.invoke``; ``invoke_page_method``
                               returns its envelope instead)
  :class:`ObservationError`    ``PAGE_CHANGED``, ``TIMEOUT``, ``COLLECT_FAILED``
  :class:`ToolCallError`       ``UNKNOWN_ACTION``, ``RECORD_REQUIRED`` (acting turns it
                               into a refusal receipt, never raises it)
  :class:`StepError`           ``SCRIPT_STEP_INVALID`` (a malformed ``script`` step)
  :class:`ModelError`          ``MODEL_*`` (the agent's model could not be asked)
  :class:`RoleError`           ``ROLE_INVALID`` (a role file that cannot be used)
  :class:`GridError`           ``GRID_*`` (a Selenium Grid refused or lost a session)
  :class:`BindRefused`         ``BIND_REFUSED`` (the MCP server may not listen there)
  :class:`FrameError`          ``WEBSOCKET_FRAME_INVALID`` (the browser broke WebSocket framing)
  :class:`UserInputError`      ``USER_INPUT_FAILED`` (the test harness's simulated person)
  :class:`TaskFileError`       ``TASK_INVALID`` (a ``cdpagent eval`` task file)
  ===========================  ===========================================================

``cdpagent.codes`` lists every stable code with its meaning.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

__all__ = [
    "BindRefused",
    "BrowserNotFound",
    "CDPAgentError",
    "CallTimeout",
    "CodedError",
    "ConnectionClosed",
    "FrameError",
    "GridCapabilitiesRefused",
    "GridError",
    "GridNoFreeSlot",
    "GridNotAHub",
    "GridUnreachable",
    "HttpFailure",
    "LaunchError",
    "ModelError",
    "NavigationError",
    "ObservationError",
    "OperationError",
    "PageApiError",
    "PageFunctionError",
    "ProtocolError",
    "RoleError",
    "RunDirError",
    "SessionClosed",
    "StepError",
    "SubscriptionOverflow",
    "TabRefused",
    "TargetCrashed",
    "TaskFileError",
    "ToolCallError",
    "UserInputError",
]

MAX_MESSAGE_CHARS = 1000
"""The longest message a coded error carries: what a page or a caller put into one (a search
text, a title) is cut head and tail to it, on every surface (issue 35: a 2 MB wait text gave a
2,000,145-character ``WAIT_TIMEOUT`` line)."""


def cut_middle(text: str, limit: int) -> tuple[str, int]:
    """``text`` within ``limit`` characters: head, a note, tail. Returns it and the characters left out.

    Text already within ``limit`` comes back unchanged with 0. The note names the
    total so a reader can tell the cut from the value.
    """
    if len(text) <= limit:
        return text, 0
    note_room = 80
    keep = max(limit - note_room, 2)
    head, tail = keep * 2 // 3, keep - keep * 2 // 3
    omitted = len(text) - head - tail
    note = f" …[{omitted} of {len(text)} characters left out; narrow the request to see them]… "
    return text[:head] + note + text[len(text) - tail :], omitted


class CDPAgentError(Exception):
    """Base class of every error raised by cdpagent."""


class CodedError(CDPAgentError):
    """An error with a stable ``code`` (never respelled) and a human-readable ``message``.

    ``str(error)`` is ``"CODE: message"``; :meth:`envelope` is the JSON form every
    surface answers with. ``message`` is cut to :data:`MAX_MESSAGE_CHARS`.
    """

    def __init__(self, code: str, message: str) -> None:
        message = cut_middle(message, MAX_MESSAGE_CHARS)[0]
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def envelope(self) -> dict[str, Any]:
        """Return the JSON failure envelope ``{"ok": False, "error": {"code", "message"}}``."""
        return {"ok": False, "error": {"code": self.code, "message": self.message}}


class _FixedCode(CodedError):
    """A coded error whose class names its one code; ``str(error)`` is the message alone."""

    CODE: ClassVar[str] = ""

    def __init__(self, message: str) -> None:
        message = cut_middle(message, MAX_MESSAGE_CHARS)[0]
        Exception.__init__(self, message)
        self.code = self.CODE
        self.message = message


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


class PageFunctionError(CDPAgentError):
    """A function the runtime called in the page (``Runtime.callFunctionOn``) threw.

    ``text`` is the page's exception, bounded; each caller reports it with its own
    code (an observation's ``COLLECT_FAILED``, an action's ``ACTION_FAILED``).
    """

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class ConnectionClosed(CDPAgentError):
    """The connection to the browser is gone (browser exited, socket or pipe closed)."""


class SessionClosed(CDPAgentError):
    """The session a call was made on detached (its tab closed or navigated away)."""


class TargetCrashed(SessionClosed):
    """The target's renderer crashed while the call was pending."""


class CallTimeout(CDPAgentError):
    """A call given a ``deadline`` had no answer by then; it was forgotten (a late reply is dropped)."""


HttpFailureKind = Literal["unreachable", "timeout", "not_http", "too_large", "closed"]
"""Why an HTTP exchange failed: nothing answered in time or at all, the answer was not HTTP,
it was larger than allowed, or the peer closed the connection before answering."""


class HttpFailure(CDPAgentError):
    """An HTTP exchange (``cdpagent.cdp.http1``: a DevTools port's ``/json/version``, a
    Selenium Grid hub) gave no usable answer; :attr:`kind` says why.

    It never reaches a caller of the documented API: ``connect`` turns it into
    :class:`ConnectionClosed` and the grid into a :class:`GridError`, keeping the cause.
    """

    def __init__(self, kind: HttpFailureKind, message: str) -> None:
        self.kind: HttpFailureKind = kind
        self.message = message
        super().__init__(message)


class ObservationError(CodedError):
    """An observation could not be taken.

    ``code`` is ``PAGE_CHANGED`` (the document kept being replaced while being
    observed), ``TIMEOUT`` (the page did not answer in time), ``TAB_CRASHED`` /
    ``TAB_NOT_FOUND`` (the tab crashed or closed while observed) or
    ``COLLECT_FAILED`` (the collector threw; the message says why).
    """


class SubscriptionOverflow(CDPAgentError):
    """An event subscriber fell more than its buffer behind and was dropped."""


class LaunchError(CDPAgentError):
    """The browser could not be started, or exited before it was ready."""


class BrowserNotFound(LaunchError):
    """No browser executable was found; the message names ``CDPAGENT_CHROME``."""


class NavigationError(CDPAgentError):
    """A navigation failed (``Page.navigate`` reported an error, e.g. a missing file)."""


class OperationError(CodedError):
    """A browser operation (a screenshot, a PDF, a wait, a download, storage state,
    history navigation, an MCP tool) failed; ``code`` says why (``INVALID_ARGUMENT``,
    ``TARGET_NOT_FOUND``, ``CAPTURE_FAILED``, ``WAIT_TIMEOUT``, ``NAVIGATION_FAILED``,
    ``DOWNLOAD_FAILED``, ``STORAGE_STATE_INVALID``, ``TIMEOUT``; ``TAB_NOT_FOUND``,
    ``TAB_CRASHED``, ``BROWSER_UNAVAILABLE`` when the tab or browser it needs is gone)."""


class PageApiError(CodedError):
    """An ``invoke_page_method`` call failed with one of the ``PAGE_API_*`` codes.

    ``code`` is the stable code, ``message`` a bounded human-readable reason; it
    reports what happened to a page call, whatever the cause underneath (the
    driver failure it came from is translated by :data:`cdpagent.cdp.failures.FAILURES`).
    """


class ToolCallError(CodedError, ValueError):
    """A tool call that names no action entry or lacks a required argument.

    ``code`` is ``UNKNOWN_ACTION`` or ``RECORD_REQUIRED`` (``cdpagent.codes``);
    ``str(error)`` is the message alone.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)
        self.args = (message,)


class StepError(_FixedCode):
    """A ``cdpagent script`` step is malformed (bad field types, unknown op); the script stops there.

    ``code`` is ``SCRIPT_STEP_INVALID``.
    """

    CODE: ClassVar[str] = "SCRIPT_STEP_INVALID"


class RunDirError(_FixedCode, ValueError):
    """A ``cdpagent eval`` run folder that cannot be used (unreadable results, a line that is not a
    record, a folder of another suite); ``code`` is ``RUN_DIR_INVALID``, the message says why."""

    CODE: ClassVar[str] = "RUN_DIR_INVALID"


class TabRefused(CodedError):
    """A tab may not be opened or used; ``code``: ``URL_NOT_ALLOWED`` / ``FILE_NOT_ALLOWED`` (the URL
    policy, :mod:`cdpagent.primitives.urlpolicy`: the MCP server's tools and the agent's),
    ``TAB_LIMIT`` (an MCP session holds its most tabs)."""


class TaskFileError(_FixedCode, ValueError):
    """A ``cdpagent eval`` task file, task or suite that cannot be used (bad JSON, a missing or
    mistyped field, a duplicate id; an unknown suite, no task matching, BrowserGym not
    installed); the message names the line or what to install.

    ``code`` is ``TASK_INVALID``.
    """

    CODE: ClassVar[str] = "TASK_INVALID"


class UserInputError(_FixedCode):
    """The simulated person of the test harness found no element, or one with no visible box.

    ``code`` is ``USER_INPUT_FAILED``.
    """

    CODE: ClassVar[str] = "USER_INPUT_FAILED"


class ModelError(CodedError):
    """The agent's model could not be asked or did not answer usably; ``code`` is a ``MODEL_*`` code."""


class RoleError(_FixedCode, ValueError):
    """A role file that cannot be used: unreadable, not TOML, or a field missing or wrong.

    The message names the file and the field; ``code`` is ``ROLE_INVALID``.
    """

    CODE: ClassVar[str] = "ROLE_INVALID"


class BindRefused(_FixedCode, ValueError):
    """The MCP server may not listen where asked (non-loopback without a token, or malformed).

    ``code`` is ``BIND_REFUSED``.
    """

    CODE: ClassVar[str] = "BIND_REFUSED"


class FrameError(_FixedCode):
    """The server broke the WebSocket framing rules (or sent a message over the size limit).

    ``code`` is ``WEBSOCKET_FRAME_INVALID``.
    """

    CODE: ClassVar[str] = "WEBSOCKET_FRAME_INVALID"


class GridError(_FixedCode):
    """A Selenium Grid refused, lost or could not end a session (SC-1).

    ``hub`` is the hub's url; the subclass names the cause, and ``code`` with it
    (``GRID_FAILED`` for this base class: a WebDriver error that fits none of them,
    whose message carries the grid's own error code and message).
    """

    CODE: ClassVar[str] = "GRID_FAILED"

    def __init__(self, hub: str, message: str) -> None:
        super().__init__(message)
        self.args = (f"{hub}: {message}",)
        self.hub = hub


class GridUnreachable(GridError):
    """The hub did not answer: nothing listens there, the connection broke, or it timed out."""

    CODE: ClassVar[str] = "GRID_UNREACHABLE"


class GridNotAHub(GridError):
    """Something answered that is not a Selenium Grid (an HTML page, non-JSON, no WebDriver shape)."""

    CODE: ClassVar[str] = "GRID_NOT_A_HUB"


class GridNoFreeSlot(GridError):
    """Every slot that offers the capabilities is busy, and none freed up in time."""

    CODE: ClassVar[str] = "GRID_NO_FREE_SLOT"


class GridCapabilitiesRefused(GridError):
    """No node offers the requested capabilities, or the node's driver refused them."""

    CODE: ClassVar[str] = "GRID_CAPABILITIES_REFUSED"


class ActRefused(Exception):
    """Ends an act early with an error receipt (``code``, ``message``, and the unavailability
    ``reason``); the act's round trip turns it into that receipt, so it never reaches a caller."""

    def __init__(self, code: str, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason


class WorldGone(Exception):
    """The isolated world died under a page call: its document was replaced. The act's round
    trip turns it into ``PAGE_CHANGED``; it never reaches a caller."""

