"""Serving the Agent Surface over streamable HTTP, on Trio, with hypercorn.

The SDK's own ``run("streamable-http")`` uses uvicorn, which is asyncio-only;
``streamable_http_app()`` is a plain ASGI app, and hypercorn's Trio worker
serves it on the event loop the CDP client already runs on.

Three guards, outermost first:

1. :func:`check_bind` — a non-loopback address is refused unless a token is set;
2. :class:`BearerToken` — with a token, every request must carry
   ``Authorization: Bearer <token>`` (401 otherwise);
3. the SDK's DNS-rebinding protection — ``Host`` must name the bound address
   and a present ``Origin`` must be a loopback origin (421 / 403 otherwise),
   as the MCP specification requires of local servers.
"""

from __future__ import annotations

import hmac
import ipaddress
from typing import Any, Final

import trio
from hypercorn.config import Config
from hypercorn.trio import serve
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp, Receive, Scope, Send

from ..errors import BindRefused

__all__ = ["PATH", "BearerToken", "BindRefused", "check_bind", "is_loopback", "serve_http", "split_address"]

PATH: Final = "/mcp"
_LOOPBACK_HOSTS: Final = ("127.0.0.1", "localhost", "[::1]")


def split_address(address: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) → ``(host, port)``; raises :class:`BindRefused`."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise BindRefused(f"--http takes HOST:PORT (for example 127.0.0.1:8765), not {address!r}")
    return host.strip("[]"), int(port)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 with or without brackets) is this machine only."""
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """Refuse (:class:`BindRefused`) to serve a non-loopback ``host`` without a bearer token."""
    if not is_loopback(host) and not token:
        raise BindRefused(
            f"refusing to serve on non-loopback address {host!r} without a token: "
            "pass --token or set CDPAGENT_MCP_TOKEN"
        )


class BearerToken:
    """ASGI middleware: HTTP requests without ``Authorization: Bearer <token>`` get 401."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope["headers"]).get(b"authorization", b"")
        if hmac.compare_digest(given, self._expected):
            await self.app(scope, receive, send)
            return
        body = b'{"error": "unauthorized: this server needs Authorization: Bearer <token>"}'
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"www-authenticate", b"Bearer"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _security(host: str) -> TransportSecuritySettings:
    hosts = {*_LOOPBACK_HOSTS, f"[{host}]" if ":" in host else host}
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{h}:*" for h in sorted(hosts)],
        allowed_origins=[f"{scheme}://{h}:*" for h in sorted(hosts) for scheme in ("http", "https")],
    )


async def serve_http(
    server: MCPServer[Any],
    host: str,
    port: int,
    *,
    token: str | None = None,
    task_status: trio.TaskStatus[str] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve ``server`` at ``http://host:port/mcp`` until cancelled; ``started`` gets that URL.

    Raises :class:`BindRefused` for a non-loopback ``host`` without ``token``, and
    :class:`OSError` when the address cannot be bound.
    """
    check_bind(host, token)
    app: ASGIApp = server.streamable_http_app(streamable_http_path=PATH, transport_security=_security(host))
    if token:
        app = BearerToken(app, token)
    config = Config()
    config.bind = [f"[{host}]:{port}" if ":" in host else f"{host}:{port}"]
    config.accesslog = None
    config.errorlog = None
    async with trio.open_nursery() as nursery:
        bound: list[str] = await nursery.start(serve, app, config)
        task_status.started(bound[0] + PATH)
