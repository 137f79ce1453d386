"""cdpagent: operate web pages for LLM agents through what the page declares.

Start with :func:`launch` (or :func:`connect` for a running browser)::

    async with cdpagent.launch() as browser:
        tab = await browser.open("page.html")
"""

from .browser import Browser, Command, Extension, NavigationError, Tab, connect, launch
from .errors import (
    BrowserNotFound,
    CDPAgentError,
    ConnectionClosed,
    LaunchError,
    ProtocolError,
    SessionClosed,
    SubscriptionOverflow,
    TargetCrashed,
)

__all__ = [
    "Browser",
    "BrowserNotFound",
    "CDPAgentError",
    "Command",
    "ConnectionClosed",
    "Extension",
    "LaunchError",
    "NavigationError",
    "ProtocolError",
    "SessionClosed",
    "SubscriptionOverflow",
    "Tab",
    "TargetCrashed",
    "connect",
    "launch",
]
