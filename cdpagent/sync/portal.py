"""A Trio loop on a thread of its own, and blocking calls into it from any other thread.

:class:`Portal` starts one thread that runs ``trio.run`` until :meth:`Portal.close`.
:meth:`Portal.call` runs an async function there and blocks the calling thread until
it returns, raising what it raised, unchanged. The calling thread may run an asyncio
loop (a notebook, an asyncio program): the call blocks that loop, it never needs it.
:meth:`Portal.enter` enters an async context manager in a task of the loop and keeps it
entered until the exit function it returns is called — ``async with`` blocks must be
entered and left by one task.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from functools import partial
from typing import Any, TypeVar

import trio

__all__ = ["Portal"]

_R = TypeVar("_R")
_T = TypeVar("_T")


class Portal:
    """One Trio loop on a daemon thread named ``name``; ready when the constructor returns."""

    def __init__(self, name: str = "cdpagent-trio") -> None:
        self._ready = threading.Event()
        self._token: trio.lowlevel.TrioToken | None = None
        self._stop: trio.Event | None = None
        self._nursery: trio.Nursery | None = None
        self._thread = threading.Thread(target=trio.run, args=(self._main,), name=name, daemon=True)
        self._thread.start()
        self._ready.wait()

    async def _main(self) -> None:
        self._token = trio.lowlevel.current_trio_token()
        self._stop = trio.Event()
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            self._ready.set()
            await self._stop.wait()
            nursery.cancel_scope.cancel()

    def call(self, function: Callable[..., Awaitable[_R]], *args: Any, **kwargs: Any) -> _R:
        """``await function(*args, **kwargs)`` on the loop; blocks until done and returns its value.

        Raises what ``function`` raised, and :class:`RuntimeError` when called from a Trio
        loop (this one or another: use the async API there) or after :meth:`close`.
        """
        return trio.from_thread.run(partial(function, *args, **kwargs), trio_token=self._live_token())

    def call_sync(self, function: Callable[..., _R], *args: Any) -> _R:
        """``function(*args)`` on the loop's thread (state the loop owns is read there); blocks."""
        return trio.from_thread.run_sync(function, *args, trio_token=self._live_token())

    def enter(self, manager: AbstractAsyncContextManager[_T]) -> tuple[_T, Callable[[], None]]:
        """Enter ``manager`` in a task of the loop; returns its value and the function that leaves it.

        Leaving waits until the block is left and raises what leaving raised. Entering
        raises what entering raised (the manager is then not entered).
        """
        leave = trio.Event()
        left: list[BaseException | None] = []
        done = threading.Event()

        async def hold(task_status: trio.TaskStatus[_T] = trio.TASK_STATUS_IGNORED) -> None:
            try:
                async with manager as value:
                    task_status.started(value)
                    await leave.wait()
            except BaseException as exc:  # handed to whoever leaves; re-raised there
                left.append(exc)
            else:
                left.append(None)
            finally:
                done.set()

        async def start() -> _T:
            assert self._nursery is not None
            value: _T = await self._nursery.start(hold)
            return value

        try:
            value = self.call(start)
        except BaseException:
            if left and left[0] is not None:
                raise left[0] from None
            raise

        def exit_block() -> None:
            self.call_sync(leave.set)
            done.wait()
            if left[0] is not None:
                raise left[0]

        return value, exit_block

    def close(self) -> None:
        """End the loop (cancelling what still runs there) and wait for its thread."""
        if self._thread.is_alive():
            assert self._stop is not None
            self.call_sync(self._stop.set)
            self._thread.join()

    def _live_token(self) -> trio.lowlevel.TrioToken:
        if not self._thread.is_alive() or self._token is None:
            raise RuntimeError("cdpagent.sync: this browser is closed")
        try:
            trio.lowlevel.current_trio_token()
        except RuntimeError:
            return self._token
        raise RuntimeError("cdpagent.sync blocks its thread: inside a Trio loop, use the async API")
