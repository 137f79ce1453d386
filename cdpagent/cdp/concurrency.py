"""Small structured-concurrency tools the driver uses everywhere."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collapse"]


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
