"""The floors for CDP round trips: minimal blocking clients over the browser's pipe and websocket.

No framework, no event loop: write a command, read into one buffer until the reply with
that id arrives. :class:`BlockingPipeClient` speaks the pipe (NUL-terminated JSON on file
descriptors 3 and 4); :class:`BlockingWebSocketClient` the DevTools websocket (one masked
frame per command, :mod:`cdpagent.cdp.wsframes`'s codec, TCP_NODELAY), so what the browser's
own websocket path costs is measured apart from any client's. ``bench/roundtrip.py``,
``bench/invoke.py`` and ``bench/peers.py`` measure cdpagent against them in the same run.

The buffer is allocated once: a plain ``os.read(fd, 1 << 20)`` allocates 1 MiB per
read, which glibc serves with ``mmap`` and shrinks with ``mremap`` — three system calls
and page faults per reply, 60–180 µs on a loaded 2-core machine, which an earlier
floor carried (and cdpagent's transports with it), flattering every ratio to it.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import trio

from cdpagent.cdp.launcher import default_flags, devtools_url, find_browser
from cdpagent.cdp.wsframes import TEXT, FrameReader, client_frame

__all__ = ["BlockingPipeClient", "BlockingWebSocketClient", "TrioPipeFloor", "launch_on_port"]


def launch_on_port(workdir: str) -> tuple[subprocess.Popen[bytes], str]:
    """A browser with cdpagent's flags on a DevTools port (profile in ``workdir``), and its
    ``ws://`` url. Raises :class:`RuntimeError` when it prints none."""
    argv = [find_browser(), *default_flags(os.path.join(workdir, "p"), headless=True, pipe=False)]
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert proc.stderr is not None
    for line in proc.stderr:
        url = devtools_url(line)
        if url:
            # Keep reading stderr so the browser never blocks on a full pipe.
            threading.Thread(target=proc.stderr.read, daemon=True).start()
            return proc, url
    proc.kill()
    proc.wait()
    raise RuntimeError("the browser printed no DevTools url")


class _BlockingClient:
    """What both floors share: ids, the reply loop, a tab with ``Runtime`` enabled."""

    proc: subprocess.Popen[bytes]
    workdir: str

    def __init__(self) -> None:
        self.next_id = 1
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Runtime.enable", session=self.session)

    def _send(self, data: bytes) -> None:
        raise NotImplementedError

    def _next(self) -> bytes:
        raise NotImplementedError

    def command(self, method: str, params: dict[str, Any] | None, session: str | None) -> tuple[int, bytes]:
        """A new call id and the JSON text of the command with it."""
        call_id = self.next_id
        self.next_id += 1
        msg: dict[str, Any] = {"id": call_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        return call_id, json.dumps(msg).encode()

    def call(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> Any:
        """Send one command and block until its reply; returns the ``result`` object."""
        call_id, data = self.command(method, params, session)
        self._send(data)
        while True:
            reply = json.loads(self._next())
            if reply.get("id") == call_id:
                return reply.get("result")

    def _close_channel(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """Close the browser and remove its profile."""
        with contextlib.suppress(OSError):
            self.call("Browser.close")
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._close_channel()
        shutil.rmtree(self.workdir, ignore_errors=True)


class BlockingPipeClient(_BlockingClient):
    """Launches its own browser and talks to it over the pipe with blocking reads and writes."""

    def __init__(self) -> None:
        self.workdir = tempfile.mkdtemp(prefix="cdpagent-floor-")
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()

        def move() -> None:
            r, w = os.dup(to_r), os.dup(from_w)
            os.dup2(r, 3)
            os.dup2(w, 4)

        argv = [find_browser(), *default_flags(os.path.join(self.workdir, "p"), headless=True, pipe=True)]
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(3, 4),
            preexec_fn=move,
            start_new_session=True,
        )
        os.close(to_r)
        os.close(from_w)
        self.rfd, self.wfd = from_r, to_w
        self.buf = b""
        self.chunk = bytearray(1 << 20)
        super().__init__()

    def _send(self, data: bytes) -> None:
        os.write(self.wfd, data + b"\0")

    def _next(self) -> bytes:
        while (raw := self.take()) is None:
            self.fill()
        return raw

    def take(self) -> bytes | None:
        """The next whole message read, or None."""
        if b"\0" not in self.buf:
            return None
        raw, _, self.buf = self.buf.partition(b"\0")
        return raw

    def fill(self) -> None:
        """Read what the pipe holds into the buffer (blocking unless the pipe is non-blocking:
        then ``BlockingIOError`` when it is empty). Raises ``OSError`` at its end."""
        size = os.readv(self.rfd, (self.chunk,))
        if not size:
            raise OSError("the browser closed its end of the pipe")
        self.buf += self.chunk[:size]

    def _close_channel(self) -> None:
        os.close(self.rfd)
        os.close(self.wfd)


class BlockingWebSocketClient(_BlockingClient):
    """Launches its own browser and talks to it over its DevTools websocket, blocking."""

    def __init__(self) -> None:
        self.workdir = tempfile.mkdtemp(prefix="cdpagent-floor-")
        self.proc, url = launch_on_port(self.workdir)
        parts = urlsplit(url)
        assert parts.hostname is not None and parts.port is not None
        self.sock = socket.create_connection((parts.hostname, parts.port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {parts.path} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            data = self.sock.recv(4096)
            if not data:
                raise OSError("the browser closed the websocket during the handshake")
            head += data
        head, _, rest = head.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            raise OSError(f"the browser refused the websocket: {head[:80]!r}")
        self.frames = FrameReader(1 << 28)
        self.ready = [payload for _, payload in self.frames.feed(rest)]
        self.chunk = bytearray(1 << 20)
        super().__init__()

    def _send(self, data: bytes) -> None:
        self.sock.sendall(client_frame(TEXT, data))

    def _next(self) -> bytes:
        while not self.ready:
            size = self.sock.recv_into(self.chunk)
            if not size:
                raise OSError("the browser closed the websocket")
            self.ready = [payload for _, payload in self.frames.feed(bytes(self.chunk[:size]))]
        return self.ready.pop(0)

    def _close_channel(self) -> None:
        self.sock.close()


class TrioPipeFloor:
    """The least a Trio program pays for a round trip: :class:`BlockingPipeClient`'s pipe, the
    same ``json`` and buffer, but the caller waits for its reply in Trio's loop
    (``wait_readable``, then a non-blocking read) in its own task, with no reader task.

    It shares the client's browser and session; use it inside :meth:`turn`, which makes the
    pipe non-blocking for the turn and blocking again after it, so the two floors can take
    turns on one browser.
    """

    def __init__(self, client: BlockingPipeClient) -> None:
        self.client = client

    @contextlib.contextmanager
    def turn(self) -> Iterator[TrioPipeFloor]:
        """Make the pipe non-blocking for the calls of this block."""
        os.set_blocking(self.client.rfd, False)
        try:
            yield self
        finally:
            os.set_blocking(self.client.rfd, True)

    async def call(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None
    ) -> Any:
        """:meth:`BlockingPipeClient.call`, waiting in Trio's loop instead of in ``readv``."""
        client = self.client
        call_id, data = client.command(method, params, session)
        client._send(data)
        while True:
            while (raw := client.take()) is None:
                await trio.lowlevel.wait_readable(client.rfd)
                with contextlib.suppress(BlockingIOError):
                    client.fill()
            reply = json.loads(raw)
            if reply.get("id") == call_id:
                return reply.get("result")
