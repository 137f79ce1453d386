"""An HTTP transport whose every try ends by its deadline (SPEC CX-4).

httpx's timeouts bound each *phase* — connecting, and each read — so a server
that sends its headers and then one byte a second, or an event stream nobody
asked for, keeps a request alive for ever. :class:`DeadlineTransport` wraps the
real transport and reads the whole response (headers and body) inside one Trio
deadline per try; when it passes, the try raises ``httpx2.ReadTimeout``, which the
``openai`` SDK treats as any timeout (retry, then ``APITimeoutError``). A body
larger than ``max_bytes`` raises ``httpx2.ReadError`` (a dropped answer).

The response handed on is complete and in memory: the SDK reads no more from
the network after the deadline.
"""

from __future__ import annotations

from typing import Final

import httpx2
import openai
import trio

__all__ = ["MAX_REPLY_BYTES", "DeadlineTransport", "bounded_client"]

MAX_REPLY_BYTES: Final = 32 * 1024 * 1024
"""The largest answer read from the model server (a chat completion is far smaller)."""


class DeadlineTransport(httpx2.AsyncBaseTransport):
    """``inner`` (default: a fresh ``httpx2.AsyncHTTPTransport``) with each try bounded by ``timeout`` s."""

    def __init__(
        self,
        timeout: float,
        *,
        max_bytes: int = MAX_REPLY_BYTES,
        inner: httpx2.AsyncBaseTransport | None = None,
    ) -> None:
        self._timeout = timeout
        self._max_bytes = max_bytes
        self._inner = inner or httpx2.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        """Send ``request`` and read its whole answer before the try's deadline.

        Raises ``httpx2.ReadTimeout`` when the deadline passes (connect, headers or
        body), ``httpx2.ReadError`` when the body is larger than ``max_bytes``, and
        what the inner transport raises.
        """
        body = bytearray()
        with trio.move_on_after(self._timeout) as scope:
            response = await self._inner.handle_async_request(request)
            try:
                async for chunk in response.stream:  # type: ignore[union-attr]
                    body += chunk
                    if len(body) > self._max_bytes:
                        raise httpx2.ReadError(
                            f"the answer is larger than {self._max_bytes} bytes", request=request
                        )
            finally:
                await response.aclose()
        if scope.cancelled_caught:
            raise httpx2.ReadTimeout(f"no complete answer within {self._timeout} s", request=request)
        return httpx2.Response(
            response.status_code,
            headers=response.headers,
            content=bytes(body),
            request=request,
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        """Close the inner transport's connections."""
        await self._inner.aclose()


def bounded_client(timeout: float) -> httpx2.AsyncClient:
    """The ``openai`` SDK's default async HTTP client with every transport bounded per try.

    The SDK's defaults (connection limits, redirects, proxies from the
    environment) are kept: its client is built as usual and each of its
    transports, the direct one and the proxy mounts, is wrapped in place.
    """
    client: httpx2.AsyncClient = openai.DefaultAsyncHttpxClient(timeout=timeout)
    # httpx offers no public hook around a transport it built itself; wrapping keeps its choices.
    client._transport = DeadlineTransport(timeout, inner=client._transport)
    client._mounts = {
        pattern: None if inner is None else DeadlineTransport(timeout, inner=inner)
        for pattern, inner in client._mounts.items()
    }
    return client
