"""How CDP messages travel: one small interface, two implementations.

:class:`PipeTransport` speaks Chromium's ``--remote-debugging-pipe`` protocol
(NUL-terminated JSON on file descriptors 3 and 4 of the browser) and is the
default for browsers cdpagent launches: there is no port for another process
to attach to. :class:`WebSocketTransport` attaches to a browser through its
DevTools websocket, for an already running or remote browser. The rest of the
driver only sees :class:`Transport`.
"""

from __future__ import annotations

import errno
import os
from typing import Protocol

import trio
import trio_websocket

from .concurrency import collapse
from .errors import ConnectionClosed

__all__ = ["MAX_MESSAGE_SIZE", "PipeTransport", "Transport", "WebSocketTransport"]

#: Largest message accepted in either direction (DR-1).
MAX_MESSAGE_SIZE = 256 * 1024 * 1024

_READ_SIZE = 1 << 20

# How long a websocket close waits for the peer's close frame.
_CLOSE_HANDSHAKE_TIMEOUT = 2.0


class Transport(Protocol):
    """A bidirectional stream of complete CDP messages."""

    async def send(self, message: bytes) -> None:
        """Send one complete message; raises :class:`ConnectionClosed` when the peer is gone."""
        ...

    async def receive(self) -> bytes | bytearray:
        """Return the next complete message; raises :class:`ConnectionClosed` at end of stream."""
        ...

    async def aclose(self) -> None:
        """Close the transport; further calls raise :class:`ConnectionClosed`."""
        ...


class PipeTransport:
    """NUL-framed messages over a pair of non-blocking pipe file descriptors.

    Writes go straight to ``os.write`` and only wait when the pipe is full, so
    a command costs one system call in the common case. The reader keeps
    already-read messages in a small queue so that one ``os.read`` can deliver
    many messages without further system calls.
    """

    def __init__(self, read_fd: int, write_fd: int) -> None:
        os.set_blocking(read_fd, False)
        os.set_blocking(write_fd, False)
        self._read_fd = read_fd
        self._write_fd = write_fd
        self._send_lock = trio.StrictFIFOLock()
        self._ready: list[bytes] = []
        self._ready_pos = 0
        self._partial: list[bytes] = []
        self._partial_size = 0
        self._closed = False

    async def send(self, message: bytes) -> None:
        if len(message) > MAX_MESSAGE_SIZE:
            raise ValueError(f"message of {len(message)} bytes exceeds {MAX_MESSAGE_SIZE}")
        if self._closed:
            raise ConnectionClosed("the pipe to the browser is closed")
        data = memoryview(message + b"\0")
        if not self._send_lock.locked():
            # Fast path: nobody is mid-message, so write without yielding; a
            # lock acquisition would yield while holding it and make every
            # concurrent sender park.
            written = self._write(data)
            if written == len(data):
                await trio.lowlevel.checkpoint_if_cancelled()
                return
            data = data[written:]
        # Half a message on the pipe would corrupt the stream for every caller:
        # once queued, a message is finished even if its caller is cancelled
        # (a dead browser still ends this with a broken pipe).
        with trio.CancelScope(shield=True):
            async with self._send_lock:
                while data:
                    written = self._write(data)
                    if not written:
                        await trio.lowlevel.wait_writable(self._write_fd)
                    data = data[written:]

    def _write(self, data: memoryview) -> int:
        try:
            return os.write(self._write_fd, data)
        except BlockingIOError:
            return 0
        except OSError as exc:
            raise ConnectionClosed(f"the pipe to the browser broke: {exc}") from exc

    async def receive(self) -> bytes | bytearray:
        while True:
            if self._ready_pos < len(self._ready):
                msg = self._ready[self._ready_pos]
                self._ready_pos += 1
                return msg
            self._ready.clear()
            self._ready_pos = 0
            if self._closed:
                raise ConnectionClosed("the pipe to the browser is closed")
            try:
                chunk = os.read(self._read_fd, _READ_SIZE)
            except BlockingIOError:
                await trio.lowlevel.wait_readable(self._read_fd)
                continue
            except OSError as exc:
                raise ConnectionClosed(f"the pipe from the browser broke: {exc}") from exc
            if not chunk:
                raise ConnectionClosed("the browser closed its end of the pipe")
            self._split(chunk)

    def _split(self, chunk: bytes) -> None:
        start = 0
        while True:
            end = chunk.find(b"\0", start)
            if end < 0:
                break
            if self._partial:
                self._partial.append(chunk[start:end])
                self._ready.append(b"".join(self._partial))
                self._partial.clear()
                self._partial_size = 0
            else:
                self._ready.append(chunk[start:end])
            start = end + 1
        if start < len(chunk):
            rest = chunk[start:]
            self._partial.append(rest)
            self._partial_size += len(rest)
            if self._partial_size > MAX_MESSAGE_SIZE:
                raise ConnectionClosed(
                    f"the browser sent a message over {MAX_MESSAGE_SIZE} bytes; closing"
                )

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        for fd in (self._read_fd, self._write_fd):
            try:
                trio.lowlevel.notify_closing(fd)
                os.close(fd)
            except OSError as exc:
                if exc.errno != errno.EBADF:
                    raise
        await trio.lowlevel.checkpoint()


class WebSocketTransport:
    """CDP over a DevTools websocket (text frames, no compression, 256 MiB messages)."""

    def __init__(self, ws: trio_websocket.WebSocketConnection) -> None:
        self._ws = ws

    @classmethod
    async def open(cls, url: str, nursery: trio.Nursery) -> WebSocketTransport:
        """Connect to a ``ws://`` DevTools url; its reader task lives in ``nursery``.

        Raises :class:`ConnectionClosed` when the url cannot be reached or does
        not accept a websocket.
        """
        transport: WebSocketTransport = await nursery.start(cls._host, url)
        return transport

    @classmethod
    async def _host(cls, url: str, *, task_status: trio.TaskStatus[WebSocketTransport]) -> None:
        started = False
        try:
            with collapse():
                async with trio.open_nursery() as inner:
                    ws = await trio_websocket.connect_websocket_url(
                        inner,
                        url,
                        max_message_size=MAX_MESSAGE_SIZE,
                        message_queue_size=64,
                        receive_buffer_size=1 << 20,
                    )
                    task_status.started(cls(ws))
                    started = True
        except (OSError, trio_websocket.HandshakeError, trio_websocket.ConnectionClosed) as exc:
            if not started:
                raise ConnectionClosed(f"cannot open the DevTools websocket {url}: {exc!r}") from exc
            # Once open, a broken websocket shows up as ConnectionClosed in receive().

    async def send(self, message: bytes) -> None:
        try:
            await self._ws.send_message(message.decode())
        except trio_websocket.ConnectionClosed as exc:
            raise ConnectionClosed(f"the DevTools websocket closed: {exc.reason}") from exc

    async def receive(self) -> bytes | bytearray:
        try:
            msg = await self._ws.get_message()
        except trio_websocket.ConnectionClosed as exc:
            raise ConnectionClosed(f"the DevTools websocket closed: {exc.reason}") from exc
        return msg.encode() if isinstance(msg, str) else msg

    async def aclose(self) -> None:
        # The close handshake waits for the peer's close frame, which only the
        # reader task can receive; when the owner was cancelled that task is gone
        # and the wait would never end (under a shield, forever). trio-websocket
        # closes the TCP stream when the wait is cut short.
        with trio.move_on_after(_CLOSE_HANDSHAKE_TIMEOUT):
            await self._ws.aclose()
