"""Threads: the owners of tabs, and the queue their pages' ``thread_notify`` wake-ups land in (PA-5).

A :class:`Thread` stands for one agent conversation. Tabs it opens with
:meth:`Thread.open` belong to it; a tab opened with ``browser.open`` belongs to
no thread (a *standalone* tab) and its page cannot use ``thread_notify``.

Each accepted ``thread_notify`` becomes a :class:`Notification` in the thread's
bounded queue, read with ``async for note in thread`` (or :meth:`Thread.receive`,
:meth:`Thread.drain`). A full queue refuses the post (``THREAD_NOTIFY_QUEUE_FULL``)
rather than blocking the browser connection; a closed thread refuses with
``THREAD_NOTIFY_DELIVERY_FAILED``.
"""

from __future__ import annotations

import os
from types import TracebackType
from typing import Any, Final, Generic, TypeVar

import msgspec
import trio

from ..target import Host, Target
from .codes import THREAD_NOTIFY_DELIVERY_FAILED, THREAD_NOTIFY_QUEUE_FULL, refusal
from .notify import Sender, queued
from .pageapi import PageApi

OwnedTab = TypeVar("OwnedTab", bound=Target)

__all__ = ["DEFAULT_QUEUE_SIZE", "Notification", "Thread"]

DEFAULT_QUEUE_SIZE: Final = 64


class Notification(msgspec.Struct, frozen=True):
    """One accepted ``thread_notify``: which tab asked, what it said, and its delivery id.

    ``tab_id``, ``frame_id`` and ``url`` come from CDP (the sending context), never
    from the page's payload.
    """

    tab_id: str
    message: str
    delivery_id: str
    frame_id: str
    url: str


class Thread(Generic[OwnedTab]):
    """One conversation thread of ``browser``: owns tabs, receives their notifications.

    ``queue_size`` bounds the notifications waiting to be read. Raises
    :class:`LookupError` when ``browser`` was launched without the Page Agent API
    extension (:class:`~cdpagent.runtime.pageapi.PageApi`).
    """

    def __init__(self, browser: Host[OwnedTab], *, queue_size: int = DEFAULT_QUEUE_SIZE) -> None:
        self.browser = browser
        self._api = PageApi.of(browser)
        self.id = self._api.new_thread_id()
        self._send, self._receive = trio.open_memory_channel[Notification](queue_size)
        self._tab_ids: set[str] = set()
        self._sequence = 0
        self.closed = False

    def __repr__(self) -> str:
        return f"<Thread {self.id} tabs={sorted(self._tab_ids)}>"

    @property
    def tabs(self) -> list[OwnedTab]:
        """The open tabs this thread owns."""
        return [t for t in self.browser.tabs if t.id in self._tab_ids]

    async def open(self, url_or_path: str | os.PathLike[str], *, timeout: float = 30.0) -> OwnedTab:
        """Open ``url_or_path`` in a new tab owned by this thread; returns after ``load``.

        The tab is owned before the page's first script runs, so a page may notify
        from its very first script. Raises what :meth:`Browser.open` raises.
        """
        return await self.browser.open(url_or_path, timeout=timeout, prepare=self.adopt)

    def adopt(self, tab: Target) -> None:
        """Make ``tab`` (for example a popup its page opened) belong to this thread."""
        self._api.set_owner(tab.id, self)
        self._tab_ids.add(tab.id)

    def deliver(self, sender: Sender, message: str) -> dict[str, Any]:
        """Queue ``message`` from ``sender``; returns the answer for the page.

        Never blocks: ``{"ok": True, "data": {"disposition": "queued", "deliveryId"}}``,
        or a ``THREAD_NOTIFY_QUEUE_FULL`` / ``THREAD_NOTIFY_DELIVERY_FAILED`` refusal.
        """
        if self.closed:
            return refusal(THREAD_NOTIFY_DELIVERY_FAILED, "the thread is closed and takes no more input")
        self._sequence += 1
        delivery_id = f"{self.id}-{self._sequence}"
        note = Notification(sender.tab_id, message, delivery_id, sender.frame_id, sender.url)
        try:
            self._send.send_nowait(note)
        except trio.WouldBlock:
            return refusal(
                THREAD_NOTIFY_QUEUE_FULL,
                "the thread already has its maximum of unread notifications; try again later",
            )
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            return refusal(THREAD_NOTIFY_DELIVERY_FAILED, "the thread is closed and takes no more input")
        return queued(delivery_id)

    async def receive(self) -> Notification:
        """The next notification; raises :class:`trio.EndOfChannel` once the thread is closed."""
        return await self._receive.receive()

    def drain(self) -> list[Notification]:
        """Every notification queued now, without waiting."""
        notes: list[Notification] = []
        while True:
            try:
                notes.append(self._receive.receive_nowait())
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                return notes

    def __aiter__(self) -> Thread[OwnedTab]:
        return self

    async def __anext__(self) -> Notification:
        try:
            return await self._receive.receive()
        except (trio.EndOfChannel, trio.ClosedResourceError):
            raise StopAsyncIteration from None

    def close(self) -> None:
        """Stop accepting notifications; readers see the end after the queued ones."""
        self.closed = True
        self._send.close()

    async def aclose(self) -> None:
        """Close the thread and every tab it owns."""
        self.close()
        for tab in self.tabs:
            await tab.close()

    async def __aenter__(self) -> Thread[OwnedTab]:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        with trio.CancelScope(shield=True):
            await self.aclose()
