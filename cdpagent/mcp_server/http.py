"""Serving the Agent Surface over streamable HTTP, on Trio, with hypercorn.

The SDK's own ``run("streamable-http")`` uses uvicorn, which is asyncio-only;
``streamable_http_app()`` is a plain ASGI app, and hypercorn's Trio worker
serves it on the event loop the CDP client already runs on.

Three guards, outermost first:

1. :func:`check_bind` — a non-loopback address is refused unless a token is set;
2. :class:`BearerToken` — with a token, every request must carry
   ``Authorization: Bearer <token>`` (401 otherwise; the scheme in any case);
3. the SDK's DNS-rebinding protection — ``Host`` must name the bound address,
   a loopback name or, with a token, a name given with ``--allow-host``, and a
   present ``Origin`` must be an origin of those names (421 / 403 otherwise),
   as the MCP specification requires of local servers.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Sequence
from typing import Any, Final

import trio
from hypercorn.config import Config
from hypercorn.trio import serve
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import BindRefused
from ..primitives.urlpolicy import is_loopback

__all__ = [
    "PATH",
    "BearerToken",
    "BindRefused",
    "SessionEnds",
    "check_allowed_hosts",
    "check_bind",
    "serve_http",
    "split_address",
]

PATH: Final = "/mcp"
_LOOPBACK_HOSTS: Final = ("127.0.0.1", "localhost", "[::1]")
_SESSION_HEADER: Final = b"mcp-session-id"


def split_address(address: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) → ``(host, port)``; raises :class:`BindRefused`."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise BindRefused(f"--http takes HOST:PORT (for example 127.0.0.1:8765), not {address!r}")
    return host.strip("[]"), int(port)


def check_bind(host: str, token: str | None) -> None:
    """Refuse (:class:`BindRefused`) to serve a non-loopback ``host`` without a bearer token."""
    if not is_loopback(host) and not token:
        raise BindRefused(
            f"refusing to serve on non-loopback address {host!r} without a token: "
            "pass --token or set CDPAGENT_MCP_TOKEN"
        )


class BearerToken:
    """ASGI middleware: HTTP requests without ``Authorization: Bearer <token>`` get 401.

    The scheme is case-insensitive (RFC 9110 §11.1); the token is compared in constant time.
    """

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._expected = token.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        scheme, _, given = dict(scope["headers"]).get(b"authorization", b"").strip().partition(b" ")
        if scheme.lower() == b"bearer" and hmac.compare_digest(given.strip(), self._expected):
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


class SessionEnds:
    """ASGI middleware: after a successful ``DELETE`` carrying ``Mcp-Session-Id``, call ``on_end(id)``."""

    def __init__(self, app: ASGIApp, on_end: Callable[[str], None]) -> None:
        self.app = app
        self.on_end = on_end

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "DELETE":
            await self.app(scope, receive, send)
            return
        session = dict(scope["headers"]).get(_SESSION_HEADER, b"").decode("latin-1")[:200]
        status = 0

        async def watch(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        await self.app(scope, receive, watch)
        if session and 200 <= status < 300:
            self.on_end(session)


def check_allowed_hosts(allow_hosts: Sequence[str], token: str | None) -> None:
    """Refuse (:class:`BindRefused`) ``--allow-host`` names without a token, or malformed ones."""
    if allow_hosts and not token:
        raise BindRefused("--allow-host needs a token: pass --token or set CDPAGENT_MCP_TOKEN")
    for name in allow_hosts:
        if not name or any(c in name for c in "/ *@[]") or name.count(":") == 1:
            raise BindRefused(f"--allow-host takes a host name or address without a port, not {name!r}")


def _security(host: str, allow_hosts: Sequence[str] = ()) -> TransportSecuritySettings:
    # With a token, the names the user gives (the machine's address or DNS name, for a
    # 0.0.0.0 bind) join the loopback ones; without one only loopback names pass.
    named = [f"[{h}]" if ":" in h else h for h in allow_hosts]
    hosts = {*_LOOPBACK_HOSTS, f"[{host}]" if ":" in host else host, *named}
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
    allow_hosts: Sequence[str] = (),
    on_session_end: Callable[[str], None] | None = None,
    task_status: trio.TaskStatus[str] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve ``server`` at ``http://host:port/mcp`` until cancelled; ``started`` gets that URL.

    ``allow_hosts`` are further ``Host`` names accepted (only with ``token``);
    ``on_session_end`` hears the id of every session a client ends (``DELETE``).
    Raises :class:`BindRefused` for a non-loopback ``host`` without ``token`` or
    ``allow_hosts`` without ``token``, and :class:`OSError` when the address
    cannot be bound.
    """
    check_bind(host, token)
    check_allowed_hosts(allow_hosts, token)
    security = _security(host, allow_hosts)
    app: ASGIApp = server.streamable_http_app(streamable_http_path=PATH, transport_security=security)
    if on_session_end is not None:
        app = SessionEnds(app, on_session_end)
    if token:
        app = BearerToken(app, token)
    config = Config()
    config.bind = [f"[{host}]:{port}" if ":" in host else f"{host}:{port}"]
    config.accesslog = None
    config.errorlog = None
    async with trio.open_nursery() as nursery:
        bound: list[str] = await nursery.start(serve, app, config)
        task_status.started(bound[0] + PATH)
