"""cdpagent: operate web pages for LLM agents through what the page declares.

Start with :func:`launch` (or :func:`connect` for a running browser, :func:`connect_grid`
for a Selenium Grid session, :class:`Pool` for many browsers)::

    async with cdpagent.launch() as browser:
        tab = await browser.open("page.html")
        value = await tab.invoke("read_current")      # Page Agent API (PA)
        observation = await tab.observe()             # bounded observation (OB)
        seen = await tab.view()                       # its text and tools, as a model is given them
        receipt = await tab.act("toggle", record="t9")  # declared action + change receipt

The names below are the public API, with three namespaces besides: ``cdpagent.sync``
(the same API, blocking, for scripts, notebooks and asyncio programs), ``cdpagent.codes``
(every stable code and its meaning) and ``cdpagent.lowlevel`` (sessions, the
:class:`Target` seam, extensions, transports). Everything else may change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import (
    BindRefused,
    BrowserNotFound,
    CallTimeout,
    CDPAgentError,
    CodedError,
    ConnectionClosed,
    FrameError,
    GridCapabilitiesRefused,
    GridError,
    GridNoFreeSlot,
    GridNotAHub,
    GridUnreachable,
    HttpFailure,
    LaunchError,
    ModelError,
    NavigationError,
    ObservationError,
    OperationError,
    PageApiError,
    PageFunctionError,
    ProtocolError,
    RoleError,
    RunDirError,
    SessionClosed,
    StepError,
    SubscriptionOverflow,
    TabRefused,
    TargetCrashed,
    TaskFileError,
    ToolCallError,
    UserInputError,
)
from .lazy import exports
from .version import VERSION

if TYPE_CHECKING:
    from .browser.launch import connect, launch, standard_extensions
    from .browser.tabs import Browser, Tab
    from .cdp.target import Command, Extension, Target
    from .primitives.capture import Screenshot
    from .primitives.downloads import Download
    from .primitives.pagelog import ConsoleMessage, FailedRequest
    from .primitives.storage import StorageState
    from .remote.grid import connect_grid
    from .remote.grid import session_of as grid_session
    from .remote.pool import Pool
    from .remote.webdriver import GridSession
    from .runtime import Notification, PageApi, Thread, invoke_page_method
    from .snapshot import Observation, ObserveOptions
    from .snapshot.observe import ObserveResult
    from .snapshot.receipts import Receipt

#: The installed version (from the package metadata; the same as ``cdpagent --version``).
__version__: str = VERSION

# The rest of the public API is imported on first use (the TYPE_CHECKING block above).
__getattr__, __dir__ = exports(__name__, __file__)

__all__ = [
    "BindRefused",
    "Browser",
    "BrowserNotFound",
    "CDPAgentError",
    "CallTimeout",
    "CodedError",
    "Command",
    "ConnectionClosed",
    "ConsoleMessage",
    "Download",
    "Extension",
    "FailedRequest",
    "FrameError",
    "GridCapabilitiesRefused",
    "GridError",
    "GridNoFreeSlot",
    "GridNotAHub",
    "GridSession",
    "GridUnreachable",
    "HttpFailure",
    "LaunchError",
    "ModelError",
    "NavigationError",
    "Notification",
    "Observation",
    "ObservationError",
    "ObserveOptions",
    "ObserveResult",
    "OperationError",
    "PageApi",
    "PageApiError",
    "PageFunctionError",
    "Pool",
    "ProtocolError",
    "Receipt",
    "RoleError",
    "RunDirError",
    "Screenshot",
    "SessionClosed",
    "StepError",
    "StorageState",
    "SubscriptionOverflow",
    "Tab",
    "TabRefused",
    "Target",
    "TargetCrashed",
    "TaskFileError",
    "Thread",
    "ToolCallError",
    "UserInputError",
    "connect",
    "connect_grid",
    "grid_session",
    "invoke_page_method",
    "launch",
    "standard_extensions",
]
