"""Websocket framing for the client side of a DevTools connection (RFC 6455 §5), without IO.

:func:`client_frame` makes one final, masked frame to send; a :class:`FrameReader`
is fed the bytes read from the server and returns complete messages and control
frames. No extension is ever negotiated (so no compression and no RSV bits), and
a server's frames are never masked. This replaces :mod:`wsproto`'s frame layer on
the hot path: that layer costs tens of microseconds of Python per message
(generators, an incremental UTF-8 decoder, event objects), the codec here a few
slicing operations. The opening handshake is in :mod:`cdpagent.cdp.transport`.

The mask is applied in one pass by :mod:`websockets`' C ``apply_mask`` (the only part of
that library used): Python's own means (XOR of the payload and the repeated key as big
integers) cost ~54 instructions a byte, ~22,000 for a 400-byte command, against ~3 a byte.
"""

from __future__ import annotations

import os
from typing import Final

try:
    from websockets.speedups import apply_mask
except ImportError:  # a platform without the C extension: websockets' own pure-Python mask
    from websockets.utils import apply_mask

from ..errors import FrameError

__all__ = [
    "BINARY",
    "CLOSE",
    "CONTINUATION",
    "PING",
    "PONG",
    "TEXT",
    "FrameError",
    "FrameReader",
    "client_frame",
    "close_reason",
]

CONTINUATION: Final = 0x0
TEXT: Final = 0x1
BINARY: Final = 0x2
CLOSE: Final = 0x8
PING: Final = 0x9
PONG: Final = 0xA

_DATA_OPCODES: Final = frozenset({TEXT, BINARY})
_CONTROL_OPCODES: Final = frozenset({CLOSE, PING, PONG})


class _Keys:
    """Fresh masking keys from the OS's strong source (RFC 6455 §5.3), drawn 1,024 at a
    time: one system call per 1,024 frames rather than one per frame."""

    def __init__(self) -> None:
        self._pool = b""
        self._next = 0

    def take(self) -> bytes:
        if self._next >= len(self._pool):
            self._pool = os.urandom(4096)
            self._next = 0
        key = self._pool[self._next : self._next + 4]
        self._next += 4
        return key


_keys = _Keys()


def client_frame(opcode: int, payload: bytes) -> bytes:
    """One final frame with ``opcode`` and ``payload``, masked with a fresh random key."""
    size = len(payload)
    if size < 126:
        head = bytes((0x80 | opcode, 0x80 | size))
    elif size < 1 << 16:
        head = bytes((0x80 | opcode, 0xFE)) + size.to_bytes(2, "big")
    else:
        head = bytes((0x80 | opcode, 0xFF)) + size.to_bytes(8, "big")
    key = _keys.take()
    return head + key + apply_mask(payload, key) if size else head + key


def close_reason(payload: bytes) -> str:
    """What a close frame's ``payload`` says: its reason text, else its status code."""
    if len(payload) < 2:
        return "no status"
    reason = payload[2:].decode(errors="replace")
    return reason or f"code {int.from_bytes(payload[:2], 'big')}"


class FrameReader:
    """Turns the server's byte stream into ``(opcode, payload)`` pairs.

    A pair is a whole data message (``TEXT`` or ``BINARY``, fragments joined) or a
    control frame (``CLOSE``, ``PING``, ``PONG``, which may arrive between the
    fragments of a message). Messages over ``max_size`` bytes are refused.
    """

    def __init__(self, max_size: int) -> None:
        self.max_size = max_size
        self._buffer = bytearray()
        self._opcode: int | None = None
        self._parts: list[bytes] = []
        self._size = 0

    @property
    def pending(self) -> bool:
        """Whether part of a frame or of a fragmented message is kept for the next read."""
        return bool(self._buffer) or self._opcode is not None

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        """Take ``data`` read from the server; return what it completed, in order.

        Raises :class:`FrameError` on a framing violation or an oversized message.
        """
        # With nothing left over from the last read (the usual case), frames are cut
        # straight out of ``data``: one copy per payload instead of three.
        buffer: bytes | bytearray
        if self._buffer:
            buffer = self._buffer
            buffer += data
        else:
            buffer = data
        out: list[tuple[int, bytes]] = []
        start = 0
        end = len(buffer)
        while end - start >= 2:
            first, second = buffer[start], buffer[start + 1]
            if first & 0x70:
                raise FrameError("reserved bits set (no extension was negotiated)")
            if second & 0x80:
                raise FrameError("the server masked a frame")
            size = second & 0x7F
            offset = start + 2
            if size == 126:
                if end - offset < 2:
                    break
                size = int.from_bytes(buffer[offset : offset + 2], "big")
                offset += 2
            elif size == 127:
                if end - offset < 8:
                    break
                size = int.from_bytes(buffer[offset : offset + 8], "big")
                offset += 8
            opcode = first & 0x0F
            if self._size + size > self.max_size:
                raise FrameError(f"a message over {self.max_size} bytes")
            if end - offset < size:
                break
            payload = buffer[offset : offset + size]
            start = offset + size
            self._frame(first & 0x80 != 0, opcode, payload if type(payload) is bytes else bytes(payload), out)
        if buffer is self._buffer:
            del buffer[:start]
        elif start < end:
            self._buffer = bytearray(buffer[start:])
        return out

    def _frame(self, final: bool, opcode: int, payload: bytes, out: list[tuple[int, bytes]]) -> None:
        if opcode in _CONTROL_OPCODES:
            if not final or len(payload) > 125:
                raise FrameError("a fragmented or oversized control frame")
            out.append((opcode, payload))
            return
        if opcode in _DATA_OPCODES:
            if self._opcode is not None:
                raise FrameError("a new message began inside a fragmented one")
            if final:
                out.append((opcode, payload))
                return
            self._opcode = opcode
        elif opcode != CONTINUATION or self._opcode is None:
            raise FrameError(f"unexpected opcode {opcode:#x}")
        self._parts.append(payload)
        self._size += len(payload)
        if final:
            out.append((self._opcode, b"".join(self._parts)))
            self._opcode = None
            self._parts.clear()
            self._size = 0
