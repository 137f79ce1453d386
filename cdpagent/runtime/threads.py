"""Threads: the owners of tabs, and the queue their pages' ``thread_notify`` wake-ups land in (PA-5).

A :class:`Thread` stands for one agent conversation. Tabs it opens with
:meth:`Thread.open` belong to it; a tab opened with ``browser.open`` belongs to
no thread (a *standalone* tab) and its page cannot use ``thread_notify``.

Each accepted ``thread_notify`` becomes a :class:`Notification` in the thread's
bounded queue, read with ``async for note in thread`` (or :meth:`Thread.receive`,
:meth:`Thread.drain`). Delivery never blocks the browser connection, and nothing is
refused silently. The rules:

* **Bounded.** At most ``queue_size`` page notifications wait unread.
* **Fair share.** While the thread owns *n* open tabs, one tab may hold at most
  ``max(1, queue_size // n)`` of them, so a page posting in a loop cannot take the
  slots its thread's other tabs need. A post over its tab's share, or over the
  bound, is refused to the page with ``THREAD_NOTIFY_QUEUE_FULL``.
* **Refusals are told to the thread.** The first refusal from a tab puts one
  *refusal notice* for that tab in the queue, where the refused post would have
  been; later refusals from that tab add to its count until the notice is read,
  so a burst of 10,000 refused posts is one delivery. A notice is a
  :class:`Notification` with ``refused`` = N > 0 and the message
  ``"N notifications refused from tab X: …"`` written by the runtime, not the page.
  It does not take a page's slot (there is at most one per tab).
* A closed thread refuses with ``THREAD_NOTIFY_DELIVERY_FAILED`` (the page is told;
  there is no thread left to tell).
"""

from __future__ import annotations

import collections
import os
from types import TracebackType
from typing import Any, Final, Generic, TypeVar

import msgspec
import trio

from ..cdp.target import Host, Target
from .codes import THREAD_NOTIFY_DELIVERY_FAILED, THREAD_NOTIFY_QUEUE_FULL, refusal
from .notify import Sender, queued
from .pageapi import PageApi

OwnedTab = TypeVar("OwnedTab", bound=Target)

__all__ = ["DEFAULT_QUEUE_SIZE", "Notification", "Thread"]

DEFAULT_QUEUE_SIZE: Final = 64


class Notification(msgspec.Struct, frozen=True):
    """One accepted ``thread_notify``, or a notice of refused ones.

    ``tab_id``, ``frame_id`` and ``url`` come from CDP (the sending context), never
    from the page's payload. ``refused`` is 0 for a page's notification, whose
    ``message`` is the page's text. A refusal notice has ``refused`` = N > 0: N posts
    from ``tab_id`` were refused with ``THREAD_NOTIFY_QUEUE_FULL`` since its previous
    notice; its ``message`` is the runtime's, and ``frame_id``/``url`` are those of the
    last refused post.
    """

    tab_id: str
    message: str
    delivery_id: str
    frame_id: str
    url: str
    refused: int = 0


class _Notice:
    """The refusal notice of one tab while it waits in the queue; read, it becomes a Notification."""

    __slots__ = ("count", "delivery_id", "frame_id", "tab_id", "url")

    def __init__(self, sender: Sender, delivery_id: str) -> None:
        self.tab_id = sender.tab_id
        self.delivery_id = delivery_id
        self.count = 0
        self.frame_id = sender.frame_id
        self.url = sender.url

    def add(self, sender: Sender) -> None:
        self.count += 1
        self.frame_id = sender.frame_id
        self.url = sender.url

    def notification(self) -> Notification:
        noun = "notification" if self.count == 1 else "notifications"
        message = (
            f"{self.count} {noun} refused from tab {self.tab_id} (THREAD_NOTIFY_QUEUE_FULL: "
            "the thread's queue, or the tab's fair share of it, was full)"
        )
        return Notification(self.tab_id, message, self.delivery_id, self.frame_id, self.url, self.count)


class Thread(Generic[OwnedTab]):
    """One conversation thread of ``browser``: owns tabs, receives their notifications.

    ``queue_size`` bounds the page notifications waiting to be read (see the module
    docstring for each tab's fair share and the refusal notices). Raises
    :class:`LookupError` when ``browser`` was launched without the Page Agent API
    extension (:class:`~cdpagent.runtime.pageapi.PageApi`).
    """

    def __init__(self, browser: Host[OwnedTab], *, queue_size: int = DEFAULT_QUEUE_SIZE) -> None:
        if queue_size < 1:
            raise ValueError("queue_size must be at least 1")
        self.browser = browser
        self._api = PageApi.of(browser)
        self.id = self._api.new_thread_id()
        self.queue_size = queue_size
        self._queue: collections.deque[Notification | _Notice] = collections.deque()
        self._unread: collections.Counter[str] = collections.Counter()
        self._waiting = 0  # page notifications in the queue
        self._notices: dict[str, _Notice] = {}
        self._lot = trio.lowlevel.ParkingLot()
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

    def _share(self) -> int:
        """How many unread notifications one tab may hold now: ``queue_size`` over the open tabs."""
        return max(1, self.queue_size // max(1, len(self.tabs)))

    def deliver(self, sender: Sender, message: str) -> dict[str, Any]:
        """Queue ``message`` from ``sender``; returns the answer for the page.

        Never blocks: ``{"ok": True, "data": {"disposition": "queued", "deliveryId"}}``,
        or a ``THREAD_NOTIFY_QUEUE_FULL`` refusal (also counted in the tab's refusal
        notice) or a ``THREAD_NOTIFY_DELIVERY_FAILED`` one.
        """
        if self.closed:
            return refusal(THREAD_NOTIFY_DELIVERY_FAILED, "the thread is closed and takes no more input")
        tab_id = sender.tab_id
        share = self._share()
        if self._unread[tab_id] >= share or self._waiting >= self.queue_size:
            self._refused(sender)
            return refusal(
                THREAD_NOTIFY_QUEUE_FULL,
                f"the thread already holds its maximum of unread notifications ({self.queue_size}, "
                f"at most {share} from one tab); the thread is told how many were refused; "
                "try again later",
            )
        self._unread[tab_id] += 1
        self._waiting += 1
        delivery_id = self._next_delivery_id()
        self._queue.append(Notification(tab_id, message, delivery_id, sender.frame_id, sender.url))
        self._lot.unpark()
        return queued(delivery_id)

    def _next_delivery_id(self) -> str:
        self._sequence += 1
        return f"{self.id}-{self._sequence}"

    def _refused(self, sender: Sender) -> None:
        notice = self._notices.get(sender.tab_id)
        if notice is None:
            notice = self._notices[sender.tab_id] = _Notice(sender, self._next_delivery_id())
            self._queue.append(notice)
            self._lot.unpark()
        notice.add(sender)

    def _pop(self) -> Notification:
        item = self._queue.popleft()
        if isinstance(item, _Notice):
            del self._notices[item.tab_id]
            return item.notification()
        self._waiting -= 1
        self._unread[item.tab_id] -= 1
        if not self._unread[item.tab_id]:
            del self._unread[item.tab_id]
        return item

    async def receive(self) -> Notification:
        """The next notification; raises :class:`trio.EndOfChannel` once the thread is closed and read."""
        await trio.lowlevel.checkpoint_if_cancelled()
        while not self._queue:
            if self.closed:
                raise trio.EndOfChannel
            await self._lot.park()
        note = self._pop()
        await trio.lowlevel.cancel_shielded_checkpoint()
        return note

    def drain(self) -> list[Notification]:
        """Every notification queued now, without waiting."""
        return [self._pop() for _ in range(len(self._queue))]

    async def notifications(self, wait_ms: float = 0) -> list[Notification]:
        """The ``notifications`` operation: every notification queued now, oldest first.

        When none is queued, waits up to ``wait_ms`` for a first one (then takes the
        rest queued with it). Returns ``[]`` once the thread is closed and read.
        """
        notes = self.drain()
        if not notes and wait_ms > 0:
            with trio.move_on_after(wait_ms / 1000):
                try:
                    notes = [await self.receive()]
                except trio.EndOfChannel:
                    return []
            notes += self.drain()
        return notes

    def __aiter__(self) -> Thread[OwnedTab]:
        return self

    async def __anext__(self) -> Notification:
        try:
            return await self.receive()
        except trio.EndOfChannel:
            raise StopAsyncIteration from None

    def close(self) -> None:
        """Stop accepting notifications; readers see the end after the queued ones."""
        self.closed = True
        self._lot.unpark_all()

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
