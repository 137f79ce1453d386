"""Counting CDP traffic per method and per event, for a trace (sans-IO).

The connection calls :class:`CdpMeter` while a trace is recorded; the trace
(:mod:`cdpagent.trace.records`) writes its readings into its step and summary lines.
"""

from __future__ import annotations

import random
from typing import Final

import msgspec

__all__ = ["MAX_METHODS", "MAX_SAMPLES", "CdpMeter", "CdpTotals", "EventStats", "MethodStats", "since"]

#: Distinct CDP methods (and events) counted by name; any further ones count as ``(other)``.
MAX_METHODS: Final = 400
#: Latency samples kept per method for its median (a uniform sample of all calls beyond it).
MAX_SAMPLES: Final = 4096
_OTHER: Final = "(other)"


class MethodStats(msgspec.Struct, frozen=True):
    """The calls of one CDP method: count, failures, latency in milliseconds, bytes each way."""

    method: str
    count: int
    failed: int
    total_ms: float
    p50_ms: float
    max_ms: float
    bytes_out: int
    bytes_in: int


class EventStats(msgspec.Struct, frozen=True):
    """The events of one CDP method: count and bytes."""

    method: str
    count: int
    bytes: int


class CdpTotals(msgspec.Struct, frozen=True):
    """CDP commands sent and bytes moved (commands, replies, events) in some span of time."""

    calls: int = 0
    bytes_out: int = 0
    bytes_in: int = 0
    events: int = 0


class _Method:
    __slots__ = ("bytes_in", "bytes_out", "count", "failed", "max_ms", "samples", "total_ms")

    def __init__(self) -> None:
        self.count = 0
        self.failed = 0
        self.total_ms = 0.0
        self.max_ms = 0.0
        self.bytes_out = 0
        self.bytes_in = 0
        self.samples: list[float] = []


class CdpMeter:
    """Counts CDP traffic per method; the connection calls it (only while a trace is recorded).

    Latency medians come from up to :data:`MAX_SAMPLES` samples per method (a
    uniform reservoir sample once there are more calls), counts and byte totals
    are exact. At most :data:`MAX_METHODS` names are kept apart.
    """

    def __init__(self) -> None:
        self._calls: dict[str, _Method] = {}
        self._events: dict[str, list[int]] = {}
        self._random = random.Random(0)
        self._totals = [0, 0, 0, 0]  # calls, bytes out, bytes in, events

    def call(self, method: str, bytes_out: int, bytes_in: int, ms: float, failed: bool) -> None:
        """Count one finished call (``bytes_in`` 0 when it failed without a reply)."""
        stats = self._calls.get(method)
        if stats is None:
            key = method if len(self._calls) < MAX_METHODS else _OTHER
            stats = self._calls.setdefault(key, _Method())
        stats.count += 1
        stats.failed += failed
        stats.total_ms += ms
        stats.max_ms = max(stats.max_ms, ms)
        stats.bytes_out += bytes_out
        stats.bytes_in += bytes_in
        if len(stats.samples) < MAX_SAMPLES:
            stats.samples.append(ms)
        else:
            slot = self._random.randrange(stats.count)
            if slot < MAX_SAMPLES:
                stats.samples[slot] = ms
        totals = self._totals
        totals[0] += 1
        totals[1] += bytes_out
        totals[2] += bytes_in

    def event(self, method: str, size: int) -> None:
        """Count one event of ``size`` bytes (its params)."""
        stats = self._events.get(method)
        if stats is None:
            key = method if len(self._events) < MAX_METHODS else _OTHER
            stats = self._events.setdefault(key, [0, 0])
        stats[0] += 1
        stats[1] += size
        self._totals[2] += size
        self._totals[3] += 1

    def totals(self) -> CdpTotals:
        """Everything counted so far."""
        calls, out, into, events = self._totals
        return CdpTotals(calls, out, into, events)

    def methods(self) -> list[MethodStats]:
        """Per-method call statistics, the most total time first."""
        found = []
        for method, s in self._calls.items():
            ordered = sorted(s.samples)
            p50 = ordered[len(ordered) // 2] if ordered else 0.0
            found.append(
                MethodStats(
                    method, s.count, s.failed, round(s.total_ms, 3), round(p50, 3), round(s.max_ms, 3),
                    s.bytes_out, s.bytes_in,
                )
            )
        return sorted(found, key=lambda m: (-m.total_ms, m.method))

    def events(self) -> list[EventStats]:
        """Per-event counts and bytes, the most bytes first."""
        found = [EventStats(method, count, size) for method, (count, size) in self._events.items()]
        return sorted(found, key=lambda e: (-e.bytes, e.method))


def since(earlier: CdpTotals, later: CdpTotals) -> CdpTotals:
    """The traffic between two :meth:`CdpMeter.totals` readings."""
    return CdpTotals(
        later.calls - earlier.calls,
        later.bytes_out - earlier.bytes_out,
        later.bytes_in - earlier.bytes_in,
        later.events - earlier.events,
    )
