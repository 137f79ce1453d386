"""The progress line of a run: counts, running success rate and ETA (formatting is sans-IO).

On a terminal one bar is redrawn in place (``\\r``) several times a second; on a
pipe or file each finished episode is one plain line, so logs stay readable.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from .records import EpisodeRecord

__all__ = ["Progress", "format_duration"]

_BAR = 24


def format_duration(seconds: float) -> str:
    """``seconds`` as ``M:SS`` or ``H:MM:SS``."""
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


class Progress:
    """Counts of a run of ``total`` episodes, written to ``stream`` (a bar when it is a terminal)."""

    def __init__(self, total: int, *, stream: TextIO | None = None, tty: bool | None = None) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.done = 0
        self.running = 0
        self.failed = 0
        self.successes = 0
        self.scored = 0
        self.started = time.monotonic()
        self._width = 0

    def success_rate(self) -> float | None:
        """Successes over scored episodes so far (``None`` before the first scored one)."""
        return self.successes / self.scored if self.scored else None

    def eta(self, now: float | None = None) -> float | None:
        """Seconds left at the pace so far (``None`` before the first episode finished)."""
        if not self.done:
            return None
        elapsed = (time.monotonic() if now is None else now) - self.started
        return elapsed / self.done * (self.total - self.done)

    def line(self, now: float | None = None) -> str:
        """The status: ``12/40 done · 2 running · 3 failed · success 75% · ETA 1:20``."""
        rate = self.success_rate()
        eta = self.eta(now)
        parts = [
            f"{self.done}/{self.total} done",
            f"{self.running} running",
            f"{self.failed} failed",
            f"success {rate:.0%}" if rate is not None else "success –",
            f"ETA {format_duration(eta)}" if eta is not None else "ETA –",
        ]
        return " · ".join(parts)

    def bar(self, now: float | None = None) -> str:
        """The terminal form: a bar of the done fraction, then :meth:`line`."""
        filled = round(_BAR * self.done / self.total) if self.total else _BAR
        return f"[{'#' * filled}{'.' * (_BAR - filled)}] {self.line(now)}"

    def begin(self) -> None:
        """An episode started."""
        self.running += 1
        self.draw()

    def finish(self, record: EpisodeRecord) -> None:
        """An episode ended with ``record``; on a pipe, one line says so."""
        self.running -= 1
        self.done += 1
        if record.success is not None:
            self.scored += 1
            self.successes += record.success
        if record.outcome not in ("solved", "unscored"):
            self.failed += 1
        if not self.tty:
            reward = "–" if record.reward is None else f"{record.reward:.2f}"
            code = f" {record.error.code}" if record.error else ""
            self.stream.write(
                f"cdpagent eval: {record.task}#{record.repeat} {record.outcome}{code} reward {reward} "
                f"{record.steps} steps {record.time_s:.1f} s · {self.line()}\n"
            )
            self.stream.flush()
        self.draw()

    def draw(self) -> None:
        """Redraw the bar (terminals only)."""
        if not self.tty:
            return
        text = self.bar()
        self.stream.write("\r" + text + " " * max(0, self._width - len(text)))
        self._width = len(text)
        self.stream.flush()

    def close(self) -> None:
        """End the bar's line (terminals only)."""
        if self.tty:
            self.draw()
            self.stream.write("\n")
            self.stream.flush()
