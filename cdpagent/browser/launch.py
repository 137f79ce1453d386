"""Starting or attaching to a browser: :func:`launch`, :func:`connect` and :func:`standard_extensions`.

``async with launch() as browser`` owns the browser process, the connection's
reader task and every tab: leaving the block, normally, on error or on
cancellation, closes the browser, reaps the process and removes its
temporary profile.
"""
from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from urllib.parse import urlsplit

import trio

from ..cdp.concurrency import collapse
from ..cdp.connection import Connection
from ..cdp.http1 import request
from ..cdp.launcher import BrowserProcess, process_plan
from ..cdp.target import Extension
from ..cdp.transport import PipeTransport, Transport, WebSocketTransport
from ..cdp.world import WorldExtension
from ..errors import CDPAgentError, ConnectionClosed, HttpFailure, LaunchError
from ..primitives.downloads import MAX_DOWNLOAD_BYTES, MAX_TOTAL_BYTES
from ..primitives.storage import StorageState, load_storage_state, read_storage_state
from ..primitives.uploads import upload_dirs
from ..runtime.pageapi import PageApi
from ..trace.recorder import recording
from ..webmcp.bridge import FLAG as WEBMCP_FLAG
from ..webmcp.bridge import WebMcp
from .tabs import Browser

__all__ = ["connect", "launch", "standard_extensions"]


@asynccontextmanager
async def _browser(
    transport_opener: Callable[[trio.Nursery], Awaitable[Transport]],
    extensions: Sequence[Extension],
    process: BrowserProcess | None,
    download_dir: Path | None = None,
    trace: str | os.PathLike[str] | None = None,
    download_caps: tuple[int, int] = (MAX_DOWNLOAD_BYTES, MAX_TOTAL_BYTES),
) -> AsyncIterator[Browser]:
    with collapse():
        async with _owned(transport_opener, extensions, process, download_dir, download_caps) as browser:
            with recording(browser, trace):
                yield browser


@asynccontextmanager
async def _owned(
    transport_opener: Callable[[trio.Nursery], Awaitable[Transport]],
    extensions: Sequence[Extension],
    process: BrowserProcess | None,
    download_dir: Path | None,
    download_caps: tuple[int, int],
) -> AsyncIterator[Browser]:
    async with trio.open_nursery() as nursery:
        transport = await transport_opener(nursery)
        connection = Connection(transport)
        nursery.start_soon(connection.run)
        browser = Browser(connection, nursery, extensions, process, download_dir, download_caps)
        try:
            try:
                await browser._start()
            except ConnectionClosed as exc:
                if process is None:
                    raise
                with trio.CancelScope(shield=True):
                    message = await process.exit_message()
                if process.process.returncode is None:
                    raise
                raise LaunchError(message) from exc
            yield browser
        finally:
            with trio.CancelScope(shield=True):
                if process is not None and not connection.closed.is_set():
                    with trio.move_on_after(5):
                        with suppress(CDPAgentError):
                            await browser.send("Browser.close")
                if process is not None:
                    await process.stop()
                await transport.aclose()
                connection.lost("the browser was closed")
            nursery.cancel_scope.cancel()


@asynccontextmanager
async def launch(
    *,
    executable: str | None = None,
    headless: bool = True,
    transport: str = "pipe",
    args: Sequence[str] = (),
    allow_origins: Sequence[str] = (),
    extensions: Sequence[Extension] | None = None,
    webmcp: bool = False,
    download_dir: str | os.PathLike[str] | None = None,
    user_data_dir: str | os.PathLike[str] | None = None,
    storage_state: str | os.PathLike[str] | StorageState | None = None,
    trace: str | os.PathLike[str] | None = None,
    allow_dirs: Sequence[str | os.PathLike[str]] = (),
    timeout: float = 30.0,
    max_download_bytes: int = MAX_DOWNLOAD_BYTES,
    max_downloads_total_bytes: int = MAX_TOTAL_BYTES,
) -> AsyncIterator[Browser]:
    """Start a browser and yield a connected :class:`Browser`.

    ``transport`` is ``"pipe"`` (default: no port is opened) or ``"websocket"``.
    ``allow_origins`` lists origins besides ``file:`` whose pages get the Page
    Agent API (for example a loopback dev server). ``webmcp`` turns on Chromium's
    WebMCP and the bridge that makes the tools pages register actions of the
    observation (:mod:`cdpagent.webmcp.bridge`). ``extensions`` replaces the standard ones
    (:func:`standard_extensions`) when given. Downloads are saved into
    ``download_dir`` (default: a folder beside the temporary profile, removed
    with it) and listed by :meth:`Browser.downloaded` (BR-4); one download over
    ``max_download_bytes`` (500 MB), or one that takes all of them past
    ``max_downloads_total_bytes`` (2 GB), is canceled, its partial file removed, and
    listed with the code ``DOWNLOAD_TOO_LARGE``. ``user_data_dir`` is a
    profile kept across runs (never removed); ``storage_state`` is a Playwright
    ``storageState`` file (or :class:`StorageState`) whose cookies and local storage
    the browser starts with; :meth:`Browser.storage_state` reads them back (BR-6).
    ``trace`` is a file that records every operation of the run, step by step
    (replaced if it exists; :mod:`cdpagent.trace.recorder`, ``cdpagent trace show``);
    :class:`OSError` when it cannot be written.
    ``allow_dirs`` are the directories ``Tab.act(..., files=…)`` may upload from
    (default none: every upload is refused, ``FILE_NOT_ALLOWED``).
    Raises :class:`~cdpagent.errors.BrowserNotFound` when no browser is found
    and :class:`~cdpagent.errors.LaunchError` when it exits during launch.
    """
    if transport not in ("pipe", "websocket"):
        raise ValueError(f"transport must be 'pipe' or 'websocket', not {transport!r}")
    caps = _download_caps(max_download_bytes, max_downloads_total_bytes)
    if extensions is None:
        extensions = standard_extensions(allow_origins, webmcp=webmcp)
    if webmcp:
        args = [*args, WEBMCP_FLAG]
    # Windows: always the websocket, whatever was asked (launcher.process_plan).
    pipe = process_plan(sys.platform, transport).transport == "pipe"
    state = storage_state
    if isinstance(state, (str, os.PathLike)):
        state = read_storage_state(state)
    process = await BrowserProcess.start(
        executable, headless=headless, pipe=pipe, extra_args=args, user_data_dir=user_data_dir
    )
    try:
        with collapse():
            async with trio.open_nursery() as outer:
                outer.start_soon(process.drain_stderr)

                async def open_transport(nursery: trio.Nursery) -> Transport:
                    if process.pipe_fds is not None:
                        return PipeTransport(*process.pipe_fds)
                    with trio.fail_after(timeout):
                        url = await process.wait_ws_url()
                    return await WebSocketTransport.open(url, nursery)

                downloads = Path(download_dir or Path(process.workdir) / "downloads")
                try:
                    opening = _browser(open_transport, extensions, process, downloads, trace, caps)
                    async with opening as browser:
                        browser.allow_dirs = upload_dirs(allow_dirs)
                        if state is not None:
                            await load_storage_state(browser, state, timeout=timeout)
                        yield browser
                finally:
                    outer.cancel_scope.cancel()
    finally:
        await process.stop()


@asynccontextmanager
async def connect(
    endpoint: str,
    *,
    allow_origins: Sequence[str] = (),
    extensions: Sequence[Extension] | None = None,
    webmcp: bool = False,
    download_dir: str | os.PathLike[str] | None = None,
    trace: str | os.PathLike[str] | None = None,
    allow_dirs: Sequence[str | os.PathLike[str]] = (),
    timeout: float = 30.0,
    max_download_bytes: int = MAX_DOWNLOAD_BYTES,
    max_downloads_total_bytes: int = MAX_TOTAL_BYTES,
) -> AsyncIterator[Browser]:
    """Attach to a running browser at ``endpoint`` and yield a :class:`Browser`.

    ``endpoint`` is a ``ws://…/devtools/browser/…`` url, or ``http://host:port``
    resolved through ``/json/version``. Leaving the block detaches; the browser
    keeps running. ``allow_origins``, ``webmcp`` and ``extensions`` are as for
    :func:`launch` (with ``webmcp`` the browser must have been started with
    ``--enable-features=WebMCP``). With ``download_dir`` this browser's downloads
    are saved there (a path on the browser's machine) and listed, bounded by
    ``max_download_bytes`` and ``max_downloads_total_bytes`` as for :func:`launch`; ``allow_dirs`` as for
    :func:`launch` (paths on the browser's machine too). ``trace`` is as for :func:`launch`.
    Raises :class:`ConnectionClosed` when the endpoint is not a reachable CDP
    endpoint.
    """
    if extensions is None:
        extensions = standard_extensions(allow_origins, webmcp=webmcp)
    caps = _download_caps(max_download_bytes, max_downloads_total_bytes)

    async def open_transport(nursery: trio.Nursery) -> Transport:
        with trio.move_on_after(timeout):
            url = endpoint
            if urlsplit(endpoint).scheme in ("http", "https"):
                # This block's deadline comes first and says what took too long.
                url = await _resolve_http(endpoint, timeout)
            return await WebSocketTransport.open(url, nursery)
        raise ConnectionClosed(f"{endpoint} did not accept a DevTools connection within {timeout} s")

    with collapse():
        where = Path(download_dir) if download_dir is not None else None
        async with _browser(open_transport, extensions, None, where, trace, caps) as browser:
            browser.allow_dirs = upload_dirs(allow_dirs)
            yield browser


def _download_caps(one: int, total: int) -> tuple[int, int]:
    """The download caps, checked: :class:`ValueError` unless both are positive whole numbers of bytes."""
    for name, value in (("max_download_bytes", one), ("max_downloads_total_bytes", total)):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ValueError(f"{name} must be a positive number of bytes, not {value!r}")
    return one, total


def standard_extensions(allow_origins: Sequence[str] = (), *, webmcp: bool = False) -> list[Extension]:
    """The extensions every browser gets unless told otherwise: the Page Agent API
    (for ``file:`` pages and ``allow_origins``), the observation collector with its
    action helpers, and with ``webmcp`` the WebMCP bridge."""
    extensions: list[Extension] = [PageApi(allow_origins), WorldExtension()]
    if webmcp:
        extensions.append(WebMcp())
    return extensions


#: Largest ``/json/version`` answer read; Chromium's is under 1 KiB.
_VERSION_MAX = 64 * 1024


async def _resolve_http(endpoint: str, timeout: float) -> str:
    """GET ``/json/version`` of ``endpoint`` and return its ``webSocketDebuggerUrl``.

    Raises :class:`ConnectionClosed` naming the endpoint and the cause: not an
    ``http://host:port`` url, nothing answers within ``timeout`` seconds, the answer
    is not HTTP, not 200, or not a JSON object with a ``ws://`` debugger url.
    """
    parts = urlsplit(endpoint)
    if parts.scheme != "http" or not parts.hostname:
        raise ConnectionClosed(f"{endpoint}: only http://host:port endpoints are supported")
    url = f"http://{parts.netloc}/json/version"
    try:
        answer = await request(
            url, headers=[("Accept", "application/json")], timeout=timeout, max_size=_VERSION_MAX
        )
    except HttpFailure as failure:
        raise ConnectionClosed(f"cannot resolve {endpoint} (GET /json/version): {failure.message}") from None
    failed = f"{endpoint} is not a CDP endpoint: GET /json/version"
    if answer.status != 200:
        raise ConnectionClosed(f"{failed} answered HTTP {answer.status}")
    try:
        found = json.loads(answer.body).get("webSocketDebuggerUrl")
    except (ValueError, AttributeError):
        raise ConnectionClosed(f"{failed} did not answer a JSON object") from None
    if not isinstance(found, str) or urlsplit(found).scheme not in ("ws", "wss"):
        raise ConnectionClosed(f"{failed} gave no ws:// webSocketDebuggerUrl ({found!r})")
    return found
