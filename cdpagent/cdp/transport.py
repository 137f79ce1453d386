"""How CDP messages travel: one small interface, two implementations.

:class:`PipeTransport` speaks Chromium's ``--remote-debugging-pipe`` protocol
(NUL-terminated JSON on file descriptors 3 and 4 of the browser) and is the
default for browsers cdpagent launches: there is no port for another process
to attach to. :class:`WebSocketTransport` attaches to a browser through its
DevTools websocket, for an already running or remote browser. The rest of the
driver only sees :class:`Transport`.
"""

from __future__ import annotations

import base64
import collections
import contextlib
import errno
import hashlib
import os
import socket
import sys
from collections.abc import Callable
from typing import Any, Protocol
from urllib.parse import urlsplit

import h11
import msgspec
import trio

from ..errors import ConnectionClosed
from .wsframes import BINARY, CLOSE, PING, PONG, TEXT, FrameError, FrameReader, client_frame, close_reason

__all__ = ["MAX_MESSAGE_SIZE", "PipeTransport", "Transport", "WebSocketTransport"]

#: Largest message accepted in either direction (DR-1).
MAX_MESSAGE_SIZE = 256 * 1024 * 1024

#: The largest read. Reads go into one buffer per transport, allocated once: ``os.read`` and
#: ``socket.recv`` of this size allocate 1 MiB per call, which glibc serves with ``mmap`` and
#: shrinks with ``mremap`` (three system calls and page faults, 60–180 µs on a loaded 2-core
#: machine, for every read of a small reply).
_READ_SIZE = 1 << 20
#: The pipe capacity asked for (Linux's default is 64 KiB, under 256 invokes in flight): a
#: full pipe sends every caller down the locked, shielded slow path of :func:`_write_whole`.
_PIPE_SIZE = 1 << 20
#: The GUID of RFC 6455 §1.3 that the server's handshake answer hashes with the key.
_WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


async def _write_whole(
    data: memoryview, lock: trio.StrictFIFOLock, write: Callable[[memoryview], int], waitable: Any
) -> None:
    """Write all of ``data`` with the non-blocking ``write`` (bytes written, 0 when full).

    Fast path: when nobody is mid-message, write without yielding; a lock
    acquisition would yield while holding it and make every concurrent sender
    park. Half a message on the stream would corrupt it for every caller, so once
    begun a message is finished even if its caller is cancelled (a dead peer
    still ends this with :class:`ConnectionClosed` from ``write``).
    """
    if not lock.locked():
        written = write(data)
        if written == len(data):
            await trio.lowlevel.checkpoint_if_cancelled()
            return
        data = data[written:]
    with trio.CancelScope(shield=True):
        async with lock:
            while data:
                written = write(data)
                if not written:
                    try:
                        await trio.lowlevel.wait_writable(waitable)
                    except trio.ClosedResourceError:
                        raise ConnectionClosed("the connection to the browser was closed") from None
                data = data[written:]


class _Writer:
    """The sending half of a transport: whole messages in order, one system call per burst.

    When one read brings several messages (replies to many callers in flight), the
    reader calls :meth:`hold`: the callers those replies wake send their next
    commands into a list, and the reader calls :meth:`release` before it reads
    again, which writes them all with one system call. The browser's IO thread then wakes once
    per burst rather than once per command. A caller alone (one call at a time)
    never meets a held writer: its reply comes alone.
    """

    def __init__(self, write: Callable[[memoryview], int], waitable: Any) -> None:
        self._write = write
        self._waitable = waitable
        self._lock = trio.StrictFIFOLock()
        self._held: list[bytes] | None = None

    async def send(self, data: bytes) -> None:
        """Write ``data`` now, or after the burst in progress (see the class)."""
        held = self._held
        if held is not None:
            held.append(data)
            await trio.lowlevel.checkpoint_if_cancelled()
            return
        await _write_whole(memoryview(data), self._lock, self._write, self._waitable)

    @property
    def holding(self) -> bool:
        """Whether a burst's commands are being held."""
        return self._held is not None

    def hold(self) -> None:
        """Hold what is sent from now until :meth:`release`."""
        if self._held is None:
            self._held = []

    async def release(self) -> None:
        """Let the tasks the burst woke run, then write what they sent in one go.

        Two checkpoints: Trio runs a batch of ready tasks in either order, so after
        the second every task woken before the first has run its step. Raises
        :class:`ConnectionClosed` when the write fails.
        """
        await trio.lowlevel.cancel_shielded_checkpoint()
        await trio.lowlevel.cancel_shielded_checkpoint()
        held, self._held = self._held, None
        if held:
            data = held[0] if len(held) == 1 else b"".join(held)
            await _write_whole(memoryview(data), self._lock, self._write, self._waitable)


#: The largest message tail (no NUL yet) checked for being a whole JSON object already.
_EARLY_MAX = 64 * 1024
_whole_json = msgspec.json.Decoder(msgspec.Raw)


def _is_json(data: bytes) -> bool:
    """Whether ``data`` is one whole JSON value (checked, not built: a scan in C)."""
    try:
        _whole_json.decode(data)
    except msgspec.DecodeError:
        return False
    return True


def _grow_pipe(fd: int) -> None:
    """Ask for a :data:`_PIPE_SIZE` pipe buffer on ``fd``, best effort (Linux only; a
    smaller one, or a refusal past ``/proc/sys/fs/pipe-max-size``, only costs speed)."""
    if sys.platform == "linux":
        import fcntl

        with contextlib.suppress(OSError):
            fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _PIPE_SIZE)


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
        _grow_pipe(read_fd)
        _grow_pipe(write_fd)
        self._read_fd = read_fd
        self._write_fd = write_fd
        self._writer = _Writer(self._write, write_fd)
        self._buffer = bytearray(_READ_SIZE)
        self._view = memoryview(self._buffer)
        self._ready: list[bytes] = []
        self._ready_pos = 0
        self._partial: list[bytes] = []
        self._partial_size = 0
        # The last read drained the pipe and brought at most one whole message (a lone reply,
        # or the first part of one: Chromium writes a message's closing NUL with a write of its
        # own, which a read catches between them a third of the time): the next read would
        # almost always find the pipe empty, so wait until it is readable rather than read
        # first (a failed read costs a system call and a BlockingIOError, ~3 µs).
        self._lone = False
        # A message was handed over before its NUL came; the next read begins with that NUL.
        self._owed = False
        self._closed = False

    async def send(self, message: bytes) -> None:
        """Send one complete message (see :class:`Transport`); raises :class:`ConnectionClosed`."""
        if len(message) > MAX_MESSAGE_SIZE:
            raise ValueError(f"message of {len(message)} bytes exceeds {MAX_MESSAGE_SIZE}")
        if self._closed:
            raise ConnectionClosed("the pipe to the browser is closed")
        await self._writer.send(message + b"\0")

    def _write(self, data: memoryview) -> int:
        try:
            return os.write(self._write_fd, data)
        except BlockingIOError:
            return 0
        except OSError as exc:
            raise ConnectionClosed(f"the pipe to the browser broke: {exc}") from exc

    async def receive(self) -> bytes | bytearray:
        """The next complete message (see :class:`Transport`); raises :class:`ConnectionClosed`."""
        while True:
            if self._ready_pos < len(self._ready):
                msg = self._ready[self._ready_pos]
                self._ready_pos += 1
                return msg
            self._ready.clear()
            self._ready_pos = 0
            if self._closed:
                raise ConnectionClosed("the pipe to the browser is closed")
            if self._writer.holding:
                await self._writer.release()
                continue
            if self._lone:
                self._lone = False
                await trio.lowlevel.wait_readable(self._read_fd)
            try:
                size = os.readv(self._read_fd, (self._buffer,))
            except BlockingIOError:
                await trio.lowlevel.wait_readable(self._read_fd)
                continue
            except OSError as exc:
                raise ConnectionClosed(f"the pipe from the browser broke: {exc}") from exc
            if not size:
                raise ConnectionClosed("the browser closed its end of the pipe")
            self._split(bytes(self._view[:size]))
            if len(self._ready) > 1:
                self._writer.hold()
            else:
                self._lone = size < _READ_SIZE

    def _split(self, chunk: bytes) -> None:
        start = 0
        if self._owed:
            # The last read ended with a message whose NUL had not come; JSON allows only
            # whitespace after it, and anything else means the stream is not CDP.
            self._owed = False
            start = len(chunk) - len(chunk.lstrip(b" \t\r\n"))
            if chunk[start : start + 1] != b"\0":
                raise ConnectionClosed("the browser sent bytes after a complete message; closing")
            start += 1
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
            if not self._partial and rest[-1:] == b"}" and len(rest) <= _EARLY_MAX and _is_json(rest):
                # A whole JSON object already is the whole message: hand it over now, not
                # after another wake-up for its NUL (Chromium writes the NUL on its own).
                self._ready.append(rest)
                self._owed = True
                return
            self._partial.append(rest)
            self._partial_size += len(rest)
            if self._partial_size > MAX_MESSAGE_SIZE:
                raise ConnectionClosed(
                    f"the browser sent a message over {MAX_MESSAGE_SIZE} bytes; closing"
                )

    async def aclose(self) -> None:
        """Close the transport (idempotent); later calls raise :class:`ConnectionClosed`."""
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
    """CDP over a DevTools websocket: text frames, no compression, 256 MiB messages.

    The opening handshake is HTTP/1.1 through :mod:`h11`; the frames are
    :mod:`cdpagent.cdp.wsframes` over a plain non-blocking socket, in the pipe's manner:
    the caller that sends writes straight to the socket, and the connection's reader
    task reads and unframes messages itself. There is no helper task between the
    socket and the reader (trio-websocket's reader task and channel cost a task
    switch per message), and no per-message event objects or UTF-8 decoding
    (wsproto's frame layer cost ~40 µs of Python per received message and ~18 µs
    per sent one; the codec here costs a few).
    """

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._buffer = bytearray(_READ_SIZE)
        self._view = memoryview(self._buffer)
        self._frames = FrameReader(MAX_MESSAGE_SIZE)
        self._writer = _Writer(self._write, sock)
        self._ready: collections.deque[bytes] = collections.deque()
        # As in PipeTransport: after a lone message, wait for the socket before reading.
        self._lone = False
        self._closed = False

    @classmethod
    async def open(cls, url: str, nursery: trio.Nursery | None = None) -> WebSocketTransport:
        """Connect to a ``ws://`` DevTools url and complete the websocket handshake.

        ``nursery`` is not needed (no task is started) and kept for callers that
        pass one. Raises :class:`ConnectionClosed` when the url cannot be reached or
        does not accept a websocket.
        """
        parts = urlsplit(url)
        if parts.scheme != "ws" or not parts.hostname:
            raise ConnectionClosed(f"not a ws:// url: {url}")
        host, port = parts.hostname, parts.port or 80
        target = parts.path or "/"
        if parts.query:
            target += "?" + parts.query
        sock = await _connect(host, port, url)
        transport = cls(sock)
        try:
            authority = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
            await transport._handshake(url, authority, target)
        except BaseException:
            transport._close_socket()
            raise
        return transport

    async def _handshake(self, url: str, authority: str, target: str) -> None:
        """The client's opening handshake (RFC 6455 §4.1); frames that follow it are kept."""
        key = base64.b64encode(os.urandom(16)).decode()
        client = h11.Connection(h11.CLIENT)
        headers = [
            ("Host", authority),
            ("Upgrade", "websocket"),
            ("Connection", "Upgrade"),
            ("Sec-WebSocket-Key", key),
            ("Sec-WebSocket-Version", "13"),
        ]
        request = client.send(h11.Request(method="GET", target=target, headers=headers)) or b""
        await self._send_raw(request + (client.send(h11.EndOfMessage()) or b""))
        failed = f"cannot open the DevTools websocket {url}"
        while True:
            try:
                event = client.next_event()
            except h11.RemoteProtocolError as exc:
                raise ConnectionClosed(f"{failed}: {exc}") from exc
            if event is h11.NEED_DATA:
                data = await self._recv_raw()
                if not data:
                    raise ConnectionClosed(f"{failed}: the server closed it")
                client.receive_data(data)
                continue
            if isinstance(event, h11.InformationalResponse) and event.status_code == 101:
                accept = dict(event.headers).get(b"sec-websocket-accept", b"")
                expected = base64.b64encode(hashlib.sha1((key + _WS_GUID).encode()).digest())
                if accept != expected:
                    raise ConnectionClosed(f"{failed}: the server's handshake answer is wrong")
                for pong in self._take(client.trailing_data[0]):
                    await self._send_raw(pong)
                return
            if isinstance(event, h11.Response | h11.InformationalResponse):
                raise ConnectionClosed(f"{failed}: refused {event.status_code}")

    async def send(self, message: bytes) -> None:
        """Send one complete message (see :class:`Transport`); raises :class:`ConnectionClosed`."""
        if len(message) > MAX_MESSAGE_SIZE:
            raise ValueError(f"message of {len(message)} bytes exceeds {MAX_MESSAGE_SIZE}")
        if self._closed:
            raise ConnectionClosed("the DevTools websocket is closed")
        await self._send_raw(client_frame(TEXT, message))

    async def _send_raw(self, frame: bytes) -> None:
        await self._writer.send(frame)

    def _write(self, data: memoryview) -> int:
        try:
            return self._sock.send(data)
        except BlockingIOError:
            return 0
        except OSError as exc:
            raise ConnectionClosed(f"the DevTools websocket broke: {exc}") from exc

    async def _recv_raw(self) -> bytes:
        """The handshake's read: what the socket has, once it has something."""
        while True:
            if self._closed:
                raise ConnectionClosed("the DevTools websocket is closed")
            try:
                return bytes(self._view[: self._sock.recv_into(self._buffer)])
            except BlockingIOError:
                pass
            except OSError as exc:
                raise ConnectionClosed(f"the DevTools websocket broke: {exc}") from exc
            await self._wait_readable()

    async def _wait_readable(self) -> None:
        try:
            await trio.lowlevel.wait_readable(self._sock)
        except trio.ClosedResourceError:
            raise ConnectionClosed("the DevTools websocket was closed") from None

    async def receive(self) -> bytes | bytearray:
        """The next complete message (see :class:`Transport`); raises :class:`ConnectionClosed`."""
        # The pipe's loop (PipeTransport.receive), inline: a message read alone costs no
        # coroutine but this one (three more, before).
        wait = False
        while True:
            if self._ready:
                return self._ready.popleft()
            if self._closed:
                raise ConnectionClosed("the DevTools websocket is closed")
            if self._writer.holding:
                await self._writer.release()
                continue
            if wait or self._lone:
                wait = self._lone = False
                try:
                    await trio.lowlevel.wait_readable(self._sock)
                except trio.ClosedResourceError:
                    raise ConnectionClosed("the DevTools websocket was closed") from None
            try:
                size = self._sock.recv_into(self._buffer)
            except BlockingIOError:
                wait = True
                continue
            except OSError as exc:
                raise ConnectionClosed(f"the DevTools websocket broke: {exc}") from exc
            if not size:
                raise ConnectionClosed("the browser closed the DevTools websocket")
            for pong in self._take(bytes(self._view[:size])):
                await self._send_raw(pong)

    def _take(self, data: bytes) -> list[bytes]:
        """Unframe ``data`` into the ready queue; returns the pongs that answer its pings.

        Raises :class:`ConnectionClosed` on a framing violation or a close frame.
        """
        try:
            frames = self._frames.feed(data)
        except FrameError as exc:
            raise ConnectionClosed(f"the DevTools websocket broke: {exc}") from exc
        pongs: list[bytes] = []
        for opcode, payload in frames:
            if opcode in (TEXT, BINARY):
                self._ready.append(payload)
            elif opcode == PING:
                pongs.append(client_frame(PONG, payload))
            elif opcode == CLOSE:
                raise ConnectionClosed(f"the browser closed the DevTools websocket: {close_reason(payload)}")
        if len(self._ready) > 1:
            self._writer.hold()
        else:
            self._lone = not self._frames.pending
        return pongs

    def _close_socket(self) -> None:
        if self._closed:
            return
        self._closed = True
        trio.lowlevel.notify_closing(self._sock)
        self._sock.close()

    async def aclose(self) -> None:
        """Close the transport (idempotent); later calls raise :class:`ConnectionClosed`."""
        if self._closed:
            return
        with contextlib.suppress(OSError):
            self._sock.send(client_frame(CLOSE, (1000).to_bytes(2, "big")))
        self._close_socket()
        await trio.lowlevel.checkpoint()


async def _connect(host: str, port: int, url: str) -> socket.socket:
    """A connected non-blocking TCP socket to ``host:port``; tries every address in turn.

    Raises :class:`ConnectionClosed` naming ``url`` when none accepts.
    """
    try:
        addresses = await trio.socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise ConnectionClosed(f"cannot open the DevTools websocket {url}: {exc}") from exc
    last: OSError | None = None
    for family, kind, proto, _, address in addresses:
        sock = socket.socket(family, kind, proto)
        sock.setblocking(False)
        try:
            try:
                sock.connect(address)
            except BlockingIOError:
                await trio.lowlevel.wait_writable(sock)
                error = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if error:
                    raise OSError(error, os.strerror(error)) from None
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return sock
        except OSError as exc:
            last = exc
            sock.close()
        except BaseException:
            sock.close()
            raise
    raise ConnectionClosed(f"cannot open the DevTools websocket {url}: {last}")
