"""The transports write a burst's commands with one system call (issue 25), without a browser.

The test plays the browser on the far end of a real pipe pair or socket pair: it
answers many calls in one write, and counts the writes the commands that those
replies set off took. A lone reply must not hold its caller's next command back.
"""

from __future__ import annotations

import json
import os
import select
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

import pytest
import trio

from cdpagent.lowlevel import Connection, PipeTransport, WebSocketTransport

CALLERS = 16


class Peer:
    """The browser's end: reads commands, writes replies (framed as the transport expects)."""

    def __init__(self, read: Callable[[], bytes], write: Callable[[bytes], None], framed: bool) -> None:
        self._read = read
        self._write = write
        self._framed = framed
        self._buffer = b""

    async def commands(self, count: int) -> list[dict[str, Any]]:
        """The next ``count`` commands (their JSON objects), in the order they arrived."""
        out: list[dict[str, Any]] = []
        with trio.fail_after(10):
            while len(out) < count:
                message = self._take()
                if message is None:
                    await trio.sleep(0.001)
                    continue
                out.append(json.loads(message))
        return out

    def reply_all(self, commands: list[dict[str, Any]], result: Any = None) -> None:
        """Answer every command in ``commands`` with one write (``result``, else ``{}``)."""
        body = {} if result is None else result
        replies = (json.dumps({"id": c["id"], "result": body}).encode() for c in commands)
        self._write(b"".join(self._frame(reply) for reply in replies))

    def _frame(self, payload: bytes) -> bytes:
        if not self._framed:
            return payload + b"\0"
        if len(payload) < 126:
            return bytes((0x81, len(payload))) + payload
        return bytes((0x81, 127)) + len(payload).to_bytes(8, "big") + payload

    def _take(self) -> bytes | None:
        try:
            self._buffer += self._read()
        except BlockingIOError:
            pass
        if not self._framed:
            message, nul, rest = self._buffer.partition(b"\0")
            if not nul:
                return None
            self._buffer = rest
            return message
        if len(self._buffer) < 6:
            return None
        size = self._buffer[1] & 0x7F
        offset = 2 + (2 if size == 126 else 0)
        if size == 126:
            size = int.from_bytes(self._buffer[2:4], "big")
        if len(self._buffer) < offset + 4 + size:
            return None
        key = self._buffer[offset : offset + 4]
        masked = self._buffer[offset + 4 : offset + 4 + size]
        self._buffer = self._buffer[offset + 4 + size :]
        return bytes(b ^ key[i % 4] for i, b in enumerate(masked))


@asynccontextmanager
async def wired(kind: str) -> AsyncIterator[tuple[Connection, Peer, list[int], list[int]]]:
    """A running connection over ``kind`` ("pipe" or "websocket"), its peer, the sizes of
    the transport's writes (one entry per system call) and one entry per hold."""
    writes: list[int] = []
    holds: list[int] = []
    closers: list[Callable[[], None]] = []
    transport: PipeTransport | WebSocketTransport
    if kind == "pipe":
        to_us_r, to_us_w = os.pipe()
        to_peer_r, to_peer_w = os.pipe()
        os.set_blocking(to_peer_r, False)
        transport = PipeTransport(to_us_r, to_peer_w)
        peer = Peer(lambda: os.read(to_peer_r, 1 << 16), lambda data: _write_all(to_us_w, data), framed=False)
        closers += [lambda: os.close(to_us_w), lambda: os.close(to_peer_r)]
    else:
        ours, theirs = socket.socketpair()
        ours.setblocking(False)
        theirs.setblocking(False)
        transport = WebSocketTransport(ours)
        peer = Peer(lambda: theirs.recv(1 << 16), partial(_send_all, theirs), framed=True)
        closers.append(theirs.close)
    writer = transport._writer
    write = writer._write

    def counted(data: memoryview) -> int:
        written = write(data)
        writes.append(written)
        return written

    writer._write = counted
    hold = writer.hold

    def counted_hold() -> None:
        holds.append(1)
        hold()

    writer.hold = counted_hold  # type: ignore[method-assign]
    connection = Connection(transport)
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(connection.run)
            yield connection, peer, writes, holds
            nursery.cancel_scope.cancel()
    finally:
        await transport.aclose()
        for close in closers:
            close()


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data) :]


def _send_all(sock: socket.socket, data: bytes) -> None:
    """``sendall`` on a non-blocking socket: waits while the socket is full."""
    view = memoryview(data)
    while view:
        try:
            view = view[sock.send(view) :]
        except BlockingIOError:
            select.select([], [sock], [])


@pytest.mark.parametrize("kind", ["pipe", "websocket"])
async def test_the_commands_a_burst_of_replies_sets_off_go_out_in_one_write(kind: str) -> None:
    async with wired(kind) as (connection, peer, writes, _):

        async def caller() -> None:
            await connection.call("First.call", None, None)
            await connection.call("Second.call", None, None)

        async with trio.open_nursery() as nursery:
            for _ in range(CALLERS):
                nursery.start_soon(caller)
            first = await peer.commands(CALLERS)
            assert {c["method"] for c in first} == {"First.call"}
            del writes[:]
            peer.reply_all(first)  # one read brings every reply
            second = await peer.commands(CALLERS)
            assert {c["method"] for c in second} == {"Second.call"}
            assert len(writes) == 1, f"{CALLERS} commands took {len(writes)} writes"
            peer.reply_all(second)


@pytest.mark.parametrize("kind", ["pipe", "websocket"])
async def test_a_lone_reply_does_not_hold_back_its_callers_next_command(kind: str) -> None:
    async with wired(kind) as (connection, peer, writes, holds):

        async def caller() -> None:
            for _ in range(3):
                await connection.call("Alone.call", None, None)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(caller)
            for _ in range(3):
                (command,) = await peer.commands(1)
                peer.reply_all([command])
        assert len(writes) == 3  # each command written by its caller, at once
        assert not holds


class _CountedSocket:
    """A socket whose reads are counted (a socket's methods cannot be replaced)."""

    def __init__(self, sock: socket.socket, reads: list[int]) -> None:
        self._sock = sock
        self._reads = reads

    def recv_into(self, buffer: bytearray) -> int:
        self._reads.append(1)
        return self._sock.recv_into(buffer)

    def recv(self, size: int) -> bytes:
        self._reads.append(1)
        return self._sock.recv(size)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


@pytest.mark.parametrize("kind", ["pipe", "websocket"])
async def test_a_lone_reply_costs_one_read(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a read that brought one whole message, the reader waits for the stream to be
    readable instead of trying a read that would fail (a system call and an exception)."""
    reads: list[int] = []
    readv, read = os.readv, os.read

    def counted_readv(fd: int, buffers: Any) -> int:
        reads.append(1)
        return readv(fd, buffers)

    def counted_read(fd: int, size: int) -> bytes:
        reads.append(1)
        return read(fd, size)

    monkeypatch.setattr("cdpagent.cdp.transport.os.readv", counted_readv)
    monkeypatch.setattr("cdpagent.cdp.transport.os.read", counted_read)
    async with wired(kind) as (connection, peer, _, _):
        transport = connection.transport
        if isinstance(transport, WebSocketTransport):
            transport._sock = _CountedSocket(transport._sock, reads)  # type: ignore[assignment]
        for _ in range(5):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(connection.call, "Alone.call", None, None)
                (command,) = await peer.commands(1)
                del reads[:]
                peer.reply_all([command])
            assert len(reads) == 1, f"{len(reads)} reads for one reply"


@pytest.mark.parametrize("kind", ["pipe", "websocket"])
async def test_a_reply_larger_than_the_read_buffer_arrives_whole(kind: str) -> None:
    async with wired(kind) as (connection, peer, _, _):
        text = "x" * (3 << 20)
        async with trio.open_nursery() as nursery:
            results: list[Any] = []

            async def caller() -> None:
                results.append(await connection.call("Big.call", None, None))

            nursery.start_soon(caller)
            (command,) = await peer.commands(1)
            # From a thread: the reply is larger than the pipe or socket holds.
            with trio.fail_after(20):
                await trio.to_thread.run_sync(peer.reply_all, [command], {"text": text})
        assert json.loads(bytes(results[0])) == {"text": text}


@asynccontextmanager
async def _pipe_transport() -> AsyncIterator[tuple[PipeTransport, Callable[[bytes], int]]]:
    """A PipeTransport reading what the test writes to the far end of a real pipe."""
    to_us_r, to_us_w = os.pipe()
    to_peer_r, to_peer_w = os.pipe()
    transport = PipeTransport(to_us_r, to_peer_w)
    try:
        yield transport, partial(os.write, to_us_w)
    finally:
        await transport.aclose()
        os.close(to_us_w)
        os.close(to_peer_r)


async def test_a_whole_message_is_handed_over_before_its_nul() -> None:
    """Chromium writes a message's NUL with a write of its own: a read that holds a whole JSON
    object already is handed over, and the NUL that follows is taken as its end."""
    async with _pipe_transport() as (transport, write):
        write(b'{"id":1,"result":{}}')
        with trio.fail_after(5):
            assert await transport.receive() == b'{"id":1,"result":{}}'
        write(b'\0{"id":2}\0')
        with trio.fail_after(5):
            assert await transport.receive() == b'{"id":2}'
        # JSON allows whitespace after the object, before the NUL.
        write(b'{"id":3}')
        with trio.fail_after(5):
            assert await transport.receive() == b'{"id":3}'
        write(b' \n\0{"id":4}\0')
        with trio.fail_after(5):
            assert await transport.receive() == b'{"id":4}'


async def test_a_message_that_is_no_whole_json_object_yet_waits_for_its_nul() -> None:
    async with _pipe_transport() as (transport, write):
        write(b'{"a":{"b":1}')  # ends with a brace, but the outer object is open
        received: list[bytes | bytearray] = []

        async def receive() -> None:
            received.append(await transport.receive())

        async with trio.open_nursery() as nursery:
            nursery.start_soon(receive)
            await trio.testing.wait_all_tasks_blocked()
            assert received == []
            write(b',"c":2}\0')
        assert received == [b'{"a":{"b":1},"c":2}']


async def test_bytes_after_a_whole_message_are_not_cdp() -> None:
    from cdpagent.errors import ConnectionClosed

    async with _pipe_transport() as (transport, write):
        write(b'{"id":1}')
        with trio.fail_after(5):
            assert await transport.receive() == b'{"id":1}'
        write(b'x\0')
        with pytest.raises(ConnectionClosed, match="after a complete message"), trio.fail_after(5):
            await transport.receive()


def _server_frame(opcode: int, payload: bytes) -> bytes:
    """One final, unmasked frame as a server sends it (payloads under 126 bytes)."""
    return bytes((0x80 | opcode, len(payload))) + payload


async def test_the_websocket_reader_answers_a_ping_and_ends_at_a_close_frame() -> None:
    from cdpagent.cdp.wsframes import CLOSE, PING, PONG, TEXT
    from cdpagent.errors import ConnectionClosed

    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    theirs.settimeout(5)  # a pong that never comes fails the test instead of hanging it
    transport = WebSocketTransport(ours)
    try:
        theirs.sendall(_server_frame(PING, b"are you there") + _server_frame(TEXT, b'{"id":1}'))
        with trio.fail_after(5):
            assert await transport.receive() == b'{"id":1}'
        # The pong went out as the message was read: one masked frame echoing the ping.
        unmasked = bytearray(theirs.recv(1 << 16))
        assert unmasked[0] == 0x80 | PONG and unmasked[1] & 0x80
        key, body = unmasked[2:6], unmasked[6:]
        pong = bytes(b ^ key[i % 4] for i, b in enumerate(body))
        assert pong == b"are you there"
        theirs.sendall(_server_frame(CLOSE, (1001).to_bytes(2, "big") + b"going away"))
        with pytest.raises(ConnectionClosed, match="going away"), trio.fail_after(5):
            await transport.receive()
    finally:
        await transport.aclose()
        theirs.close()
