"""The one timing loop of the benchmarks: warm up, then time every call; and its percentiles.

``timed`` awaits only the operation and reads only ``time.perf_counter``, so it serves
Trio and asyncio code alike (Playwright's async API runs on asyncio);
``timed_blocking`` is the same loop for blocking clients (``bench/floor.py``).
``throughput`` and ``throughput_asyncio`` are the one loop of calls in flight: every op
(one per tab) called by ``in_flight`` concurrent callers until the time is up.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import trio

__all__ = ["percentiles", "throughput", "throughput_asyncio", "timed", "timed_blocking"]


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


class _Callers:
    """``in_flight`` callers on each of ``ops``, each calling until ``seconds`` have passed,
    counted in :attr:`done` (the event loop that runs :attr:`callers` is the caller's)."""

    def __init__(self, ops: list[Callable[[], Awaitable[Any]]], in_flight: int, seconds: float) -> None:
        self.done = 0
        self.deadline = time.perf_counter() + seconds
        self.callers = [partial(self._call, op) for op in ops for _ in range(in_flight)]
        self.started, self.cpu = time.perf_counter(), time.process_time()

    async def _call(self, op: Callable[[], Awaitable[Any]]) -> None:
        while time.perf_counter() < self.deadline:
            await op()
            self.done += 1

    def figures(self) -> tuple[int, float, float]:
        """The calls made, the wall time and this process's CPU time they took (seconds)."""
        return self.done, time.perf_counter() - self.started, time.process_time() - self.cpu


async def throughput(
    ops: list[Callable[[], Awaitable[Any]]], in_flight: int, seconds: float
) -> tuple[int, float, float]:
    """Trio: ``in_flight`` concurrent callers on each of ``ops`` for ``seconds``; returns the
    calls made, the wall time and this process's CPU time they took (seconds)."""
    callers = _Callers(ops, in_flight, seconds)
    async with trio.open_nursery() as nursery:
        for caller in callers.callers:
            nursery.start_soon(caller)
    return callers.figures()


async def throughput_asyncio(
    ops: list[Callable[[], Awaitable[Any]]], in_flight: int, seconds: float
) -> tuple[int, float, float]:
    """:func:`throughput` for asyncio clients."""
    callers = _Callers(ops, in_flight, seconds)
    await asyncio.gather(*(caller() for caller in callers.callers))
    return callers.figures()
