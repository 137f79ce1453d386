"""The driver underneath ``cdpagent.Tab`` (``cdpagent.lowlevel``), for code that speaks CDP itself.

The names here are public and documented, but most programs never need them:
``cdpagent.launch`` wires them together. Use them to send raw CDP commands on a
tab's :class:`Session` (``tab.session.send("Page.captureScreenshot")``), to write
an :class:`Extension` that prepares every new tab, to write a core against the
:class:`Target` seam, or to bring your own :class:`Transport`.

===========================  ==========================================================
name                         what it is
===========================  ==========================================================
:class:`Connection`          one CDP connection: the reader task, pending calls, sessions
:class:`Session`             one flattened session (a tab, a frame, the browser): ``send``,
                             ``send_batch``, ``on`` (event handlers), ``subscribe``
:class:`Subscription`        a bounded stream of one session's events
:class:`Target`, ``Host``    the seam the cores are written against (a tab, a browser)
:class:`FrameTarget`         an out-of-process frame of a tab, with its own session
:class:`Extension`           prepares every new tab before its first script runs (DR-3)
:data:`Command`              a CDP command as ``(method, params)``
:func:`call_function`        call a page function by value; a throw is ``PageFunctionError``
:class:`Transport`           the byte-message interface: :class:`PipeTransport`
                             (``--remote-debugging-pipe``), :class:`WebSocketTransport`
===========================  ==========================================================
"""

from __future__ import annotations

from .cdp.connection import Connection, Session, Subscription
from .cdp.target import Command, Extension, FrameTarget, Host, Target
from .cdp.transport import PipeTransport, Transport, WebSocketTransport
from .cdp.world import call_function

__all__ = [
    "Command",
    "Connection",
    "Extension",
    "FrameTarget",
    "Host",
    "PipeTransport",
    "Session",
    "Subscription",
    "Target",
    "Transport",
    "WebSocketTransport",
    "call_function",
]
