"""The one timing loop of the benchmarks: warm up, then time every call; and its percentiles.

``timed`` awaits only the operation and reads only ``time.perf_counter``, so it serves
Trio and asyncio code alike (Playwright's async API runs on asyncio);
``timed_blocking`` is the same loop for blocking clients (``bench/floor.py``).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["percentiles", "timed", "timed_blocking"]


def _warmup(calls: int) -> int:
    return max(1, calls // 10)


async def timed(op: Callable[[], Awaitable[Any]], calls: int) -> list[float]:
    """Seconds each of ``calls`` awaits of ``op()`` took, after ``calls // 10`` untimed ones."""
    for _ in range(_warmup(calls)):
        await op()
    samples = []
    for _ in range(calls):
        t0 = time.perf_counter()
        await op()
        samples.append(time.perf_counter() - t0)
    return samples


def timed_blocking(op: Callable[[], Any], calls: int) -> list[float]:
    """Like :func:`timed` for a blocking ``op``."""
    for _ in range(_warmup(calls)):
        op()
    samples = []
    for _ in range(calls):
        t0 = time.perf_counter()
        op()
        samples.append(time.perf_counter() - t0)
    return samples


def percentiles(samples: list[float]) -> tuple[float, float]:
    """p50 and p99 of ``samples`` (seconds), in microseconds."""
    ordered = sorted(samples)
    return statistics.median(ordered) * 1e6, ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1e6
