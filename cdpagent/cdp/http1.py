"""One HTTP/1.1 request per connection, through :mod:`h11`, bounded in time and size.

cdpagent speaks plain HTTP twice: to a browser's DevTools port (``GET
/json/version`` resolves ``connect("http://host:port")`` to its websocket url) and to
a Selenium Grid hub (:mod:`cdpagent.remote.webdriver`). Both go through :func:`request`, so
both send a well-formed HTTP/1.1 request (Chromium closes an HTTP/1.0 one without
answering) and read the answer whatever its framing (``Content-Length``, chunked, or
until close).

:class:`~cdpagent.errors.HttpFailure` never leaves cdpagent: each caller turns it into
the error of its own vocabulary (:class:`~cdpagent.errors.ConnectionClosed`,
:class:`~cdpagent.errors.GridError`), keeping its ``kind`` as the cause.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final
from urllib.parse import urlsplit

import h11
import msgspec
import trio

from ..errors import HttpFailure

__all__ = ["Answer", "request"]

_READ: Final = 1 << 16


class Answer(msgspec.Struct, frozen=True):
    """One HTTP answer: status code, ``Content-Type`` and body."""

    status: int
    content_type: str
    body: bytes


async def request(
    url: str,
    method: str = "GET",
    body: bytes | None = None,
    *,
    headers: Sequence[tuple[str, str]] = (),
    timeout: float,
    max_size: int,
) -> Answer:
    """Send ``method`` to ``url`` (``http://host[:port]/path``) and read the whole answer.

    ``body``, when given, is sent with its ``Content-Length`` (the caller names its
    ``Content-Type`` in ``headers``). The whole exchange, connecting included, ends
    within ``timeout`` seconds. Raises :class:`ValueError` for a url that is not
    ``http://host…``, and :class:`~cdpagent.errors.HttpFailure` when the exchange fails: ``unreachable``
    (connection refused, name unknown, connection broken), ``timeout``, ``not_http``,
    ``too_large`` (a body over ``max_size`` bytes) or ``closed`` (closed before the
    answer ended).
    """
    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        raise ValueError(f"{url!r} is not an http://host:port url")
    host, port = parts.hostname, parts.port or 80
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    all_headers = [("Host", parts.netloc), ("Connection", "close"), *headers]
    if body is not None:
        all_headers.append(("Content-Length", str(len(body))))
    client = h11.Connection(h11.CLIENT)
    data = client.send(h11.Request(method=method, target=target, headers=all_headers)) or b""
    if body is not None:
        data += client.send(h11.Data(data=body)) or b""
    data += client.send(h11.EndOfMessage()) or b""
    with trio.move_on_after(timeout):
        try:
            stream = await trio.open_tcp_stream(host, port)
        except OSError as exc:
            raise HttpFailure("unreachable", f"cannot reach {parts.netloc}: {exc}") from None
        async with stream:
            try:
                await stream.send_all(data)
                return await _read_answer(client, stream, max_size)
            except (OSError, trio.BrokenResourceError) as exc:
                raise HttpFailure("unreachable", f"the connection broke: {exc!r}") from None
            except h11.RemoteProtocolError as exc:
                raise HttpFailure("not_http", f"the answer is not HTTP: {exc}") from None
    raise HttpFailure("timeout", f"{method} {target} got no answer within {timeout} s")


async def _read_answer(client: h11.Connection, stream: trio.SocketStream, max_size: int) -> Answer:
    status = 0
    content_type = ""
    chunks: list[bytes] = []
    size = 0
    while True:
        event = client.next_event()
        if event is h11.NEED_DATA:
            client.receive_data(await stream.receive_some(_READ))
        elif isinstance(event, h11.Response):
            status = event.status_code
            content_type = dict(event.headers).get(b"content-type", b"").decode("latin-1")
        elif isinstance(event, h11.Data):
            size += len(event.data)
            if size > max_size:
                raise HttpFailure("too_large", f"the answer is larger than {max_size} bytes")
            chunks.append(bytes(event.data))
        elif isinstance(event, h11.EndOfMessage):
            return Answer(status, content_type, b"".join(chunks))
        elif isinstance(event, h11.ConnectionClosed):
            raise HttpFailure("closed", "the server closed the connection before answering")
