"""The Page Agent API runtime (SPEC PA): shim installation, invoke, threads and thread_notify.

Wire it by passing :class:`PageApi` to :func:`cdpagent.launch` as an extension;
then call pages with :func:`invoke` / :func:`invoke_page_method`, and give tabs
an owner with :class:`Thread`.
"""

from ..errors import PageApiError
from .invoke import invoke, invoke_page_method
from .pageapi import PageApi
from .threads import Notification, Thread

__all__ = ["Notification", "PageApi", "PageApiError", "Thread", "invoke", "invoke_page_method"]
