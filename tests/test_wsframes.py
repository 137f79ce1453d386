"""The websocket frame codec against wsproto's server side, an implementation we did not write."""

from __future__ import annotations

import itertools

import pytest
import wsproto
import wsproto.events as ev
from hypothesis import given, settings
from hypothesis import strategies as st

from cdpagent import FrameError
from cdpagent.cdp.wsframes import CLOSE, PING, PONG, TEXT, FrameReader, client_frame, close_reason


def server() -> tuple[wsproto.WSConnection, wsproto.WSConnection]:
    """A wsproto client/server pair past the handshake (the client side stays unused)."""
    client = wsproto.WSConnection(wsproto.ConnectionType.CLIENT)
    srv = wsproto.WSConnection(wsproto.ConnectionType.SERVER)
    srv.receive_data(client.send(ev.Request(host="localhost", target="/")))
    assert any(isinstance(e, ev.Request) for e in srv.events())
    client.receive_data(srv.send(ev.AcceptConnection()))
    list(client.events())
    return client, srv


def chunks(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    edges = [0, *points, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(edges)]


@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(st.text(max_size=300) | st.just("x" * 70_000), min_size=1, max_size=5),
    cuts=st.lists(st.integers(min_value=0, max_value=200_000), max_size=8),
)
def test_client_frames_are_read_by_wsproto(texts: list[str], cuts: list[int]) -> None:
    _, srv = server()
    wire = b"".join(client_frame(TEXT, t.encode()) for t in texts)
    received: list[str] = []
    for part in chunks(wire, cuts):
        srv.receive_data(part)
        for event in srv.events():
            assert isinstance(event, ev.TextMessage)
            received.append(event.data)
    assert "".join(received) == "".join(texts)


@settings(max_examples=60, deadline=None)
@given(
    messages=st.lists(
        st.tuples(st.text(max_size=200) | st.just("y" * 70_000), st.integers(min_value=1, max_value=4)),
        min_size=1,
        max_size=5,
    ),
    ping=st.binary(max_size=125),
    cuts=st.lists(st.integers(min_value=0, max_value=300_000), max_size=10),
)
def test_server_frames_fragments_and_pings_in_any_chunking(
    messages: list[tuple[str, int]], ping: bytes, cuts: list[int]
) -> None:
    _, srv = server()
    wire = b""
    for text, pieces in messages:
        step = max(1, len(text) // pieces)
        parts = [text[i : i + step] for i in range(0, len(text), step)] or [""]
        for i, part in enumerate(parts):
            wire += srv.send(ev.TextMessage(data=part, message_finished=i == len(parts) - 1))
            if i == 0:
                wire += srv.send(ev.Ping(payload=ping))  # a control frame between fragments
    reader = FrameReader(1 << 20)
    out: list[tuple[int, bytes]] = []
    for piece in chunks(wire, cuts):
        out.extend(reader.feed(piece))
    assert [p for op, p in out if op == TEXT] == [t.encode() for t, _ in messages]
    assert [p for op, p in out if op == PING] == [ping] * len(messages)


def test_close_and_size_limit_and_violations() -> None:
    _, srv = server()
    reader = FrameReader(100)
    [(opcode, payload)] = reader.feed(srv.send(ev.CloseConnection(code=1001, reason="going away")))
    assert opcode == CLOSE and close_reason(payload) == "going away"
    assert close_reason((1000).to_bytes(2, "big")) == "code 1000"
    with pytest.raises(FrameError, match="over 100 bytes"):
        FrameReader(100).feed(server()[1].send(ev.TextMessage(data="z" * 101))[:4])
    with pytest.raises(FrameError, match="masked"):
        FrameReader(100).feed(client_frame(TEXT, b"hi"))
    with pytest.raises(FrameError, match="unexpected opcode"):
        FrameReader(100).feed(bytes((0x80, 0x00)))  # a continuation with no message begun
    with pytest.raises(FrameError, match="control frame"):
        FrameReader(100).feed(bytes((0x09, 0x00)))  # a fragmented ping
    assert FrameReader(100).feed(bytes((0x8A, 0x00))) == [(PONG, b"")]
