"""Small structured-concurrency tools the driver uses everywhere."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import trio

__all__ = ["collapse", "gather"]


def _single(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


@contextmanager
def collapse() -> Iterator[None]:
    """Re-raise an exception group holding a single exception as that exception.

    cdpagent's context managers own nurseries; without this a caller's own
    ``ValueError`` would surface wrapped in an ``ExceptionGroup``.
    """
    try:
        yield
    except BaseExceptionGroup as group:
        single = _single(group)
        if single is group:
            raise
        raise single from None


async def gather(*calls: Callable[[], Awaitable[Any]]) -> None:
    """Run ``calls`` concurrently; if any fails, cancel the rest and raise the first error.

    The first failure is raised as itself, not inside an exception group.
    """
    first: list[BaseException] = []

    async def run(call: Callable[[], Awaitable[Any]], cancel: trio.CancelScope) -> None:
        try:
            await call()
        except Exception as exc:
            if not first:
                first.append(exc)
            cancel.cancel()

    async with trio.open_nursery() as nursery:
        for call in calls:
            nursery.start_soon(run, call, nursery.cancel_scope)
    if first:
        raise first[0]
