"""Command-line values checked before anything is launched (SPEC SF-2).

Each function is an ``argparse`` ``type=``: it returns the value or raises
``argparse.ArgumentTypeError``, so a bad value ends the command with exit
status 2 and a message naming the flag (``argument --timeout: …``) before a
browser or a model connection exists. :func:`utf8_file` reads a text file the
same way: a missing, unreadable or non-UTF-8 file is named, not a traceback.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

__all__ = ["count", "positive_count", "seconds", "utf8_file"]


def seconds(text: str) -> float:
    """A positive, finite number of seconds (``0``, ``-3``, ``nan`` and ``inf`` are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive, finite number of seconds, not {text!r}")
    return value


def count(text: str) -> int:
    """A whole number, 0 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def positive_count(text: str) -> int:
    """A whole number, 1 or more."""
    value = count(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def utf8_file(path: str) -> str:
    """The text of the UTF-8 file at ``path``; raises :class:`ValueError` naming the file and why."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ValueError(f"{path}: cannot read the file ({error.strerror})") from None
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not UTF-8 text (byte {error.start}: {error.reason})") from None
