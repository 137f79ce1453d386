"""cdpagent: operate web pages for LLM agents through what the page declares.

Start with :func:`launch` (or :func:`connect` for a running browser, :func:`connect_grid`
for a Selenium Grid session, :class:`Pool` for many browsers)::

    async with cdpagent.launch() as browser:
        tab = await browser.open("page.html")
        value = await tab.invoke("read_current")      # Page Agent API (PA)
        observation = await tab.observe()             # bounded observation (OB)
        receipt = await tab.act("toggle", record="t9")  # declared action + change receipt

The names below are the public API; everything else may change.
"""

from .browser import Browser, Tab, connect, launch, standard_extensions
from .capture import Screenshot
from .downloads import Download
from .errors import (
    BrowserNotFound,
    CDPAgentError,
    ConnectionClosed,
    GridCapabilitiesRefused,
    GridError,
    GridNoFreeSlot,
    GridNotAHub,
    GridUnreachable,
    LaunchError,
    NavigationError,
    ObservationError,
    OperationError,
    PageApiError,
    ProtocolError,
    SessionClosed,
    SubscriptionOverflow,
    TargetCrashed,
)
from .grid import connect_grid
from .pagelog import ConsoleMessage, FailedRequest
from .pool import Pool
from .runtime import Notification, PageApi, Thread, invoke_page_method
from .snapshot import Observation, ObserveOptions
from .snapshot.receipts import Receipt
from .storage import StorageState
from .target import Command, Extension, Target

__all__ = [
    "Browser",
    "BrowserNotFound",
    "CDPAgentError",
    "Command",
    "ConnectionClosed",
    "ConsoleMessage",
    "Download",
    "Extension",
    "FailedRequest",
    "GridCapabilitiesRefused",
    "GridError",
    "GridNoFreeSlot",
    "GridNotAHub",
    "GridUnreachable",
    "LaunchError",
    "NavigationError",
    "Notification",
    "Observation",
    "ObservationError",
    "ObserveOptions",
    "OperationError",
    "PageApi",
    "PageApiError",
    "Pool",
    "ProtocolError",
    "Receipt",
    "Screenshot",
    "SessionClosed",
    "StorageState",
    "SubscriptionOverflow",
    "Tab",
    "Target",
    "TargetCrashed",
    "Thread",
    "connect",
    "connect_grid",
    "invoke_page_method",
    "launch",
    "standard_extensions",
]
