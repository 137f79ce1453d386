"""cdpagent's loggers (the :mod:`logging` tree under ``cdpagent``) and how the command line sets them up.

The loggers, for a program that configures :mod:`logging` itself:

* ``cdpagent.cdp`` — CDP traffic. INFO: one line per command (method, session,
  bytes sent and received, latency); DEBUG adds one line per event (method,
  session, bytes). Never parameters or results: those are page data.
* ``cdpagent.launch`` — starting and stopping browsers, attaching to one.
* ``cdpagent.observe`` — one line per observation: how long, how many records and actions.
* ``cdpagent.agent`` — one line per model request: latency, tokens, tool calls.
* ``cdpagent.mcp`` — one line per MCP tool call: tool, duration, error code.

Nothing is logged unless a handler and a level are set: with logging left alone,
the traffic logger costs one cached level check per command.

The ``cdpagent`` command sets them up with :func:`configure`: ``-v`` INFO, ``-vv``
or ``--debug`` DEBUG (``--debug`` also shows tracebacks), or ``CDPAGENT_LOG=debug``
(``info``, ``warning``, …) in the environment; lines go to stderr.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Final, TextIO

__all__ = [
    "AGENT",
    "CDP",
    "ENV",
    "LAUNCH",
    "MCP",
    "OBSERVE",
    "ROOT",
    "configure",
    "level_from",
]

ROOT: Final = logging.getLogger("cdpagent")
CDP: Final = logging.getLogger("cdpagent.cdp")
LAUNCH: Final = logging.getLogger("cdpagent.launch")
OBSERVE: Final = logging.getLogger("cdpagent.observe")
AGENT: Final = logging.getLogger("cdpagent.agent")
MCP: Final = logging.getLogger("cdpagent.mcp")

#: The environment variable that sets the command line's log level (``debug``, ``info``, …).
ENV: Final = "CDPAGENT_LOG"

_LEVELS: Final = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING,
                  "error": logging.ERROR, "critical": logging.CRITICAL}


def level_from(verbose: int, debug: bool, environ: dict[str, str] | os._Environ[str]) -> int:
    """The level the flags and the environment ask for: the more verbose of the two.

    ``verbose`` counts ``-v`` flags (1: INFO, 2+: DEBUG); ``debug`` is DEBUG; ``environ``'s
    :data:`ENV` names a level. Raises :class:`ValueError` naming the levels for an
    unknown :data:`ENV` value.
    """
    level = logging.WARNING
    if verbose:
        level = logging.INFO if verbose == 1 else logging.DEBUG
    if debug:
        level = logging.DEBUG
    named = environ.get(ENV, "").strip().lower()
    if named:
        if named not in _LEVELS:
            raise ValueError(f"{ENV}={named!r} is not a log level; use one of {', '.join(_LEVELS)}")
        level = min(level, _LEVELS[named])
    return level


class _Relative(logging.Formatter):
    """``+1.234s cdpagent.cdp: message``: seconds since the program started, then the logger."""

    def format(self, record: logging.LogRecord) -> str:
        record.message = record.getMessage()
        line = f"+{record.relativeCreated / 1000:.3f}s {record.name}: {record.message}"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


def configure(level: int, stream: TextIO | None = None) -> None:
    """Send the ``cdpagent`` loggers' records at ``level`` and above to ``stream`` (stderr).

    Called once by the command line; a program using cdpagent as a library
    configures :mod:`logging` its own way instead. At WARNING (the default) only
    warnings and errors are shown.
    """
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(_Relative())
    for old in list(ROOT.handlers):
        ROOT.removeHandler(old)
    ROOT.addHandler(handler)
    ROOT.setLevel(level)
    ROOT.propagate = False
